"""A room's bot level: easy bots play RULES §10's 托管 move, strong bots'
moves are thought out by a task off the live path (games.live.strong_bots) and the
turn's deadline is their backstop. Real PostgreSQL, Redis, channel layer and Celery
worker (a thread of this process serving the broker's queues, as ``celery worker``)."""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from contextlib import ExitStack, contextmanager

import pytest
import redis
from celery import current_app
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.db import connections
from django.utils import timezone

from games.engine.cards import format_cards
from games.engine.expert import expert_move
from games.engine.game import Game
from games.live import strong_bots, warm_engines
from games.live.lifecycle import steps
from games.live.lifecycle.act import game_act_on_loop
from games.live.lifecycle.strong_moves import game_strong_move
from games.live.private_tables import private_table_fill_bots, private_table_open
from games.live.seating import room_quick_join, table_ready
from games.live.strong_bots import STRONG_MOVE_TASK, enqueue_strong_move, strong_move_from_log
from games.live.sweeps import sweep_deadlines
from games.models import GameRecord
from games.testing.live_helpers import (
    TableClient,
    counts_of_codes,
    events_of,
    expire_turn,
    game_state,
    make_person,
    make_room,
    run,
)
from games.testing.room_helpers import start_game_with_bots
from games.testing.turn_helpers import a_legal_move, bots_to
from ledger.audit import ledger_violations

pytestmark = pytest.mark.django_db(transaction=True)


# --- helpers ------------------------------------------------------------------------------

def action_text(event: dict) -> str:
    """A play or pass as games.engine.ai.decide answers: ``"7 7"`` or ``"pass"``."""
    return "pass" if event["type"] == "pass" else format_cards(counts_of_codes(event["cards"]))


def bot_moves(record: GameRecord, events: list[dict]) -> list[int]:
    """The log positions of the server bots' own moves (not their automatic passes)."""
    return [index for index, event in enumerate(events)
            if event["type"] in ("play", "pass") and event["seat"] in record.bot_seats
            and event["by"] == "bot"]


async def ready_in_trustee(client: TableClient) -> TableClient:
    """Connect, get ready (bots fill the table and the game is dealt), and hand the
    seat to 托管 once the game is on."""
    await client.connect()
    await client.send({"type": "ready"})
    await client.expect("snapshot", lambda message: bool(
        message["game"] and message["game"]["status"] == "playing"))
    await client.send({"type": "trustee", "on": True})
    return client


def play_as_trustee_until_dealt(room, name: str) -> tuple[TableClient, int]:
    """A person sits in ``room``, gets ready (bots fill the table and the game is
    dealt) and puts their seat in 托管; returns once the table is quiet."""
    person = make_person(name)
    seat = room_quick_join(user=person, room_id=room.pk)

    async def scenario():
        client = await ready_in_trustee(TableClient(person, seat.table_id))
        await client.expect("events", lambda message: any(
            event["type"] == "trustee" for event in message["events"]))
        await client.drain()
        await client.close()
        return client.game_id

    return TableClient(person, seat.table_id), run(scenario)


def settled_on_the_local_thread(game_id: int) -> GameRecord:
    """Wait until the game is settled, the strong bots moving on their local thread."""
    for _move in range(1000):
        record = GameRecord.objects.get(pk=game_id)
        if record.settled_at is not None:
            return record
        strong_bots.wait_local_idle()
    raise AssertionError("the game was never settled")


@pytest.fixture
def bot_queue(settings):
    """Tasks go to the broker, on a bots' queue of this test's own (the Redis server is
    shared); ``serve()`` starts a worker on it and the default queue (settlements).
    Yields the strong-move tasks the worker ran: ``((game, seq), moved)``."""
    settings.GAMES_BOT_QUEUE = f"bots-test-{uuid.uuid4().hex[:8]}"
    ran: list[tuple[tuple, bool]] = []

    def noted(task=None, args=None, retval=None, **_kwargs):
        if task.name == STRONG_MOVE_TASK:
            ran.append((tuple(args), retval))
        connections.close_all()  # the worker's thread outlives the test's database

    @contextmanager
    def serve():
        with start_worker(current_app, queues=[settings.GAMES_BOT_QUEUE, "celery"],
                          perform_ping_check=False, shutdown_timeout=30):
            yield

    task_postrun.connect(noted, weak=False)
    eager, current_app.conf.task_always_eager = current_app.conf.task_always_eager, False
    try:
        yield ran, serve
    finally:
        current_app.conf.task_always_eager = eager
        task_postrun.disconnect(noted)
        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(settings.GAMES_BOT_QUEUE)


# --- strong ---------------------------------------------------------------------------------

