/* Drawing the table from the state (./page.js): the seats around the felt with their
 * card backs, counts, badges and countdown, the trick in the middle, the buttons, the
 * card counter and the notices. Reads the game as the fold keeps it (the shape of
 * Game.view); my hand is ./handview.js's, the result panel ./result.js's. */

import { renderChatPicker } from "./chat.js";
import { COUNTER_RANKS, unseenCounts } from "./counter.js";
import { cardFace, cardRow, starBadge } from "./faces.js";
import { bombKind, countdownUrgent, isBomb, trusteeReason } from "./facts.js";
import { renderHand } from "./handview.js";
import {
  cardLabel, config, dom, gameRunning, mySeatAtTable, myTurn, nameOf, page, playingHere,
  rankName, readingText, seatName, state, t, viewSeat,
} from "./page.js";
import { privateClosed } from "./private.js";
import { dealOf, tableActs } from "./protocol.js";
import { renderResult } from "./result.js";
import { renderRoom } from "./room.js";
import { playSound } from "./sound.js";

const NOTICE_MS = 10000;
const BOMB_MS = 2600;
const MAX_BACKS = 6;

export function showNotice(text, kind) {
  setNotice(text, kind);
  window.clearTimeout(state.noticeTimer);
  state.noticeTimer = window.setTimeout(() => {
    state.noticeTimer = null;
    renderNotice();
  }, NOTICE_MS);
}

/** Drops the news on show, for the standing notice (below) to take its place now. */
export function clearNotice() {
  window.clearTimeout(state.noticeTimer);
  state.noticeTimer = null;
  renderNotice();
}

function setNotice(text, kind) {
  dom.notice.textContent = text;
  dom.notice.className = "notice" + (kind ? " " + kind : "");
  dom.notice.dataset.standing = "";
}

/**
 * What the notice says when there is no news: while my seat is in 托管, why and how to
 * take it back (a player coming back to a seat in 托管 sees it at once).
 */
function renderNotice() {
  if (state.noticeTimer !== null) {
    return; // news on show: it stays its time
  }
  const game = state.game;
  const mine = playingHere() && game.status !== "ended" && game.trustee[game.seat]
    && !game.escaped.includes(game.seat);
  if (mine) {
    const reason = t("reason_" + (trusteeReason(game, game.seat) || "player"));
    setNotice(t("trustee_standing", { reason }), "warning");
    dom.notice.dataset.standing = "trustee";
  } else {
    setNotice("", "");
  }
}

function positionOf(offset, count) {
  if (count === 2) {
    return ["bottom", "top"][offset];
  }
  return ["bottom", "right", "top", "left"][offset];
}

function badge(text, warn, kind) {
  const item = document.createElement("span");
  item.className = "badge" + (warn ? " warn" : "") + (kind ? " " + kind : "");
  item.textContent = text;
  return item;
}

/** Whether a seat's moves are made by the server: a bot, or a seat in 托管. */
function machineSeat(index) {
  const tableSeat = state.table.seats[index];
  const game = state.game;
  return Boolean((tableSeat && tableSeat.bot) || (game && game.trustee && game.trustee[index]));
}

