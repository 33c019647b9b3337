"""The friends pages, forms and API as a player, a visitor and a stranger, and eight
simultaneous acceptances making one friendship."""

from __future__ import annotations

import pytest

from common.testing.threads import run_threads
from friends import invites, services
from friends.models import Block, FriendRequest, Friendship, TableInvite
from games.live.private_tables import private_table_open
from games.models import Seat
from games.testing.room_helpers import make_player, make_room

PAGES = ["/friends/", "/friends/list/", "/friends/notices/", "/friends/board/"]
POSTS = ["/friends/request/", "/friends/seat/", "/friends/1/accept/", "/friends/1/invite/",
         "/friends/invites/1/accept/", "/games/1/rematch/"]
API = [("get", "/api/friends"), ("post", "/api/friends"), ("get", "/api/friends/blocked"),
       ("post", "/api/friends/requests/1/accept"), ("post", "/api/friends/1/invite"),
       ("post", "/api/friends/invites/1/accept"), ("post", "/api/games/1/rematch")]


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES + POSTS)
def test_a_visitor_is_sent_to_the_login_and_nothing_changes(client, url):
    response = client.get(url) if url in PAGES else client.post(url, {"username": "x"})
    assert response.status_code == 302 and "/login" in response["Location"]
    assert not FriendRequest.objects.exists() and not TableInvite.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("method,url", API)
def test_the_api_refuses_a_visitor(client, method, url):
    assert getattr(client, method)(url).status_code in (401, 403)


@pytest.mark.django_db
def test_a_request_and_its_acceptance_through_the_pages(client):
    amy, ben = make_player("amy"), make_player("ben")
    client.force_login(amy)
    answer = client.post("/friends/request/", {"username": ben.username}, follow=True)
    assert "已向 ben 发送好友申请" in answer.content.decode()
    client.force_login(ben)
    assert "1 条好友申请" in client.get("/friends/notices/").content.decode()
    page = client.get("/friends/").content.decode()
    assert f'action="/friends/{amy.pk}/accept/"' in page
    client.post(f"/friends/{amy.pk}/accept/")
    assert services.are_friends(amy.pk, ben.pk)
    listed = client.get("/friends/list/").content.decode()
    assert f'data-user="{amy.pk}"' in listed and 'data-status="online"' in listed


@pytest.mark.django_db
@pytest.mark.parametrize("next_", ["/friends/list/", "friends-nowhere", "https://evil.example/"])
def test_an_answer_goes_back_to_a_path_of_this_site_and_nowhere_else(client, next_):
    amy, ben = make_player("amy"), make_player("ben")
    client.force_login(amy)
    client.post("/friends/request/", {"username": ben.username})
    client.force_login(ben)
    answer = client.post(f"/friends/{amy.pk}/accept/", {"next": next_})
    assert answer.status_code == 302
    assert answer.url == (next_ if next_.startswith("/") else "/friends/")
    assert services.are_friends(amy.pk, ben.pk)


@pytest.mark.django_db
def test_a_stranger_cannot_accept_invite_or_answer_for_others(client):
    amy, ben, eve = make_player("amy"), make_player("ben"), make_player("eve")
    services.friend_request(sender=amy, recipient=ben)
    private_table_open(host=amy, room_id=make_room("friends").pk)
    client.force_login(eve)
    client.post(f"/friends/{amy.pk}/accept/")  # amy asked ben, not eve
    assert not Friendship.objects.exists()
    answer = client.post(f"/friends/{amy.pk}/invite/", follow=True)  # eve has no table
    assert "先开一张好友房并入座" in answer.content.decode()
    services.friend_accept(user=ben, sender_id=amy.pk)
    invite = invites.invite_friend(sender=amy, recipient_id=ben.pk)
    client.post(f"/friends/invites/{invite.pk}/accept/")
    assert not Seat.objects.filter(user=eve).exists()
    assert TableInvite.objects.get(pk=invite.pk).answer == ""
    api = client.post(f"/api/friends/invites/{invite.pk}/accept")
    assert api.status_code == 400 and api.json()["code"] == "no_invite"


@pytest.mark.django_db
def test_an_invitation_shows_on_any_page_and_one_click_seats(client):
    host, amy = make_player("host"), make_player("amy")
    services.friend_request(sender=host, recipient=amy)
    services.friend_accept(user=amy, sender_id=host.pk)
    private = private_table_open(host=host, room_id=make_room("friends").pk)
    client.force_login(host)
    assert client.post(f"/api/friends/{amy.pk}/invite").status_code == 200
    client.force_login(amy)
    assert 'id="friend-notices"' in client.get("/lobby/").content.decode()
    notices = client.get("/friends/notices/").content.decode()
    assert "host 邀请你到好友房" in notices
    invite = TableInvite.objects.get()
    answer = client.post(f"/friends/invites/{invite.pk}/accept/")
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{private.table_id}/"
    assert Seat.objects.get(user=amy).table_id == private.table_id
    assert "邀请你到好友房" not in client.get("/friends/notices/").content.decode()


@pytest.mark.django_db
def test_the_api_lists_friends_with_status_and_blocked_players(client):
    amy, ben, eve = make_player("amy"), make_player("ben"), make_player("eve")
    client.force_login(amy)
    assert client.post("/api/friends", {"username": ben.username}).json() == {"result": "sent"}
    refused = client.post("/api/friends", {"username": "no-such-player"})
    assert refused.status_code == 400 and refused.json()["code"] == "unknown_user"
    client.force_login(ben)
    assert client.post(f"/api/friends/requests/{amy.pk}/accept").status_code == 200
    (row,) = client.get("/api/friends").json()
    assert row["id"] == amy.pk and row["status"] in ("online", "offline")
    client.post(f"/friends/{eve.pk}/block/")
    assert client.get("/api/friends/blocked").json() == {"users": [eve.pk]}
    assert Block.objects.filter(blocker=ben, blocked=eve).exists()


@pytest.mark.django_db(transaction=True)
def test_eight_simultaneous_acceptances_make_one_friendship():
    amy, ben = make_player("amy"), make_player("ben")
    services.friend_request(sender=amy, recipient=ben)

    results = run_threads(8, lambda _index: services.friend_accept(user=ben, sender_id=amy.pk))

    assert results == [None] * 8
    assert Friendship.objects.count() == 1 and not FriendRequest.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_eight_simultaneous_invitation_acceptances_seat_once():
    host, amy = make_player("host"), make_player("amy")
    services.friend_request(sender=host, recipient=amy)
    services.friend_accept(user=amy, sender_id=host.pk)
    private_table_open(host=host, room_id=make_room("friends").pk)
    invite = invites.invite_friend(sender=host, recipient_id=amy.pk)

    results = run_threads(8, lambda _index: invites.invite_accept(user=amy,
                                                                  invite_id=invite.pk).pk)

    assert len(set(results)) == 1 and all(isinstance(pk, int) for pk in results)
    assert Seat.objects.filter(user=amy).count() == 1
