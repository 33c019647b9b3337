/* The order of my hand: by rank (the default), by pattern (bombs first, then chains,
 * then the rest, RULES §4), or the player's own order (manual: cards moved by drag or
 * by key). The page remembers the choice (./prefs.js).
 *
 * Pure: no DOM; card codes are parsed by static/js/cards.js's rules, repeated here so
 * that Node can test this (static/js/tests/sorting.test.mjs). */

import { rankOfCode } from "./counter.js";

export const SORT_MODES = ["rank", "pattern", "manual"];

// Rank order low → high (RULES §1); chains run over 3…A only (RULES §4).
const ORDER = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ"];
const CHAIN_RANKS = ORDER.slice(0, 12);
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
const JOKERS = new Set(["SJ", "BJ"]);

function suitOf(code) {
  const body = code.slice(0, -1);
  return JOKERS.has(body) ? "" : body.slice(-1);
}

/** By rank: high ranks first (大王 on the left), then ♠ ♥ ♣ ♦, then deck copy. */
export function byRank(a, b) {
  const x = ORDER.indexOf(rankOfCode(a));
  const y = ORDER.indexOf(rankOfCode(b));
  if (x !== y) {
    return y - x;
  }
  const suits = (SUIT_ORDER[suitOf(a)] ?? 0) - (SUIT_ORDER[suitOf(b)] ?? 0);
  return suits || Number(a.slice(-1)) - Number(b.slice(-1));
}

/**
 * The hand in groups by pattern: [{kind, codes}] with kind "bomb" (the jokers when
 * three or more, then 4+ of a rank, most cards first), "chain" (the longest runs left:
 * 连三张 of 3+ ranks, 连对 of 3+, 顺子 of 5+) and "single" ranks for the rest, high first.
 * Jokers are not counted as wild here: a grouping to read, not a play.
 */
export function patternGroups(codes) {
  const byRankCodes = new Map();
  for (const code of codes.slice().sort(byRank)) {
    const rank = rankOfCode(code);
    if (!byRankCodes.has(rank)) {
      byRankCodes.set(rank, []);
    }
    byRankCodes.get(rank).push(code);
  }
  const take = (rank, count) => byRankCodes.get(rank).splice(0, count);
  const left = (rank) => (byRankCodes.get(rank) || []).length;
  const groups = [];

  const jokers = left("SJ") + left("BJ");
  if (jokers >= 3) {
    groups.push({ kind: "bomb", codes: take("BJ", left("BJ")).concat(take("SJ", left("SJ"))) });
  }
  const bombRanks = ORDER.filter((rank) => !JOKERS.has(rank) && left(rank) >= 4)
    .sort((x, y) => left(y) - left(x) || ORDER.indexOf(y) - ORDER.indexOf(x));
  for (const rank of bombRanks) {
    groups.push({ kind: "bomb", codes: take(rank, left(rank)) });
  }

  // Chains, longest first, over what the bombs left.
  for (const [width, shortest] of [[3, 3], [2, 3], [1, 5]]) {
    for (;;) {
      let best = null;
      let start = 0;
      for (let index = 0; index <= CHAIN_RANKS.length; index += 1) {
        const ok = index < CHAIN_RANKS.length && left(CHAIN_RANKS[index]) >= width;
        if (!ok) {
          const length = index - start;
          if (length >= shortest && (!best || length > best.length)) {
            best = { start, length };
          }
          start = index + 1;
        }
      }
      if (!best) {
        break;
      }
      const ranks = CHAIN_RANKS.slice(best.start, best.start + best.length).reverse();
      groups.push({ kind: "chain", codes: ranks.flatMap((rank) => take(rank, width)) });
    }
  }

  for (const rank of ORDER.slice().reverse()) {
    if (left(rank)) {
      groups.push({ kind: "single", codes: take(rank, left(rank)) });
    }
  }
  return groups;
}

/**
 * The hand ``codes`` in the order of ``mode``. In "manual" mode ``manual`` is the
 * player's order: cards it does not hold yet come after it, by rank.
 */
export function sortHand(codes, mode, manual) {
  if (mode === "pattern") {
    return patternGroups(codes).flatMap((group) => group.codes);
  }
  if (mode === "manual" && manual && manual.length) {
    const held = new Set(codes);
    const kept = manual.filter((code) => held.has(code));
    const placed = new Set(kept);
    return kept.concat(codes.filter((code) => !placed.has(code)).sort(byRank));
  }
  return codes.slice().sort(byRank);
}

/** ``order`` with the cards of ``moving`` moved one place left (-1) or right (+1). */
export function moveCards(order, moving, step) {
  const result = order.slice();
  const indices = result.map((code, index) => (moving.has(code) ? index : -1))
    .filter((index) => index >= 0);
  if (step > 0) {
    indices.reverse();
  }
  for (const index of indices) {
    const target = index + step;
    if (target < 0 || target >= result.length || moving.has(result[target])) {
      continue; // at the edge, or blocked by another moving card already there
    }
    [result[index], result[target]] = [result[target], result[index]];
  }
  return result;
}

/** ``order`` with ``code`` taken out and put at ``index`` (a drag in the hand). */
export function moveCardTo(order, code, index) {
  const result = order.filter((item) => item !== code);
  result.splice(Math.max(0, Math.min(index, result.length)), 0, code);
  return result;
}
