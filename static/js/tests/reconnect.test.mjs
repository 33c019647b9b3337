// The table page's reconnect delays (static/js/table/socket.js): growing, bounded, and
// spread so that the pages a restarted server dropped do not all return at once.
import assert from "node:assert/strict";
import { test } from "node:test";

const { reconnectDelay } = await import("../table/socket.js");

test("the ceiling doubles from half a second and stops at ten", () => {
  const ceilings = [0, 1, 2, 3, 4, 5, 6, 10].map((retry) => reconnectDelay(retry, 1));
  assert.deepEqual(ceilings, [500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
});

test("each delay is drawn between half the ceiling and all of it", () => {
  assert.equal(reconnectDelay(0, 0), 250);
  assert.equal(reconnectDelay(3, 0), 2000);
  assert.equal(reconnectDelay(3, 0.5), 3000);
  for (let retry = 0; retry < 8; retry += 1) {
    const ceiling = Math.min(10000, 500 * 2 ** retry);
    const delay = reconnectDelay(retry);
    assert.ok(delay >= ceiling / 2 && delay <= ceiling, `${retry}: ${delay}`);
  }
});

test("pages dropped together come back spread out", () => {
  const delays = new Set(Array.from({ length: 50 }, (_, index) => reconnectDelay(2, index / 50)));
  assert.equal(delays.size, 50);
});
