/* My hand: choosing cards by click or keyboard, the Hint button's plays, and playing
 * or passing with them. */

import { dom, myTurn, state, t } from "./page.js";
import { render, showNotice } from "./render.js";
import { send } from "./socket.js";

// --- hints ------------------------------------------------------------------------------

export function resetHints() {
  state.hints = null;
  state.hintSeq = null;
  state.hintIndex = -1;
}

export function askHint() {
  if (!myTurn()) {
    return;
  }
  if (state.hints && state.hintSeq === state.seq) {
    nextHint();
    return;
  }
  if (!state.hintPending && send({ type: "hint", ref: "hint-" + state.seq })) {
    state.hintPending = true;
  }
}

/** A `hints` message (docs/protocol.md): select the first of them. */
export function applyHints(message) {
  state.hintPending = false;
  if (message.game !== state.gameId || message.seq !== state.seq) {
    return; // the game moved on while the hint was computed
  }
  state.hints = message.plays;
  state.hintSeq = message.seq;
  state.hintIndex = -1;
  nextHint();
}

/** An error in reply to a hint: another may be asked. */
export function hintRefused() {
  state.hintPending = false;
}

function nextHint() {
  const hints = state.hints;
  if (!hints.length) {
    showNotice(t("no_hints"), "");
    return;
  }
  state.hintIndex = (state.hintIndex + 1) % hints.length;
  state.selected = new Set(hints[state.hintIndex]);
  render();
}

// --- selecting cards ---------------------------------------------------------------------

/** Forget selected cards that are no longer in my hand. */
export function pruneSelection() {
  const hand = state.game && state.game.hand ? new Set(state.game.hand) : new Set();
  for (const code of Array.from(state.selected)) {
    if (!hand.has(code)) {
      state.selected.delete(code);
    }
  }
}

function toggleCard(code) {
  if (state.selected.has(code)) {
    state.selected.delete(code);
  } else {
    state.selected.add(code);
  }
  render();
}

export function onHandClick(event) {
  const card = event.target.closest("button[data-card]");
  if (!card) {
    return;
  }
  state.focusCode = card.dataset.card;
  toggleCard(card.dataset.card);
}

export function onHandKey(event) {
  const cards = Array.from(dom.hand.querySelectorAll("button[data-card]"));
  const index = cards.indexOf(document.activeElement);
  if (index < 0) {
    return;
  }
  let next = null;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") {
    next = Math.min(cards.length - 1, index + 1);
  } else if (event.key === "ArrowLeft" || event.key === "ArrowUp") {
    next = Math.max(0, index - 1);
  } else if (event.key === "Home") {
    next = 0;
  } else if (event.key === "End") {
    next = cards.length - 1;
  }
  if (next === null) {
    return; // Enter and Space press the focused card's button (a click)
  }
  event.preventDefault();
  cards[index].tabIndex = -1;
  cards[next].tabIndex = 0;
  cards[next].focus();
  state.focusCode = cards[next].dataset.card;
}

// --- playing and passing ------------------------------------------------------------------

export function playSelected() {
  if (!myTurn()) {
    return;
  }
  if (!state.selected.size) {
    showNotice(t("none_selected"), "error");
    return;
  }
  const cards = state.game.hand.filter((code) => state.selected.has(code));
  send({ type: "play", cards, seq: state.seq, ref: "play-" + state.seq });
}

export function passTurn() {
  if (myTurn()) {
    state.selected.clear();
    send({ type: "pass", seq: state.seq, ref: "pass-" + state.seq });
    render();
  }
}
