/* Drawing my hand: its cards in the chosen order (./sorting.js), pattern groups set
 * apart, the selection, one tab stop, and the fan's overlap that fits the hand's width
 * (one row, or two on a phone held upright). */

import { cardFace } from "./faces.js";
import { dom, state, t } from "./page.js";
import { patternGroups, sortHand } from "./sorting.js";

/** My hand's cards in their order: the sort mode's, or my own. */
export function handOrder() {
  const game = state.game;
  const hand = game && game.hand && game.status !== "ended" ? game.hand : null;
  return hand === null ? null : sortHand(hand, state.sortMode, state.manualOrder);
}

export function renderHand() {
  const hand = handOrder();
  dom.handArea.hidden = hand === null;
  const key = hand ? state.sortMode + ":" + hand.join(",") : "";
  const rebuilt = key !== state.handKey;
  const hadFocus = dom.hand.contains(document.activeElement);
  if (rebuilt) {
    state.handKey = key;
    const starts = new Set();
    if (hand && state.sortMode === "pattern") {
      for (const group of patternGroups(hand)) {
        starts.add(group.codes[0]);
      }
    }
    dom.hand.replaceChildren(...(hand || []).map((code, index) => {
      const face = cardFace(code, true);
      if (index > 0 && starts.has(code)) {
        face.classList.add("group-start");
      }
      return face;
    }));
    layoutHand();
  }
  // One tab stop for the whole hand (roving tabindex): the card last clicked or
  // moved to, else the first; the arrow keys move between cards.
  const cards = Array.from(dom.hand.children);
  const focus = cards.find((card) => card.dataset.card === state.focusCode) || cards[0];
  for (const card of cards) {
    card.tabIndex = card === focus ? 0 : -1;
    card.setAttribute("aria-pressed", state.selected.has(card.dataset.card) ? "true" : "false");
  }
  if (rebuilt && hadFocus && focus) {
    focus.focus();
  }
  let info = state.selected.size ? t("selected", { count: state.selected.size }) : "";
  if (state.hints && state.hintIndex >= 0 && state.hints.length) {
    info = t("hint", { index: state.hintIndex + 1, count: state.hints.length }) + " · " + info;
  }
  dom.selectionInfo.textContent = info;
  for (const button of dom.sortChoice.querySelectorAll("[data-sort]")) {
    button.setAttribute("aria-checked", button.dataset.sort === state.sortMode ? "true" : "false");
    button.tabIndex = button.dataset.sort === state.sortMode ? 0 : -1;
  }
}

/**
 * Fan the hand across its width: the overlap that fits every card in one row, or, when
 * the cards would be too thin to pick (a phone held upright), in two rows.
 */
export function layoutHand() {
  const cards = dom.hand.children;
  const count = cards.length;
  if (!count || dom.handArea.hidden) {
    return;
  }
  const style = window.getComputedStyle(dom.hand);
  // Pattern groups stand 8px apart (static/css/table.css, .group-start).
  const gaps = dom.hand.querySelectorAll(".group-start").length * 8;
  // The row's room: the hand less its padding (the left one is 0.5rem plus the overlap
  // that the first card of a row takes back).
  const base = parseFloat(window.getComputedStyle(document.documentElement).fontSize) * 0.5;
  const width = dom.hand.clientWidth - parseFloat(style.paddingRight) - base - 2 - gaps;
  const card = cards[0].getBoundingClientRect().width;
  const widest = card * 0.62;
  const thinnest = card * 0.34;
  let step = count > 1 ? (width - card) / (count - 1) : widest;
  if (step < thinnest && count > 1) {
    const perRow = Math.ceil(count / 2);
    step = perRow > 1 ? (width - card) / (perRow - 1) : widest;
  }
  step = Math.max(8, Math.min(widest, step));
  dom.hand.style.setProperty("--overlap", (card - step).toFixed(2) + "px");
}