def test_strong_bots_move_only_from_their_task_and_a_seeded_game_plays_to_settlement(
        bot_queue):
    ran, serve = bot_queue
    room = make_room(bot_level="strong")
    client, game_id = play_as_trustee_until_dealt(room, "alice")

    # No worker yet: the step that left a strong bot the turn did not move it inline.
    record = GameRecord.objects.get(pk=game_id)
    assert record.bot_level == "strong" and len(record.bot_seats) == 3
    assert record.status == GameRecord.Status.PLAYING and record.turn in record.bot_seats
    waiting = game_state(game_id)
    assert (record.deadline - timezone.now()).total_seconds() > 5  # the backstop's time

    async def scenario():
        await client.connect()  # the game waits: the snapshot has it, then its events
        await asyncio.to_thread(workers.enter_context, serve())
        settled = await client.follow_until_settled()
        await client.close()
        return settled

    with ExitStack() as workers:
        settled = run(scenario)

    record.refresh_from_db()
    assert record.status == GameRecord.Status.ENDED and record.settled_at is not None
    assert settled["points"] == record.settlement["points"]
    events = events_of(game_id)
    moves = bot_moves(record, events)
    assert moves and moves[0] == waiting["seq"]
    # Each bot move is the step of one task run at the seq before it, and nothing else
    # moved a bot: every task that moved is one bot move and the other way round.
    assert sorted(seq for (_game, seq), moved in ran if moved) == moves
    assert all(game == game_id for (game, _seq), _moved in ran)
    # And it is the strong bot's answer for that seat, position and seed.
    for index in moves:
        assert action_text(events[index]) == strong_move_from_log(events[:index],
                                                          events[index]["seat"])
    assert not [event for event in events if event["type"] == "timeout"]
    assert ledger_violations() == []


def test_without_a_worker_strong_bots_think_on_a_thread_of_their_own():
    """Eager tasks (``make run``, the tests' settings): no broker, but still not in the
    step that left the bot its turn, nor on the event loop."""
    room = make_room(bot_level="strong")
    _client, game_id = play_as_trustee_until_dealt(room, "bob")

    record = settled_on_the_local_thread(game_id)
    events = events_of(game_id)
    moves = bot_moves(record, events)
    assert moves
    for index in moves:
        assert action_text(events[index]) == strong_move_from_log(events[:index],
                                                          events[index]["seat"])


