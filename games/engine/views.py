"""What a game shows: a seat's or a spectator's view, the whole state for audits,
and events as a viewer may see them (RULES §11, GUIDE). Read-only over a
:class:`~games.engine.game.Game`."""

from __future__ import annotations

from typing import Any

from .cards import RANK_TOKENS
from .scoring import BombRecord


def game_view(game: Any, seat: int | None) -> dict:
    """What ``seat`` may see: its own hand, the others' counts, the table and the
    history; ``None`` is a spectator, who sees no hand."""
    return {
        "seq": len(game.events),
        "status": game.status,
        "rules": game.rules.name,
        "players": game.players,
        "seat": seat,
        "hand": list(game.hands[seat]) if seat is not None else None,
        "hand_counts": [len(hand) for hand in game.hands],
        "turn": game.turn,
        "leader": game.leader,
        "current": game.current,
        "trick": game.trick,
        "finish": game.finish,
        "trustee": game.trustee,
        "timeouts": game.timeouts,
        "revealed": game.revealed,
        "swapped": game.swapped,
        "escaped": game.escaped,
        "result": game.result.to_dict() if game.result else None,
        "history": [event_for(event, seat) for event in game.events],
    }


def game_state(game: Any) -> dict:
    """The whole state as JSON, hands included (for audits and replay checks)."""
    view = game_view(game, None)
    view.pop("history")
    view.update(hands=[list(hand) for hand in game.hands], passes=game.passes,
                bombs=[vars_of(bomb) for bomb in game.bombs], plays=game.plays,
                seed=game.seed, stake=game.stake, coins=game.coins,
                auto_pass=game.auto_pass, escape_mode=game.escape_mode)
    return view


def vars_of(bomb: BombRecord) -> dict:
    return {"seat": bomb.seat, "kind": bomb.kind, "stars": bomb.stars, "size": bomb.size,
            "rank": RANK_TOKENS[bomb.rank]}


def event_for(event: dict, seat: int | None) -> dict:
    """An event as a seat or a spectator may see it. The deal keeps only the card
    counts: each seat's own cards reach it through its view (RULES §11, GUIDE)."""
    if event["type"] != "deal":
        return event
    public = {key: value for key, value in event.items() if key not in ("hands", "seed")}
    public["hand_counts"] = [len(hand) for hand in event["hands"]]
    return public
