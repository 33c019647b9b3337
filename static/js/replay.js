/* Replay of a finished game: steps through frames the server computed from the
 * event log (games/archive/frames.py). No framework, no texts of its own: every string
 * comes from the page's "replay-strings" JSON block, every state from "replay-data".
 */
(function () {
  "use strict";

  var root = document.getElementById("replay");
  var dataBlock = document.getElementById("replay-data");
  if (!root || !dataBlock) {
    return;
  }
  var data = JSON.parse(dataBlock.textContent);
  var t = JSON.parse(document.getElementById("replay-strings").textContent);
  var frames = data.frames;
  var total = frames.length;
  if (!total) {
    return;
  }

  var step = clampStep(data.step);
  var seat = data.seat === null || data.seat === undefined ? null : data.seat;
  var timer = null;

  var board = document.getElementById("replay-board");
  var panels = Array.prototype.slice.call(board.querySelectorAll(".replay-seat"));
  var slider = document.getElementById("replay-slider");
  var counter = document.getElementById("replay-counter");
  var captionEl = document.getElementById("replay-caption");
  var logEl = document.getElementById("replay-log");
  var seatSelect = document.getElementById("replay-seat");
  var speedSelect = document.getElementById("replay-speed");
  var playButton = root.querySelector("[data-action=play]");
  var linkInput = document.getElementById("replay-link");
  var copiedEl = document.getElementById("replay-copied");
  var trickLinks = Array.prototype.slice.call(
    document.querySelectorAll("#replay-tricks [data-step]"));

  /* The analysis's marks by step (templates/analysis/_panel.html's "analysis-marks"):
   * read again when htmx swaps the panel in, once the analysis is done. */
  var marks = readMarks();

  function readMarks() {
    var block = document.getElementById("analysis-marks");
    return block ? JSON.parse(block.textContent) || {} : {};
  }

  function markBadge(mark) {
    var badge = el("span", "analysis-mark analysis-mark--" + (mark.mark === "??" ? "bad" : "doubtful"),
      mark.mark);
    badge.title = format(t.suggestion, { best: mark.best, loss: mark.loss.toFixed(1) });
    return badge;
  }

  var POSITIONS = data.seats === 2 ? ["bottom", "top"] : ["bottom", "right", "top", "left"];
  var LOG_LENGTH = 6;

  function clampStep(value) {
    var number = parseInt(value, 10);
    if (isNaN(number)) {
      return 1;
    }
    return Math.min(Math.max(number, 1), total);
  }

  function format(text, values) {
    return text.replace(/\{(\w+)\}/g, function (match, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? values[key] : match;
    });
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined && text !== null) {
      node.textContent = text;
    }
    return node;
  }

  /* A card face as the table draws it (static/js/cards.js, a small face), named by
   * the server (data.cards: translated, e.g. "♥10", "大王"). */
  function cardFace(code) {
    var name = data.cards[code] || code;
    var card = window.Cards.cardFace(code, name, false);
    card.title = name;
    return card;
  }

  function cardBack(count) {
    var back = el("span", "card back");
    back.title = t.hidden;
    back.appendChild(el("span", "card-count", format(t.cards, { count: count })));
    return back;
  }

  /* The seat that the perspective's player holds in this frame: before a 明牌 swap
   * the player may sit elsewhere (seats in the data are those after the swap). */
  function viewSeat(frame) {
    if (seat === null) {
      return null;
    }
    var index = frame.players.indexOf(data.players[seat]);
    return index < 0 ? seat : index;
  }

  function renderSeat(frame, index, mine) {
    var panel = panels[index];
    var user = frame.players[index];
    var name = data.people[String(user)] || String(user);
    var anchor = mine === null ? 0 : mine;
    var position = POSITIONS[(index - anchor + data.seats) % data.seats];
    panel.className = "replay-seat replay-seat--" + position +
      (frame.turn === index ? " replay-seat--turn" : "") +
      (mine === index ? " replay-seat--mine" : "");
    panel.querySelector(".replay-seat-name").textContent = name;

    var badges = panel.querySelector(".replay-seat-badges");
    badges.textContent = "";
    var place = frame.finish.indexOf(index);
    if (data.bots.indexOf(user) >= 0) {
      badges.appendChild(el("span", "badge", t.bot));
    }
    if (frame.turn === index) {
      badges.appendChild(el("span", "badge badge--turn", t.turn));
    } else if (frame.leader === index && frame.turn !== null) {
      badges.appendChild(el("span", "badge", t.leader));
    }
    if (place >= 0) {
      badges.appendChild(el("span", "badge badge--place", format(t.out, { place: place + 1 })));
    }
    if (frame.trustee[index]) {
      badges.appendChild(el("span", "badge", t.trustee));
    }
    if (frame.escaped.indexOf(index) >= 0) {
      badges.appendChild(el("span", "badge badge--escaped", t.escaped));
    }

    var hand = panel.querySelector(".replay-hand");
    hand.textContent = "";
    var cards = frame.hands[index];
    if (!cards.length) {
      hand.appendChild(el("span", "note", t.empty_hand));
    } else if (mine === null || mine === index) {
      cards.forEach(function (code) {
        hand.appendChild(cardFace(code));
      });
    } else {
      hand.appendChild(cardBack(cards.length));
    }

    var played = panel.querySelector(".replay-played");
    played.textContent = "";
    var entry = frame.table[index];
    played.className = "replay-played" + (frame.current === index ? " replay-played--winning" : "");
    if (entry) {
      var row = el("div", "card-row");
      entry.cards.forEach(function (code) {
        row.appendChild(cardFace(code));
      });
      played.appendChild(row);
      played.appendChild(el("div", "replay-reading",
        entry.text + (entry.note ? " · " + entry.note : "")));
    }
  }

  function render() {
    var frame = frames[step - 1];
    var mine = viewSeat(frame);
    for (var index = 0; index < panels.length && index < frame.hands.length; index++) {
      renderSeat(frame, index, mine);
    }
    captionEl.textContent = frame.caption;
    counter.textContent = format(t.step, { step: step, total: total });
    slider.value = String(step);

    logEl.textContent = "";
    for (var back = Math.max(0, step - LOG_LENGTH); back < step; back++) {
      var item = el("li", back === step - 1 ? "replay-log-current" : "", frames[back].caption);
      var mark = marks[String(frames[back].seq)];
      if (mark) {
        item.appendChild(document.createTextNode(" "));
        item.appendChild(markBadge(mark));
        item.appendChild(el("span", "analysis-suggestion",
          " " + format(t.suggestion, { best: mark.best, loss: mark.loss.toFixed(1) })));
      }
      logEl.appendChild(item);
    }

    trickLinks.forEach(function (link, number) {
      var current = frame.trick === number;
      link.classList.toggle("replay-trick--current", current);
      if (current) {
        link.setAttribute("aria-current", "step");
      } else {
        link.removeAttribute("aria-current");
      }
    });
    updateUrl();
  }

  function query() {
    return "?step=" + step + (seat === null ? "" : "&seat=" + seat);
  }

  function updateUrl() {
    var search = query();
    if (window.history && window.history.replaceState) {
      try {
        window.history.replaceState(null, "", data.url + search);
      } catch (error) {
        /* A page saved to disk cannot rewrite its address: the copy link still works. */
      }
    }
    if (linkInput) {
      linkInput.value = window.location.origin + data.url + search;
    }
    trickLinks.forEach(function (link) {
      link.setAttribute("href", "?step=" + link.getAttribute("data-step") +
        (seat === null ? "" : "&seat=" + seat));
    });
  }

  function go(target) {
    step = clampStep(target);
    render();
    if (step >= total) {
      stop();
    }
  }

  function delay() {
    return parseInt(speedSelect.value, 10) || 1000;
  }

  function play() {
    if (step >= total) {
      step = 1;
    }
    stop();
    timer = window.setInterval(function () {
      go(step + 1);
    }, delay());
    playButton.textContent = t.pause;
    playButton.setAttribute("aria-pressed", "true");
  }

  function stop() {
    if (timer !== null) {
      window.clearInterval(timer);
      timer = null;
    }
    playButton.textContent = t.play;
    playButton.setAttribute("aria-pressed", "false");
  }

  function copyLink() {
    var done = function (ok) {
      copiedEl.textContent = ok ? t.copied : t.copy_failed;
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(linkInput.value).then(function () {
        done(true);
      }, function () {
        done(false);
      });
    } else {
      linkInput.select();
      done(false);
    }
  }

  root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-action]");
    if (button) {
      var action = button.getAttribute("data-action");
      if (action === "first") { stop(); go(1); }
      if (action === "prev") { stop(); go(step - 1); }
      if (action === "next") { stop(); go(step + 1); }
      if (action === "last") { stop(); go(total); }
      if (action === "play") { if (timer === null) { play(); } else { stop(); } }
      if (action === "copy") { copyLink(); }
      return;
    }
    var link = event.target.closest("#replay-tricks [data-step], #replay-analysis a[data-step]");
    if (link) {
      event.preventDefault();
      stop();
      go(link.getAttribute("data-step"));
    }
  });

  document.body.addEventListener("htmx:afterSwap", function () {
    marks = readMarks();
    render();
  });

  slider.addEventListener("input", function () {
    stop();
    go(slider.value);
  });

  seatSelect.addEventListener("change", function () {
    seat = seatSelect.value === "" ? null : parseInt(seatSelect.value, 10);
    render();
  });

  speedSelect.addEventListener("change", function () {
    if (timer !== null) {
      play();
    }
  });

  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea" || event.altKey ||
        event.ctrlKey || event.metaKey) {
      return;
    }
    if (event.key === "ArrowRight") { stop(); go(step + 1); event.preventDefault(); }
    if (event.key === "ArrowLeft") { stop(); go(step - 1); event.preventDefault(); }
    if (event.key === "Home") { stop(); go(1); event.preventDefault(); }
    if (event.key === "End") { stop(); go(total); event.preventDefault(); }
  });

  render();
}());
