"""GET and POST /api/games/<id>/analysis: the analysis as stored, who may ask for it,
and the answers for a running game, a stranger, a repeat and a bot-only game."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from analysis.models import GameAnalysis
from analysis.tests.helpers import BOT_SEAT, game_with_a_bot, people
from games.models import GameRecord
from games.testing.room_helpers import make_player, make_room

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def url(record) -> str:
    return reverse("api-game-analysis", args=[record.pk])


def test_a_player_asks_once_and_everyone_reads_the_stored_analysis(
        django_capture_on_commit_callbacks):
    players = people()
    record = game_with_a_bot(make_room("qq 积分"), players)
    assert api().get(url(record)).status_code == 404  # nobody asked yet

    with django_capture_on_commit_callbacks(execute=True):
        asked = api(players[0]).post(url(record))
    assert asked.status_code == 202, asked.content
    stored = GameAnalysis.objects.get(game=record)
    assert stored.status == GameAnalysis.Status.DONE

    assert asked.json()["status"] in ("queued", "done")
    with django_capture_on_commit_callbacks(execute=True) as queued:
        again = api(players[2]).post(url(record))
    assert again.status_code == 200 and again.json()["status"] == "done" and not queued
    assert GameAnalysis.objects.get(game=record).finished_at == stored.finished_at

    body = api().get(url(record)).json()  # a finished game's analysis is public
    assert body["status"] == "done" and body["game"] == record.pk
    assert [move["seq"] for move in body["moves"]] == [move["seq"] for move in stored.moves]
    first = body["moves"][0]
    assert {"played", "best", "loss", "mark", "played_text", "best_text", "step",
            "name"} <= set(first)
    assert [row["seat"] for row in body["summary"]] == [
        seat for seat in range(4) if seat != BOT_SEAT]
    by_user = {player.pk: player.username for player in players}
    assert all(by_user[row["player"]] == row["name"] for row in body["summary"])
    assert body["thresholds"] == {"doubtful": 1.0, "bad": 3.0}
    mistakes = [move for row in body["summary"] for move in row["mistakes"]]
    assert mistakes and all(move["mark"] in ("?", "??") for move in mistakes)


def test_refusals_say_why(settings):
    players = people()
    room = make_room("qq 积分")
    record = game_with_a_bot(room, players)
    assert api().post(url(record)).status_code == 401
    stranger = api(make_player("stranger")).post(url(record))
    assert stranger.status_code == 403 and stranger.json()["detail"]
    assert api(players[0]).post(reverse("api-game-analysis", args=[10**9])).status_code == 404

    bots = game_with_a_bot(room, people("b"), seed=2)
    bots.bot_seats = [0, 1, 2, 3]
    bots.save(update_fields=["bot_seats"])
    assert api(make_player("staff")).post(url(bots)).status_code == 403
    staff = make_player("admin")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    assert api(staff).post(url(bots)).status_code == 422

    record.status = GameRecord.Status.PLAYING
    record.save(update_fields=["status"])
    running = api(players[0]).post(url(record))
    assert running.status_code == 409 and running.json()["detail"]
    assert api().get(url(record)).status_code == 403
    assert not GameAnalysis.objects.exists()


def test_the_schema_documents_the_analysis_endpoint(client):
    schema = client.get(reverse("api-schema"), HTTP_ACCEPT="application/json").content.decode()
    assert "/api/games/{game_id}/analysis" in schema
