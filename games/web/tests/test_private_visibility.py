"""Who may read a private table (好友房) and its games, over every way in: the private
table's API, the table page, the game API and its log, the replay page and its JSON
download, the analysis (API and panel), the history and the lobby (games.live.visibility).

Each reader is tried as an outsider would: anonymous, a signed-in stranger, a seated
player, the host and staff."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.urls import reverse

from analysis.models import GameAnalysis
from games.live import visibility
from games.live.lifecycle.act import game_act
from games.live.private_tables import private_table_join, private_table_open
from games.live.seating import table_ready, table_stand
from games.models import GameRecord
from games.testing.room_helpers import make_player, make_room

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def staff_member():
    staff = make_player("moderator")
    staff.is_staff = True
    staff.save()
    return staff


def friends_table(*, spectators: bool, seated: int = 4):
    """A private table opened by ``host`` with ``seated`` players (the host among them)."""
    room = make_room("friends")
    host, *friends = [make_player(name) for name in ("host", "amy", "ben", "cat")]
    private = private_table_open(host=host, room_id=room.pk, spectators=spectators)
    for friend in friends[:seated - 1]:
        private_table_join(user=friend, code=private.code)
    return private, [host, *friends[:seated - 1]]


def running_game(private, players) -> GameRecord:
    for player in players:
        table_ready(user=player)
    record = GameRecord.objects.get(table_id=private.table_id)
    assert record.status == GameRecord.Status.PLAYING
    return record


def ended_game(private, players) -> GameRecord:
    """Everyone ready, then everyone in 托管: the game plays itself to its end."""
    record = running_game(private, players)
    for player in players:
        record.refresh_from_db()
        if record.status == GameRecord.Status.PLAYING:
            game_act(user_id=player.pk, game_id=record.pk, action="trustee", on=True)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.ENDED
    return record


# --- the private table's API and panel: the invite code -------------------------------------

def test_an_anonymous_client_never_reads_a_private_tables_invite_code():
    # One seat is empty: an anonymous viewer's missing id matched it.
    private, _players = friends_table(spectators=True, seated=3)

    response = signed_in(None).get(reverse("api-private-table", args=[private.table_id]))

    assert response.status_code == 401
    assert private.code not in response.content.decode()


def test_a_stranger_reads_an_open_private_table_without_its_code_and_nothing_of_a_closed_one():
    open_table, _ = friends_table(spectators=True, seated=2)
    closed = private_table_open(host=make_player("other-host"),
                                room_id=open_table.table.room_id, spectators=False)
    stranger = signed_in(make_player("stranger"))

    seen = stranger.get(reverse("api-private-table", args=[open_table.table_id]))
    refused = stranger.get(reverse("api-private-table", args=[closed.table_id]))

    assert seen.status_code == 200
    assert seen.json()["code"] is None and seen.json()["invite_url"] is None
    assert open_table.code not in seen.content.decode()
    assert refused.status_code == 403
    assert closed.code not in refused.content.decode()


def test_the_host_and_the_seated_players_read_the_code_and_staff_do_not():
    private, (host, amy) = friends_table(spectators=False, seated=2)
    table_stand(user=host)  # the host, standing, is still the host
    url = reverse("api-private-table", args=[private.table_id])

    for insider in (host, amy):
        body = signed_in(insider).get(url).json()
        assert body["code"] == private.code
        assert body["invite_url"].endswith(reverse("invite", args=[private.code]))
    # Staff read private tables in the admin; here they are outsiders.
    assert signed_in(staff_member()).get(url).status_code == 403


def test_eight_anonymous_and_stranger_requests_at_once_all_miss_the_code():
    private, _ = friends_table(spectators=True, seated=1)
    stranger = make_player("stranger")
    url = reverse("api-private-table", args=[private.table_id])

    def read(user) -> tuple[int, str]:
        try:
            response = signed_in(user).get(url)
            return response.status_code, response.content.decode()
        finally:
            connection.close()  # each thread's own connection

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(read, [None, stranger] * 4))

    assert sorted({status for status, _ in answers}) == [200, 401]
    assert not any(private.code in body for _, body in answers)


def test_the_table_page_shows_the_code_to_its_players_only():
    private, (host, amy) = friends_table(spectators=True, seated=2)
    url = reverse("table", args=[private.table_id])

    assert private.code in signed_in(amy).get(url).content.decode()
    assert private.code not in signed_in(make_player("stranger")).get(url).content.decode()
    anonymous = signed_in(None).get(url)
    assert anonymous.status_code == 302 and private.code not in anonymous.content.decode()


# --- a game at a private table without spectators -------------------------------------------

def test_a_running_game_without_spectators_is_closed_to_outsiders_on_every_read():
    private, players = friends_table(spectators=False)
    record = running_game(private, players)
    game = reverse("api-game", args=[record.pk])
    outsiders = {"stranger": make_player("stranger"), "staff": staff_member()}

    assert signed_in(None).get(game).status_code == 401
    for who, outsider in outsiders.items():
        client = signed_in(outsider)
        assert client.get(game).status_code == 403, who
        assert client.get(reverse("api-game-events", args=[record.pk])).status_code == 403
        assert client.get(reverse("game-replay", args=[record.pk])).status_code == 403
        assert client.get(reverse("game-events-download", args=[record.pk])).status_code == 403
        table = client.get(reverse("table", args=[private.table_id]), follow=True)
        assert table.redirect_chain[-1][0] == reverse("lobby"), who
    # Its players read it, each with their own hand only.
    amy = players[1]
    seen = signed_in(amy).get(game).json()
    assert seen["seat"] == record.players.index(amy.pk) and seen["hand"]


def test_a_running_game_at_a_table_with_spectators_stays_public():
    private, players = friends_table(spectators=True)
    record = running_game(private, players)

    for viewer in (None, make_player("stranger")):
        seen = signed_in(viewer).get(reverse("api-game", args=[record.pk]))
        assert seen.status_code == 200 and seen.json()["hand"] is None


def test_a_finished_game_without_spectators_is_its_players_hosts_and_staffs_only():
    private, players = friends_table(spectators=False)
    record = ended_game(private, players)
    GameAnalysis.objects.create(game=record)  # asked for: the analysis is readable
    reads = [reverse("api-game", args=[record.pk]),
             reverse("api-game-events", args=[record.pk]),
             reverse("game-replay", args=[record.pk]),
             reverse("game-events-download", args=[record.pk]),
             reverse("api-game-analysis", args=[record.pk]),
             reverse("game-analysis-panel", args=[record.pk])]

    stranger = signed_in(make_player("stranger"))
    for url in reads:
        assert stranger.get(url).status_code == 403, url
    asked = stranger.post(reverse("game-analysis-ask", args=[record.pk]))
    assert asked.status_code == 403
    assert stranger.post(reverse("api-game-analysis", args=[record.pk])).status_code == 403

    anonymous = signed_in(None)
    assert anonymous.get(reads[0]).status_code == 401
    assert anonymous.get(reads[1]).status_code == 401
    replay = anonymous.get(reads[2])
    assert replay.status_code == 302 and replay.url.startswith(reverse("login"))
    for url in reads[3:]:
        assert anonymous.get(url).status_code in (401, 403), url

    for reader in (players[1], staff_member()):
        client = signed_in(reader)
        for url in reads:
            assert client.get(url).status_code == 200, url


def test_a_players_history_lists_the_game_and_a_strangers_does_not():
    private, players = friends_table(spectators=False)
    record = ended_game(private, players)
    replay = reverse("game-replay", args=[record.pk])

    assert replay in signed_in(players[2]).get(reverse("game-history")).content.decode()
    assert replay not in signed_in(make_player("stranger")).get(
        reverse("game-history")).content.decode()
    assert reverse("table", args=[private.table_id]) not in signed_in(
        make_player("lobbyist")).get(reverse("lobby")).content.decode()


def test_an_anonymous_user_is_no_insider_of_a_table_with_empty_seats():
    private, (host,) = friends_table(spectators=False, seated=1)

    assert not visibility.may_watch(AnonymousUser(), private.table_id)
    assert not visibility.private_insider(AnonymousUser(), private)
    assert visibility.private_insider(host, private)
