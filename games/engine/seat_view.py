"""What one seat (or a spectator) knows, kept up to date from public events.

A view has the shape :meth:`Game.view` returns. A client loads one from a snapshot
and then folds in the public events of the table socket (``event_for(event,
None)``: the deal without hands and seed) with :func:`apply_event` or
:func:`fold`. Everything is derived from the events alone, by the rules of
:class:`~games.engine.game.Game` (its ``_on_*`` folds): a play or a pass moves
the turn to the next seat that still holds cards; the ``trick`` event clears the
table and names the next leader (接风 included); a 明牌 ``swap`` moves players,
card counts and the viewer's own seat (the viewer keeps their hand).

The fold is checked against ``Game.view`` at every step of seeded games of all
four presets (games/engine/tests/test_seat_view.py). Standard library only.

Keys a socket snapshot adds to the view are kept; ``settlement`` (if present)
is filled by the ``settled`` event, the others (``id``, ``deadline``) are the
caller's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .turns import next_seat

View = dict[str, Any]


class SeqGap(ValueError):
    """An event does not follow the view's ``seq``: some events were missed, and
    only a fresh snapshot can repair the view."""


def new_view(deal: dict, player: Any = None) -> View:
    """The view right after a public ``deal`` event for ``player`` (None: the
    spectator). A seat's own cards are not in public events: ``hand`` is None
    until a snapshot brings it (the server sends one to each seat at the deal)."""
    if deal["type"] != "deal" or deal["seq"] != 1:
        raise ValueError("a view starts from the game's deal (seq 1)")
    players = list(deal["players"])
    seat = players.index(player) if player is not None and player in players else None
    seats = len(players)
    return {
        "seq": 1,
        "status": "dealt",
        "rules": deal["rules"]["name"],
        "players": players,
        "seat": seat,
        "hand": None,
        "hand_counts": list(deal["hand_counts"]),
        "turn": None,
        "leader": None,
        "current": None,
        "trick": [],
        "finish": [],
        "trustee": [False] * seats,
        "timeouts": [0] * seats,
        "revealed": None,
        "swapped": None,
        "escaped": [],
        "result": None,
        "history": [deal],
    }


def apply_event(view: View, event: dict) -> None:
    """Fold one public event into ``view`` (in place). It must be the next event:
    ``event["seq"] == view["seq"] + 1``, else :class:`SeqGap`."""
    if event["seq"] != view["seq"] + 1:
        raise SeqGap(f"event {event['seq']} does not follow seq {view['seq']}")
    kind = event["type"]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise ValueError(f"cannot fold a {kind!r} event into a view"
                         + (": a deal starts a new view (new_view)" if kind == "deal" else ""))
    handler(view, event)
    view["seq"] = event["seq"]
    if "history" in view:
        view["history"].append(event)


def fold(view: View, events: Iterable[dict]) -> View:
    """Fold ``events`` into ``view`` in order and return it. Events the view already
    holds (``seq`` not above the view's) are skipped; a gap raises :class:`SeqGap`."""
    for event in events:
        if event["seq"] > view["seq"]:
            apply_event(view, event)
    return view


# --- one fold per event type, as Game._on_* and Game._after_action decide ----------------

def _reveal(view: View, event: dict) -> None:
    view["revealed"] = {key: event[key] for key in ("card", "holder", "twin", "twin_holder")}


def _swap(view: View, event: dict) -> None:
    a, b = event["seats"]
    view["swapped"] = [a, b]
    for key in ("players", "hand_counts"):
        values = view[key]
        values[a], values[b] = values[b], values[a]
    # The viewer keeps their own cards and follows them to the other seat.
    if view["seat"] == a:
        view["seat"] = b
    elif view["seat"] == b:
        view["seat"] = a


def _first_lead(view: View, event: dict) -> None:
    view["status"] = "playing"
    view["leader"] = view["turn"] = event["seat"]


def _play(view: View, event: dict) -> None:
    seat = event["seat"]
    cards = list(event["cards"])
    hand = view["hand"]
    if seat == view["seat"] and hand is not None:
        for code in cards:
            hand.remove(code)  # keeps the server's order (sorted at the deal)
    view["hand_counts"][seat] -= len(cards)
    view["current"] = {"seat": seat, "cards": cards, "reading": event["reading"]}
    view["trick"].append({"seat": seat, "action": "play", "cards": cards,
                          "reading": event["reading"], "by": event["by"]})
    view["turn"] = _next_seat(view, seat)


def _pass(view: View, event: dict) -> None:
    seat = event["seat"]
    view["trick"].append({"seat": seat, "action": "pass", "by": event["by"]})
    view["turn"] = _next_seat(view, seat)


def _out(view: View, event: dict) -> None:
    view["finish"].append(event["seat"])


def _trick(view: View, event: dict) -> None:
    # The event names the next leader: the winner, or its partner by 接风 (RULES §3).
    view["current"] = None
    view["trick"] = []
    view["leader"] = view["turn"] = event["leader"]


def _timeout(view: View, event: dict) -> None:
    view["timeouts"][event["seat"]] = event["count"]


def _trustee(view: View, event: dict) -> None:
    view["trustee"][event["seat"]] = event["on"]


def _escape(view: View, event: dict) -> None:
    view["escaped"].append(event["seat"])


def _end(view: View, event: dict) -> None:
    view["status"] = "ended"
    view["turn"] = None
    view["result"] = dict(event["result"])


def _settled(view: View, event: dict) -> None:
    """The platform's settlement: nothing of the game changes."""
    if "settlement" in view:  # a socket snapshot's extra key (games.live.snapshots.game_view)
        view["settlement"] = {key: value for key, value in event.items()
                              if key not in ("seq", "type")}


def _next_seat(view: View, seat: int) -> int | None:
    return next_seat_holding(view["hand_counts"], seat)


def next_seat_holding(counts: list[int], seat: int) -> int | None:
    """The next seat after ``seat`` that still holds cards, given each seat's count."""
    return next_seat(counts, seat)


_HANDLERS = {
    "reveal": _reveal,
    "swap": _swap,
    "first_lead": _first_lead,
    "play": _play,
    "pass": _pass,
    "out": _out,
    "trick": _trick,
    "timeout": _timeout,
    "trustee": _trustee,
    "escape": _escape,
    "end": _end,
    "settled": _settled,
}


class FollowsView:
    """What a client reads off the view it keeps (``self.view``: a socket snapshot's
    game, folded forward), shared by the Python clients: the load test's socket
    player and the live tests' TableClient. Each reads None (0 for ``seq``) before
    a snapshot has brought a view."""

    view: View | None = None
    heard: dict | None = None  # the last heartbeat (see behind)

    @property
    def game_id(self) -> int | None:
        return self.view["id"] if self.view else None

    @property
    def seq(self) -> int:
        return self.view["seq"] if self.view else 0

    @property
    def seat(self) -> int | None:
        return self.view["seat"] if self.view else None

    @property
    def hand(self) -> list[str] | None:
        return self.view["hand"] if self.view else None

    @property
    def turn(self) -> int | None:
        return self.view["turn"] if self.view else None

    @property
    def current(self) -> dict | None:
        return self.view["current"] if self.view else None

    @property
    def status(self) -> str | None:
        return self.view["status"] if self.view else None

    def behind(self, heartbeat: dict) -> bool:
        """Whether, at this ``heartbeat`` (docs/protocol.md), the view is still short of
        where the *previous* heartbeat put the table. A heartbeat goes straight down
        the socket and may overtake events still on their way through the channel
        layer, so one reading ahead of the view says nothing; a whole period later
        those events have come, and a view still short of it lost some
        that only a snapshot can repair. Asking at the first reading ahead sent every
        client of a busy server for a snapshot each period."""
        previous, self.heard = self.heard, heartbeat
        return previous is not None and self.ahead(previous)

    def ahead(self, heartbeat: dict) -> bool:
        """Whether ``heartbeat`` shows the table ahead of this view: a game this client
        has not seen, or a seq past its own."""
        game = heartbeat.get("game")
        if game is None:
            return False  # a table that has never dealt: nothing to have missed
        if self.game_id is None or game > self.game_id:
            return True  # game ids grow: a later game than this view's
        # An older game: a reading taken before this view's deal (the server may reuse
        # one for a moment), not a loss.
        return game == self.game_id and heartbeat.get("seq", 0) > self.seq
