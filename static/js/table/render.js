/* Drawing the table from the state (./page.js): the seats with their counts, badges
 * and plays, the centre, my hand, the buttons, the result panel, the countdown and the
 * notices. Reads the game as the fold keeps it (the shape of Game.view). */

import {
  cardLabel, config, dom, gameRunning, mySeatAtTable, myTurn, nameOf, page, playingHere,
  readingText, seatName, settlement, state, t, viewSeat,
} from "./page.js";
import { dealOf, tableActs } from "./protocol.js";
import { compareCodes } from "./readings.js";

const NOTICE_MS = 10000;

export function showNotice(text, kind) {
  dom.notice.textContent = text;
  dom.notice.className = "notice" + (kind ? " " + kind : "");
  window.clearTimeout(state.noticeTimer);
  state.noticeTimer = window.setTimeout(() => {
    dom.notice.textContent = "";
    dom.notice.className = "notice";
  }, NOTICE_MS);
}

/** A card face (static/js/cards.js): a <button> in my hand, a <span> elsewhere. */
function cardFace(code, asButton) {
  return window.Cards.cardFace(code, cardLabel(code), asButton);
}

function cardRow(codes) {
  const row = document.createElement("span");
  row.className = "card-row";
  for (const code of codes.slice().sort(compareCodes)) {
    row.append(cardFace(code, false));
  }
  return row;
}

function positionOf(offset, count) {
  if (count === 2) {
    return ["bottom", "top"][offset];
  }
  return ["bottom", "right", "top", "left"][offset];
}

function badge(text, warn) {
  const item = document.createElement("span");
  item.className = "badge" + (warn ? " warn" : "");
  item.textContent = text;
  return item;
}

function renderSeat(section, table) {
  const index = Number(section.dataset.seat);
  const count = state.table.seats.length;
  const position = positionOf((index - viewSeat() + count) % count, count);
  section.dataset.position = position;
  section.className = "seat pos-" + position;
  const tableSeat = state.table.seats[index] || { user: null };
  const game = state.game;
  const running = gameRunning();
  const field = (name) => section.querySelector('[data-field="' + name + '"]');

  const mine = tableSeat.user === config.user || (running && game.seat === index);
  section.classList.toggle("mine", mine);
  section.classList.toggle("empty", tableSeat.user === null);
  field("name").textContent = tableSeat.user === null ? t("empty_seat")
    : tableSeat.name + (tableSeat.user === config.user ? " (" + t("you") + ")" : "");
  const title = config.titles[String(tableSeat.level)] || "";
  field("title").textContent = tableSeat.user === null ? "" : "Lv." + tableSeat.level + " " + title;

  const countField = field("count");
  const cards = running ? game.hand_counts[index] : undefined;
  if (cards !== undefined) {
    countField.hidden = false;
    countField.textContent = t("cards", { count: cards });
    countField.setAttribute("aria-label", t("cards_label", { count: cards }));
    countField.classList.toggle("low", cards > 0 && cards <= 5);
  } else {
    countField.hidden = true;
  }

  const badges = field("badges");
  badges.replaceChildren();
  if (tableSeat.user !== null) {
    if (tableSeat.bot) {
      badges.append(badge(t("bot")));
    } else if (!tableSeat.connected && tableSeat.user !== config.user) {
      badges.append(badge(t("offline"), true));
    }
    if (state.table.status === "waiting") {
      badges.append(badge(tableSeat.ready ? t("ready") : t("not_ready")));
    }
  }
  if (game) {
    const place = game.finish.indexOf(index);
    if (place >= 0) {
      badges.append(badge(t("place", { place: place + 1 })));
    }
    if (running && game.escaped.includes(index)) {
      badges.append(badge(t("escaped"), true));
    } else if (running && game.trustee[index]) {
      badges.append(badge(t("trustee"), true));
    }
    if (running && game.timeouts[index] > 0) {
      badges.append(badge(t("timeouts", { count: game.timeouts[index] }), true));
    }
  }

  const turn = running && game.status === "playing" && game.turn === index;
  section.classList.toggle("turn", turn);
  if (turn) {
    section.setAttribute("aria-current", "true");
  } else {
    section.removeAttribute("aria-current");
  }
  field("timer").hidden = true; // renderTimers shows the turn's countdown

  // This trick's plays and passes; once a trick is over, its own, dimmed, until the
  // first action of the next.
  const play = field("play");
  play.replaceChildren();
  const act = table.acts[index] || null;
  play.classList.toggle("stale", Boolean(act && table.stale));
  play.dataset.action = act ? act.action : "";
  if (act && act.action === "play") {
    play.append(cardRow(act.cards));
    const reading = document.createElement("span");
    reading.className = "reading";
    reading.textContent = readingText(act.reading, act.cards);
    play.append(reading);
  } else if (act && act.action === "pass") {
    const passed = document.createElement("span");
    passed.className = "passed";
    passed.textContent = t("pass");
    play.append(passed);
  }
}

