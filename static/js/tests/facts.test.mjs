/* Bombs, 托管 reasons and the result report read from a game's events
 * (static/js/table/facts.js), on the games recorded by games/engine/sample_games.py. */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  bombsOf, countdownUrgent, levelMultiplierOf, normalBombKind, reportOf, reportSeat,
  trusteeReason,
} from "../table/facts.js";
import { fold } from "../table/protocol.js";

const logs = JSON.parse(readFileSync(process.env.FOLD_LOGS, "utf8"));

test("every bomb played is listed once, in order, with its stars and seat", () => {
  let bombs = 0;
  for (const game of logs.games) {
    const view = fold(null, game.events, null);
    const expected = game.events.filter((event) => event.type === "play"
      && ["bomb", "chain_bomb", "joker_bomb"].includes(event.reading.type));
    const listed = bombsOf(view);
    assert.deepEqual(listed.map((bomb) => [bomb.seq, bomb.seat, bomb.stars]),
      expected.map((event) => [event.seq, event.seat, event.reading.stars]));
    assert.ok(listed.every((bomb) => bomb.stars >= 4 && bomb.kind === "bomb"
      || bomb.kind !== "bomb"));
    bombs += listed.length;
  }
  assert.ok(bombs > 0, "the recorded games have bombs");
});

test("托管's reason is the last trustee event's that turned it on, across a swap", () => {
  const deal = { type: "deal", seq: 1 };
  const history = [deal, { type: "swap", seq: 2, seats: [1, 2] },
    { type: "trustee", seq: 3, seat: 2, on: true, reason: "timeouts" },
    { type: "trustee", seq: 4, seat: 0, on: true, reason: "disconnect" },
    { type: "trustee", seq: 5, seat: 0, on: false, reason: "player" }];
  const view = { trustee: [false, false, true, false], history };
  assert.equal(trusteeReason(view, 2), "timeouts");
  assert.equal(trusteeReason(view, 0), null, "not in 托管 now");
  view.trustee[0] = true;
  view.history = history.concat([{ type: "trustee", seq: 6, seat: 0, on: true, reason: "disconnect" }]);
  assert.equal(trusteeReason(view, 0), "disconnect");
  for (const game of logs.games) {
    const folded = fold(null, game.events, null);
    folded.trustee.forEach((on, seat) => {
      const reason = trusteeReason(folded, seat);
      assert.equal(reason !== null, on);
      if (on) {
        assert.ok(["player", "timeouts", "escape", "disconnect"].includes(reason), reason);
      }
    });
  }
});

test("a report's seats, listed by field or as seat objects, read the same", () => {
  const byField = { kou: "double", bombs: [], contribution: [1, -1], base: [4, -4],
    total: [5, -5], points: [5, -5], coins: [0, 0], fee: [0, 0], left: [[], ["3S0"]] };
  const bySeat = { report: { kou: "double", seats: [
    { seat: 0, contribution: 1, base: 4, total: 5, points: 5, coins: 0, fee: 0, left: [] },
    { seat: 1, contribution: -1, base: -4, total: -5, points: -5, coins: 0, fee: 0, left: ["3S0"] },
  ] } };
  assert.equal(reportOf({ points: [0], coins: [0] }), null, "no report yet");
  for (const seat of [0, 1]) {
    assert.deepEqual(reportSeat(reportOf(byField), seat), reportSeat(reportOf(bySeat), seat));
  }
  assert.deepEqual(reportSeat(reportOf(byField), 1).left, ["3S0"]);
  assert.equal(reportSeat(null, 0).fee, null);
  assert.equal(normalBombKind("joker_bomb", ["SJ0", "SJ1", "BJ0", "BJ1"]), "four_kings");
  assert.equal(normalBombKind("joker_bomb", ["SJ0", "BJ0", "BJ1"], 3), "three_kings");
  assert.equal(normalBombKind("joker_bomb", [], 4), "four_kings");
  assert.equal(normalBombKind("chain_bomb", []), "chain");
  assert.equal(normalBombKind("three_kings", []), "three_kings");
});

test("a countdown is urgent in a person's last five seconds, never a bot's", () => {
  assert.equal(countdownUrgent(5, false), true);
  assert.equal(countdownUrgent(6, false), false);
  assert.equal(countdownUrgent(1, true), false, "a bot's or 托管 seat's short timer");
  assert.equal(countdownUrgent(0, true), false);
});

test("classic's level multiplier is the running game's deal's, else the table's", () => {
  const deal = { seq: 1, type: "deal", players: [1, 2, 3, 4], hand_counts: [27, 27, 27, 27],
    rules: { name: "classic", wildcards: [] }, points: [2500, 9000, 150, 70000],
    level_multiplier: 3 };
  const running = { status: "playing", history: [deal] };
  const ended = { status: "ended", history: [deal] };
  assert.equal(levelMultiplierOf(running, { level_multiplier: 5 }), 3);
  assert.equal(levelMultiplierOf(ended, { level_multiplier: 5 }), 5);
  assert.equal(levelMultiplierOf(null, { level_multiplier: 2 }), 2);
  // Another rule set: neither the deal nor the table says one.
  const qq = { status: "playing", history: [{ ...deal, level_multiplier: undefined }] };
  assert.equal(levelMultiplierOf(qq, { seats: [] }), null);
});
