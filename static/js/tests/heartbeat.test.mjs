/* The page's answer to a heartbeat (static/js/table/sync.js, docs/protocol.md
 * "heartbeat"): a heartbeat ahead of the page asks for a snapshot over the socket; one
 * level with it, or about an older game, asks for nothing. Runs sync.js itself, with
 * stand-ins for the browser's document, location and WebSocket.
 *
 *   node --test static/js/tests/
 */

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

class FakeSocket {
  static OPEN = 1;
  static last = null;
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.OPEN;
    this.sent = [];
    this.listeners = {};
    FakeSocket.last = this;
  }
  addEventListener(kind, listener) {
    this.listeners[kind] = listener;
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
}

globalThis.window = globalThis;
globalThis.document = { getElementById: () => null, activeElement: null };
globalThis.location = { protocol: "http:", host: "test" };
globalThis.WebSocket = FakeSocket;

const { connect } = await import("../table/socket.js");
const { state } = await import("../table/page.js");
const { receive } = await import("../table/sync.js");
const { heartbeatAhead } = await import("../table/protocol.js");

connect("/ws/table/1/", { onMessage: () => {}, onStatus: () => {} });
const socket = FakeSocket.last;

beforeEach(() => {
  socket.sent.length = 0;
  state.gameId = 7;
  state.seq = 12;
  state.snapshotAskedAt = 0;
  state.heardBeat = null;
});

test("a page still short of the previous heartbeat's seq a period later asks for a snapshot", () => {
  receive({ type: "heartbeat", game: 7, seq: 15 });
  assert.deepEqual(socket.sent, []); // events may still be on their way
  receive({ type: "heartbeat", game: 7, seq: 15 });
  assert.deepEqual(socket.sent, [{ type: "snapshot" }]);
});

test("a heartbeat that overtook events the page then receives asks for nothing", () => {
  receive({ type: "heartbeat", game: 7, seq: 15 });
  state.seq = 15; // the events arrived within the period
  receive({ type: "heartbeat", game: 7, seq: 18 });
  assert.deepEqual(socket.sent, []);
});

test("a page still without the previous heartbeat's later game asks for a snapshot", () => {
  receive({ type: "heartbeat", game: 8, seq: 1 });
  assert.deepEqual(socket.sent, []);
  receive({ type: "heartbeat", game: 8, seq: 3 });
  assert.deepEqual(socket.sent, [{ type: "snapshot" }]);
});

test("a heartbeat level with the page asks for nothing", () => {
  receive({ type: "heartbeat", game: 7, seq: 12 });
  receive({ type: "heartbeat", game: 7, seq: 12 });
  assert.deepEqual(socket.sent, []);
});

test("a heartbeat read before the page's newer events asks for nothing", () => {
  receive({ type: "heartbeat", game: 7, seq: 10 });
  receive({ type: "heartbeat", game: 6, seq: 40 });
  receive({ type: "heartbeat", game: 7, seq: 11 });
  assert.deepEqual(socket.sent, []);
});

test("heartbeatAhead: a table that never dealt is never ahead; a page without a game is behind any", () => {
  assert.equal(heartbeatAhead({ game: null, seq: 0 }, null, 0), false);
  assert.equal(heartbeatAhead({ game: 3, seq: 1 }, null, 0), true);
});
