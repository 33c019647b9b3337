/* The hand's orders (static/js/table/sorting.js). */

import assert from "node:assert/strict";
import { test } from "node:test";

import { byRank, moveCardTo, moveCards, patternGroups, sortHand } from "../table/sorting.js";

const HAND = ["3S0", "BJ0", "7H0", "4C0", "7S0", "5D0", "7C1", "6H0", "SJ1", "7D0", "BJ1",
  "8S0", "9S0", "KH0", "KS1", "2D0"];

test("by rank: jokers on the left, then 2, A … 3; suits ♠ ♥ ♣ ♦ within a rank", () => {
  assert.deepEqual(sortHand(HAND, "rank").slice(0, 6), ["BJ0", "BJ1", "SJ1", "2D0", "KS1", "KH0"]);
  assert.deepEqual(["7D0", "7S0", "7C1", "7H0"].sort(byRank), ["7S0", "7H0", "7C1", "7D0"]);
  assert.equal(sortHand(HAND, "rank").at(-1), "3S0");
});

test("by pattern: the jokers' bomb, then four 7s, then the rest high to low", () => {
  const groups = patternGroups(HAND);
  // Then one group a rank: 2 K 9 8 6 5 4 3.
  assert.deepEqual(groups.map((group) => group.kind), ["bomb", "bomb"].concat(
    new Array(8).fill("single")));
  assert.deepEqual(groups[0].codes, ["BJ0", "BJ1", "SJ1"]);
  assert.deepEqual(groups[1].codes.map((code) => code[0]), ["7", "7", "7", "7"]);
  // 3 4 5 6 and 8 9 (the 7s went to the bomb) are too short for a straight.
  assert.ok(!groups.some((group) => group.kind === "chain"));
  assert.deepEqual(groups[2].codes, ["2D0"]);
  const flat = sortHand(HAND, "pattern");
  assert.deepEqual(flat.slice().sort(), HAND.slice().sort(), "every card once");
});

test("by pattern: a straight of five, and pairs in a row before singles", () => {
  const hand = ["3S0", "4S0", "5S0", "6S0", "7S0", "9H0", "9H1", "TH0", "TD0", "JS0", "JS1", "2S0"];
  const groups = patternGroups(hand);
  assert.deepEqual(groups.map((group) => group.kind), ["chain", "chain", "single"]);
  assert.deepEqual(groups[0].codes, ["JS0", "JS1", "TH0", "TD0", "9H0", "9H1"]);
  assert.deepEqual(groups[1].codes, ["7S0", "6S0", "5S0", "4S0", "3S0"]);
});

test("manual: the player's order, new cards after it; moves left and right", () => {
  const order = ["3S0", "KH0", "BJ0"];
  assert.deepEqual(sortHand(["BJ0", "3S0", "KH0", "2D0"], "manual", order),
    ["3S0", "KH0", "BJ0", "2D0"]);
  assert.deepEqual(moveCards(order, new Set(["BJ0"]), -1), ["3S0", "BJ0", "KH0"]);
  assert.deepEqual(moveCards(order, new Set(["3S0"]), -1), order, "the left edge stops it");
  assert.deepEqual(moveCards(order, new Set(["3S0", "KH0"]), 1), ["BJ0", "3S0", "KH0"]);
  assert.deepEqual(moveCardTo(order, "BJ0", 0), ["BJ0", "3S0", "KH0"]);
});