def test_under_make_runs_in_memory_layer_the_table_hears_every_strong_move(settings):
    """``make run``: eager tasks and the in-memory channel layer, which only the
    server's loop may send on: the bots' thread hands its sends to that loop."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    room = make_room(bot_level="strong")
    person = make_person("fay")
    seat = room_quick_join(user=person, room_id=room.pk)

    async def scenario():
        client = await ready_in_trustee(TableClient(person, seat.table_id))
        settled = await client.follow_until_settled()
        await client.close()
        return client, settled

    client, settled = run(scenario)
    record = GameRecord.objects.get(pk=client.game_id)
    assert settled["points"] == record.settlement["points"]
    assert client.gaps == 0  # every step heard, in order, none resynced
    assert bot_moves(record, events_of(record.pk))


def test_a_strong_move_for_a_seq_the_game_has_left_changes_nothing(bot_queue, caplog):
    """The deadline is the backstop: past it the sweeper plays the table bot's move for
    the seat (never a timeout: a bot is not a late player), and the task that comes
    afterwards finds another seq and does nothing."""
    room = make_room(bot_level="strong")
    _client, game_id = play_as_trustee_until_dealt(room, "carol")
    record = GameRecord.objects.get(pk=game_id)
    seq, seat = record.seq, record.turn
    assert seat in record.bot_seats

    before = game_state(game_id)
    assert game_strong_move(game_id=game_id, seq=seq - 1) is False
    assert game_strong_move(game_id=game_id, seq=seq + 1) is False
    assert game_state(game_id) == before

    expire_turn(game_id)
    with caplog.at_level(logging.INFO, logger="games.timing"):
        assert sweep_deadlines() == 1
    assert f"strong-backstop game={game_id} seq={seq}" in caplog.text  # for the operator
    events = events_of(game_id)
    assert events[seq]["seat"] == seat and events[seq]["by"] == "bot"
    assert not [event for event in events if event["type"] == "timeout"]
    moved = game_state(game_id)
    assert moved["seq"] > seq

    assert game_strong_move(game_id=game_id, seq=seq) is False  # the lost task, late
    assert game_state(game_id) == moved


def test_a_worker_whose_engine_is_behind_reads_only_the_events_it_missed(bot_queue, caplog):
    """A worker keeps the engines of its own steps; people's moves since then were
    written by the web processes. It catches up from the log, then decides."""
    room = make_room(bot_level="strong")
    _client, game_id = play_as_trustee_until_dealt(room, "erin")
    record = GameRecord.objects.get(pk=game_id)
    seq, seat = record.seq, record.turn
    events = events_of(game_id)
    facts = warm_engines.GameFacts.of(GameRecord.objects.select_related("room").get(
        pk=game_id))
    warm_engines.take(game_id)
    warm_engines.remember(warm_engines.WarmGame(facts, Game.replay(events[:1])))

    with caplog.at_level(logging.INFO, logger="games.timing"):
        assert game_strong_move(game_id=game_id, seq=seq) is True
    assert f"strong-move game={game_id} seq={seq} moved=yes ms=" in caplog.text
    after = events_of(game_id)
    assert after[:seq] == events
    assert after[seq]["seat"] == seat and after[seq]["by"] == "bot"
    assert action_text(after[seq]) == strong_move_from_log(events, seat)


def test_a_private_tables_bots_play_at_their_rooms_level(bot_queue):
    room = make_room(bot_level="strong")
    host = make_person("host")
    private = private_table_open(host=host, room_id=room.pk)
    table_ready(user=host)
    assert private_table_fill_bots(host=host, table_id=private.table_id)

    record = GameRecord.objects.get(table_id=private.table_id)
    assert record.bot_level == "strong" and len(record.bot_seats) == 3
    # Dealt, and no strong bot moved in the deal's step: the game is at the deal's
    # events, waiting for its first player, person or bot.
    assert record.status == GameRecord.Status.PLAYING
    assert [event["type"] for event in events_of(record.pk)
            if event["type"] in ("play", "pass")] == []


def test_a_persons_action_returns_without_waiting_for_the_strong_bots_enqueue(
        bot_queue, settings, monkeypatch):
    """The handler acting for a person returns while the broker still holds the strong
    bot's task: until it returns, that person's own copy of the step waits in their
    consumer. The task is enqueued all the same, once the broker answers."""
    settings.GAMES_BOT_THINK_SECONDS = 5  # bots move on their deadlines: none within a step
    alice = make_person("gina")
    record = start_game_with_bots(alice, make_room(bot_level="strong"))
    seat = record.players.index(alice.pk)
    record = bots_to(record, seat)
    assert record.status == GameRecord.Status.PLAYING
    action, cards = a_legal_move(Game.replay(events_of(record.pk)), seat)
    queue = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    queued = queue.llen(settings.GAMES_BOT_QUEUE)

    release, enqueued = threading.Event(), []

    def slow_broker(game_id: int, seq: int) -> None:
        release.wait(30)
        enqueue_strong_move(game_id, seq)
        enqueued.append((game_id, seq))

    monkeypatch.setattr(steps, "enqueue_strong_move", slow_broker)

    async def scenario():
        await game_act_on_loop(user_id=alice.pk, game_id=record.pk, action=action,
                               cards=cards, client_seq=record.seq)
        returned_before_the_broker = not enqueued
        release.set()
        for _wait in range(1000):  # on the state, bounded
            if enqueued:
                break
            await asyncio.sleep(0.01)
        return returned_before_the_broker

    assert run(scenario) is True
    moved = GameRecord.objects.get(pk=record.pk)
    assert moved.seq > record.seq and moved.turn in moved.bot_seats
    assert enqueued == [(record.pk, moved.seq)]
    assert queue.llen(settings.GAMES_BOT_QUEUE) == queued + 1


# --- easy ----------------------------------------------------------------------------------

def test_easy_bots_play_the_trustee_move():
    room = make_room(bot_level="easy")
    _client, game_id = play_as_trustee_until_dealt(room, "dora")

    # Easy bots move inline, with the 托管 seat: the game played out in that step.
    record = GameRecord.objects.get(pk=game_id)
    assert record.bot_level == "easy" and record.settled_at is not None
    events = events_of(game_id)
    moves = bot_moves(record, events)
    assert len(moves) > 10
    for index in moves:
        expected = Game.replay(events[:index]).trustee_cards(events[index]["seat"])
        assert action_text(events[index]) == ("pass" if expected is None
                                              else format_cards(expected))


# --- expert --------------------------------------------------------------------------------

def test_expert_bots_play_the_expert_move():
    room = make_room(bot_level="expert")
    _client, game_id = play_as_trustee_until_dealt(room, "erin")

    # Expert bots move inline too (no search): the game played out in that step.
    record = GameRecord.objects.get(pk=game_id)
    assert record.bot_level == "expert" and record.settled_at is not None
    events = events_of(game_id)
    moves = bot_moves(record, events)
    assert len(moves) > 10
    differs_from_trustee = 0
    for index in moves:
        game = Game.replay(events[:index])
        seat = events[index]["seat"]
        expected = expert_move(game.counts[seat], game.current_reading,
                               game.current["seat"] if game.current else None, seat,
                               [sum(hand) for hand in game.counts], game.rules)
        assert action_text(events[index]) == ("pass" if expected is None
                                              else format_cards(expected))
        differs_from_trustee += game.trustee_cards(seat) != expected
    assert differs_from_trustee  # a level of its own, not the 托管 move again