function renderCenter() {
  const game = state.game;
  let text = "";
  if (gameRunning() && game.status === "playing") {
    const current = game.current;
    if (myTurn()) {
      text = current ? t("your_turn") + " " + t("to_beat", { text: readingText(current.reading, current.cards), name: seatName(current.seat) })
        : t("your_lead");
    } else {
      text = t("waiting_for", { name: seatName(game.turn) });
      if (current) {
        text += " " + t("to_beat", { text: readingText(current.reading, current.cards), name: seatName(current.seat) });
      }
    }
  } else if (game && game.status === "ended") {
    text = t("game_over");
  } else if (state.table.status === "waiting") {
    text = mySeatAtTable() ? t("waiting") : t("spectating");
  }
  dom.turnInfo.textContent = text;

  const showStart = Boolean(game && game.status !== "ended");
  // The reveal's and the swap's seats are before the swap: the deal's players.
  const deal = dealOf(game);
  const dealPlayers = deal ? deal.players : game ? game.players : [];
  dom.revealInfo.replaceChildren();
  dom.revealInfo.hidden = !(showStart && game.revealed);
  if (showStart && game.revealed) {
    const revealed = game.revealed;
    const names = (seat) => nameOf(dealPlayers[seat]);
    const key = revealed.holder === revealed.twin_holder ? "reveal_same" : "reveal";
    dom.revealInfo.append(cardFace(revealed.card, false), " ",
      t(key, { card: cardLabel(revealed.card), holder: names(revealed.holder),
        twin_holder: names(revealed.twin_holder) }));
  }
  dom.swapInfo.hidden = !(showStart && game.swapped);
  if (showStart && game.swapped) {
    const [a, b] = game.swapped;
    dom.swapInfo.textContent = t("swap", { a: nameOf(dealPlayers[a]), b: nameOf(dealPlayers[b]) });
  }
}

