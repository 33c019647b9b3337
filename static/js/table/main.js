/* The playing table: the socket client of docs/protocol.md, card selection,
 * rendering and the turn countdown. ES modules, no framework, no build step:
 *
 *   main.js      this: wiring the page's buttons and forms, then connecting
 *   page.js      the page's settings, strings, elements and the client's state
 *   protocol.js  the fold of a game's events into Game.view's shape (pure: Node tests it)
 *   sync.js      snapshots and events messages into the state, resync on a gap
 *   socket.js    the WebSocket and its reconnecting
 *   hand.js      selecting cards (mouse, keyboard), hints, play and pass
 *   render.js    drawing the table from the state
 *   readings.js  card labels, hand order and readings in the reader's words
 *
 * The page (templates/games/table.html) loads static/js/cards.js first (card faces,
 * shared with the replay), then this module.
 * Stable hooks for tests: #seat-N[data-seat], button[data-card="5S0"],
 * #play-button, #pass-button, #hint-button, #trustee-toggle, #ready-button,
 * #stand-button, #sit-button, #leave-button, #leave-dialog, #result-panel,
 * #table-page[data-seq][data-my-turn][data-connection], .seat-play[data-action].
 */

import { askHint, onHandClick, onHandKey, passTurn, playSelected } from "./hand.js";
import { config, dom, el, mySeatAtTable, page, playingHere, rememberNames, state, t } from "./page.js";
import { render, renderTimers } from "./render.js";
import { connect, send } from "./socket.js";
import { receive } from "./sync.js";

function setConnection(status, key) {
  state.connection = status;
  page.dataset.connection = status;
  dom.connection.textContent = t(key);
  render();
}

function toggleTrustee() {
  const game = state.game;
  if (playingHere()) {
    send({ type: "trustee", on: !game.trustee[game.seat] });
  }
}

function onReadySubmit(event) {
  const seat = mySeatAtTable();
  if (seat && send({ type: "ready", ready: !seat.ready })) {
    event.preventDefault(); // else the form posts: the page works without the socket
  }
}

function onStandSubmit(event) {
  if (send({ type: "stand" })) {
    event.preventDefault();
  }
}

function openLeaveDialog() {
  if (typeof dom.leaveDialog.showModal === "function") {
    dom.leaveDialog.showModal();
  } else if (window.confirm(el("leave-text").textContent)) {
    send({ type: "leave" });
  }
}

function start() {
  rememberNames(state.table);
  dom.hand.addEventListener("click", onHandClick);
  dom.hand.addEventListener("keydown", onHandKey);
  dom.play.addEventListener("click", playSelected);
  dom.pass.addEventListener("click", passTurn);
  dom.hint.addEventListener("click", askHint);
  dom.trustee.addEventListener("click", toggleTrustee);
  dom.leave.addEventListener("click", openLeaveDialog);
  dom.leaveCancel.addEventListener("click", () => dom.leaveDialog.close());
  dom.leaveConfirm.addEventListener("click", () => {
    send({ type: "leave" });
    dom.leaveDialog.close();
  });
  if (dom.readyForm) {
    dom.readyForm.addEventListener("submit", onReadySubmit);
  }
  if (dom.standForm) {
    dom.standForm.addEventListener("submit", onStandSubmit);
  }
  dom.sit.addEventListener("click", () => send({ type: "sit" }));
  dom.resultReady.addEventListener("click", () => send({ type: "ready", ready: true }));
  window.setInterval(renderTimers, 250);
  render();
  connect(config.socket, { onMessage: receive, onStatus: setConnection });
}

if (page) {
  start();
}
