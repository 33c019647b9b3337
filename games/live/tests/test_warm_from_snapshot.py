"""A socket's snapshot keeps its game's engine for the table's next action
(games.live.warm_engines.offer): a socket that fails over to a process that never
loaded its table's game plays without a trip to the database thread."""

import pytest

from accounts.models import User
from games.engine.game import Game
from games.live import warm_engines
from games.models import GameRecord
from games.testing.live_helpers import TableClient, run
from games.testing.turn_helpers import a_legal_move, event_log, game_at_alices_turn

pytestmark = pytest.mark.django_db(transaction=True)


def forget(record: GameRecord) -> None:
    """This process as one that never saw the game (another process dealt it)."""
    warm_engines.take(record.pk)
    warm_engines._table_games.pop(record.table_id, None)


def test_the_first_action_after_a_snapshot_needs_no_database_thread(bots_wait, monkeypatch):
    record, seat, alice = game_at_alices_turn("failover")
    forget(record)
    action, cards = a_legal_move(Game.replay(event_log(record.pk)), seat)
    trips = []
    load, current_game = warm_engines.load, warm_engines.current_game
    monkeypatch.setattr(warm_engines, "load",
                        lambda game_id: trips.append("load") or load(game_id))
    monkeypatch.setattr(warm_engines, "current_game",
                        lambda table_id: trips.append("current") or current_game(table_id))
    player = User.objects.get(pk=alice)

    async def scenario():
        client = TableClient(player, record.table_id)
        snapshot = await client.connect()
        kept = warm_engines.table_game(record.table_id)
        await client.send({"type": action, "seq": record.seq,
                           **({"cards": cards} if cards is not None else {})})
        events = await client.expect("events")
        await client.close()
        return snapshot, kept, events

    snapshot, kept, events = run(scenario)
    assert snapshot["game"]["seq"] == record.seq and kept == record.pk
    assert events["events"][0]["seat"] == seat and events["seq"] > record.seq
    assert trips == []
    written = event_log(record.pk)[record.seq]  # the action's event, as committed
    assert written["seat"] == seat and written["type"] == action


def test_an_ended_game_is_not_kept_and_a_kept_engine_is_not_replaced(bots_wait):
    record, _seat, _alice = game_at_alices_turn("kept")
    forget(record)
    record = GameRecord.objects.get(pk=record.pk)
    made = []

    def engine() -> Game:
        made.append(1)
        return Game.replay(event_log(record.pk))

    assert warm_engines.offer(record, engine)
    assert not warm_engines.offer(record, engine)  # one kept already: nothing made
    assert made == [1]
    kept = warm_engines.take(record.pk)
    assert kept.seq == record.seq and kept.facts.table_id == record.table_id
    assert warm_engines.table_game(record.table_id) == record.pk

    record.status = GameRecord.Status.ENDED
    assert not warm_engines.offer(record, engine) and made == [1]
    assert warm_engines.take(record.pk) is None
