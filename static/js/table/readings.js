/* Cards and readings in the reader's words: card labels, the hand's order and a play's
 * reading, put together from its fields (the same words as games/replay.py's
 * reading_text). Card codes and faces come from static/js/cards.js (window.Cards, a
 * classic script shared with the replay page, loaded before the table's modules). */

const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };

const cards = () => globalThis.Cards;

/** Hand order: high ranks first (大王 on the left), then ♠ ♥ ♣ ♦, then deck copy. */
export function compareCodes(a, b) {
  const x = cards().parseCard(a);
  const y = cards().parseCard(b);
  if (x.order !== y.order) {
    return y.order - x.order;
  }
  const suits = (SUIT_ORDER[x.suit] ?? 0) - (SUIT_ORDER[y.suit] ?? 0);
  return suits || x.copy - y.copy;
}

/**
 * The words of the page: ``t`` translates a key of the page's strings, ``wildcards()``
 * gives the jokers that are wild in the game on the table.
 */
export function makeReadings(t, wildcards) {
  function cardLabel(code) {
    const card = cards().parseCard(code);
    if (card.suit === null) {
      return t(card.rank === "BJ" ? "big_joker" : "small_joker");
    }
    return t("card_label", { suit: t("suit_" + card.suit), rank: cards().rankText(card.rank) });
  }

  function rankName(rank) {
    if (rank === "SJ") {
      return t("small_joker");
    }
    return rank === "BJ" ? t("big_joker") : cards().rankText(rank);
  }

  /** Which jokers of a play stood in for other ranks, big first (RULES §4.1). */
  function wildJokers(reading, codes) {
    const filled = reading.filled || [];
    if (reading.type === "pair" && (reading.rank === "SJ" || reading.rank === "BJ")) {
      return [rankName(reading.rank === "SJ" ? "BJ" : "SJ")];
    }
    const ranks = (codes || []).map((code) => cards().parseCard(code).rank);
    const jokers = ranks.filter((rank) => rank === "BJ").concat(ranks.filter((rank) => rank === "SJ"));
    const wild = jokers.filter((joker) => wildcards().includes(joker)).map(rankName);
    while (wild.length < filled.length) {
      wild.push(t("joker"));
    }
    return wild;
  }

  /**
   * A recorded reading (a play event's "reading") in words, from its fields rather
   * than the engine's English "text": the same words as games/replay.py's reading_text.
   */
  function readingText(reading, codes) {
    const RANKS = cards().RANKS;
    const kind = reading.type;
    const rank = rankName(reading.rank || "");
    const length = reading.length || 1;
    const stars = reading.stars || 0;
    let low = "";
    if (["straight", "pairs", "triples"].includes(kind) && RANKS.includes(reading.rank)) {
      low = rankName(RANKS[RANKS.indexOf(reading.rank) - length + 1]);
    }
    let text;
    switch (kind) {
      case "single":
      case "pair":
      case "triple":
        text = t("reading_" + kind, { rank });
        break;
      case "straight":
      case "pairs":
      case "triples":
        text = t("reading_" + kind, { low, rank });
        break;
      case "bomb":
        text = t("reading_bomb", { stars, rank });
        break;
      case "chain_bomb":
        text = t("reading_chain_bomb", { length, rank, size: reading.size, stars });
        break;
      case "joker_bomb":
        text = t("reading_joker_bomb", {
          name: t(reading.size === 4 ? "reading_four_jokers" : "reading_three_jokers"), stars });
        break;
      default:
        text = reading.text || "";
    }
    const filled = reading.filled || [];
    if (filled.length) {
      const jokers = wildJokers(reading, codes);
      text += t("reading_wilds", { wilds: filled.map((token, index) =>
        t("reading_wild", { joker: jokers[index], rank: rankName(token) })).join(t("list_separator")) });
    }
    return text;
  }

  return { cardLabel, rankName, readingText };
}
