"""What the stats tests expect of the games games.testing.stored_games stores."""

from __future__ import annotations

from games.hooks.escapes import escapes_of
from games.models import GameEvent

BOMB_TYPES = {"bomb", "chain_bomb", "joker_bomb"}


def expected_for(user_id: int, records) -> dict:
    """What the stats of ``user_id`` must say, read from the games' own rows and logs
    (not from the stats tables)."""
    games = wins = escapes = 0
    kous: dict[str, list[int]] = {}
    groups: dict[tuple[str, str], list[int]] = {}
    bombs: dict[int, int] = {}
    for record in records:
        if user_id not in record.players:
            continue
        seat = record.players.index(user_id)
        result = record.result
        won = seat in result["winners"]
        games += 1
        wins += won
        # An escape is the game's escape event, or what fair play counts as one (a
        # disconnect without return in an end_game room): games.hooks.escapes.
        escapes += result["escaped"] == seat or record.pk in escapes_of(user_id, [record.pk])
        for bucket, key in ((kous, result["kou"]),
                            (groups, (record.rule_set_name, record.room.kind))):
            tally = bucket.setdefault(key, [0, 0])
            tally[0] += 1
            tally[1] += won
        for data in GameEvent.objects.filter(game=record, type="play") \
                .values_list("data", flat=True):
            reading = data.get("reading") or {}
            if data["seat"] == seat and reading.get("type") in BOMB_TYPES:
                bombs[reading["stars"]] = bombs.get(reading["stars"], 0) + 1
    return {"games": games, "wins": wins, "escapes": escapes, "kous": kous,
            "groups": groups, "bombs": dict(sorted(bombs.items()))}
