"""Ended games from the engine's seeded sample games (games.engine.sample_games),
stored as the tables store them: what the stats' and the analysis's tests read."""

from __future__ import annotations

from django.utils import timezone

from games.engine.game import Game
from games.engine.sample_games import sample_log, sample_players
from games.models import GameEvent, GameRecord, Room, Table


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
