"""An action is checked on the process's warm engine and written in one statement that
lands only if the game row is still at the engine's seq (games.live.append).
An engine behind the row (another process moved the game) is reloaded: the answer is
always the one the committed state gives."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine.game import Game, GameError
from games.errors import ActionError
from games.live import warm_engines
from games.live.append import Step, append_step
from games.live.hints import game_hints
from games.live.lifecycle.act import game_act, game_act_on_loop
from games.live.step_io import ON_LOOP, ON_THREAD, StepIO, run_now
from games.live.table_socket import act_at_table
from games.models import GameRecord
from games.testing.live_helpers import run
from games.testing.room_helpers import make_player, make_room, start_game_with_bots
from games.testing.turn_helpers import a_legal_move, bots_to, event_log, game_at_alices_turn

pytestmark = pytest.mark.django_db(transaction=True)

def _act(user_id: int, game_id: int, move: tuple[str, list[str] | None], act=game_act,
         **kwargs) -> list:
    return act(user_id=user_id, game_id=game_id, action=move[0], cards=move[1], **kwargs)


def _game_act_on_loop(**kwargs) -> list[dict]:
    return run(lambda: game_act_on_loop(**kwargs))


@pytest.fixture(params=[game_act, _game_act_on_loop], ids=["database_thread", "event_loop"])
def act(request):
    """An action as sync code runs it (games.live.step_io.ON_THREAD), and as a table
    socket does, from the event loop through its own connections (ON_LOOP)."""
    return request.param


def _append(step: Step, io: StepIO) -> bool:
    """The step's statement as each path runs it: from sync code on Django's connection,
    or from an event loop through its own connections."""
    if io is ON_LOOP:
        return run(lambda: append_step(step, io.execute))
    return run_now(append_step(step, io.execute))


@pytest.mark.parametrize("io", [ON_THREAD, ON_LOOP], ids=["database_thread", "event_loop"])
def test_a_step_lands_only_on_the_seq_it_was_computed_from(bots_wait, io):
    def writer(step: Step) -> bool:
        return _append(step, io)

    record, seat, _alice = game_at_alices_turn("writer")
    game = Game.replay(event_log(record.pk))
    base = len(game.events)
    action, cards = a_legal_move(game, seat)
    game.pass_turn(seat) if action == "pass" else game.play(seat, cards)
    events = game.events[base:]
    deadline = timezone.now() + timedelta(seconds=30)
    stale = Step(game=record.pk, base=base - 1, events=events, turn=game.turn, deadline=deadline)
    assert writer(stale) is False
    record.refresh_from_db()
    assert record.seq == base and len(event_log(record.pk)) == base  # nothing written

    step = Step(game=record.pk, base=base, events=events, turn=game.turn, deadline=deadline)
    assert writer(step) is True
    record.refresh_from_db()
    assert (record.seq, record.turn, record.deadline) == (len(game.events), game.turn, deadline)
    assert event_log(record.pk) == game.events
    assert writer(step) is False  # the same step twice: the row has moved on


def test_one_statement_writes_a_step_on_postgresql(bots_wait):
    record, seat, alice = game_at_alices_turn("onestatement")
    warm_engines.remember(warm_engines.load(record.pk))  # as after the last action
    move = a_legal_move(Game.replay(event_log(record.pk)), seat)
    with CaptureQueriesContext(connection) as queries:
        _act(alice, record.pk, move, client_seq=record.seq)
    assert len(queries) == 1, [query["sql"] for query in queries]
    assert queries[0]["sql"].lstrip().startswith("WITH moved AS")


def test_an_engine_behind_the_row_is_reloaded_before_a_refusal(bots_wait, act):
    record, seat, alice = game_at_alices_turn("behind")
    behind = warm_engines.load(record.pk)
    _act(alice, record.pk, a_legal_move(behind.game, seat), act=act, client_seq=record.seq)
    record = bots_to(record, seat)
    assert record.status == GameRecord.Status.PLAYING
    # Another process moved the game: this one still holds the engine of before.
    warm_engines.remember(behind)
    current = Game.replay(event_log(record.pk))
    action, cards = a_legal_move(current, seat)
    # The old engine calls the client's seq stale; the committed state does not.
    events = _act(alice, record.pk, (action, cards), act=act, client_seq=record.seq)
    assert events and events[0]["seq"] == record.seq + 1
    current.pass_turn(seat) if action == "pass" else current.play(seat, cards)
    assert [event["seq"] for event in event_log(record.pk)] == \
        list(range(1, len(current.events) + 1))
    assert event_log(record.pk)[: len(current.events)] == current.events


def test_an_action_the_old_engine_accepts_gets_the_committed_states_answer(bots_wait, act):
    record, seat, alice = game_at_alices_turn("accepts")
    behind = warm_engines.load(record.pk)
    cards = game_hints(behind.game, seat)[0]  # alice's turn: she can always play
    act(user_id=alice, game_id=record.pk, action="play", cards=cards,
             client_seq=record.seq)
    record = bots_to(record, seat)
    assert record.status == GameRecord.Status.PLAYING
    warm_engines.remember(behind)
    # The same cards again, without a seq: legal on the old engine (it was this seat's
    # turn there too), so only the write can tell the engine was behind.
    expected = Game.replay(event_log(record.pk))
    try:
        expected.play(seat, cards)
    except GameError:
        expected = None
    before = event_log(record.pk)
    if expected is None:
        with pytest.raises(ActionError):
            act(user_id=alice, game_id=record.pk, action="play", cards=cards)
        assert event_log(record.pk) == before
    else:
        act(user_id=alice, game_id=record.pk, action="play", cards=cards)
        assert event_log(record.pk)[: len(expected.events)] == expected.events


def test_a_refusal_on_a_current_engine_changes_nothing(bots_wait, act):
    record, seat, alice = game_at_alices_turn("refused")
    before = event_log(record.pk)
    with pytest.raises(ActionError) as refused:
        act(user_id=alice, game_id=record.pk, action="play", cards=["XX"],
                 client_seq=record.seq)
    assert refused.value.code != "busy"
    assert event_log(record.pk) == before
    with pytest.raises(ActionError) as stale:
        act(user_id=alice, game_id=record.pk, action="pass", client_seq=record.seq - 1)
    assert stale.value.code == "stale" and event_log(record.pk) == before


def test_a_table_whose_known_game_has_ended_acts_on_its_current_game(bots_wait):
    ended = make_room("ended room", escape_mode="end_game")
    bob = make_player("bob")
    old = start_game_with_bots(bob, ended)
    game_act(user_id=bob.pk, game_id=old.pk, action="leave")  # an escape ends it
    assert GameRecord.objects.get(pk=old.pk).status == GameRecord.Status.ENDED
    record, seat, alice = game_at_alices_turn("tablegame")
    # This process last saw another game at alice's table (it ended since).
    warm_engines.note_table_game(record.table_id, old.pk)
    run(lambda: act_at_table(record.table_id, alice, "trustee", None, {"on": True}))
    assert event_log(record.pk)[-1]["type"] == "trustee"
    assert warm_engines.table_game(record.table_id) == record.pk
