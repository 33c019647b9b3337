/* The client's fold (static/js/table/protocol.js) against the Python engine: for games
 * recorded by games/engine/sample_games.py, every viewer and every recorded snapshot k,
 * folding the events after k onto snapshot k gives each later recorded snapshot, the
 * last one included, exactly (deep equality, every field of Game.view and the history).
 *
 *   FOLD_LOGS=test-artifacts/fold-logs.json node --test static/js/tests/
 *
 * (`make js-test` writes the logs and runs this.) The file's shape:
 *   {"games": [{"ruleset", "seed", "events": [public events 1..n],
 *               "viewers": [{"player": id or null, "snapshots": [{"k", "view"}]}]}]}
 * where each view is Game.view at k without its history (the history is events[0:k]).
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { isDeepStrictEqual } from "node:util";

import { fold, foldSteps, settlementOf, tableActs } from "../table/protocol.js";

function loadLogs() {
  const path = process.env.FOLD_LOGS;
  assert.ok(path, "set FOLD_LOGS to the logs of `python -m games.engine.sample_games --out PATH`");
  const logs = JSON.parse(readFileSync(path, "utf8"));
  assert.ok(Array.isArray(logs.games) && logs.games.length > 0, path + " holds no games");
  return logs;
}

const withHistory = (view, events, k) => ({ ...view, history: events.slice(0, k) });

/**
 * Every comparison of the property for one folding function (foldSteps' signature):
 * the number made and the ones that failed (where, and the keys that differ), stopping
 * after ``enough`` failures.
 */
function check(logs, steps, enough = Infinity) {
  let comparisons = 0;
  const failures = [];
  const compare = (actual, expected, where) => {
    comparisons += 1;
    if (!isDeepStrictEqual(actual, expected)) {
      const keys = new Set([...Object.keys(actual || {}), ...Object.keys(expected || {})]);
      const differs = [...keys].filter((key) =>
        !isDeepStrictEqual(actual && actual[key], expected && expected[key]));
      failures.push({ where, differs, actual, expected });
    }
  };
  for (const game of logs.games) {
    const events = game.events;
    for (const viewer of game.viewers) {
      if (failures.length >= enough) {
        return { comparisons, failures };
      }
      const byK = new Map(viewer.snapshots.map((snapshot) => [snapshot.k, snapshot.view]));
      const last = byK.get(events.length);
      assert.ok(last, `${game.ruleset} seed ${game.seed}: no snapshot at the last event`);
      for (const { k, view } of viewer.snapshots) {
        const where = `${game.ruleset} seed ${game.seed}, viewer ${viewer.player}, from k=${k}`;
        const start = withHistory(view, events, k);
        try {
          let seq = k;
          let state = start;
          for (state of steps(start, events.slice(k), viewer.player)) {
            seq += 1;
            if (byK.has(seq)) {
              compare(state, withHistory(byK.get(seq), events, seq), `${where} to k=${seq}`);
            }
          }
          compare(state, withHistory(last, events, events.length), `${where} to the end`);
        } catch (error) {
          failures.push({ where, error });
        }
      }
    }
  }
  return { comparisons, failures };
}

function report(failures) {
  return failures.slice(0, 3).map((failure) => failure.error
    ? `${failure.where}: ${failure.error.stack}`
    : `${failure.where}: ${failure.differs.join(", ")} differ\n`
      + failure.differs.map((key) => `  ${key}: got ${JSON.stringify(failure.actual[key])}, `
        + `want ${JSON.stringify(failure.expected[key])}`).join("\n")).join("\n");
}

test("folding the events onto any snapshot gives every later snapshot", () => {
  const logs = loadLogs();
  const { comparisons, failures } = check(logs, foldSteps);
  const snapshots = logs.games.reduce((sum, game) =>
    sum + game.viewers.reduce((count, viewer) => count + viewer.snapshots.length, 0), 0);
  console.log(`fold: ${logs.games.length} games, ${snapshots} snapshots, `
    + `${comparisons} comparisons, ${failures.length} failures`);
  assert.equal(failures.length, 0, report(failures));
  assert.ok(comparisons >= snapshots, `only ${comparisons} comparisons`);
});

