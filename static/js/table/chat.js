/* Quick chat (docs/protocol.md, "chat"): a fixed list of phrases and emotes
 * (config.chat), sent as {"type": "chat", "phrase": id}; what a seat says shows by the
 * seat for a few seconds, unless I muted that player (by user id, ./prefs.js). A
 * refusal (chat_rate, chat_not_seated, chat_unknown) is an `error` message: the page
 * shows its text like any other. */

import { config, dom, nameOf, page, state, t } from "./page.js";
import { loadPref, savePref } from "./prefs.js";
import { send } from "./socket.js";

const SHOW_MS = 5000;
const phrases = new Map((config.chat || []).map((phrase) => [phrase.id, phrase]));
let muted = new Set();
// Players I blocked (friends, GET /api/friends/blocked): their chat never shows.
const blocked = new Set();
const timers = new Map();

/** The user at a seat of the table now, or null. */
function userAt(seat) {
  const tableSeat = state.table.seats[seat];
  return tableSeat ? tableSeat.user : null;
}

/** A `chat` message: show it by its seat unless its player is muted. */
export function showChat(message) {
  // A hook for browser tests: how many chat messages this page has handled, shown or not.
  page.dataset.chatHeard = String(Number(page.dataset.chatHeard || 0) + 1);
  const phrase = phrases.get(message.phrase);
  const user = message.user !== undefined ? message.user : userAt(message.seat);
  if (!phrase || (user !== null && (muted.has(user) || blocked.has(user)))) {
    return;
  }
  const section = document.getElementById("seat-" + message.seat);
  if (!section) {
    return;
  }
  const bubble = section.querySelector('[data-field="chat"]');
  bubble.textContent = phrase.text;
  bubble.classList.toggle("emote", Boolean(phrase.emote));
  bubble.dataset.phrase = phrase.id;
  bubble.setAttribute("aria-label", t("chat_said", { name: user === null ? "" : nameOf(user),
    text: phrase.text }));
  bubble.hidden = false;
  window.clearTimeout(timers.get(message.seat));
  timers.set(message.seat, window.setTimeout(() => {
    bubble.hidden = true;
  }, SHOW_MS));
}

/** The mute boxes: one for each other player at the table now. */
export function renderChatMutes() {
  if (dom.chatPicker.hidden) {
    return;
  }
  const others = state.table.seats.filter((seat) => seat.user !== null && seat.user !== config.user);
  const key = others.map((seat) => seat.user + ":" + seat.name).join(",");
  if (dom.chatMutes.dataset.key === key) {
    return;
  }
  dom.chatMutes.dataset.key = key;
  dom.chatMutes.hidden = others.length === 0;
  const legend = dom.chatMutes.querySelector("legend");
  dom.chatMutes.replaceChildren(legend, ...others.map((seat) => {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.dataset.user = String(seat.user);
    box.checked = muted.has(seat.user);
    box.addEventListener("change", () => {
      if (box.checked) {
        muted.add(seat.user);
      } else {
        muted.delete(seat.user);
      }
      savePref("chat-muted", Array.from(muted));
    });
    label.append(box, " ", t("chat_mute", { name: seat.name }));
    return label;
  }));
}

export function setupChat() {
  muted = new Set(loadPref("chat-muted", []));
  loadBlocked();
  if (!phrases.size) {
    return; // the server offers no quick chat
  }
  dom.chatPicker.hidden = false;
  dom.chatPhrases.replaceChildren(...Array.from(phrases.values()).map((phrase) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chat-phrase" + (phrase.emote ? " emote" : "");
    button.dataset.phrase = phrase.id;
    button.textContent = phrase.text;
    button.addEventListener("click", () => {
      if (send({ type: "chat", phrase: phrase.id })) {
        dom.chatPicker.open = false;
      }
    });
    return button;
  }));
}

/**
 * The picker: its phrases for a seated player only (spectators cannot speak:
 * chat_not_seated), its mute boxes for everyone who sees the table.
 */
export function renderChatPicker(seated) {
  if (phrases.size) {
    dom.chatPhrases.hidden = !seated;
  }
  renderChatMutes();
}

/** Whom I blocked: read once; a spectator's page without an account reads nothing. */
function loadBlocked() {
  if (!config.user) {
    return;
  }
  fetch("/api/friends/blocked", { credentials: "same-origin" })
    .then((response) => (response.ok ? response.json() : { users: [] }))
    .then((body) => {
      (body.users || []).forEach((user) => blocked.add(user));
      page.dataset.chatBlocked = String(blocked.size);
    })
    .catch(() => {});
}
