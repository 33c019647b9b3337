"""The analysis of a seeded game: stored once with legal suggestions for the human
seats' own decisions, never recomputed (a second request, a second run of the task, a
concurrent request), run after a coin game's settlement when the operator wants it,
and never able to fail that settlement."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from analysis.compute import BAD, DOUBTFUL, OK, PASS, decisions, played_text
from analysis.models import AnalysisOptions, GameAnalysis
from analysis.running import analysis_run
from analysis.services import AnalysisRefused, analysis_request
from analysis.tasks import analyse_game_task
from analysis.tests.helpers import BOT_SEAT, EngineCalls, game_with_a_bot, people
from games.engine import ai
from games.engine.game import Game, GameError
from games.live.lifecycle.end import game_settle
from games.models import GameEvent, GameRecord, Room
from games.testing.room_helpers import coin_room, make_player, make_room
from ledger.services import freeze_game_coins

pytestmark = pytest.mark.slow


def log_of(record: GameRecord) -> list[dict]:
    return list(GameEvent.objects.filter(game=record).order_by("seq")
                .values_list("data", flat=True))


def is_legal(events: list[dict], seat: int, move: str) -> bool:
    """Whether ``move`` ("7 7" or "pass") is a legal action of ``seat`` after ``events``."""
    game = Game.replay(events)
    try:
        if move == PASS:
            game.pass_turn(seat)
        else:
            game.play(seat, move)
    except GameError:
        return False
    return True


@pytest.fixture
def calls(monkeypatch) -> EngineCalls:
    counter = EngineCalls()
    monkeypatch.setattr(ai, "analyse", counter)
    return counter


@pytest.mark.django_db
def test_analysis_of_a_seeded_game_is_stored_with_legal_suggestions_for_human_decisions(
        django_capture_on_commit_callbacks, calls):
    players = people()
    record = game_with_a_bot(make_room("qq 积分"), players)
    with django_capture_on_commit_callbacks(execute=True):
        requested = analysis_request(record=record, user=players[0])
    assert requested.created
    analysis = GameAnalysis.objects.get(game=record)
    assert analysis.status == GameAnalysis.Status.DONE, analysis.error
    assert analysis.requested_by == players[0]
    assert analysis.finished_at and analysis.started_at and analysis.seconds is not None
    assert analysis.move_budget_ms > 0 and analysis.budget_used_ms > 0

    events = log_of(record)
    by_seq = {event["seq"]: event for event in events}
    humans = [seat for seat in range(4) if seat != BOT_SEAT]
    expected = [events[index]["seq"] for index in decisions(events, humans)]
    # Every decision of a person was put to the engine; the bot's seat, 托管 moves,
    # timeouts and automatic passes were not.
    assert calls.calls == len(expected) > 10
    assert analysis.moves, "no move analysed"
    for move in analysis.moves:
        event = by_seq[move["seq"]]
        assert move["seq"] in expected
        assert event["seat"] == move["seat"] != BOT_SEAT and event["by"] == "player"
        assert move["played"] == played_text(event)
        before = events[:move["seq"] - 1]
        assert is_legal(before, move["seat"], move["best"]), move
        assert move["loss"] >= 0
        mark = BAD if move["loss"] >= 3.0 else DOUBTFUL if move["loss"] >= 1.0 else OK
        assert move["mark"] == mark
    assert {move["mark"] for move in analysis.moves} - {OK}, "the sample game has no mistake"

    assert [row["seat"] for row in analysis.summary] == humans
    for row in analysis.summary:
        own = [move for move in analysis.moves if move["seat"] == row["seat"]]
        ok = sum(move["mark"] == OK for move in own)
        assert row["moves"] == len(own)
        assert row["accuracy"] == (round(100 * ok / len(own), 1) if own else None)
        worst = sorted((move for move in own if move["mark"] != OK),
                       key=lambda move: (-move["loss"], move["seq"]))[:3]
        assert row["mistakes"] == [move["seq"] for move in worst]


@pytest.mark.django_db
def test_a_second_request_or_run_does_not_recompute_the_analysis(
        django_capture_on_commit_callbacks, calls):
    players = people()
    record = game_with_a_bot(make_room("qq 积分"), players, seed=2)
    with django_capture_on_commit_callbacks(execute=True):
        analysis_request(record=record, user=players[1])
    first = GameAnalysis.objects.get(game=record)
    assert first.status == GameAnalysis.Status.DONE
    engine_calls = calls.calls

    with django_capture_on_commit_callbacks(execute=True) as queued:
        again = analysis_request(record=record, user=players[2])
    assert not again.created and not queued
    # A redelivery. The result as it stands, not .get(): Celery's join flag is one for
    # the whole process, and a server thread's eager task may hold it.
    assert analyse_game_task.apply(args=(record.pk,), throw=True).result is False
    assert calls.calls == engine_calls
    stored = GameAnalysis.objects.get(game=record)
    assert (stored.pk, stored.finished_at, stored.moves, stored.attempts) == \
        (first.pk, first.finished_at, first.moves, 1)
    assert stored.requested_by == players[1]


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_make_one_analysis(monkeypatch):
    players = people()
    record = game_with_a_bot(make_room("qq 积分"), players)
    queued = []
    monkeypatch.setattr("analysis.services._enqueue", queued.append)
    barrier = threading.Barrier(4)
    results = []

    def ask(user) -> None:
        try:
            barrier.wait()
            results.append(analysis_request(record=record, user=user).created)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(user,)) for user in players[:4]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False, False, False, True]
    assert GameAnalysis.objects.filter(game=record).count() == 1
    assert queued == [record.pk]


@pytest.mark.django_db
def test_a_running_claim_is_left_alone_until_it_is_stale(monkeypatch, settings, calls):
    players = people()
    record = game_with_a_bot(make_room("qq 积分"), players)
    monkeypatch.setattr("analysis.services._enqueue", lambda game_id: None)
    analysis_request(record=record, user=players[0])
    GameAnalysis.objects.filter(game=record).update(
        status=GameAnalysis.Status.RUNNING, started_at=timezone.now())
    assert analysis_run(game_id=record.pk) is False  # another worker is on it
    assert calls.calls == 0
    GameAnalysis.objects.filter(game=record).update(
        started_at=timezone.now() - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS + 1))
    assert analysis_run(game_id=record.pk) is True  # that worker died: taken over
    assert GameAnalysis.objects.get(game=record).status == GameAnalysis.Status.DONE


@pytest.mark.django_db
def test_requests_are_refused_for_running_games_strangers_and_bot_only_games():
    players = people()
    room = make_room("qq 积分")
    record = game_with_a_bot(room, players)
    stranger = make_player("stranger")
    with pytest.raises(AnalysisRefused) as refused:
        analysis_request(record=record, user=stranger)
    assert refused.value.code == "not_allowed"
    record.status = GameRecord.Status.PLAYING
    record.save(update_fields=["status"])
    with pytest.raises(AnalysisRefused) as refused:
        analysis_request(record=record, user=players[0])
    assert refused.value.code == "game_not_ended"
    bots = game_with_a_bot(room, people("b"), seed=2)
    bots.bot_seats = [0, 1, 2, 3]
    bots.save(update_fields=["bot_seats"])
    staff = make_player("staff")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    with pytest.raises(AnalysisRefused) as refused:
        analysis_request(record=bots, user=staff)
    assert refused.value.code == "no_human_seat"
    assert not GameAnalysis.objects.exists()


def settle_coin_game(seed: int) -> GameRecord:
    room = Room.objects.filter(name="qq 金币").first() or coin_room()
    players = people(f"c{seed}-", coins=100_000)
    record = game_with_a_bot(room, players, seed=seed)
    freeze_game_coins(game_key=record.ledger_key,
                      stakes=[(player, room.max_loss) for player in players])
    return record


@pytest.mark.django_db
def test_settling_a_coin_game_analyses_it_when_the_operator_wants_it(
        settings, django_capture_on_commit_callbacks):
    settings.ANALYSIS_AUTO_COIN_GAMES = True
    record = settle_coin_game(seed=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert game_settle(game_id=record.pk)
    analysis = GameAnalysis.objects.get(game=record)
    assert analysis.status == GameAnalysis.Status.DONE and analysis.requested_by is None
    assert analysis.moves

    points = game_with_a_bot(make_room("qq 积分"), people("q"), seed=2)
    with django_capture_on_commit_callbacks(execute=True):
        assert game_settle(game_id=points.pk)
    assert not GameAnalysis.objects.filter(game=points).exists()  # points games: asked for

    settings.ANALYSIS_AUTO_COIN_GAMES = False
    off = settle_coin_game(seed=3)
    with django_capture_on_commit_callbacks(execute=True):
        assert game_settle(game_id=off.pk)
    assert not GameAnalysis.objects.filter(game=off).exists()


@pytest.mark.django_db
def test_a_failing_analysis_never_fails_the_settlement(
        settings, monkeypatch, django_capture_on_commit_callbacks):
    settings.ANALYSIS_AUTO_COIN_GAMES = True

    def broken(*args, **kwargs):
        raise RuntimeError("engine crashed")

    monkeypatch.setattr(ai, "analyse", broken)
    record = settle_coin_game(seed=2)
    with django_capture_on_commit_callbacks(execute=True):
        assert game_settle(game_id=record.pk)
    record.refresh_from_db()
    assert record.settled_at is not None and record.settlement["coins"]
    analysis = GameAnalysis.objects.get(game=record)
    assert analysis.status == GameAnalysis.Status.FAILED
    assert "engine crashed" in analysis.error

    # Even a broker (or anything else) refusing the task leaves the settlement alone.
    def no_broker(game_id):
        raise ConnectionError("broker down")

    monkeypatch.setattr("analysis.services._enqueue", no_broker)
    other = settle_coin_game(seed=3)
    with django_capture_on_commit_callbacks(execute=True):
        assert game_settle(game_id=other.pk)
    other.refresh_from_db()
    assert other.settled_at is not None
    # Asked for and kept: the next request after ANALYSIS_STALE_SECONDS sends it again.
    assert GameAnalysis.objects.get(game=other).status == GameAnalysis.Status.QUEUED


@pytest.mark.django_db
def test_the_operators_switch_in_admin_overrides_the_setting(
        settings, monkeypatch, django_capture_on_commit_callbacks):
    queued = []
    monkeypatch.setattr("analysis.services._enqueue", queued.append)
    settings.ANALYSIS_AUTO_COIN_GAMES = True
    options = AnalysisOptions.objects.create(auto_coin_games=False)
    off = settle_coin_game(seed=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert game_settle(game_id=off.pk)
    assert not GameAnalysis.objects.filter(game=off).exists() and queued == []

    settings.ANALYSIS_AUTO_COIN_GAMES = False
    options.auto_coin_games = True
    options.save()
    on = settle_coin_game(seed=2)
    with django_capture_on_commit_callbacks(execute=True):
        assert game_settle(game_id=on.pk)
    assert GameAnalysis.objects.get(game=on).requested_by is None and queued == [on.pk]


@pytest.mark.django_db
def test_asking_again_resends_a_task_that_was_lost(
        settings, monkeypatch, django_capture_on_commit_callbacks):
    queued = []
    monkeypatch.setattr("analysis.services._enqueue", queued.append)
    players = people()
    record = game_with_a_bot(make_room("qq 积分"), players)
    long_ago = timezone.now() - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS + 1)
    analyses = GameAnalysis.objects.filter(game=record)

    def ask(user) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            analysis_request(record=record, user=user)

    ask(players[0])
    ask(players[1])  # just queued: not sent again
    assert queued == [record.pk]
    analyses.update(created_at=long_ago)
    ask(players[1])  # queued long ago: its task was lost, sent again
    analyses.update(status=GameAnalysis.Status.RUNNING, started_at=long_ago)
    ask(players[2])  # claimed long ago by a worker that died: sent again
    analyses.update(status=GameAnalysis.Status.DONE)
    ask(players[2])  # done: never again
    assert queued == [record.pk] * 3 and analyses.count() == 1
