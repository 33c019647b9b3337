/* The table page's settings, strings and elements, and the client's state: what the
 * other modules share. The page (templates/games/table.html) provides the elements, a
 * JSON block of settings (#table-config) and two of translated strings: the server's
 * (#table-strings, placeholders %(name)s) and the page's own (#table-ui-strings,
 * placeholders {name}).
 *
 * state.game is the game as the fold keeps it (./protocol.js): the shape of the
 * server's Game.view. The snapshot's platform fields sit beside it: gameId,
 * settlement, deadline. */

import { dealOf, settlementOf } from "./protocol.js";
import { makeReadings } from "./readings.js";

const json = (id) => {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
};

export const page = document.getElementById("table-page");
export const config = json("table-config") || {};
const STRINGS = { ...(json("table-strings") || {}), ...(json("table-ui-strings") || {}) };

export const el = (id) => document.getElementById(id);
export const dom = {
  felt: el("felt"),
  trick: el("trick"),
  roomInfo: el("room-info"),
  bombBanner: el("bomb-banner"),
  soundToggle: el("sound-toggle"),
  counterToggle: el("counter-toggle"),
  counterPanel: el("counter-panel"),
  counterCaption: el("counter-caption"),
  counterRanks: el("counter-ranks"),
  chatPicker: el("chat-picker"),
  chatPhrases: el("chat-phrases"),
  chatMutes: el("chat-mutes"),
  sortChoice: el("sort-choice"),
  tableStatus: el("table-status"),
  connection: el("connection-status"),
  turnInfo: el("turn-info"),
  revealInfo: el("reveal-info"),
  swapInfo: el("swap-info"),
  notice: el("notice"),
  handArea: el("hand-area"),
  hand: el("hand"),
  selectionInfo: el("selection-info"),
  gameControls: el("game-controls"),
  play: el("play-button"),
  pass: el("pass-button"),
  hint: el("hint-button"),
  trustee: el("trustee-toggle"),
  leave: el("leave-button"),
  readyForm: el("ready-form"),
  ready: el("ready-button"),
  standForm: el("stand-form"),
  stand: el("stand-button"),
  sit: el("sit-button"),
  result: el("result-panel"),
  resultSummary: el("result-summary"),
  resultFormula: el("result-formula"),
  resultRows: el("result-rows"),
  resultBombs: el("result-bombs"),
  resultFee: el("result-fee"),
  resultSettlement: el("result-settlement"),
  leaveDialog: el("leave-dialog"),
  leaveConfirm: el("leave-confirm"),
  leaveCancel: el("leave-cancel"),
};

export const state = {
  connection: "connecting",
  table: config.table_state,
  names: {},
  gameId: null,
  seq: 0,
  game: null, // the fold's view of the game (./protocol.js), or null
  settlement: null, // the snapshot's; the game's settled event says the same
  deadline: config.deadline ? Date.parse(config.deadline) : null,
  wallet: config.wallet || null,
  selected: new Set(),
  sortMode: "rank", // ./sorting.js's modes, remembered (./prefs.js)
  manualOrder: [], // my own order of the hand, in "manual" mode
  counterOpen: false,
  focusCode: null,
  handKey: "",
  hints: null,
  hintSeq: null,
  hintIndex: -1,
  hintPending: false,
  snapshotAskedAt: 0,
  heardBeat: null, // the last heartbeat (sync.js)
  noticeTimer: null, // while news is on show (render.js's showNotice)
  bombTimer: null, // the bomb banner's
  pointerHandled: false, // a pointer already toggled the card its click is for
  wasMyTurn: false, // for the "your turn" sound, once per turn
  tickSecond: null, // the countdown's last ticked second
  viewedGame: null, // the game the page last scrolled into view
  standing: false, // I asked to stand up (./private.js)
  lostSeat: false, // my seat went without my asking (./private.js)
};

// --- text ------------------------------------------------------------------------

export function t(key, params) {
  const text = Object.prototype.hasOwnProperty.call(STRINGS, key) ? STRINGS[key] : key;
  const fill = (whole, name) =>
    params && params[name] !== undefined ? String(params[name]) : whole;
  return text.replace(/%\((\w+)\)[sd]/g, fill).replace(/\{(\w+)\}/g, fill);
}

/** The wildcards of the game on the table (its deal's rules), else the room's. */
function wildcards() {
  const deal = dealOf(state.game);
  return (deal && deal.rules ? deal.rules.wildcards : null) || config.wildcards || [];
}

export const { cardLabel, rankName, readingText } = makeReadings(t, wildcards);

export function rememberNames(table) {
  for (const seat of table.seats) {
    if (seat.user !== null) {
      state.names[seat.user] = seat.name;
    }
  }
}

export function nameOf(userId) {
  if (userId === config.user) {
    return t("you");
  }
  return state.names[userId] || "#" + userId;
}

export function seatName(seat) {
  const game = state.game;
  if (game && game.players[seat] !== undefined) {
    return nameOf(game.players[seat]);
  }
  const tableSeat = state.table.seats[seat];
  return tableSeat && tableSeat.user !== null ? nameOf(tableSeat.user) : t("empty_seat");
}

/** The game's settlement: the snapshot's, else its settled event's. */
export function settlement() {
  return state.settlement || settlementOf(state.game);
}

// --- my seat and my turn -------------------------------------------------------------

export function mySeatAtTable() {
  const seat = state.table.seats.find((item) => item.user === config.user);
  return seat || null;
}

export function viewSeat() {
  const game = state.game;
  if (game && game.seat !== null && game.status !== "ended") {
    return game.seat;
  }
  const seat = mySeatAtTable();
  return seat ? seat.index : 0;
}

export function gameRunning() {
  const game = state.game;
  return Boolean(game && (game.status === "playing" || game.status === "dealt"));
}

export function playingHere() {
  return gameRunning() && state.game.seat !== null;
}

export function myTurn() {
  const game = state.game;
  return playingHere() && game.status === "playing" && game.turn === game.seat
    && !game.escaped.includes(game.seat) && game.hand !== null;
}
