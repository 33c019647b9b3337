/* The playing table: the socket client of docs/protocol.md, card selection,
 * rendering and the turn countdown. ES modules, no framework, no build step:
 *
 *   main.js      this: wiring the page's buttons and forms, then connecting
 *   page.js      the page's settings, strings, elements and the client's state
 *   protocol.js  the fold of a game's events into Game.view's shape (pure: Node tests it)
 *   sync.js      snapshots and events messages into the state, resync on a gap
 *   socket.js    the WebSocket and its reconnecting
 *   hand.js      selecting cards (pointer drag, keyboard), the hand's order, hints, play, pass
 *   render.js    drawing the table from the state
 *   handview.js  drawing my hand: its order, the selection, the fan's overlap
 *   faces.js     card faces, rows of cards and bombs' star badges in the page's words
 *   result.js    the result panel
 *   readings.js  card labels, hand order and readings in the reader's words
 *   counter.js   记牌器: the unseen cards by rank (pure: Node tests it)
 *   sorting.js   the hand's orders: by rank, by pattern, my own (pure)
 *   facts.js     bombs, 托管 reasons and the result report read from events (pure)
 *   chat.js      quick chat: the picker, the bubbles by the seats, muting
 *   sound.js     the sounds (Web Audio, synthesized) and the mute switch
 *   room.js      the room's terms and my balance
 *   private.js   a private table's panel, reloaded as its seats and series change
 *   prefs.js     choices remembered in localStorage, per user
 *
 * The page (templates/games/table.html) loads static/js/cards.js first (card faces,
 * shared with the replay), then this module.
 * Stable hooks for tests: #seat-N[data-seat], button[data-card="5S0"],
 * #play-button, #pass-button, #hint-button, #trustee-toggle, #ready-button,
 * #stand-button, #sit-button, #leave-button, #leave-dialog, #result-panel,
 * #table-page[data-seq][data-my-turn][data-connection][data-chat-heard],
 * #play-N.seat-play[data-action], #counter-ranks li[data-rank][data-count],
 * #sort-choice [data-sort], #sound-toggle, #chat-picker .chat-phrase[data-phrase],
 * .seat-chat[data-phrase], .trustee-badge[data-reason], #result-bombs
 * li[data-seat][data-stars], #result-rows td.left-cards, #room-info[data-balance][data-frozen].
 */

import { setupChat } from "./chat.js";
import {
  askHint, onHandClick, onHandKey, onResize, onSortClick, onSortKey, passTurn, playSelected,
  setupPointer,
} from "./hand.js";
import { config, dom, el, mySeatAtTable, page, playingHere, rememberNames, state, t } from "./page.js";
import { loadPref, savePref } from "./prefs.js";
import { keepFeltAboveDock, render, renderTimers, showNotice } from "./render.js";
import { connect, send } from "./socket.js";
import { SORT_MODES } from "./sorting.js";
import { setupSound } from "./sound.js";
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
  state.standing = true; // my own choice: no "removed" notice (./private.js)
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

function toggleCounter() {
  state.counterOpen = !state.counterOpen;
  savePref("counter", state.counterOpen);
  render();
  keepFeltAboveDock(); // an open 记牌器 pushes the felt down, toward the dock
}

function start() {
  rememberNames(state.table);
  const sort = loadPref("sort", "rank");
  state.sortMode = SORT_MODES.includes(sort) ? sort : "rank";
  state.counterOpen = Boolean(loadPref("counter", false));
  setupSound();
  setupChat();
  setupPointer();
  dom.hand.addEventListener("click", onHandClick);
  dom.hand.addEventListener("keydown", onHandKey);
  dom.sortChoice.addEventListener("click", onSortClick);
  dom.sortChoice.addEventListener("keydown", onSortKey);
  dom.counterToggle.addEventListener("click", toggleCounter);
  window.addEventListener("resize", onResize);
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
  document.addEventListener("private-panel", (event) => {
    showNotice(event.detail.notice, "warning");
    render();
  });
  window.setInterval(renderTimers, 250);
  render();
  connect(config.socket, { onMessage: receive, onStatus: setConnection });
}

if (page) {
  start();
}
