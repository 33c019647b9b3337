/* The client's fold of a game (docs/protocol.md, "The client's fold"): the view of one
 * viewer, in the shape of the server's `Game.view` (games/engine/game.py), moved on by
 * the public events of `events` messages. Each step follows the engine's `_on_*`
 * handlers and `_after_action`, from the events alone: the next seat with cards after a
 * play or pass, the trick's end and 接风, the 明牌 swap moving the viewer's seat and
 * hand, places, timeouts, 托管, escapes and the end.
 *
 * Pure: no DOM, no globals. The page (./main.js) and the Node tests
 * (static/js/tests/protocol.test.mjs, against logs recorded from the Python engine)
 * import the same code.
 *
 * A view has the keys seq, status, rules, players, seat, hand, hand_counts, turn,
 * leader, current, trick, finish, trustee, timeouts, revealed, swapped, escaped, result
 * and history (the public events so far). The snapshot's platform fields (id,
 * settlement, deadline) are not part of it: the page keeps them beside the view.
 */

/** Thrown when events do not follow on from the view: the caller resyncs. */
export class FoldError extends Error {}

/**
 * The view after ``events``, starting from ``view`` (a snapshot's game, or null before
 * the deal). ``view`` is left as it was. ``user`` is the viewer's player id, needed only
 * to find the viewer's seat in a deal (a seated viewer's view carries its own player).
 */
export function fold(view, events, user) {
  let state = view === null ? null : copyView(view);
  const viewer = viewerOf(view, user);
  for (const event of events) {
    state = step(state, event, viewer);
  }
  return state;
}

/**
 * Like fold, one event at a time: yields the view after each event. The view yielded is
 * the same object each time, moved on in place (a deal starts a new one).
 */
export function* foldSteps(view, events, user) {
  let state = view === null ? null : copyView(view);
  const viewer = viewerOf(view, user);
  for (const event of events) {
    state = step(state, event, viewer);
    yield state;
  }
}

/** A fresh view from a deal event (the table hears it without hands). */
export function dealtView(deal, user) {
  const seats = deal.players.length;
  const seat = user === undefined || user === null ? -1 : deal.players.indexOf(user);
  return {
    seq: deal.seq,
    status: "dealt",
    rules: deal.rules.name,
    players: deal.players.slice(),
    seat: seat >= 0 ? seat : null,
    // A seat's own cards are not in the public deal: its snapshot brings them.
    hand: null,
    hand_counts: deal.hand_counts.slice(),
    turn: null,
    leader: null,
    current: null,
    trick: [],
    finish: [],
    trustee: new Array(seats).fill(false),
    timeouts: new Array(seats).fill(0),
    revealed: null,
    swapped: null,
    escaped: [],
    result: null,
    history: [deal],
  };
}

function viewerOf(view, user) {
  if (user !== undefined) {
    return user;
  }
  return view && view.seat !== null && view.seat !== undefined ? view.players[view.seat] : null;
}

/** A copy to move on; the events of the history are shared (they are never changed). */
function copyView(view) {
  const { history, ...rest } = view;
  return { ...structuredClone(rest), history: (history || []).slice() };
}

function step(view, event, viewer) {
  if (event.type === "deal") {
    return dealtView(event, viewer); // a new game starts over
  }
  if (view === null) {
    throw new FoldError("event " + event.seq + " (" + event.type + ") before the deal");
  }
  if (event.seq !== view.seq + 1) {
    throw new FoldError("event " + event.seq + " does not follow seq " + view.seq);
  }
  const handler = HANDLERS[event.type];
  if (!handler) {
    throw new FoldError("unknown event type " + JSON.stringify(event.type));
  }
  handler(view, event);
  view.seq = event.seq;
  view.history.push(event);
  return view;
}

/** The next seat after ``seat`` that still holds cards (Game._next_seat). */
function nextSeat(view, seat) {
  const seats = view.hand_counts.length;
  for (let offset = 1; offset <= seats; offset += 1) {
    const candidate = (seat + offset) % seats;
    if (view.hand_counts[candidate] > 0) {
      return candidate;
    }
  }
  return null;
}