function renderSeat(section) {
  const index = Number(section.dataset.seat);
  const count = state.table.seats.length;
  const offset = (index - viewSeat() + count) % count;
  const position = positionOf(offset, count);
  section.dataset.position = position;
  section.className = "seat pos-" + position;
  const tableSeat = state.table.seats[index] || { user: null };
  const game = state.game;
  const running = gameRunning();
  const field = (name) => section.querySelector('[data-field="' + name + '"]');

  const mine = tableSeat.user === config.user || (running && game.seat === index);
  // Partners sit opposite (the 明牌 swap puts them there, RULES §2).
  const partner = count === 4 && offset === 2 && tableSeat.user !== null && Boolean(mySeatAtTable());
  section.classList.toggle("mine", mine);
  section.classList.toggle("partner", partner);
  section.classList.toggle("empty", tableSeat.user === null);
  field("name").textContent = tableSeat.user === null ? t("empty_seat")
    : tableSeat.name + (tableSeat.user === config.user ? " (" + t("you") + ")" : "");
  const title = config.titles[String(tableSeat.level)] || "";
  field("title").textContent = tableSeat.user === null ? "" : "Lv." + tableSeat.level + " " + title;
  // A person's rating, when the ratings app adds it (null for bots and empty seats).
  const rating = tableSeat.rating;
  const ratingField = field("rating");
  if (ratingField) {
    ratingField.hidden = !rating;
    ratingField.textContent = rating
      ? t("seat_rating", { rating: rating.rating + (rating.provisional ? "?" : "") }) : "";
    if (rating) ratingField.dataset.rating = String(rating.rating);
  }

  const countField = field("count");
  const backs = field("backs");
  const cards = running ? game.hand_counts[index] : undefined;
  if (cards !== undefined) {
    countField.hidden = false;
    countField.textContent = t("cards", { count: cards });
    countField.setAttribute("aria-label", t("cards_label", { count: cards }));
    countField.classList.toggle("low", cards > 0 && cards <= 5);
  } else {
    countField.hidden = true;
  }
  const shownBacks = !mine && cards ? Math.min(cards, MAX_BACKS) : 0;
  if (backs.childElementCount !== shownBacks) {
    backs.replaceChildren(...Array.from({ length: shownBacks }, () => {
      const back = document.createElement("span");
      back.className = "seat-back";
      return back;
    }));
  }

  const badges = field("badges");
  badges.replaceChildren();
  if (partner) {
    badges.append(badge(t("partner"), false, "partner-badge"));
  }
  if (tableSeat.user !== null) {
    if (tableSeat.bot) {
      badges.append(badge(t("bot")));
    } else if (!tableSeat.connected && tableSeat.user !== config.user) {
      badges.append(badge(t("offline"), true));
    }
    if (state.table.status === "waiting") {
      badges.append(badge(tableSeat.ready ? t("ready") : t("not_ready"), false, "ready-badge"));
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
      const reason = trusteeReason(game, index);
      const item = badge(t("trustee_reason_" + reason), true, "trustee-badge");
      item.dataset.reason = reason;
      badges.append(item);
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
}

/** The trick in the middle: each seat's play or pass, toward its seat, with its name. */
function renderTrick() {
  const table = tableActs(state.game);
  for (const slot of dom.trick.querySelectorAll(".seat-play")) {
    const index = Number(slot.dataset.seat);
    const seatSection = document.getElementById("seat-" + index);
    slot.className = "seat-play pos-" + (seatSection ? seatSection.dataset.position : "");
    const act = table.acts[index] || null;
    slot.classList.toggle("stale", Boolean(act && table.stale));
    slot.dataset.action = act ? act.action : "";
    slot.replaceChildren();
    if (!act) {
      continue;
    }
    const who = document.createElement("span");
    who.className = "played-by";
    who.textContent = seatName(index);
    slot.append(who);
    if (act.action === "play") {
      slot.setAttribute("aria-label", t("played_by", { name: seatName(index) }));
      slot.append(cardRow(act.cards));
      const reading = document.createElement("span");
      reading.className = "reading";
      reading.textContent = readingText(act.reading, act.cards);
      slot.append(reading);
      if (isBomb(act.reading)) {
        slot.classList.add("bomb");
        slot.append(starBadge(bombKind(act.reading), act.reading.stars || 0));
      }
    } else {
      slot.removeAttribute("aria-label");
      const passed = document.createElement("span");
      passed.className = "passed";
      passed.textContent = t("pass");
      slot.append(passed);
    }
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
    }
  } else if (game && game.status === "ended") {
    text = t("game_over");
  } else if (state.table.status === "waiting") {
    text = mySeatAtTable() ? t("waiting") : t("spectating");
  }
  dom.turnInfo.textContent = text;

  // The 明牌 card and the swap: shown at the start, until the first card is played.
  const started = Boolean(game && game.history.some((event) => event.type === "play"));
  const showStart = Boolean(game && game.status !== "ended" && !started);
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

/** A bomb just played (a `play` event): its banner in the middle, and its sound. */
export function announceBomb(event) {
  const kind = bombKind(event.reading);
  const stars = event.reading.stars || 0;
  // Who, then the bomb once: its badge names it with its stars ("炸弹 4★").
  dom.bombBanner.replaceChildren(t("bomb_banner_by", { name: seatName(event.seat) }), " ",
    starBadge(kind, stars));
  dom.bombBanner.hidden = false;
  dom.bombBanner.classList.remove("boom");
  void dom.bombBanner.offsetWidth; // restart the animation
  dom.bombBanner.classList.add("boom");
  window.clearTimeout(state.bombTimer);
  state.bombTimer = window.setTimeout(() => {
    dom.bombBanner.hidden = true;
  }, BOMB_MS);
  playSound("bomb");
}

function renderCounter() {
  dom.counterToggle.setAttribute("aria-pressed", state.counterOpen ? "true" : "false");
  const counts = state.counterOpen ? unseenCounts(state.game) : null;
  dom.counterPanel.hidden = !state.counterOpen;
  if (!state.counterOpen) {
    return;
  }
  dom.counterCaption.textContent = t("counter_caption");
  if (!counts) {
    dom.counterRanks.replaceChildren();
    return;
  }
  // Updated in place: the list stays put while the numbers change.
  if (dom.counterRanks.childElementCount !== COUNTER_RANKS.length) {
    dom.counterRanks.replaceChildren(...COUNTER_RANKS.slice().reverse().map((rank) => {
      const item = document.createElement("li");
      item.dataset.rank = rank;
      const name = document.createElement("span");
      name.className = "counter-rank";
      // Jokers by a short name of the counter's own (「Big Joker」 is too wide here).
      name.textContent = rank === "SJ" || rank === "BJ" ? t("counter_" + rank) : rankName(rank);
      const number = document.createElement("span");
      number.className = "counter-count";
      item.append(name, " ", number);
      return item;
    }));
  }
  for (const item of dom.counterRanks.children) {
    const count = counts[item.dataset.rank];
    item.dataset.count = String(count);
    item.classList.toggle("none", count === 0);
    item.lastElementChild.textContent = String(count);
    item.title = t("counter_rank", { rank: rankName(item.dataset.rank), count });
  }
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
  dom.sit.hidden = !(open && !seat && waiting && free) || privateClosed();
  renderChatPicker(Boolean(seat));
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
  // A bot's or a 托管 seat's short countdown is no emergency: never red.
  const machine = machineSeat(game.turn);
  const urgent = countdownUrgent(seconds, machine);
  timer.classList.toggle("machine", machine);
  timer.classList.toggle("urgent", urgent);
  if (myTurn() && urgent && seconds > 0
      && state.tickSecond !== seconds) {
    state.tickSecond = seconds;
    playSound("tick");
  }
}

/**
 * Once a game is on, bring the table into view: its tools at the top of the screen, the
 * felt under them and the dock with my hand below (on a phone the site's header would
 * otherwise push the felt under the dock).
 */
function bringTableIntoView() {
  if (!gameRunning() || state.viewedGame === state.gameId || (playingHere() && dom.handArea.hidden)) {
    return; // a player's hand is not here yet: the page is not its full height
  }
  state.viewedGame = state.gameId;
  const tools = document.querySelector(".table-tools");
  if (tools && document.documentElement.scrollHeight > window.innerHeight) {
    tools.scrollIntoView({ block: "start" });
  }
  keepFeltAboveDock();
}

/**
 * The felt's bottom (my seat, on a phone) above the dock that sticks to the bottom of
 * the screen: where tools, 记牌器 and felt are taller than the room above the dock, the
 * page scrolls on until the felt ends where the dock begins (the tools go up first).
 */
export function keepFeltAboveDock() {
  const felt = dom.felt.getBoundingClientRect();
  const dock = document.getElementById("dock").getBoundingClientRect();
  const hidden = felt.bottom - dock.top;
  if (hidden > 0.5 && felt.top - hidden >= 0) {
    window.scrollBy(0, Math.ceil(hidden));
  }
}

export function render() {
  page.dataset.status = state.table.status;
  page.dataset.mySeat = mySeatAtTable() ? String(mySeatAtTable().index) : "";
  // Hooks for browser tests: the seq applied, and whether this page may move now.
  page.dataset.seq = String(state.seq);
  const turn = myTurn();
  page.dataset.myTurn = turn ? "true" : "false";
  if (turn && !state.wasMyTurn) {
    state.tickSecond = null;
    playSound("turn");
  }
  state.wasMyTurn = turn;
  dom.tableStatus.textContent = t("status_" + state.table.status);
  for (const section of dom.felt.querySelectorAll("section.seat")) {
    renderSeat(section);
  }
  renderTrick();
  renderCenter();
  renderHand();
  renderControls();
  renderCounter();
  renderRoom();
  renderResult();
  renderTimers();
  renderNotice();
  bringTableIntoView();
}
