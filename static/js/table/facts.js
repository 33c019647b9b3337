/* What the page reads out of a game's public events beyond the fold's view: the bombs
 * played (with their stars and who played them) and why a seat is in 托管.
 *
 * Pure: no DOM, no globals (static/js/tests/facts.test.mjs). */

const BOMB_TYPES = new Set(["bomb", "chain_bomb", "joker_bomb"]);

/** Whether a recorded reading is a bomb of any kind (RULES §4). */
export function isBomb(reading) {
  return Boolean(reading && BOMB_TYPES.has(reading.type));
}

/**
 * The kind of a bomb, in the names of the result report (docs/protocol.md): "bomb",
 * "chain", "three_kings" (三王, three jokers) or "four_kings" (天王, all four).
 */
export function bombKind(reading) {
  if (reading.type === "chain_bomb") {
    return "chain";
  }
  if (reading.type === "joker_bomb") {
    return reading.size === 4 ? "four_kings" : "three_kings";
  }
  return "bomb";
}

/** Every bomb of the game so far: {seat, stars, kind, cards, seq}, in playing order. */
export function bombsOf(view) {
  const bombs = [];
  for (const event of (view && view.history) || []) {
    if (event.type === "play" && isBomb(event.reading)) {
      bombs.push({ seat: event.seat, stars: event.reading.stars || 0,
        kind: bombKind(event.reading), cards: event.cards.slice(), seq: event.seq });
    }
  }
  return bombs;
}

/**
 * Why ``seat`` is in 托管 now: the reason of the last `trustee` event that turned it
 * on ("player", "timeouts", "escape", "disconnect"), or null when it is not in 托管.
 * Seats are the game's seats at the end of the history: a 明牌 swap moves them.
 */
export function trusteeReason(view, seat) {
  if (!view || !view.trustee || !view.trustee[seat]) {
    return null;
  }
  // Walk back through the history, following the seat across a swap.
  let at = seat;
  for (let index = view.history.length - 1; index >= 0; index -= 1) {
    const event = view.history[index];
    if (event.type === "swap") {
      const [a, b] = event.seats;
      at = at === a ? b : at === b ? a : at;
    } else if (event.type === "trustee" && event.seat === at) {
      return event.on ? event.reason || "player" : null;
    } else if (event.type === "escape" && event.seat === at) {
      return "escape";
    }
  }
  return "player";
}
