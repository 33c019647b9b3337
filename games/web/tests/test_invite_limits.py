"""Invite codes cannot be guessed without limit (games.web.invite_limits): every way a
code is looked up (the join API, the lobby's code box, the invite page and its button)
counts wrong codes per user and per client address, answers 429 with Retry-After past
the allowance, says nothing about other tables, and fails closed (503) while the limits
cannot be checked."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import api_token_for
from common.testing.server_helpers import served
from games.live.private_tables import private_table_close, private_table_open
from games.models import Seat
from games.testing.room_helpers import make_player, make_room
from games.web.invite_limits import InviteLimitsUnavailable

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("own_cache_namespace")]

TOO_MANY = "邀请码尝试次数过多"
WRONG = [f"WRONG{letter}" for letter in "ABCDEFGHJK"]


@pytest.fixture
def invite_limits(settings):
    """invite_limits(user=3, address=100, window=600)."""

    def apply(*, user: int = 100, address: int = 100, window: int = 600) -> None:
        settings.GAMES_INVITE_TRIES_PER_USER = user
        settings.GAMES_INVITE_TRIES_PER_ADDRESS = address
        settings.GAMES_INVITE_TRIES_WINDOW_SECONDS = window

    return apply


def signed_in(user, address: str = "127.0.0.1") -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def join_api(client: Client, code: str):
    return client.post(reverse("api-private-join"), {"code": code},
                       content_type="application/json")


def friends_table(host_name: str = "hostess"):
    room = make_room("friends-room")
    return private_table_open(host=make_player(host_name), room_id=room.pk)


def test_wrong_codes_through_the_join_api_run_out_per_user_and_then_every_code_is_refused(
        invite_limits):
    invite_limits(user=3)
    private = friends_table()
    amy = make_player("amy")
    client = signed_in(amy)

    for code in WRONG[:3]:
        answer = join_api(client, code)
        assert answer.status_code == 400 and answer.json()["code"] == "invite_unknown"
    refused = join_api(client, WRONG[3])
    right = join_api(client, private.code)

    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 600
    assert TOO_MANY in refused.json()["detail"]
    # Blocked means blocked: a right code would otherwise tell the guesser it hit.
    assert right.status_code == 429 and private.code not in right.content.decode()
    assert not Seat.objects.filter(user=amy).exists()


def test_the_address_limit_counts_every_user_behind_it(invite_limits):
    invite_limits(user=100, address=3)
    amy, ben, far = make_player("amy"), make_player("ben"), make_player("far")

    for client, code in ((signed_in(amy), WRONG[0]), (signed_in(amy), WRONG[1]),
                         (signed_in(ben), WRONG[2])):
        assert join_api(client, code).status_code == 400

    assert join_api(signed_in(ben), WRONG[3]).status_code == 429
    assert join_api(signed_in(far, "198.51.100.7"), WRONG[4]).status_code == 400


def test_the_invite_page_is_limited_and_says_so_with_a_429_page(invite_limits):
    invite_limits(user=2)
    private = friends_table()
    client = signed_in(make_player("amy"))

    for code in WRONG[:2]:
        page = client.get(reverse("invite", args=[code]))
        assert page.status_code == 404 and "没有这个邀请码" in page.content.decode()
    refused = client.get(reverse("invite", args=[WRONG[2]]))
    right = client.get(reverse("invite", args=[private.code]))
    button = client.post(reverse("invite", args=[private.code]))

    assert refused.status_code == 429 and TOO_MANY in refused.content.decode()
    assert 1 <= int(refused["Retry-After"]) <= 600
    assert right.status_code == 429 and "hostess" not in right.content.decode()
    assert button.status_code == 429 and TOO_MANY in button.content.decode()
    english = client.get(reverse("invite", args=[WRONG[3]]), HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 429
    assert "Too many invite codes tried" in english.content.decode()
    assert not Seat.objects.filter(table_id=private.table_id, user__username="amy").exists()


def test_the_lobby_code_box_is_limited_too(invite_limits):
    invite_limits(user=2)
    client = signed_in(make_player("amy"))

    for code in WRONG[:2]:
        answer = client.post(reverse("private-join"), {"code": code}, follow=True)
        assert "没有这个邀请码" in answer.content.decode()
    refused = client.post(reverse("private-join"), {"code": WRONG[2]})

    assert refused.status_code == 429 and TOO_MANY in refused.content.decode()
    assert "Retry-After" in refused


def test_right_codes_never_use_up_the_allowance(invite_limits):
    invite_limits(user=2, address=2)
    private = friends_table()
    amy = make_player("amy")
    client = signed_in(amy)

    for _ in range(5):  # a friend reloading the invite link
        page = client.get(reverse("invite", args=[private.code.lower()]))
        assert page.status_code == 200 and "hostess" in page.content.decode()
    for _ in range(3):  # the first seats her, the others find her seated there
        assert join_api(client, private.code).status_code == 200

    for code in WRONG[:2]:
        assert join_api(client, code).status_code == 400
    assert join_api(client, WRONG[2]).status_code == 429


def test_a_wrong_codes_answer_says_nothing_of_any_table(invite_limits):
    invite_limits()
    open_table = friends_table("hostess")
    closed = private_table_open(host=make_player("closer"), room_id=open_table.table.room_id)
    private_table_close(host=closed.host, table_id=closed.table_id)
    client = signed_in(make_player("amy"))

    for code in (WRONG[0], closed.code):
        page = client.get(reverse("invite", args=[code]))
        answer = join_api(client, code)
        for text in (page.content.decode(), answer.content.decode()):
            assert "hostess" not in text and "closer" not in text
            assert "friends-room" not in text and open_table.code not in text
        assert page.status_code == 404
        assert set(answer.json()) == {"detail", "code"}


def test_an_anonymous_visitor_of_an_invite_link_is_shown_the_way_in_and_learns_nothing():
    private = friends_table()

    page = Client().get(reverse("invite", args=[private.code]))
    answer = Client().post(reverse("api-private-join"), {"code": private.code},
                           content_type="application/json")

    # The page says an invitation waits, with the ways in that come back to it.
    assert page.status_code == 200
    assert f'{reverse("login")}?next=' in page.content.decode()
    assert answer.status_code == 401
    assert "hostess" not in page.content.decode() + answer.content.decode()


def test_while_the_limits_cannot_be_checked_codes_are_refused_with_503(redis_down):
    amy = make_player("amy")
    client = signed_in(amy)

    answer = join_api(client, "ABCDEF")
    page = client.get(reverse("invite", args=["ABCDEF"]))
    box = client.post(reverse("private-join"), {"code": "ABCDEF"})

    assert answer.status_code == 503
    assert answer["Retry-After"] == str(InviteLimitsUnavailable.RETRY_AFTER_SECONDS)
    for response in (page, box):
        assert response.status_code == 503 and "暂时无法核对邀请码" in response.content.decode()
        assert response["Retry-After"] == str(InviteLimitsUnavailable.RETRY_AFTER_SECONDS)
    assert not Seat.objects.filter(user=amy).exists()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_eight_wrong_codes_at_once_on_two_processes_get_exactly_the_allowance():
    """The count lives in Redis: two server processes, eight identical requests at
    once, a per-user allowance of five: five misses and three refusals, whichever
    process answers which."""
    token = api_token_for(make_player("guesser")).key
    limits = {"GAMES_INVITE_TRIES_PER_USER": "5", "GAMES_INVITE_TRIES_PER_ADDRESS": "100"}

    def guess(port: int, code: str) -> int:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{reverse('api-private-join')}", method="POST",
            data=json.dumps({"code": code}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Token {token}"})
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return reply.status
        except urllib.error.HTTPError as refused:
            return refused.code

    with served(2, env=limits) as ports, ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(guess, [ports[i % 2] for i in range(8)], [WRONG[0]] * 8))

    assert sorted(statuses) == [400] * 5 + [429] * 3
