"""The replay page's analysis panel: the 分析 button for the game's players (and staff),
the status while queued, and once done the summary per player and the marked moves with
the suggestion, in the step list's data too."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from analysis.models import GameAnalysis
from analysis.tests.helpers import game_with_a_bot, people
from games.testing.room_helpers import make_player, make_room

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
MARKS = re.compile(r'<script id="analysis-marks" type="application/json">(.*?)</script>', re.S)
ASK = 'data-analysis-ask'
RESEND = 'data-analysis-resend'


def replay(client, record, **query):
    response = client.get(reverse("game-replay", args=[record.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def test_players_get_the_button_others_do_not(client):
    players = people()
    record = game_with_a_bot(make_room("qq 积分"), players)
    assert ASK not in replay(client, record)
    client.force_login(make_player("stranger"))
    assert ASK not in replay(client, record)
    client.force_login(players[1])
    assert ASK in replay(client, record)


def test_the_button_queues_the_analysis_and_the_panel_polls_until_done(client, monkeypatch):
    players = people()
    record = game_with_a_bot(make_room("qq 积分"), players)
    monkeypatch.setattr("analysis.services._enqueue", lambda game_id: None)  # a busy worker
    client.force_login(players[0])
    panel = client.post(reverse("game-analysis-ask", args=[record.pk]),
                        HTTP_HX_REQUEST="true").content.decode()
    assert 'data-analysis-status="queued"' in panel and 'hx-trigger="every 2s"' in panel
    assert GameAnalysis.objects.filter(game=record).count() == 1
    page = replay(client, record)
    assert 'data-analysis-status="queued"' in page and ASK not in page


def test_a_lost_analysis_can_be_sent_again_from_the_panel(
        client, monkeypatch, settings, django_capture_on_commit_callbacks):
    players = people()
    record = game_with_a_bot(make_room("qq 积分"), players)
    queued = []
    monkeypatch.setattr("analysis.services._enqueue", queued.append)  # a broker that loses it
    client.force_login(players[0])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("game-analysis-ask", args=[record.pk]), HTTP_HX_REQUEST="true")
    panel = reverse("game-analysis-panel", args=[record.pk])
    assert RESEND not in client.get(panel).content.decode()  # just queued: wait

    long_ago = timezone.now() - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS + 1)
    GameAnalysis.objects.filter(game=record).update(created_at=long_ago)
    assert RESEND in client.get(panel).content.decode()
    client.force_login(make_player("stranger"))
    assert RESEND not in client.get(panel).content.decode()  # only the players may

    client.force_login(players[1])
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(reverse("game-analysis-ask", args=[record.pk]),
                            HTTP_HX_REQUEST="true").content.decode()
    assert queued == [record.pk, record.pk]  # the task sent again
    assert 'data-analysis-status="queued"' in again


def test_the_done_analysis_shows_marks_suggestions_and_the_summary(
        client, django_capture_on_commit_callbacks):
    players = people()
    record = game_with_a_bot(make_room("qq 积分"), players)
    client.force_login(players[0])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("game-analysis-ask", args=[record.pk]))
    assert response.status_code == 302
    analysis = GameAnalysis.objects.get(game=record)
    assert analysis.status == GameAnalysis.Status.DONE

    client.logout()  # the replay is public, and so is its analysis
    page = replay(client, record)
    assert "analysis-summary" in page and ASK not in page
    for row in analysis.summary:
        accuracy = "–" if row["accuracy"] is None else f"{row['accuracy']}%"
        cells = re.search(rf'<tr data-seat="{row["seat"]}">(.*?)</tr>', page, re.S).group(1)
        assert accuracy in cells
    marked = [move for move in analysis.moves if move["mark"] != "ok"]
    assert marked
    marks = json.loads(MARKS.search(page).group(1))
    assert set(marks) == {str(move["seq"]) for move in marked}
    for move in marked:
        assert marks[str(move["seq"])]["mark"] == move["mark"]
        item = re.search(rf'<li data-step="{move["seq"]}" data-mark="[?]+">(.*?)</li>',
                         page, re.S).group(1)
        assert "建议：" in item and move["mark"] in item
    # A suggested pass reads as 过, a play by its reading.
    example = marked[0]
    assert marks[str(example["seq"])]["best"]


def test_the_panel_speaks_english(client, django_capture_on_commit_callbacks):
    players = people()
    record = game_with_a_bot(make_room("qq 积分"), players)
    client.force_login(players[0])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("game-analysis-ask", args=[record.pk]))
    client.cookies["django_language"] = "en"
    panel = client.get(reverse("game-analysis-panel", args=[record.pk])).content.decode()
    assert "Accuracy" in panel and "Suggested" in panel
    assert not re.search(r"[\u4e00-\u9fff]", re.sub(r"<script.*?</script>", "", panel, flags=re.S)
                         .replace("p0", ""))
