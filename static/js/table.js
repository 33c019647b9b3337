/* The playing table: the socket client of docs/protocol.md, card selection,
 * rendering and the turn countdown. No framework, no build step.
 *
 * The page (templates/games/table.html) provides the elements, a JSON block of
 * settings (#table-config) and one of translated strings (#table-strings).
 * Stable hooks for tests: #seat-N[data-seat], button[data-card="5S0"],
 * #play-button, #pass-button, #hint-button, #trustee-toggle, #ready-button,
 * #stand-button, #sit-button, #leave-button, #leave-dialog, #result-panel,
 * #table-page[data-seq][data-my-turn][data-connection], .seat-play[data-action].
 */
(function () {
  "use strict";

  const page = document.getElementById("table-page");
  if (!page) {
    return;
  }
  const config = JSON.parse(document.getElementById("table-config").textContent);
  const STRINGS = JSON.parse(document.getElementById("table-strings").textContent);

  // Card codes and faces: static/js/cards.js, shared with the replay.
  const { RANKS, parseCard, rankText } = window.Cards;
  const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
  const HAND_CHECK_MS = 2000;
  const NOTICE_MS = 10000;

  const el = (id) => document.getElementById(id);
  const dom = {
    felt: el("felt"),
    tableStatus: el("table-status"),
    connection: el("connection-status"),
    turnInfo: el("turn-info"),
    revealInfo: el("reveal-info"),
    swapInfo: el("swap-info"),
    notice: el("notice"),
    handArea: el("hand-area"),
    hand: el("hand"),
    selectionInfo: el("selection-info"),
    gameControls: el("game-controls"),
    play: el("play-button"),
    pass: el("pass-button"),
    hint: el("hint-button"),
    trustee: el("trustee-toggle"),
    leave: el("leave-button"),
    readyForm: el("ready-form"),
    ready: el("ready-button"),
    standForm: el("stand-form"),
    stand: el("stand-button"),
    sit: el("sit-button"),
    result: el("result-panel"),
    resultSummary: el("result-summary"),
    resultRows: el("result-rows"),
    resultSettlement: el("result-settlement"),
    resultReady: el("result-ready-button"),
    leaveDialog: el("leave-dialog"),
    leaveConfirm: el("leave-confirm"),
    leaveCancel: el("leave-cancel"),
  };

  const state = {
    socket: null,
    retry: 0,
    connection: "connecting",
    table: config.table_state,
    names: {},
    gameId: null,
    seq: 0,
    game: null,
    deadline: config.deadline ? Date.parse(config.deadline) : null,
    deadlineTurn: null,
    lastActs: {},
    actsStale: false,
    selected: new Set(),
    focusCode: null,
    handKey: "",
    hints: null,
    hintSeq: null,
    hintIndex: -1,
    hintPending: false,
    snapshotAskedAt: 0,
    noticeTimer: null,
  };

  // --- text ------------------------------------------------------------------------

  function t(key, params) {
    const text = Object.prototype.hasOwnProperty.call(STRINGS, key) ? STRINGS[key] : key;
    return text.replace(/%\((\w+)\)[sd]/g, (whole, name) =>
      params && params[name] !== undefined ? String(params[name]) : whole);
  }

  function rememberNames(table) {
    for (const seat of table.seats) {
      if (seat.user !== null) {
        state.names[seat.user] = seat.name;
      }
    }
  }

  function nameOf(userId) {
    if (userId === config.user) {
      return t("you");
    }
    return state.names[userId] || "#" + userId;
  }

  function seatName(seat) {
    const game = state.game;
    if (game && game.players[seat] !== undefined) {
      return nameOf(game.players[seat]);
    }
    const tableSeat = state.table.seats[seat];
    return tableSeat && tableSeat.user !== null ? nameOf(tableSeat.user) : t("empty_seat");
  }

  // --- cards -----------------------------------------------------------------------

  /** Hand order: high ranks first (大王 on the left), then ♠ ♥ ♣ ♦, then deck copy. */
  function compareCodes(a, b) {
    const x = parseCard(a);
    const y = parseCard(b);
    if (x.order !== y.order) {
      return y.order - x.order;
    }
    const suits = (SUIT_ORDER[x.suit] ?? 0) - (SUIT_ORDER[y.suit] ?? 0);
    return suits || x.copy - y.copy;
  }

  function cardLabel(code) {
    const card = parseCard(code);
    if (card.suit === null) {
      return t(card.rank === "BJ" ? "big_joker" : "small_joker");
    }
    return t("card_label", { suit: t("suit_" + card.suit), rank: rankText(card.rank) });
  }

  function rankName(rank) {
    if (rank === "SJ") {
      return t("small_joker");
    }
    return rank === "BJ" ? t("big_joker") : rankText(rank);
  }

  /** The wildcards of the game on the table (its deal's rules), else the room's. */
  function wildcards() {
    return (state.game && state.game.wildcards) || config.wildcards || [];
  }

  /** Which jokers of a play stood in for other ranks, big first (RULES §4.1). */
  function wildJokers(reading, cards) {
    const filled = reading.filled || [];
    if (reading.type === "pair" && (reading.rank === "SJ" || reading.rank === "BJ")) {
      return [rankName(reading.rank === "SJ" ? "BJ" : "SJ")];
    }
    const ranks = (cards || []).map((code) => parseCard(code).rank);
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
  function readingText(reading, cards) {
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
      const jokers = wildJokers(reading, cards);
      text += t("reading_wilds", { wilds: filled.map((token, index) =>
        t("reading_wild", { joker: jokers[index], rank: rankName(token) })).join(t("list_separator")) });
    }
    return text;
  }

  /** A card face: a <button> in my hand, a <span> elsewhere. */
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

  // --- the socket ------------------------------------------------------------------

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(scheme + "//" + location.host + config.socket);
    state.socket = socket;
    setConnection("connecting", t("connecting"));
    socket.addEventListener("open", () => {
      state.retry = 0;
      setConnection("open", t("connected"));
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      receive(message);
    });
    socket.addEventListener("close", (event) => {
      if (state.socket === socket) {
        state.socket = null;
      }
      if (event.code === 4401) {
        setConnection("closed", t("login_needed"));
        return;
      }
      if (event.code === 4404) {
        setConnection("closed", t("no_table"));
        return;
      }
      setConnection("closed", t("reconnecting"));
      const delay = Math.min(10000, 500 * 2 ** state.retry);
      state.retry += 1;
      window.setTimeout(connect, delay);
    });
  }

  function setConnection(status, text) {
    state.connection = status;
    page.dataset.connection = status;
    dom.connection.textContent = text;
    render();
  }

  function send(message) {
    const socket = state.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return false;
    }
    socket.send(JSON.stringify(message));
    return true;
  }

  function askSnapshot() {
    // One request in flight is enough: every snapshot replaces the whole state.
    const now = Date.now();
    if (now - state.snapshotAskedAt < 1000) {
      return;
    }
    state.snapshotAskedAt = now;
    send({ type: "snapshot" });
  }

  function receive(message) {
    switch (message.type) {
      case "snapshot":
        applySnapshot(message);
        break;
      case "events":
        applyEvents(message);
        break;
      case "table":
        state.table = message.table;
        rememberNames(message.table);
        render();
        break;
      case "hints":
        applyHints(message);
        break;
      case "error":
        showNotice(message.message, "error");
        if (message.ref && String(message.ref).startsWith("hint")) {
          state.hintPending = false;
        }
        if (message.code === "stale") {
          askSnapshot();
        }
        break;
      default:
        break;
    }
  }

  // --- state: snapshots and events (docs/protocol.md, "Sequence numbers and resync") ---

  function applySnapshot(message) {
    state.snapshotAskedAt = 0;
    state.table = message.table;
    rememberNames(message.table);
    const view = message.game;
    if (view && view.id === state.gameId && message.seq < state.seq) {
      render(); // older than what the events already showed: keep the newer state
      return;
    }
    if (!view) {
      state.game = null;
      state.gameId = null;
      state.seq = 0;
    } else {
      const deal = view.history.find((event) => event.type === "deal");
      const settled = view.history.find((event) => event.type === "settled");
      state.gameId = view.id;
      state.seq = message.seq;
      state.game = {
        status: view.status,
        players: view.players.slice(),
        dealPlayers: deal ? deal.players.slice() : view.players.slice(),
        seat: view.seat,
        hand: view.hand ? view.hand.slice() : null,
        counts: view.hand_counts.slice(),
        turn: view.turn,
        current: view.current,
        finish: view.finish.slice(),
        trustee: view.trustee.slice(),
        timeouts: view.timeouts.slice(),
        escaped: view.escaped.slice(),
        revealed: view.revealed,
        swapped: view.swapped,
        result: view.result,
        settlement: view.settlement || (settled ? { points: settled.points, coins: settled.coins } : null),
        wildcards: deal && deal.rules ? deal.rules.wildcards : null,
      };
      state.lastActs = {};
      state.actsStale = false;
      for (const act of view.trick) {
        state.lastActs[act.seat] = act;
      }
      // The snapshot carries the turn's deadline (docs/protocol.md, "snapshot").
      state.deadline = view.deadline ? Date.parse(view.deadline) : null;
      state.deadlineTurn = view.turn;
    }
    pruneSelection();
    resetHints();
    render();
  }

  function applyEvents(message) {
    if (message.game !== state.gameId) {
      if (!message.events.length || message.events[0].type !== "deal") {
        askSnapshot(); // the tail of a game this page never started
        return;
      }
      state.gameId = message.game;
      state.seq = 0;
      state.game = null;
      state.lastActs = {};
      state.actsStale = false;
      state.selected.clear();
    }
    const fresh = message.events.filter((event) => event.seq > state.seq);
    if (!fresh.length) {
      return; // a snapshot overtook these
    }
    if (fresh[0].seq !== state.seq + 1 || (state.game === null && fresh[0].type !== "deal")) {
      askSnapshot(); // a gap
      return;
    }
    for (const event of fresh) {
      applyEvent(event);
    }
    state.seq = message.seq;
    state.game.turn = message.turn;
    state.deadline = message.deadline ? Date.parse(message.deadline) : null;
    state.deadlineTurn = message.turn;
    resetHints();
    render();
  }

  function startActs() {
    // The first action of a new trick clears the last trick off the table.
    if (state.actsStale) {
      state.lastActs = {};
      state.actsStale = false;
    }
  }

  function applyEvent(event) {
    const game = state.game;
    switch (event.type) {
      case "deal": {
        const seat = event.players.indexOf(config.user);
        state.game = {
          status: "dealt",
          players: event.players.slice(),
          dealPlayers: event.players.slice(),
          seat: seat >= 0 ? seat : null,
          hand: null,
          counts: event.hand_counts.slice(),
          turn: null,
          current: null,
          finish: [],
          trustee: event.players.map(() => false),
          timeouts: event.players.map(() => 0),
          escaped: [],
          revealed: null,
          swapped: null,
          result: null,
          settlement: null,
          wildcards: event.rules ? event.rules.wildcards : null,
        };
        showNotice(t("new_game"), "");
        if (seat >= 0) {
          // My hand comes in a snapshot sent to my seat; ask if it does not come.
          const gameId = state.gameId;
          window.setTimeout(() => {
            if (state.gameId === gameId && state.game && state.game.hand === null) {
              askSnapshot();
            }
          }, HAND_CHECK_MS);
        }
        break;
      }
      case "reveal":
        game.revealed = { card: event.card, holder: event.holder, twin: event.twin,
          twin_holder: event.twin_holder };
        break;
      case "swap": {
        const [a, b] = event.seats;
        for (const list of [game.players, game.counts, game.trustee, game.timeouts]) {
          [list[a], list[b]] = [list[b], list[a]];
        }
        if (game.seat === a) {
          game.seat = b;
        } else if (game.seat === b) {
          game.seat = a;
        }
        game.swapped = [a, b];
        break;
      }
      case "first_lead":
        game.status = "playing";
        game.turn = event.seat;
        break;
      case "play":
        startActs();
        state.lastActs[event.seat] = { action: "play", cards: event.cards, reading: event.reading, by: event.by };
        game.counts[event.seat] -= event.cards.length;
        game.current = { seat: event.seat, cards: event.cards, reading: event.reading };
        if (event.seat === game.seat && game.hand) {
          game.hand = game.hand.filter((code) => !event.cards.includes(code));
          pruneSelection();
        }
        break;
      case "pass":
        startActs();
        state.lastActs[event.seat] = { action: "pass", by: event.by };
        break;
      case "out":
        game.finish.push(event.seat);
        break;
      case "trick":
        game.current = null;
        state.actsStale = true;
        break;
      case "timeout":
        game.timeouts[event.seat] = event.count;
        if (event.seat === game.seat) {
          showNotice(t("timeout_warning", { count: event.count }), "warning");
        }
        break;
      case "trustee":
        game.trustee[event.seat] = event.on;
        if (event.seat === game.seat && event.on && event.reason !== "player") {
          showNotice(t("trustee_on_notice"), "warning");
        }
        break;
      case "escape":
        game.escaped.push(event.seat);
        showNotice(t("escape_notice", { name: seatName(event.seat) }), "warning");
        break;
      case "end":
        game.status = "ended";
        game.turn = null;
        game.result = event.result;
        showNotice(t("game_over"), "");
        break;
      case "settled":
        game.settlement = { points: event.points, coins: event.coins };
        break;
      default:
        break;
    }
  }

  // --- my seat and my turn -------------------------------------------------------------

  function mySeatAtTable() {
    const seat = state.table.seats.find((item) => item.user === config.user);
    return seat || null;
  }

  function viewSeat() {
    const game = state.game;
    if (game && game.seat !== null && game.status !== "ended") {
      return game.seat;
    }
    const seat = mySeatAtTable();
    return seat ? seat.index : 0;
  }

  function gameRunning() {
    const game = state.game;
    return Boolean(game && (game.status === "playing" || game.status === "dealt"));
  }

  function playingHere() {
    return gameRunning() && state.game.seat !== null;
  }

  function myTurn() {
    const game = state.game;
    return playingHere() && game.status === "playing" && game.turn === game.seat
      && !game.escaped.includes(game.seat) && game.hand !== null;
  }

  // --- hints ------------------------------------------------------------------------------

  function resetHints() {
    state.hints = null;
    state.hintSeq = null;
    state.hintIndex = -1;
  }

  function askHint() {
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

  function applyHints(message) {
    state.hintPending = false;
    if (message.game !== state.gameId || message.seq !== state.seq) {
      return; // the game moved on while the hint was computed
    }
    state.hints = message.plays;
    state.hintSeq = message.seq;
    state.hintIndex = -1;
    nextHint();
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

  function pruneSelection() {
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

  function onHandClick(event) {
    const card = event.target.closest("button[data-card]");
    if (!card) {
      return;
    }
    state.focusCode = card.dataset.card;
    toggleCard(card.dataset.card);
  }

  function onHandKey(event) {
    const cards = Array.from(dom.hand.querySelectorAll("button[data-card]"));
    const index = cards.indexOf(document.activeElement);
    if (index < 0) {
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

  // --- actions ------------------------------------------------------------------------------

  function playSelected() {
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

  function passTurn() {
    if (myTurn()) {
      state.selected.clear();
      send({ type: "pass", seq: state.seq, ref: "pass-" + state.seq });
      render();
    }
  }

  function toggleTrustee() {
    const game = state.game;
    if (playingHere()) {
      send({ type: "trustee", on: !game.trustee[game.seat] });
    }
  }

  function onReadySubmit(event) {
    const seat = mySeatAtTable();
    if (seat && send({ type: "ready", ready: !seat.ready })) {
      event.preventDefault(); // else the form posts: the page works without the socket
    }
  }

  function onStandSubmit(event) {
    if (send({ type: "stand" })) {
      event.preventDefault();
    }
  }

  function openLeaveDialog() {
    if (typeof dom.leaveDialog.showModal === "function") {
      dom.leaveDialog.showModal();
    } else if (window.confirm(el("leave-text").textContent)) {
      send({ type: "leave" });
    }
  }

  // --- rendering ------------------------------------------------------------------------------

  function showNotice(text, kind) {
    dom.notice.textContent = text;
    dom.notice.className = "notice" + (kind ? " " + kind : "");
    window.clearTimeout(state.noticeTimer);
    state.noticeTimer = window.setTimeout(() => {
      dom.notice.textContent = "";
      dom.notice.className = "notice";
    }, NOTICE_MS);
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

  function renderSeat(section) {
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
    if (running && game.counts[index] !== undefined) {
      countField.hidden = false;
      countField.textContent = t("cards", { count: game.counts[index] });
      countField.setAttribute("aria-label", t("cards_label", { count: game.counts[index] }));
      countField.classList.toggle("low", game.counts[index] > 0 && game.counts[index] <= 5);
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

    const play = field("play");
    play.replaceChildren();
    const act = game ? state.lastActs[index] : null;
    play.classList.toggle("stale", Boolean(act && state.actsStale));
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
    dom.revealInfo.replaceChildren();
    dom.revealInfo.hidden = !(showStart && game.revealed);
    if (showStart && game.revealed) {
      const revealed = game.revealed;
      const names = (seat) => nameOf(game.dealPlayers[seat]); // reveal seats are before the swap
      const key = revealed.holder === revealed.twin_holder ? "reveal_same" : "reveal";
      dom.revealInfo.append(cardFace(revealed.card, false), " ",
        t(key, { card: cardLabel(revealed.card), holder: names(revealed.holder),
          twin_holder: names(revealed.twin_holder) }));
    }
    dom.swapInfo.hidden = !(showStart && game.swapped);
    if (showStart && game.swapped) {
      const [a, b] = game.swapped;
      dom.swapInfo.textContent = t("swap", { a: nameOf(game.dealPlayers[a]), b: nameOf(game.dealPlayers[b]) });
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
    const settlement = game.settlement;
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
        number(settlement ? settlement.points[seat] : null),
        number(settlement ? settlement.coins[seat] : null));
      row.lastElementChild.classList.add("coins-col"); // hidden in a points room
      return row;
    }));
    dom.resultSettlement.textContent = settlement ? "" : t("settling");
  }

  function renderTimers() {
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

  function render() {
    page.dataset.status = state.table.status;
    page.dataset.mySeat = mySeatAtTable() ? String(mySeatAtTable().index) : "";
    // Hooks for browser tests: the seq applied, and whether this page may move now.
    page.dataset.seq = String(state.seq);
    page.dataset.myTurn = myTurn() ? "true" : "false";
    dom.tableStatus.textContent = t("status_" + state.table.status);
    for (const section of dom.felt.querySelectorAll("section.seat")) {
      renderSeat(section);
    }
    renderCenter();
    renderHand();
    renderControls();
    renderResult();
    renderTimers();
  }

  // --- wiring ---------------------------------------------------------------------------------

  rememberNames(state.table);
  dom.hand.addEventListener("click", onHandClick);
  dom.hand.addEventListener("keydown", onHandKey);
  dom.play.addEventListener("click", playSelected);
  dom.pass.addEventListener("click", passTurn);
  dom.hint.addEventListener("click", askHint);
  dom.trustee.addEventListener("click", toggleTrustee);
  dom.leave.addEventListener("click", openLeaveDialog);
  dom.leaveCancel.addEventListener("click", () => dom.leaveDialog.close());
  dom.leaveConfirm.addEventListener("click", () => {
    send({ type: "leave" });
    dom.leaveDialog.close();
  });
  if (dom.readyForm) {
    dom.readyForm.addEventListener("submit", onReadySubmit);
  }
  if (dom.standForm) {
    dom.standForm.addEventListener("submit", onStandSubmit);
  }
  dom.sit.addEventListener("click", () => send({ type: "sit" }));
  dom.resultReady.addEventListener("click", () => send({ type: "ready", ready: true }));
  window.setInterval(renderTimers, 250);
  render();
  connect();
}());
