/* 记牌器, the card counter: for each rank, how many cards the viewer has not seen yet —
 * two decks (every rule set deals from two, RULES §1; in `tcy` some stay undealt), less
 * the viewer's own hand, less every card played so far. From public information only:
 * the `play` events of the history and the viewer's own hand (null for a spectator).
 *
 * Pure: no DOM, no globals. The page (./render.js) and the Node tests
 * (static/js/tests/counter.test.mjs) import the same code. */

/** Ranks from low to high, jokers last (RULES §1). */
export const COUNTER_RANKS = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2",
  "SJ", "BJ"];
const DECKS = 2;
const SUITS = 4;

/** The rank of a card code ("TH0" → "T", "BJ1" → "BJ"). */
export function rankOfCode(code) {
  const body = code.slice(0, -1);
  return body === "SJ" || body === "BJ" ? body : body.slice(0, -1);
}

/**
 * The unseen cards of each rank for the viewer of ``view`` (the fold's view, with its
 * history): an object keyed by COUNTER_RANKS, or null before a deal.
 */
export function unseenCounts(view) {
  const deal = view && view.history ? view.history.find((event) => event.type === "deal") : null;
  if (!deal) {
    return null;
  }
  const counts = {};
  for (const rank of COUNTER_RANKS) {
    counts[rank] = rank === "SJ" || rank === "BJ" ? DECKS : DECKS * SUITS;
  }
  const seen = (code) => {
    counts[rankOfCode(code)] -= 1;
  };
  for (const code of view.hand || []) {
    seen(code);
  }
  for (const event of view.history) {
    if (event.type === "play") {
      event.cards.forEach(seen);
    }
  }
  return counts;
}
