/* What the page reads out of a game's public events beyond the fold's view: the bombs
 * played (with their stars and who played them), why a seat is in 托管 and classic's
 * 等级倍率.
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

/**
 * A report's bomb kind in the names above, whichever names the report used (the
 * engine's `joker_bomb` tells three kings from four by its `size`, else its cards).
 */
export function normalBombKind(kind, cards, size) {
  if (kind === "chain_bomb" || kind === "chain") {
    return "chain";
  }
  if (kind === "joker_bomb" || kind === "kings") {
    const count = size || (cards ? cards.length : 0);
    return count === 4 ? "four_kings" : "three_kings";
  }
  return ["three_kings", "four_kings"].includes(kind) ? kind : "bomb";
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

/**
 * The result report of a settled game (docs/protocol.md, "The result report"): the
 * settlement's `report`, or the settlement itself when its fields sit at its top level.
 * Null before settlement, or from a server without reports.
 */
export function reportOf(settlement) {
  if (!settlement) {
    return null;
  }
  if (settlement.report) {
    return settlement.report;
  }
  return settlement.kou !== undefined || settlement.bombs !== undefined ? settlement : null;
}

const SEAT_FIELDS = {
  contribution: ["contribution", "contributions"],
  base: ["base"],
  total: ["total", "totals", "scores"],
  points: ["points"],
  coins: ["coins"],
  fee: ["fee", "fees"],
  left: ["left", "cards_left"],
};

/**
 * One seat's line of a report, whichever way the report lists seats: a list of seat
 * objects (`seats` or `per_seat`), or a list per field indexed by seat. Missing fields
 * are null.
 */
export function reportSeat(report, seat) {
  const line = {};
  const objects = report && (report.seats || report.per_seat);
  const own = Array.isArray(objects) ? objects.find((item, index) =>
    (item && item.seat !== undefined ? item.seat : index) === seat) : null;
  for (const [field, names] of Object.entries(SEAT_FIELDS)) {
    line[field] = null;
    for (const name of names) {
      if (own && own[name] !== undefined) {
        line[field] = own[name];
        break;
      }
      if (report && Array.isArray(report[name]) && report[name][seat] !== undefined) {
        line[field] = report[name][seat];
        break;
      }
    }
  }
  return line;
}

/** Seconds left at which a person's countdown turns urgent (red). */
export const URGENT_SECONDS = 5;

/**
 * How a seat's countdown looks: ``urgent`` (red, a person's last seconds) or not. A
 * seat the server plays (a bot, or a seat in 托管) answers within its short think time:
 * its countdown is never urgent (bots' 1-second timers flashed red).
 */
export function countdownUrgent(seconds, machine) {
  return !machine && seconds <= URGENT_SECONDS;
}

/**
 * classic's 等级倍率 (RULES §9) to show on the table: while a game runs, the one its deal
 * froze; between games, that of the players seated now (the table state's
 * `level_multiplier`). Null for a rule set without a level ladder.
 */
export function levelMultiplierOf(view, table) {
  const running = Boolean(view && (view.status === "playing" || view.status === "dealt"));
  const deal = running ? view.history.find((event) => event.type === "deal") : null;
  if (deal && deal.level_multiplier !== undefined) {
    return deal.level_multiplier;
  }
  return table && table.level_multiplier !== undefined ? table.level_multiplier : null;
}