const HANDLERS = {
  reveal(view, event) {
    view.revealed = { card: event.card, holder: event.holder, twin: event.twin,
      twin_holder: event.twin_holder };
  },

  swap(view, event) {
    // Players swap seats, hands and all: the viewer's own hand goes with them.
    const [a, b] = event.seats;
    view.swapped = [a, b];
    for (const list of [view.players, view.hand_counts]) {
      [list[a], list[b]] = [list[b], list[a]];
    }
    if (view.seat === a) {
      view.seat = b;
    } else if (view.seat === b) {
      view.seat = a;
    }
  },

  first_lead(view, event) {
    view.status = "playing";
    view.leader = event.seat;
    view.turn = event.seat;
  },

  play(view, event) {
    const seat = event.seat;
    view.hand_counts[seat] -= event.cards.length;
    if (seat === view.seat && view.hand !== null) {
      const played = new Set(event.cards);
      view.hand = view.hand.filter((code) => !played.has(code));
    }
    view.current = { seat, cards: event.cards.slice(), reading: structuredClone(event.reading) };
    view.trick.push({ seat, action: "play", cards: event.cards.slice(),
      reading: structuredClone(event.reading), by: event.by });
    view.turn = nextSeat(view, seat);
  },

  pass(view, event) {
    view.trick.push({ seat: event.seat, action: "pass", by: event.by });
    view.turn = nextSeat(view, event.seat);
  },

  out(view, event) {
    view.finish.push(event.seat);
  },

  trick(view, event) {
    // The leader is the winner, or the partner of a winner who went out (接风).
    view.current = null;
    view.trick = [];
    view.leader = event.leader;
    view.turn = event.leader;
  },

  timeout(view, event) {
    view.timeouts[event.seat] = event.count;
  },

  trustee(view, event) {
    view.trustee[event.seat] = event.on;
  },

  escape(view, event) {
    view.escaped.push(event.seat);
  },

  end(view, event) {
    view.status = "ended";
    view.turn = null;
    view.result = structuredClone(event.result);
  },

  settled() {
    // The platform's settlement: money, not rules. It only takes a seq.
  },
};

// --- what the page reads from a view, beyond its fields --------------------------------

/** The game's deal event (its rules, and the players by seat before any swap). */
export function dealOf(view) {
  return view ? view.history.find((event) => event.type === "deal") || null : null;
}

/**
 * The settlement of the game, from its `settled` event (null until it is settled): the
 * points and coins by seat, and the result report when the event carries one.
 */
export function settlementOf(view) {
  const settled = view ? view.history.find((event) => event.type === "settled") : null;
  if (!settled) {
    return null;
  }
  const { seq, type, ...fields } = settled;
  return fields;
}

/**
 * What lies on the table by seat: this trick's plays and passes, or when a trick has
 * just ended and the next has not begun, the last trick's (``stale``: shown dimmed).
 */
export function tableActs(view) {
  const acts = {};
  if (!view) {
    return { acts, stale: false };
  }
  if (view.trick.length) {
    for (const act of view.trick) {
      acts[act.seat] = act;
    }
    return { acts, stale: false };
  }
  // The trick is empty: show the one the last `trick` event closed, if no action followed.
  const history = view.history;
  let end = history.length - 1;
  while (end >= 0 && history[end].type !== "trick") {
    if (history[end].type === "play" || history[end].type === "pass") {
      return { acts, stale: false };
    }
    end -= 1;
  }
  if (end < 0) {
    return { acts, stale: false };
  }
  for (let index = end - 1; index >= 0; index -= 1) {
    const event = history[index];
    if (event.type === "trick" || event.type === "first_lead") {
      break;
    }
    if (event.type === "play") {
      acts[event.seat] = acts[event.seat] || { seat: event.seat, action: "play",
        cards: event.cards, reading: event.reading, by: event.by };
    } else if (event.type === "pass") {
      acts[event.seat] = acts[event.seat] || { seat: event.seat, action: "pass", by: event.by };
    }
  }
  return { acts, stale: true };
}

/**
 * Whether a ``heartbeat`` (docs/protocol.md, "heartbeat") shows the table ahead of the
 * page: a later game than the page's, or a seq past its own. Events were lost without
 * a gap the page could see, and only a snapshot repairs that. Game ids
 * grow: an older game's heartbeat is a reading from before the page's deal, not a loss.
 */
export function heartbeatAhead(heartbeat, gameId, seq) {
  if (heartbeat.game === null || heartbeat.game === undefined) {
    return false; // the table has never dealt
  }
  if (gameId === null || gameId === undefined || heartbeat.game > gameId) {
    return true;
  }
  return heartbeat.game === gameId && heartbeat.seq > seq;
}
