"""The history's 分析 column (registered by analysis.apps into games.archive.panels):
each game's analysis status, and my accuracy in a finished one."""

import re

import pytest
from django.urls import reverse

from analysis.models import GameAnalysis
from games.testing.history_helpers import ended_game, row_html
from games.testing.room_helpers import make_room

pytestmark = pytest.mark.django_db


def test_a_row_shows_the_games_analysis_and_my_accuracy_in_it(client, me, others):
    room = make_room("qq 积分")
    # me at seat 1; the summary has a row per human seat (analysis.compute.summarise).
    done = ended_game(room, [others[0], me, others[1], others[2]], minutes_ago=4)
    GameAnalysis.objects.create(game=done, status=GameAnalysis.Status.DONE, summary=[
        {"seat": 0, "accuracy": 50.0}, {"seat": 1, "accuracy": 87.5}])
    running = ended_game(room, [me, *others[:3]], minutes_ago=3)
    GameAnalysis.objects.create(game=running, status=GameAnalysis.Status.RUNNING)
    failed = ended_game(room, [me, *others[:3]], minutes_ago=2)
    GameAnalysis.objects.create(game=failed, status=GameAnalysis.Status.FAILED)
    never = ended_game(room, [me, *others[:3]], minutes_ago=1)

    response = client.get(reverse("game-history"))

    cell = re.compile(r'<td class="history-analysis">(.*?)</td>', re.S)
    texts = {game.pk: " ".join(cell.search(row_html(response, game)).group(1).split())
             for game in (done, running, failed, never)}
    replay = reverse("game-replay", args=[done.pk])
    assert texts[done.pk] == f'<a href="{replay}#replay-analysis">准确率 87.5%</a>'
    assert "分析中" in texts[running.pk]
    assert "分析失败" in texts[failed.pk]
    assert texts[never.pk] == '<span class="note">-</span>'
