/* Card faces for every page that shows cards: the table (static/js/table/) and the
 * replay (static/js/replay.js) build them here, in the markup static/css/cards.css
 * styles. Each page names its cards in its own words (the label). Load before them. */
window.Cards = (function () {
  "use strict";

  var RANKS = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ"];
  var SUIT_SYMBOL = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" };

  /** A card code ("TH0", "BJ1"): rank, suit (null for a joker), deck copy, rank order. */
  function parseCard(code) {
    var body = code.slice(0, -1);
    var copy = Number(code.slice(-1));
    if (body === "SJ" || body === "BJ") {
      return { code: code, rank: body, suit: null, copy: copy, order: RANKS.indexOf(body) };
    }
    var rank = body.slice(0, -1);
    return { code: code, rank: rank, suit: body.slice(-1), copy: copy, order: RANKS.indexOf(rank) };
  }

  function rankText(rank) {
    return rank === "T" ? "10" : rank;
  }

  function part(className, text) {
    var node = document.createElement("span");
    node.className = className;
    if (text) {
      node.textContent = text;
    }
    return node;
  }

  /** A face read out as ``label``: a <button> in a hand, a small <span> elsewhere. */
  function cardFace(code, label, asButton) {
    var card = parseCard(code);
    var face = document.createElement(asButton ? "button" : "span");
    face.className = "card";
    face.dataset.card = code;
    if (asButton) {
      face.type = "button";
      face.setAttribute("aria-pressed", "false");
      face.tabIndex = -1;
    } else {
      face.classList.add("mini");
      face.setAttribute("role", "img");
    }
    face.setAttribute("aria-label", label);
    var corner = part("card-corner");
    corner.setAttribute("aria-hidden", "true");
    var pip = part("card-pip");
    pip.setAttribute("aria-hidden", "true");
    if (card.suit === null) {
      var big = card.rank === "BJ";
      face.classList.add("joker", big ? "big" : "small");
      corner.textContent = "JOKER";
      pip.textContent = big ? "\u2605" : "\u2606";
    } else {
      if (card.suit === "H" || card.suit === "D") {
        face.classList.add("red");
      }
      corner.append(part("card-rank", rankText(card.rank)),
        part("card-suit", SUIT_SYMBOL[card.suit]));
      pip.textContent = SUIT_SYMBOL[card.suit];
    }
    face.append(corner, pip);
    return face;
  }

  return { RANKS: RANKS, parseCard: parseCard, rankText: rankText, cardFace: cardFace };
}());
