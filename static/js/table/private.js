/* A private table's panel (好友房, templates/games/_private_table_panel.html): the page
 * reloads it from the server (config.private_panel) whenever the seats change or a
 * game is settled, so that the host's 移除 buttons, the series score and a closed
 * table show at once, without a reload. A player who loses their seat here (removed
 * by the host, or the table closed) is told which, and a closed table offers no seat. */

import { config, state, t } from "./page.js";

let loading = false;
let again = false;

/** The panel as the page has it now (null at a public table). */
export function privatePanel() {
  return document.getElementById("private-panel");
}

/** Whether the host has closed this private table. */
export function privateClosed() {
  const panel = privatePanel();
  return Boolean(panel && panel.dataset.closed === "true");
}

/** Loads the panel again; one request at a time, and one more if asked meanwhile. */
export function refreshPrivatePanel() {
  if (!config.private_panel || !privatePanel()) {
    return;
  }
  if (loading) {
    again = true;
    return;
  }
  loading = true;
  fetch(config.private_panel, { credentials: "same-origin" })
    .then((response) => (response.ok ? response.text() : null))
    .then((html) => {
      const current = privatePanel();
      if (html && current) {
        const template = document.createElement("template");
        template.innerHTML = html.trim();
        const fresh = template.content.firstElementChild;
        if (fresh) {
          current.replaceWith(fresh);
        }
      }
      // A seat change came while this request was on its way: its answer may be from
      // before the change (the seats emptied by a close, the panel not yet closed), so
      // the next request's answer tells why the seat was lost.
      if (!again) {
        tellLostSeat();
      }
    })
    .catch(() => {})
    .finally(() => {
      loading = false;
      if (again) {
        again = false;
        refreshPrivatePanel();
      }
    });
}

/** Called when the seats change: whether I just lost my seat without standing up. */
export function noteSeatChange(wasSeated, isSeated) {
  if (wasSeated && !isSeated && !state.standing && config.private_panel) {
    state.lostSeat = true;
  }
  if (isSeated) {
    state.standing = false;
  }
  refreshPrivatePanel();
}

function tellLostSeat() {
  const page = document.getElementById("table-page");
  const closed = privateClosed();
  if (closed) {
    page.dataset.privateState = "closed";
  }
  if (!state.lostSeat) {
    return;
  }
  state.lostSeat = false;
  page.dataset.privateState = closed ? "closed" : "removed";
  // main.js shows the notice and draws again (the seat buttons read privateClosed()):
  // this module imports no drawing, so that the modules import each other in one
  // direction (the static files' hashed names need it).
  document.dispatchEvent(new CustomEvent("private-panel", {
    detail: { notice: t(closed ? "private_closed_notice" : "private_removed_notice") },
  }));
}