function renderHand() {
  const game = state.game;
  const hand = game && game.hand && game.status !== "ended" ? game.hand.slice().sort(compareCodes) : null;
  dom.handArea.hidden = hand === null;
  const key = hand ? hand.join(",") : "";
  const rebuilt = key !== state.handKey;
  const hadFocus = dom.hand.contains(document.activeElement);
  if (rebuilt) {
    state.handKey = key;
    dom.hand.replaceChildren(...(hand || []).map((code) => cardFace(code, true)));
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
}

function renderControls() {
  const game = state.game;
  const open = state.connection === "open";
  const here = playingHere();
  const turn = myTurn() && open;
  const escaped = here && game.escaped.includes(game.seat);
  dom.gameControls.hidden = !here;
  dom.play.disabled = !turn || state.selected.size === 0;
  dom.pass.disabled = !turn || !game.current;
  dom.hint.disabled = !turn;
  const trustee = here && Boolean(game.trustee[game.seat]);
  dom.trustee.setAttribute("aria-pressed", trustee ? "true" : "false");
  dom.trustee.textContent = trustee ? t("trustee_on_button") : t("trustee_off_button");
  dom.trustee.disabled = !open || escaped;
  dom.leave.hidden = escaped;
  dom.leave.disabled = !open;

  const seat = mySeatAtTable();
  const waiting = state.table.status === "waiting";
  if (dom.ready) {
    dom.ready.hidden = !(seat && waiting);
    dom.ready.textContent = seat && seat.ready ? t("unready_button") : t("ready_button");
    dom.readyForm.elements.ready.value = seat && seat.ready ? "0" : "1";
  }
  if (dom.stand) {
    dom.stand.hidden = !(seat && waiting);
  }
  const free = state.table.seats.some((item) => item.user === null);
  dom.sit.hidden = !(open && !seat && waiting && free);
  dom.resultReady.hidden = !(seat && waiting && !seat.ready);
}

function renderResult() {
  const game = state.game;
  const result = game && game.status === "ended" ? game.result : null;
  dom.result.hidden = !result;
  if (!result) {
    return;
  }
  const parts = [t("kou_" + result.kou), t("multiplier", { multiplier: result.multiplier })];
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

  // After an escape the result's order is a placeholder (RULES §10): show the places
  // really taken (out events), then the others, the escaper last.
  const escape = result.kou === "escape";
  const placed = escape ? game.finish : result.finish;
  const seats = game.players.map((_, seat) => seat);
  const order = placed.concat(seats.filter((seat) => !placed.includes(seat) && seat !== result.escaped));
  if (escape && result.escaped !== null && !placed.includes(result.escaped)) {
    order.push(result.escaped);
  }
  const settled = settlement();
  const number = (value) => {
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
  };
  dom.resultRows.replaceChildren(...order.map((seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = String(seat);
    row.classList.toggle("winner", (result.winners || []).includes(seat));
    const place = document.createElement("td");
    const at = placed.indexOf(seat);
    place.textContent = seat === result.escaped ? t("escaped") : at >= 0 ? t("place", { place: at + 1 }) : "—";
    const name = document.createElement("td");
    name.textContent = seatName(seat);
    row.append(place, name, number(result.base ? result.base[seat] : null),
      number(result.contributions ? result.contributions[seat] : null),
      number(result.scores ? result.scores[seat] : null),
      number(settled ? settled.points[seat] : null),
      number(settled ? settled.coins[seat] : null));
    row.lastElementChild.classList.add("coins-col"); // hidden in a points room
    return row;
  }));
  dom.resultSettlement.textContent = settled ? "" : t("settling");
}

export function renderTimers() {
  const game = state.game;
  if (!gameRunning() || game.status !== "playing" || state.deadline === null || game.turn === null) {
    return;
  }
  const section = document.getElementById("seat-" + game.turn);
  if (!section) {
    return;
  }
  const timer = section.querySelector('[data-field="timer"]');
  const seconds = Math.max(0, Math.ceil((state.deadline - Date.now()) / 1000));
  timer.hidden = false;
  timer.textContent = t("seconds", { seconds });
  timer.classList.toggle("urgent", seconds <= 5);
}

export function render() {
  page.dataset.status = state.table.status;
  page.dataset.mySeat = mySeatAtTable() ? String(mySeatAtTable().index) : "";
  // Hooks for browser tests: the seq applied, and whether this page may move now.
  page.dataset.seq = String(state.seq);
  page.dataset.myTurn = myTurn() ? "true" : "false";
  dom.tableStatus.textContent = t("status_" + state.table.status);
  const table = tableActs(state.game);
  for (const section of dom.felt.querySelectorAll("section.seat")) {
    renderSeat(section, table);
  }
  renderCenter();
  renderHand();
  renderControls();
  renderResult();
  renderTimers();
}
