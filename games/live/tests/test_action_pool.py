"""A table socket's action from the event loop (games.live.action_pool): it
needs neither the process's database thread nor a connection left behind."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from contextlib import asynccontextmanager

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games.engine.game import Game
from games.errors import ActionError
from games.live import action_pool, warm_engines
from games.live.append import row_seq
from games.live.game_queue import queued_games
from games.live.lifecycle.act import game_act_on_loop
from games.live.seating import room_quick_join
from games.live.table_socket import act_at_table
from games.models import GameRecord
from games.testing.live_helpers import (
    TableClient,
    connect_all,
    make_person,
    make_room,
    run,
    start_game,
)
from games.testing.turn_helpers import a_legal_move, event_log, game_at_alices_turn

pytestmark = pytest.mark.django_db(transaction=True)

def _action_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s "
                       "AND datname = current_database()", [action_pool.application_name()])
        return cursor.fetchone()[0]


@asynccontextmanager
async def database_thread_held():
    """Hold the process's database thread (a long read on it, say) until the block ends;
    yields the holding future, done only once released."""
    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        entered.set()
        release.wait(30)

    holding = asyncio.ensure_future(database_sync_to_async(hold)())
    while not entered.is_set():
        await asyncio.sleep(0.01)
    try:
        yield holding
    finally:
        release.set()
        await holding


def test_an_action_lands_while_the_database_thread_is_held(bots_wait):
    record, seat, alice = game_at_alices_turn("held")
    action, cards = a_legal_move(Game.replay(event_log(record.pk)), seat)
    payload = {"cards": cards} if action == "play" else {}

    async def scenario():
        async with database_thread_held() as holding:
            await act_at_table(record.table_id, alice, action, record.seq, payload)
            return await row_seq(record.pk, action_pool.execute), holding.done()

    seq, thread_was_free = run(scenario)
    assert thread_was_free is False  # the thread was held all along
    assert seq > record.seq  # and the action still landed
    assert GameRecord.objects.get(pk=record.pk).seq == seq
    assert event_log(record.pk)[record.seq]["seat"] == seat


def test_a_loops_connections_close_with_it(bots_wait):
    record, _seat, _alice = game_at_alices_turn("closes")

    async def scenario():
        await action_pool.execute("SELECT 1", {})
        return await database_sync_to_async(_action_connections)()

    assert run(scenario) >= 1
    assert len(action_pool._pools) == 0
    # Closed by the client at once; PostgreSQL drops the backend from pg_stat_activity
    # a moment later, on a busy machine not before this line: wait on that state.
    deadline = time.monotonic() + 10
    while _action_connections() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _action_connections() == 0


def test_a_pool_of_no_connections_is_refused_when_the_settings_load():
    """Every action runs on the pool: with none, the site would refuse every move."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import shuangkou_site.settings.base"],
        env={**os.environ, "GAMES_ACTION_POOL_SIZE": "0"}, capture_output=True, text=True)
    assert loaded.returncode != 0
    assert "GAMES_ACTION_POOL_SIZE is at least 1" in loaded.stderr


def test_two_actions_on_one_game_take_turns_and_keep_the_engine_in_memory(bots_wait,
                                                                          monkeypatch):
    """The second waits for the first (games.live.game_queue) instead of loading the game
    on the database thread while the first holds the warm engine."""
    record, seat, alice = game_at_alices_turn("queued")
    warm_engines.remember(warm_engines.load(record.pk))  # as after the last action
    action, cards = a_legal_move(Game.replay(event_log(record.pk)), seat)
    loads = []
    load = warm_engines.load
    monkeypatch.setattr(warm_engines, "load", lambda game_id: loads.append(game_id)
                        or load(game_id))

    async def scenario():
        first = game_act_on_loop(user_id=alice, game_id=record.pk, action=action,
                                 cards=cards, client_seq=record.seq)
        again = game_act_on_loop(user_id=alice, game_id=record.pk, action=action,
                                 cards=cards, client_seq=record.seq)
        results = await asyncio.gather(first, again, return_exceptions=True)
        return results, queued_games()

    (moved, refused), queued = run(scenario)
    assert moved and moved[0]["seq"] == record.seq + 1
    assert isinstance(refused, ActionError) and refused.code == "stale"
    assert loads == []  # the engine never left memory for the database thread
    assert queued == 0
    log = event_log(record.pk)
    assert [event["seq"] for event in log] == list(range(1, len(log) + 1))


def _pooled_connections_lent() -> int:
    """Connections of this process's pool (settings.base.pooled_postgres) not given back,
    the test thread's own excepted."""
    connection.close()
    stats = connection.pool.get_stats()
    return stats["pool_size"] - stats["pool_available"]


def test_a_game_ended_over_the_socket_gives_back_every_pooled_connection(monkeypatch):
    """The settlement is enqueued (and, with eager tasks, run) on a worker thread after
    the last step: that thread must give its connection back by itself. Channels' test
    communicator turns off the clean-up ``database_sync_to_async`` relies on while it
    waits for a message, and each game then kept one until the pool ran dry: turned off
    here for the whole game, so the test does not depend on when the thread ends."""
    monkeypatch.setattr("channels.db.close_old_connections", lambda: None)
    room = make_room(escape_mode="end_game")
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    lent = _pooled_connections_lent()

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        await start_game([a, b])
        await a.send({"type": "leave", "seq": a.seq})
        await b.expect("events", lambda m: m["events"][-1]["type"] == "settled")
        for client in (a, b):
            await client.close()

    run(scenario)
    assert GameRecord.objects.get().settled_at is not None
    assert _pooled_connections_lent() == lent


def test_the_handshake_does_not_wait_for_the_database_thread():
    """At a cold start the database thread's queue outlasted clients' open timeouts: a
    socket is accepted first, and its refusal or snapshot follows from the database."""
    room = make_room()
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        client = TableClient(alice, table_id)
        async with database_thread_held() as holding:
            connected, _code = await client.communicator.connect(timeout=10)
            quiet = await client.communicator.receive_nothing(timeout=0.2)
            held = not holding.done()
        snapshot = await client.expect("snapshot")
        await client.close()
        return connected, quiet, held, snapshot

    connected, quiet, held, snapshot = run(scenario)
    assert connected and held  # accepted while the thread was still held
    assert quiet  # nothing read from the database until it was free
    assert snapshot["table"]["id"] == table_id
