"""Replays of finished games: every step's state, computed from the event log.

State = fold(events) (GUIDE): frame *k* is the state after the log's first *k* events,
folded by the engine, so the replay page shows exactly what the table saw happen and
the page's script only steps through precomputed frames. Only finished games are
replayed: the log holds every hand, and hidden hands stay hidden while a game runs.

Every text a person reads is translated here (``gettext``), against the active
language of the request that renders the page.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.utils.translation import pgettext

from games.archive.captions import by_label, caption
from games.engine.game import Game
from games.vocabulary import card_text, reading_text


def fold(events: Sequence[dict]) -> Iterator[Game]:
    """The game after each event of ``events``, in order (one object, advanced in place).

    This is ``Game.replay`` one event at a time: replaying every prefix from the start
    would cost O(n²) applies for a page view. The replay tests prove each step equals
    ``Game.replay(events[:k])``.
    """
    game = Game()
    for event in events:
        game.apply(event)  # as Game.replay does
        yield game


def _table_entry(entry: Mapping[str, Any], wildcards: Sequence[str]) -> dict:
    if entry["action"] == "play":
        return {"action": "play", "cards": list(entry["cards"]),
                "text": reading_text(entry["reading"], entry["cards"], wildcards),
                "by": entry.get("by")}
    by = by_label(entry.get("by"))
    return {"action": "pass", "cards": [], "text": pgettext("replay action", "过"),
            "by": entry.get("by"), "note": by}


def build_frames(events: Sequence[dict], name=str, bots: frozenset = frozenset()) -> dict:
    """Every step of a finished game's log: ``frames`` (one per event, the state after
    it), ``tricks`` (where each trick starts, who led and who won) and ``cards`` (the
    name of every card dealt, for its face). ``name(user_id)`` names a player in the texts;
    ``bots`` are the user ids of server bots."""
    frames: list[dict] = []
    tricks: list[dict] = []
    table: list = []
    trick_index: int | None = None
    players_before: list = []
    for game in fold(events):
        event = game.events[-1]
        kind = event["type"]
        seats = len(game.hands)
        wildcards = game.rules.wildcards
        if kind == "play" and (trick_index is None or tricks[trick_index]["winner"] is not None):
            # The first play after the first lead or after a trick ended starts a trick.
            tricks.append({"number": len(tricks) + 1, "step": len(frames), "leader": event["seat"],
                           "lead": reading_text(event["reading"], event["cards"], wildcards),
                           "winner": None, "plays": 0})
            trick_index = len(tricks) - 1
        if kind == "play":
            tricks[trick_index]["plays"] += 1
        if kind == "trick":
            # The finished trick stays on the table for this step, under its result.
            tricks[trick_index]["winner"] = event["winner"]
            tricks[trick_index]["end"] = len(frames)
        else:
            table = [None] * seats
            for entry in game.trick:  # a later action of a seat replaces its earlier one
                table[entry["seat"]] = _table_entry(entry, wildcards)
        actor = event.get("seat") if isinstance(event.get("seat"), int) else None
        frames.append({
            "seq": event["seq"],
            "type": kind,
            "actor": actor,
            "caption": caption(event, game, players_before or list(game.players), name, bots),
            "players": list(game.players),
            "hands": [list(hand) for hand in game.hands],
            "table": list(table),
            # The play that wins the trick: on the trick's last step, its winner.
            "current": event["winner"] if kind == "trick"
            else game.current["seat"] if game.current else None,
            "turn": game.turn,
            "leader": game.leader,
            "finish": list(game.finish),
            "trustee": list(game.trustee),
            "escaped": list(game.escaped),
            "trick": trick_index,
        })
        players_before = list(game.players)
    dealt = sorted({code for hand in (frames[0]["hands"] if frames else []) for code in hand})
    return {"frames": frames, "tricks": tricks, "cards": {code: card_text(code) for code in dealt}}


def seat_value(values_by_key: Mapping[str, Any] | None, key: str, seat: int) -> Any:
    """``values_by_key[key][seat]`` of a result or a settlement; None when absent."""
    values = (values_by_key or {}).get(key)
    if not isinstance(values, list) or not 0 <= seat < len(values):
        return None
    return values[seat]


def settlement_rows(result: Mapping[str, Any] | None, settlement: Mapping[str, Any] | None,
                    players: Sequence, name) -> list[dict]:
    """The final settlement by seat, in finishing order: place, base, contributions,
    score (units), and the points and coins each seat received (None: not settled yet)."""
    if not result:
        return []
    finish = list(result.get("finish") or range(len(players)))
    winners = set(result.get("winners") or [])
    return [{
        "seat": seat, "place": place, "name": name(players[seat]),
        "winner": seat in winners, "escaped": result.get("escaped") == seat,
        "base": seat_value(result, "base", seat),
        "contribution": seat_value(result, "contributions", seat),
        "score": seat_value(result, "scores", seat),
        "points": seat_value(settlement, "points", seat),
        "coins": seat_value(settlement, "coins", seat),
    } for place, seat in enumerate(finish, start=1)]
