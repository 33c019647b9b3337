/* The result panel of an ended game: 双扣/单扣/平扣 and the multiplier (in classic with
 * its 等级倍率, the coins' capped multiplier and the fee's percent), base × N, each
 * seat's place, base, contribution, total, points and coins, the 系统回收 fee in coin
 * rooms, the cards left in each hand, and every bomb with its stars and who played it.
 * The end event gives the rules' result; the settlement (the snapshot's, or the
 * `settled` event's) the money and the report (docs/protocol.md, "The result report").
 * Before a report, bombs come from the public play events; leftovers need the report. */

import { cardRow, starBadge } from "./faces.js";
import { bombsOf, normalBombKind, reportOf, reportSeat } from "./facts.js";
import { config, dom, seatName, settlement, state, t } from "./page.js";

const KOU_KEYS = { flat: "draw" }; // the report's name → the page's string key

function numberCell(value) {
  const cell = document.createElement("td");
  cell.className = "num";
  if (value === null || value === undefined) {
    cell.textContent = "—";
    return cell;
  }
  cell.textContent = value > 0 ? "+" + value : String(value);
  if (value > 0) {
    cell.classList.add("plus");
  } else if (value < 0) {
    cell.classList.add("minus");
  }
  return cell;
}

function leftCell(cards) {
  const cell = document.createElement("td");
  cell.className = "left-cards";
  if (cards === null || cards === undefined) {
    cell.textContent = "—";
  } else if (!cards.length) {
    cell.textContent = t("result_none_left");
  } else {
    cell.append(cardRow(cards));
    cell.dataset.count = String(cards.length);
  }
  return cell;
}

export function renderResult() {
  const game = state.game;
  const result = game && game.status === "ended" ? game.result : null;
  const wasHidden = dom.result.hidden;
  dom.result.hidden = !result;
  if (!result) {
    return;
  }
  const settled = settlement();
  const report = reportOf(settled);
  const kou = report && report.kou ? KOU_KEYS[report.kou] || report.kou : result.kou;
  const multiplier = report && report.multiplier !== undefined ? report.multiplier : result.multiplier;
  const parts = [t("kou_" + kou), t("multiplier", { multiplier })];
  // classic (RULES §9): the 等级倍率 inside the multiplier, whose fewest points set it,
  // and in coin rooms the multiplier coins counted (capped) and the fee's percent.
  const level = report && report.level_multiplier !== undefined ? report.level_multiplier
    : result.level_multiplier;
  if (level !== undefined && level !== null) {
    dom.result.dataset.level = String(level);
    parts.push(report && report.level_title
      ? t("result_level_title", { multiplier: level, name: seatName(report.level_seat),
        // The page's titles are in the reader's language; the report's as dealt.
        title: (config.titles || {})[String(report.level_rung)] || report.level_title })
      : t("result_level", { multiplier: level }));
  } else {
    delete dom.result.dataset.level;
  }
  if (report && report.coin_multiplier !== undefined) {
    parts.push(t("result_coin_multiplier", { multiplier: report.coin_multiplier }));
  }
  if (report && report.fee_percent && result.kou !== "escape") { // an escape pays no such fee
    parts.push(t("result_fee_percent", { percent: report.fee_percent }));
  }
  if (result.winners && result.winners.length) {
    parts.push(t("winners", { names: result.winners.map(seatName).join(t("list_separator")) }));
  }
  if (result.escaped !== null && result.escaped !== undefined) {
    parts.push(t("penalty", { name: seatName(result.escaped), penalty: result.penalty }));
  }
  if (result.cards_left !== null && result.cards_left !== undefined) {
    parts.push(t("cards_left", { count: result.cards_left }));
  }
  dom.resultSummary.textContent = parts.join(" · ");
  dom.result.dataset.kou = kou;
  const unit = report && report.base_unit !== undefined ? report.base_unit
    : config.room && config.room.base_unit;
  dom.resultFormula.hidden = unit === undefined || unit === null;
  dom.resultFormula.textContent = dom.resultFormula.hidden ? ""
    : t("result_formula", { kou: t("kou_" + kou), multiplier, unit });

  // After an escape the result's order is a placeholder (RULES §10): show the places
  // really taken (out events), then the others, the escaper last.
  const escape = result.kou === "escape";
  const placed = escape ? game.finish : result.finish;
  const seats = game.players.map((_, seat) => seat);
  const order = placed.concat(seats.filter((seat) => !placed.includes(seat) && seat !== result.escaped));
  if (escape && result.escaped !== null && !placed.includes(result.escaped)) {
    order.push(result.escaped);
  }
  let fees = 0;
  dom.resultRows.replaceChildren(...order.map((seat) => {
    const line = reportSeat(report, seat);
    const row = document.createElement("tr");
    row.dataset.seat = String(seat);
    row.classList.toggle("winner", (result.winners || []).includes(seat));
    const place = document.createElement("td");
    const at = placed.indexOf(seat);
    place.textContent = seat === result.escaped ? t("escaped") : at >= 0 ? t("place", { place: at + 1 }) : "—";
    const name = document.createElement("td");
    name.textContent = seatName(seat);
    const pick = (fromReport, fallback) => (fromReport !== null ? fromReport : fallback);
    const fee = line.fee !== null ? -Math.abs(line.fee) : null;
    fees += line.fee ? Math.abs(line.fee) : 0;
    row.append(place, name,
      numberCell(pick(line.base, result.base ? result.base[seat] : null)),
      numberCell(pick(line.contribution, result.contributions ? result.contributions[seat] : null)),
      numberCell(pick(line.total, result.scores ? result.scores[seat] : null)),
      numberCell(settled ? pick(line.points, settled.points[seat]) : null),
      numberCell(settled ? pick(line.coins, settled.coins[seat]) : null),
      numberCell(fee),
      leftCell(line.left));
    row.children[6].classList.add("coins-col"); // hidden in a points room
    row.children[7].classList.add("coins-col", "fee");
    return row;
  }));
  // Each cell names its column: a phone upright shows a row as a card of labelled
  // figures (static/css/table.css), with the table's head out of sight.
  const heads = Array.from(dom.resultRows.closest("table").querySelectorAll("thead th"),
    (th) => th.textContent.trim());
  for (const row of dom.resultRows.children) {
    Array.from(row.children).forEach((cell, index) => {
      cell.dataset.label = heads[index] || "";
    });
  }
  dom.resultFee.hidden = !fees;
  dom.resultFee.textContent = fees ? t("result_fee_total", { fee: fees }) : "";

  const bombs = report && Array.isArray(report.bombs) ? report.bombs : bombsOf(game);
  dom.resultBombs.replaceChildren(...bombs.map((bomb) => {
    const item = document.createElement("li");
    item.dataset.seat = String(bomb.seat);
    item.dataset.stars = String(bomb.stars);
    const kind = normalBombKind(bomb.kind, bomb.cards, bomb.size);
    item.dataset.kind = kind;
    const who = document.createElement("span");
    who.className = "bomb-player";
    who.textContent = seatName(bomb.seat);
    item.append(starBadge(kind, bomb.stars), " ", who, " ");
    if (bomb.cards && bomb.cards.length) {
      item.append(cardRow(bomb.cards));
    }
    return item;
  }));
  if (!bombs.length) {
    const item = document.createElement("li");
    item.className = "no-bombs";
    item.textContent = t("result_no_bombs");
    dom.resultBombs.append(item);
  }
  dom.resultSettlement.textContent = settled ? "" : t("settling");
  if (wasHidden) {
    dom.result.scrollIntoView({ block: "nearest" });
  }
}
