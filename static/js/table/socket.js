/* The table socket (docs/protocol.md, "Connecting"): one WebSocket, reopened with a
 * growing delay after it drops, except when the server closed it for good (4401: not
 * logged in; 4404: no such table). */

let socket = null;
let retry = 0;

/**
 * Opens the socket at ``path`` on this host. ``onMessage(message)`` gets each JSON
 * message; ``onStatus(status, key)`` each change: "connecting", "open" or "closed",
 * with the key of the page's string that says it.
 */
export function connect(path, { onMessage, onStatus }) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const opened = new WebSocket(scheme + "//" + location.host + path);
  socket = opened;
  onStatus("connecting", "connecting");
  opened.addEventListener("open", () => {
    retry = 0;
    onStatus("open", "connected");
  });
  opened.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    onMessage(message);
  });
  opened.addEventListener("close", (event) => {
    if (socket === opened) {
      socket = null;
    }
    if (event.code === 4401) {
      onStatus("closed", "login_needed");
      return;
    }
    if (event.code === 4404) {
      onStatus("closed", "no_table");
      return;
    }
    onStatus("closed", "reconnecting");
    const delay = reconnectDelay(retry);
    retry += 1;
    window.setTimeout(() => connect(path, { onMessage, onStatus }), delay);
  });
}

/**
 * Milliseconds to wait before reconnect number ``retry`` (0 first): a ceiling doubling
 * from 0.5 s to 10 s, and a draw between half of it and all of it (``random`` in
 * [0, 1)). A restarted server process drops every page it held at once; without the
 * draw they would all come back at the same instants, each with a snapshot to read.
 */
export function reconnectDelay(retry, random = Math.random()) {
  const ceiling = Math.min(10000, 500 * 2 ** retry);
  return Math.round(ceiling / 2 + (random * ceiling) / 2);
}

/** Sends ``message`` if the socket is open; returns whether it was sent. */
export function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}
