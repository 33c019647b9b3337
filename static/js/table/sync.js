/* The server's messages into the state (docs/protocol.md, "Sequence numbers and
 * resync"): a snapshot replaces the game; an `events` message is folded onto it
 * (./protocol.js) when it follows on, and otherwise asks for a snapshot; so does a
 * heartbeat showing the table ahead of the page. */

import { showChat } from "./chat.js";
import { isBomb, trusteeReason } from "./facts.js";
import { applyHints, hintRefused, pruneSelection, resetHints } from "./hand.js";
import { config, mySeatAtTable, rememberNames, seatName, state, t } from "./page.js";
import { noteSeatChange, refreshPrivatePanel } from "./private.js";
import { FoldError, fold, heartbeatAhead } from "./protocol.js";
import { announceBomb, clearNotice, render, showNotice } from "./render.js";
import { send } from "./socket.js";
import { playSound } from "./sound.js";

const HAND_CHECK_MS = 2000;

export function receive(message) {
  switch (message.type) {
    case "snapshot":
      applySnapshot(message);
      break;
    case "events":
      applyEvents(message);
      break;
    case "table": {
      const wasSeated = Boolean(mySeatAtTable());
      state.table = message.table;
      noteSeatChange(wasSeated, Boolean(mySeatAtTable()));
      rememberNames(message.table);
      if (message.wallet) {
        state.wallet = message.wallet; // mine alone (docs/protocol.md, "table")
      }
      render();
      break;
    }
    case "chat":
      showChat(message);
      break;
    case "wallet":
      // My coins: at the deal (the stake frozen) and after the settlement.
      state.wallet = { balance: message.balance, frozen: message.frozen };
      render();
      break;
    case "hints":
      applyHints(message);
      break;
    case "heartbeat": {
      // The table's game and seq, sent by the socket itself: the channel layer may have
      // lost events without leaving a gap this page could see. A heartbeat may overtake
      // events still on their way, so the page compares itself with the previous one:
      // a whole period later, a page still short of that reading lost some.
      const previous = state.heardBeat;
      state.heardBeat = message;
      if (previous && heartbeatAhead(previous, state.gameId, state.seq)) {
        askSnapshot();
      }
      break;
    }
    case "error":
      showNotice(message.message, "error");
      if (message.ref && String(message.ref).startsWith("hint")) {
        hintRefused();
      }
      if (message.code === "stale") {
        askSnapshot();
      }
      break;
    default:
      break;
  }
}

function askSnapshot() {
  // One request in flight is enough: every snapshot replaces the whole state.
  const now = Date.now();
  if (now - state.snapshotAskedAt < 1000) {
    return;
  }
  state.snapshotAskedAt = now;
  send({ type: "snapshot" });
}

function applySnapshot(message) {
  state.snapshotAskedAt = 0;
  const wasSeated = Boolean(mySeatAtTable());
  state.table = message.table;
  noteSeatChange(wasSeated, Boolean(mySeatAtTable()));
  if (message.wallet) {
    state.wallet = message.wallet;
  }
  rememberNames(message.table);
  const snapshot = message.game;
  if (snapshot && snapshot.id === state.gameId && message.seq < state.seq) {
    render(); // older than what the events already showed: keep the newer state
    return;
  }
  if (!snapshot) {
    state.game = null;
    state.gameId = null;
    state.seq = 0;
    state.settlement = null;
  } else {
    // The platform's fields beside the view; the view itself is Game.view's shape.
    const { id, settlement, deadline, ...view } = snapshot;
    state.gameId = id;
    state.seq = message.seq;
    state.game = view;
    state.settlement = settlement || null;
    // The snapshot carries the turn's deadline (docs/protocol.md, "snapshot").
    state.deadline = deadline ? Date.parse(deadline) : null;
  }
  pruneSelection();
  resetHints();
  render();
}

function applyEvents(message) {
  if (message.game !== state.gameId) {
    if (!message.events.length || message.events[0].type !== "deal") {
      askSnapshot(); // the tail of a game this page never started
      return;
    }
    state.gameId = message.game;
    state.seq = 0;
    state.game = null;
    state.settlement = null;
    state.selected.clear();
    state.manualOrder = []; // a new hand: my own order starts over from its ranks
  }
  const fresh = message.events.filter((event) => event.seq > state.seq);
  if (!fresh.length) {
    return; // a snapshot overtook these
  }
  if (fresh[0].seq !== state.seq + 1 || (state.game === null && fresh[0].type !== "deal")) {
    askSnapshot(); // a gap
    return;
  }
  let game;
  try {
    game = fold(state.game, fresh, config.user);
  } catch (error) {
    if (!(error instanceof FoldError)) {
      throw error;
    }
    askSnapshot(); // events that do not follow on from this page's game
    return;
  }
  state.game = game;
  state.seq = message.seq;
  if (game.seq !== message.seq || game.turn !== message.turn) {
    askSnapshot(); // the fold and the server disagree: the server is right
  }
  state.deadline = message.deadline ? Date.parse(message.deadline) : null;
  // Sounds and banners only for what is news: not for a burst that replays a game.
  const news = fresh.length <= 4;
  for (const event of fresh) {
    announce(event, news);
  }
  pruneSelection();
  resetHints();
  render();
}

/** The notices, sounds and banners some events bring (after the fold: seats are the
 * game's seats now). */
function announce(event, news) {
  const game = state.game;
  switch (event.type) {
    case "play":
      if (news && isBomb(event.reading)) {
        announceBomb(event);
      } else if (news) {
        playSound("play");
      }
      break;
    case "pass":
      if (news) {
        playSound("pass");
      }
      break;
    case "deal":
      showNotice(t("new_game"), "");
      if (game.seat !== null) {
        // My hand comes in a snapshot sent to my seat; ask if it does not come.
        const gameId = state.gameId;
        window.setTimeout(() => {
          if (state.gameId === gameId && state.game && state.game.hand === null) {
            askSnapshot();
          }
        }, HAND_CHECK_MS);
      }
      break;
    case "timeout":
      if (event.seat === game.seat) {
        showNotice(t("timeout_warning", { count: event.count }), "warning");
      }
      break;
    case "trustee":
      // Why 托管 came on (RULES §10). Mine: the standing notice says why and how to
      // take it back (render.js), by hand or not; when it goes off, that it did.
      if (event.seat === game.seat) {
        if (event.on) {
          clearNotice();
        } else if (news) {
          showNotice(t("trustee_off_mine"), "");
        }
      } else if (event.on && event.reason !== "player") {
        const reason = t("reason_" + (trusteeReason(game, event.seat) || event.reason));
        showNotice(t("trustee_notice_other", { name: seatName(event.seat), reason }), "");
      }
      break;
    case "escape":
      if (event.seat === game.seat) {
        state.standing = true; // leaving was mine: a seat lost to it is no removal
      }
      showNotice(t("escape_notice", { name: seatName(event.seat) }), "warning");
      break;
    case "end":
      showNotice(t("game_over"), "");
      break;
    case "settled":
      refreshPrivatePanel(); // the series score
      break;
    default:
      break;
  }
}