test("the logs hold every kind of event, a swap and a 接风", () => {
  // Else the check above would pass without ever folding them (more seeds: --seeds).
  const events = loadLogs().games.flatMap((game) => game.events);
  const kinds = new Set(events.map((event) => event.type));
  for (const kind of ["deal", "reveal", "swap", "first_lead", "play", "pass", "out", "trick",
    "timeout", "trustee", "escape", "end", "settled"]) {
    assert.ok(kinds.has(kind), `no ${kind} event in the logs`);
  }
  assert.ok(events.some((event) => event.type === "trick" && event.leader !== event.winner),
    "no 接风 (a trick won by a seat that went out) in the logs");
  const escapes = new Set(events.filter((event) => event.type === "escape")
    .map((event) => event.mode));
  assert.deepEqual([...escapes].sort(), ["auto_play", "end_game"]);
});

test("fold gives the same view as its steps, and leaves its input alone", () => {
  const logs = loadLogs();
  for (const game of logs.games) {
    const events = game.events;
    for (const viewer of game.viewers) {
      const first = viewer.snapshots[0];
      const start = withHistory(first.view, events, first.k);
      const before = structuredClone(start);
      const last = viewer.snapshots.at(-1);
      assert.deepEqual(fold(start, events.slice(first.k)),
        withHistory(last.view, events, last.k));
      assert.deepEqual(start, before);
    }
  }
});

test("from the deal alone, the fold knows all but a seat's hand", () => {
  // A page that saw the deal event but not yet its seat's snapshot.
  const logs = loadLogs();
  for (const game of logs.games) {
    const events = game.events;
    for (const viewer of game.viewers) {
      const last = viewer.snapshots.find((snapshot) => snapshot.k === events.length);
      const want = withHistory(last.view, events, events.length);
      assert.deepEqual(fold(null, events, viewer.player), { ...want, hand: null });
    }
  }
});

test("the plays on the table: this trick's, else the last one's until the next action", () => {
  // As the page kept them event by event before the fold: a trick event marks the acts
  // on the table stale; the next play or pass clears them.
  for (const game of loadLogs().games) {
    let acts = {};
    let stale = false;
    let step = 0;
    for (const view of foldSteps(null, game.events, null)) {
      const event = game.events[step];
      step += 1;
      if (event.type === "play" || event.type === "pass") {
        if (stale) {
          acts = {};
          stale = false;
        }
        acts[event.seat] = event.type === "play"
          ? { seat: event.seat, action: "play", cards: event.cards, reading: event.reading,
            by: event.by }
          : { seat: event.seat, action: "pass", by: event.by };
      } else if (event.type === "trick") {
        stale = true;
      }
      const shown = tableActs(view);
      const where = `${game.ruleset} seed ${game.seed} at ${event.seq}`;
      assert.deepEqual(shown.acts, acts, where);
      if (Object.keys(acts).length) {
        assert.equal(shown.stale, stale, where);
      }
    }
    const { seq, type, ...settled } = game.events.at(-1);
    assert.equal(type, "settled", `the last event, seq ${seq}`);
    assert.deepEqual(settlementOf(fold(null, game.events, null)), settled);
    assert.ok(Array.isArray(settled.points) && Array.isArray(settled.coins));
  }
});

test("a wrong fold fails the check (the check is not vacuous)", () => {
  const logs = loadLogs();
  function* dropping(key, view, events, user) {
    for (const state of foldSteps(view, events, user)) {
      const { [key]: _dropped, ...rest } = state;
      yield rest;
    }
  }
  function* staleTurn(view, events, user) {
    // The turn as the last event left it, never the next seat with cards.
    for (const state of foldSteps(view, events, user)) {
      yield { ...state, turn: state.history.at(-1).type === "pass" ? state.turn + 1 : state.turn };
    }
  }
  const wrong = {
    "leader dropped": (...args) => dropping("leader", ...args),
    "history dropped": (...args) => dropping("history", ...args),
    "turn not moved on after a pass": staleTurn,
    "timeouts ignored": (view, events, user) =>
      foldSteps(view, events.map((event) => event.type === "timeout"
        ? { seq: event.seq, type: "settled" } : event), user),
  };
  for (const [name, steps] of Object.entries(wrong)) {
    const { comparisons, failures } = check(logs, steps, 1);
    assert.ok(comparisons > 0 && failures.length > 0, `${name}: not caught`);
  }
});
