/* 记牌器 (static/js/table/counter.js) against the games recorded by
 * games/engine/sample_games.py (`make js-test` writes FOLD_LOGS): for every viewer and
 * every recorded view, and for the views the fold reaches from it, the unseen count of
 * each rank equals the one this test works out from the same events in its own way
 * (the full decks card by card, less the viewer's hand and the played cards), and the
 * unseen cards are exactly the cards the other seats still hold. */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { COUNTER_RANKS, unseenCounts } from "../table/counter.js";
import { foldSteps } from "../table/protocol.js";

const logs = JSON.parse(readFileSync(process.env.FOLD_LOGS, "utf8"));
const withHistory = (view, events, k) => ({ ...view, history: events.slice(0, k) });

/** The unseen count worked out another way: every card of the decks, named. */
function expectedUnseen(events, k, hand) {
  const unseen = new Set();
  for (let copy = 0; copy < 2; copy += 1) {
    for (const rank of "3456789TJQKA2") {
      for (const suit of "SHCD") {
        unseen.add(rank + suit + copy);
      }
    }
    unseen.add("SJ" + copy);
    unseen.add("BJ" + copy);
  }
  for (const code of hand || []) {
    assert.ok(unseen.delete(code), "a card of the hand is in the decks once: " + code);
  }
  for (const event of events.slice(0, k)) {
    for (const code of event.type === "play" ? event.cards : []) {
      assert.ok(unseen.delete(code), "a played card is in the decks once: " + code);
    }
  }
  const counts = Object.fromEntries(COUNTER_RANKS.map((rank) => [rank, 0]));
  for (const code of unseen) {
    const match = /^(SJ|BJ|[2-9TJQKA])/.exec(code);
    counts[match[1]] += 1;
  }
  return counts;
}

/** The cards in the other seats' hands, and those never dealt (tcy deals 54 of 108). */
function othersHold(view, events) {
  const dealt = events[0].hand_counts.reduce((sum, count) => sum + count, 0);
  return 108 - dealt + view.hand_counts.reduce((sum, count, seat) =>
    sum + (seat === view.seat ? 0 : count), 0);
}

test("the counter matches the decks less the viewer's hand and every card played", () => {
  let checked = 0;
  for (const game of logs.games) {
    const events = game.events;
    for (const viewer of game.viewers) {
      for (const { k, view } of viewer.snapshots) {
        const start = withHistory(view, events, k);
        const counts = unseenCounts(start);
        assert.deepEqual(counts, expectedUnseen(events, k, view.hand),
          `${game.ruleset} seed ${game.seed} viewer ${viewer.player} at k=${k}`);
        const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
        assert.equal(total, othersHold(view, events), "the unseen cards are the others' hands");
        assert.ok(Object.values(counts).every((count) => count >= 0));
        checked += 1;
      }
    }
  }
  assert.ok(checked > 50, "checked " + checked + " views");
});

test("the counter moves with the fold, event by event, for a seated viewer", () => {
  let steps = 0;
  for (const game of logs.games) {
    const events = game.events;
    const viewer = game.viewers.find((item) => item.player !== null);
    const first = viewer.snapshots[0];
    const start = withHistory(first.view, events, first.k);
    let seq = first.k;
    for (const view of foldSteps(start, events.slice(first.k), viewer.player)) {
      seq += 1;
      const counts = unseenCounts(view);
      const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
      assert.equal(total, othersHold(view, events), `${game.ruleset} seed ${game.seed} at ${seq}`);
      steps += 1;
    }
  }
  assert.ok(steps > 100);
});

test("two decks less my hand and the plays; nothing before a deal", () => {
  assert.equal(unseenCounts(null), null);
  const deal = { type: "deal", seq: 1, hand_counts: [27, 27, 27, 27] };
  const counts = unseenCounts({ hand: ["BJ0", "BJ1", "3S0"], history: [deal,
    { type: "play", seq: 2, seat: 1, cards: ["SJ0", "3S1"] }] });
  assert.equal(counts.BJ, 0);
  assert.equal(counts.SJ, 1);
  assert.equal(counts["3"], 6);
  assert.equal(counts.A, 8);
});
