"""The daily page, forms and API as a player, a visitor and under simultaneous clicks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from common.testing.threads import run_threads
from daily.models import CheckIn
from daily.services import check_in, claim_task, count_settled_game
from ledger.audit import ledger_violations
from ledger.models import Kind, Transaction
from ledger.services import balance_of

from .helpers import a_game, played, player


@pytest.fixture
def four(db):
    users = [player() for _ in range(4)]
    played(users)
    return users


@pytest.mark.django_db
@pytest.mark.parametrize("method,url", [
    ("get", "/daily/"), ("post", "/daily/checkin/"), ("post", "/daily/tasks/games3/claim/")])
def test_a_visitor_is_sent_to_the_login(client, method, url):
    response = getattr(client, method)(url)
    assert response.status_code == 302 and "/login" in response["Location"]
    assert not CheckIn.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("method,url", [
    ("get", "/api/daily"), ("post", "/api/daily/checkin"),
    ("post", "/api/daily/tasks/games3/claim")])
def test_the_api_refuses_a_visitor(client, method, url):
    assert getattr(client, method)(url).status_code in (401, 403)
    assert not Transaction.objects.filter(kind=Kind.REWARD).exists()


@pytest.mark.django_db
def test_check_in_on_the_page_and_the_reward_is_on_the_coins_statement(client, four):
    me = four[0]
    client.force_login(me)
    page = client.get("/daily/")
    assert "签到（连续第 1 天，+100 游戏币）" in page.content.decode()

    answer = client.post("/daily/checkin/", follow=True)
    assert "签到成功：连续 1 天，+100 游戏币" in answer.content.decode()
    statement = client.get(reverse("my-coins")).content.decode()
    assert "每日奖励" in statement and "签到奖励" in statement and "+100" in statement


@pytest.mark.django_db
def test_with_htmx_the_section_is_swapped_with_the_refusal(client):
    fresh = player()
    client.force_login(fresh)
    answer = client.post("/daily/checkin/", HTTP_HX_REQUEST="true")
    body = answer.content.decode()
    assert answer.status_code == 200 and 'id="daily"' in body
    assert "先完成一局对局，才能签到领奖" in body


@pytest.mark.django_db
def test_the_api_reads_checks_in_and_claims(client, four):
    me = four[0]
    client.force_login(me)
    assert client.get("/api/daily").json()["checked_in"] is False
    assert client.post("/api/daily/checkin").json()["checked_in"] is True
    refused = client.post("/api/daily/tasks/double/claim")
    assert refused.status_code == 400 and refused.json()["detail"] == "任务还没有完成"
    record, events = a_game(four, kou="double", winners=(0, 2))
    count_settled_game(record=record, events=events)
    body = client.post("/api/daily/tasks/double/claim").json()
    assert [task["claimed"] for task in body["tasks"]] == [False, True, False]
    assert body["paid"] == 600 and balance_of(me, "coin") == 600


@pytest.mark.django_db(transaction=True)
def test_eight_simultaneous_check_ins_pay_once():
    users = [player() for _ in range(4)]
    played(users)
    me = users[0]

    results = run_threads(8, lambda _index: check_in(user=me).pk)

    assert len(set(results)) == 1 and all(isinstance(pk, int) for pk in results)
    assert balance_of(me, "coin") == 100
    assert Transaction.objects.filter(kind=Kind.REWARD).count() == 1
    assert ledger_violations() == []


@pytest.mark.django_db(transaction=True)
def test_eight_simultaneous_claims_of_a_task_pay_once():
    users = [player() for _ in range(4)]
    played(users)
    me = users[0]
    record, events = a_game(users, kou="double", winners=(0, 2))
    count_settled_game(record=record, events=events)

    results = run_threads(8, lambda _index: claim_task(user=me, task="double").pk)

    assert len(set(results)) == 1 and all(isinstance(pk, int) for pk in results)
    assert balance_of(me, "coin") == 500
    assert ledger_violations() == []
