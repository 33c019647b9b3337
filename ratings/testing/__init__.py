"""Set-up shared by the ratings tests: rated games stored as the tables store them."""

from __future__ import annotations

from accounts.models import User
from games.models import GameRecord, Room
from games.testing.room_helpers import make_room
from games.testing.stored_games import stored_game


def rated_room(name: str = "排位 qq", rule_set: str = "qq", **fields) -> Room:
    return make_room(name, rule_set, rated=True, **fields)


def rated_game(room: Room, users: list[User], *, seed: int,
               bot_seats: tuple[int, ...] = ()) -> GameRecord:
    """The sample game of ``seed`` (games.engine.sample_games), ended, unsettled, dealt
    as rated when the room is; ``bot_seats``: seats marked as played by bots."""
    record = stored_game(room, users, seed=seed)
    record.rated = room.rated
    record.bot_seats = list(bot_seats)
    record.save(update_fields=["rated", "bot_seats"])
    return record


def engine_game(room: Room, users: list[User], bots: dict[int, str], *,
                seed: int) -> GameRecord:
    """A whole game of ``room``'s rule set played by the engine's bots, ``bots[user id]``
    (games.engine.ai: trustee, table, strong) playing for each person, stored ended,
    unsettled and rated as the room says: the simulated games of the rating tests."""
    from django.utils import timezone

    from games.engine.ai import decide, position_from_game
    from games.engine.game import Game
    from games.models import GameEvent, Table

    rules = room.rule_set.as_rule_set()
    game = Game.deal(rules, [user.pk for user in users], f"ratings:{seed}")
    step = 0
    while game.status == "playing":
        seat = game.turn
        action = decide(position_from_game(game, seat), bot=bots[game.players[seat]],
                        seed=seed * 7919 + step)
        step += 1
        if action == "pass":
            game.pass_turn(seat, by="bot")
        else:
            game.play(seat, action, by="bot")
    table, _ = Table.objects.get_or_create(room=room, number=1)
    record = GameRecord.objects.create(
        table=table, room=room, rule_set_name=rules.name, players=list(game.players),
        status=GameRecord.Status.ENDED, seq=len(game.events), result=game.result.to_dict(),
        terms=room.money_terms(), ended_at=timezone.now(), rated=room.rated)
    GameEvent.objects.bulk_create(GameEvent(game=record, seq=event["seq"], type=event["type"],
                                            data=event) for event in game.events)
    return record
