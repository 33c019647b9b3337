/* Cards and badges as the table draws them: a card face (static/js/cards.js) named in
 * the page's words, a row of faces, and a bomb's star badge. */

import { cardLabel, t } from "./page.js";
import { sortHand } from "./sorting.js";

/** A card face (static/js/cards.js): a <button> in my hand, a <span> elsewhere. */
export function cardFace(code, asButton) {
  return window.Cards.cardFace(code, cardLabel(code), asButton);
}

export function cardRow(codes) {
  const row = document.createElement("span");
  row.className = "card-row";
  for (const code of sortHand(codes, "rank")) {
    row.append(cardFace(code, false));
  }
  return row;
}

/** A bomb's name with its stars: "5★ 炸弹", "三王 6★", "天王 7★", "连环炸弹 8★". */
export function bombLabel(kind, stars) {
  return t("bomb_" + kind) + " " + t("stars", { stars });
}

/** The star badge of a bomb: its colour deepens with the stars (4★ … 8★+). */
export function starBadge(kind, stars) {
  const item = document.createElement("span");
  item.className = "stars stars-" + Math.min(Math.max(stars, 4), 8) + " kind-" + kind;
  item.textContent = bombLabel(kind, stars);
  return item;
}

