/* A tournament's page, live (docs/tournaments.md, "socket"): the tournament socket
 * sends its state on connect and after every change; the count, the round and the
 * standings are updated in place. When the tournament starts (or a new round seats
 * the player elsewhere) a registered player is taken to their table; any other change
 * of status reloads the page, whose server-rendered texts are in the reader's language.
 */
const root = document.getElementById("tournament");
if (root) {
  const id = root.dataset.tournament;
  const me = root.dataset.me;
  const registered = root.dataset.registered === "1";
  let status = root.dataset.status;
  let retry = 500;

  const setText = (selector, value) => {
    const element = root.querySelector(selector);
    if (element) element.textContent = String(value);
  };

  const renderStandings = (rows) => {
    const body = root.querySelector("[data-standings]");
    if (!body) return;
    body.replaceChildren(...rows.map((row) => {
      const tr = document.createElement("tr");
      tr.dataset.user = row.user;
      if (String(row.user) === me) tr.className = "mine";
      const cells = [[row.place, "num"], [row.name + (row.bot ? " 🤖" : ""), ""],
        [row.matchpoints, "num"], [row.score, "num"], [row.boards, "num"]];
      cells.forEach(([value, cls], index) => {
        const td = document.createElement("td");
        if (cls) td.className = cls;
        if (index === 2) td.dataset.mp = "";
        if (index === 4) td.dataset.boards = "";
        td.textContent = String(value);
        tr.append(td);
      });
      return tr;
    }));
  };

  const tableUrl = (table) => root.dataset.tableUrl.replace(/0\/?$/, `${table}/`);

  const onState = (state) => {
    setText("[data-field=count]", state.count);
    setText("[data-field=round]", state.round);
    renderStandings(state.standings);
    const table = me ? state.tables[me] : undefined;
    const link = root.querySelector("[data-my-table]");
    if (table && link) {
      link.hidden = false;
      link.querySelector("a").href = tableUrl(table);
    }
    if (state.status !== status) {
      const started = status === "registering" && state.status === "running";
      status = state.status;
      if (started && registered && table) {
        window.location.assign(tableUrl(table));
      } else {
        window.location.reload();
      }
    }
  };

  const connect = () => {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${window.location.host}/ws/tournament/${id}/`);
    socket.addEventListener("open", () => { retry = 500; root.dataset.live = "1"; });
    socket.addEventListener("message", (event) => onState(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      root.dataset.live = "0";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    });
  };
  connect();
}
