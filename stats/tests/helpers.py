"""Settled games for the stats tests, from the engine's seeded sample games
(games.engine.sample_games), stored as the tables store them."""

from __future__ import annotations

from django.utils import timezone

from games.engine.game import Game
from games.engine.sample_games import sample_log, sample_players
from games.models import GameEvent, GameRecord, Room, Table

BOMB_TYPES = {"bomb", "chain_bomb", "joker_bomb"}


def stored_game(room: Room, users, *, seed: int, settled: bool = False) -> GameRecord:
    """The sample game of ``room``'s rule set and ``seed``, ended, with ``users`` in the
    sample's players' places (user ``users[i]`` plays sample player i), its log stored
    without the sample's own ``settled`` event; ``settled``: as if settled before the
    stats existed (no facts stored)."""
    rule_set = room.rule_set.name
    events = [event for event in sample_log(rule_set, seed) if event["type"] != "settled"]
    game = Game.replay(events)
    by_sample = {sample: user.pk for sample, user in zip(sample_players(rule_set), users,
                                                         strict=True)}
    table, _ = Table.objects.get_or_create(room=room, number=1)
    record = GameRecord.objects.create(
        table=table, room=room, rule_set_name=rule_set,
        players=[by_sample[player] for player in game.players],
        status=GameRecord.Status.ENDED, seq=len(events), result=game.result.to_dict(),
        terms=room.money_terms(), ended_at=timezone.now(),
        settled_at=timezone.now() if settled else None)
    GameEvent.objects.bulk_create(GameEvent(game=record, seq=event["seq"], type=event["type"],
                                            data=event) for event in events)
    return record


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
        escapes += result["escaped"] == seat
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
