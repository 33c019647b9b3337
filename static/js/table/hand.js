/* My hand: choosing cards by click, tap, a drag or swipe across several (pointer
 * events), or the keyboard; reordering it (the sort modes of ./sorting.js, a drag in
 * "manual" mode, Shift+arrow keys); the Hint button's plays; playing and passing. */

import { handOrder, layoutHand } from "./handview.js";
import { dom, myTurn, state, t } from "./page.js";
import { savePref } from "./prefs.js";
import { render, showNotice } from "./render.js";
import { send } from "./socket.js";
import { SORT_MODES, moveCardTo, moveCards } from "./sorting.js";

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

/**
 * A click on a card: Enter or Space on the focused card (a pointer's clicks are
 * handled by the pointer events below, which already toggled the card).
 */
export function onHandClick(event) {
  const card = event.target.closest("button[data-card]");
  if (!card) {
    return;
  }
  if (state.pointerHandled) {
    state.pointerHandled = false;
    return;
  }
  state.focusCode = card.dataset.card;
  toggleCard(card.dataset.card);
}

// A drag in progress: the card it started on, the cards as they were, and whether the
// drag selects (the first card was not selected) or deselects.
let drag = null;

function cardAt(x, y) {
  const target = document.elementFromPoint(x, y);
  const card = target ? target.closest("#hand button[data-card]") : null;
  return card;
}

function onPointerDown(event) {
  if (event.button !== 0) {
    return;
  }
  const card = event.target.closest("button[data-card]");
  if (!card) {
    return;
  }
  const cards = Array.from(dom.hand.querySelectorAll("button[data-card]"));
  drag = {
    pointer: event.pointerId,
    start: cards.indexOf(card),
    code: card.dataset.card,
    codes: cards.map((item) => item.dataset.card),
    before: new Set(state.selected),
    selecting: !state.selected.has(card.dataset.card),
    // My own order: a drag moves the card instead (a press still selects it).
    reorder: state.sortMode === "manual",
    moved: false,
    last: cards.indexOf(card),
  };
  state.focusCode = card.dataset.card;
  // Touch: keep the swipe on the hand (no scrolling) while it selects.
  if (card.releasePointerCapture && card.hasPointerCapture(event.pointerId)) {
    card.releasePointerCapture(event.pointerId);
  }
  applyDrag(drag.start);
}

/** Select (or deselect) every card between the drag's first card and ``index``. */
function applyDrag(index) {
  drag.last = index;
  if (drag.reorder) {
    if (index !== drag.start) {
      state.manualOrder = moveCardTo(drag.codes, drag.code, index);
      render();
    }
    return;
  }
  const low = Math.min(drag.start, index);
  const high = Math.max(drag.start, index);
  state.selected = new Set(drag.before);
  for (let at = low; at <= high; at += 1) {
    if (drag.selecting) {
      state.selected.add(drag.codes[at]);
    } else {
      state.selected.delete(drag.codes[at]);
    }
  }
  render();
}

/** Where a dragged card would go: the place among the hand's cards nearest to ``x``. */
function nearestIndex(x) {
  const cards = Array.from(dom.hand.querySelectorAll("button[data-card]"));
  let best = drag.last;
  let distance = Infinity;
  cards.forEach((card, index) => {
    const box = card.getBoundingClientRect();
    const gap = Math.abs(box.left + 12 - x);
    if (gap < distance) {
      distance = gap;
      best = index;
    }
  });
  return best;
}

function onPointerMove(event) {
  if (!drag || event.pointerId !== drag.pointer) {
    return;
  }
  const card = cardAt(event.clientX, event.clientY);
  if (!card) {
    return;
  }
  // While reordering the cards move under the pointer: place by the cards as they were.
  const index = drag.reorder ? nearestIndex(event.clientX) : drag.codes.indexOf(card.dataset.card);
  if (index >= 0 && index !== drag.last) {
    drag.moved = true;
    applyDrag(index);
  }
}

function onPointerUp(event) {
  if (!drag || event.pointerId !== drag.pointer) {
    return;
  }
  const done = drag;
  drag = null;
  state.pointerHandled = true; // the click that follows is this pointer's
  window.setTimeout(() => {
    state.pointerHandled = false;
  }, 0);
  if (done.reorder && !done.moved) {
    toggleCard(done.code); // a press without a drag: select it
  }
}

function onPointerCancel() {
  drag = null;
}

/** The pointer's ways to choose cards: a press, a drag or swipe across several. */
export function setupPointer() {
  dom.hand.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerCancel);
}

// --- the hand's order ------------------------------------------------------------------------

export function setSortMode(mode) {
  if (!SORT_MODES.includes(mode)) {
    return;
  }
  if (mode === "manual" && state.sortMode !== "manual") {
    state.manualOrder = handOrder() || []; // start from what I see
  }
  state.sortMode = mode;
  savePref("sort", mode);
  render();
}

export function onSortClick(event) {
  const button = event.target.closest("[data-sort]");
  if (button) {
    setSortMode(button.dataset.sort);
  }
}

/** The sort choice is a radio group: the arrow keys move along it. */
export function onSortKey(event) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step) {
    return;
  }
  event.preventDefault();
  const index = (SORT_MODES.indexOf(state.sortMode) + step + SORT_MODES.length) % SORT_MODES.length;
  setSortMode(SORT_MODES[index]);
  dom.sortChoice.querySelector('[data-sort="' + SORT_MODES[index] + '"]').focus();
}

/** Shift+arrow: move the focused card (and the selected ones with it) along the hand. */
function moveFocused(code, step) {
  const order = handOrder() || [];
  const moving = new Set(state.selected.has(code) ? state.selected : [code]);
  if (state.sortMode !== "manual") {
    state.sortMode = "manual";
    savePref("sort", "manual");
  }
  state.manualOrder = moveCards(order, moving, step);
  render();
  const card = dom.hand.querySelector('button[data-card="' + code + '"]');
  if (card) {
    card.focus();
  }
}

export function onHandKey(event) {
  const cards = Array.from(dom.hand.querySelectorAll("button[data-card]"));
  const index = cards.indexOf(document.activeElement);
  if (index < 0) {
    return;
  }
  if (event.shiftKey && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
    event.preventDefault();
    moveFocused(cards[index].dataset.card, event.key === "ArrowLeft" ? -1 : 1);
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

export function onResize() {
  layoutHand();
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
