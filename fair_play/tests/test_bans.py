"""Escape bans: escapes counted at settlement in a rolling window, the
first a warning, then the ladder; every way to a seat refused while banned; the ban's
expiry; an admin's lift with its log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from fair_play.bans import ban_status, check_may_sit
from fair_play.escapes import escapers, record_escapes
from fair_play.models import BanLift, EscapeRecord
from games.errors import ActionError
from games.live.lifecycle.deadlines import game_disconnected
from games.live.seating import room_quick_join, table_create, table_sit
from games.models import GameEvent, GameRecord, Room, Seat, TableSocket
from games.testing.room_helpers import make_player, make_room, start_game_with_bots
from ledger.audit import ledger_violations

pytestmark = pytest.mark.django_db

LADDER = ["600", "3600", "86400"]


@pytest.fixture(autouse=True)
def ladder_settings(settings):
    settings.FAIR_PLAY_WINDOW_HOURS = 24
    settings.FAIR_PLAY_BAN_LADDER = LADDER


@pytest.fixture
def room() -> Room:
    return make_room("qq 积分", escape_mode=Room.EscapeMode.END_GAME)

def time_passes(delta: timedelta) -> None:
    """Move every record back by ``delta``: as if that much time had passed."""
    EscapeRecord.objects.update(occurred_at=F("occurred_at") - delta,
                                ban_until=F("ban_until") - delta)


def test_the_first_escape_is_a_warning_and_the_player_may_sit_again(room, escape_of):
    alice = make_player("alice")

    game = escape_of(alice, room)

    record = EscapeRecord.objects.get(user=alice)
    assert (record.game_id, record.kind, record.count_in_window) == (game.pk, "escape", 1)
    assert record.ban_until is None
    status = ban_status(alice.pk)
    assert status.warning and not status.banned and status.escapes_in_window == 1
    assert room_quick_join(user=alice, room_id=room.pk).user_id == alice.pk
    assert ledger_violations() == []


def test_repeated_escapes_climb_the_ladder_and_each_ban_expires(room, escape_of):
    alice = make_player("alice")
    escape_of(alice, room)

    escape_of(alice, room)  # the second within the window: 10 minutes
    second = EscapeRecord.objects.get(user=alice, count_in_window=2)
    assert second.ban_until - second.occurred_at == timedelta(minutes=10)
    with pytest.raises(ActionError) as refused:
        room_quick_join(user=alice, room_id=room.pk)
    assert refused.value.code == "play_banned"
    assert "逃跑了 2 次" in str(refused.value) and "还剩 10 分钟" in str(refused.value)
    assert not Seat.objects.filter(user=alice).exists()

    time_passes(timedelta(minutes=10, seconds=1))  # the ban has run out
    assert not ban_status(alice.pk).banned
    escape_of(alice, room)  # the third within 24 hours: 1 hour
    third = EscapeRecord.objects.get(user=alice, count_in_window=3)
    assert third.ban_until - third.occurred_at == timedelta(hours=1)
    assert ban_status(alice.pk).minutes_left == 60

    time_passes(timedelta(hours=1, seconds=1))
    escape_of(alice, room)  # then 24 hours, the last step repeating
    escape_of_fourth = EscapeRecord.objects.get(user=alice, count_in_window=4)
    assert escape_of_fourth.ban_until - escape_of_fourth.occurred_at == timedelta(hours=24)
    assert ban_status(alice.pk, now=escape_of_fourth.ban_until - timedelta(seconds=1)).banned
    assert not ban_status(alice.pk, now=escape_of_fourth.ban_until).banned
    check_may_sit(alice, now=escape_of_fourth.ban_until + timedelta(seconds=1))
    assert ledger_violations() == []


def test_escapes_older_than_the_window_no_longer_count(room, escape_of, settings):
    alice = make_player("alice")
    escape_of(alice, room)
    time_passes(timedelta(hours=24, seconds=1))

    escape_of(alice, room)

    latest = EscapeRecord.objects.filter(user=alice).order_by("-occurred_at").first()
    assert latest.count_in_window == 1 and latest.ban_until is None
    settings.FAIR_PLAY_WINDOW_HOURS = 48  # a longer window reaches back to the first
    assert ban_status(alice.pk).escapes_in_window == 2


def test_a_settlement_run_again_does_not_count_the_escape_twice(room, escape_of):
    alice = make_player("alice")
    game = escape_of(alice, room)

    again = record_escapes(game, at=timezone.now() + timedelta(minutes=1))

    assert again == []
    assert EscapeRecord.objects.filter(user=alice).count() == 1


def test_only_the_escaper_is_recorded_never_the_bots(room, escape_of):
    alice = make_player("alice")

    game = escape_of(alice, room)

    assert len(game.players) == 4
    assert list(EscapeRecord.objects.values_list("user_id", flat=True)) == [alice.pk]


# --- disconnects in end_game rooms --------------------------------------------------------

def disconnect_until_the_end(user: User, room: Room, capture, *, present: bool) -> GameRecord:
    record = start_game_with_bots(user, room)
    if present:  # a socket of the player at the table: they came back
        TableSocket.objects.create(channel="test!back", user=user, table_id=record.table_id)
    with capture(execute=True):
        # 托管 with reason "disconnect"; with no think time the bots and 托管 play on
        # to the end and the settlement runs.
        game_disconnected(user_id=user.pk, game_id=record.pk)
    record.refresh_from_db()
    assert record.settled_at is not None
    return record


def test_a_disconnect_without_return_in_an_end_game_room_counts(
        room, django_capture_on_commit_callbacks):
    alice = make_player("alice")

    game = disconnect_until_the_end(alice, room, django_capture_on_commit_callbacks,
                                    present=False)

    assert list(EscapeRecord.objects.values_list("user_id", "game_id", "kind")) == [
        (alice.pk, game.pk, "disconnect")]


def test_a_player_who_came_back_before_the_end_is_not_counted(
        room, django_capture_on_commit_callbacks):
    alice = make_player("alice")

    disconnect_until_the_end(alice, room, django_capture_on_commit_callbacks, present=True)

    assert not EscapeRecord.objects.exists()


def log_trustee(record: GameRecord, seat: int, *changes: tuple[bool, str]) -> None:
    """Append 托管 changes of ``seat`` to the game's log, as the engine writes them."""
    seq = record.seq
    for on, reason in changes:
        seq += 1
        GameEvent.objects.create(game=record, seq=seq, type="trustee", data={
            "seq": seq, "type": "trustee", "seat": seat, "on": on, "reason": reason})


def test_only_a_seat_whose_latest_trustee_is_a_disconnects_is_away(room):
    alice = make_player("alice")
    record = start_game_with_bots(alice, room)
    seat = record.players.index(alice.pk)

    log_trustee(record, seat, (True, "disconnect"), (False, "player"))
    assert escapers(record) == {}  # came back and took 托管 off

    record.refresh_from_db()
    record.seq = GameEvent.objects.filter(game=record).count() + 100
    log_trustee(record, seat, (True, "disconnect"))
    assert escapers(record) == {alice.pk: "disconnect"}


def test_a_disconnect_in_an_auto_play_room_is_not_an_escape(
        django_capture_on_commit_callbacks):
    room = make_room("qq 托管", escape_mode=Room.EscapeMode.AUTO_PLAY)

    disconnect_until_the_end(make_player("alice"), room, django_capture_on_commit_callbacks,
                             present=False)

    assert not EscapeRecord.objects.exists()


# --- refusals -----------------------------------------------------------------------------

@pytest.fixture
def banned(room, escape_of) -> User:
    alice = make_player("alice")
    escape_of(alice, room)
    escape_of(alice, room)
    assert ban_status(alice.pk).banned
    return alice


def test_quick_join_over_http_while_banned_shows_the_reason_and_time_left(
        client, room, banned):
    client.force_login(banned)

    response = client.post(reverse("room-quick-join", args=[room.pk]), follow=True)

    text = response.content.decode()
    assert "被禁止入座" in text and "还剩 10 分钟" in text
    assert not Seat.objects.filter(user=banned).exists()


def test_sitting_at_a_chosen_seat_while_banned_is_refused(room, banned):
    table = table_create(room)

    with pytest.raises(ActionError) as refused:
        table_sit(user=banned, table_id=table.pk, seat_index=0)

    assert refused.value.code == "play_banned"
    assert not Seat.objects.filter(user=banned).exists()


def test_the_lobby_shows_the_ban_and_the_warning(client, room, escape_of):
    alice = make_player("alice")
    client.force_login(alice)
    escape_of(alice, room)
    assert 'id="play-ban-warning"' in client.get(reverse("lobby")).content.decode()

    escape_of(alice, room)

    html = client.get(reverse("lobby")).content.decode()
    assert 'id="play-ban"' in html and "还剩 10 分钟" in html


def test_the_api_gives_the_players_own_ban_status(client, banned):
    client.force_login(banned)

    body = client.get(reverse("api-my-ban")).json()

    assert body["banned"] is True and body["seconds_left"] > 9 * 60
    assert body["escapes_in_window"] == 2 and body["window_hours"] == 24
    assert client.logout() is None
    assert client.get(reverse("api-my-ban")).status_code in (401, 403)


# --- the admin's lift ---------------------------------------------------------------------

def test_an_admin_lifts_a_ban_with_a_reason_and_it_is_logged(client, room, banned):
    boss = User.objects.create_superuser(username="boss", password="pw")
    client.force_login(boss)
    record = EscapeRecord.objects.get(user=banned, count_in_window=2)
    add = reverse("admin:fair_play_banlift_add")

    refused = client.post(add, {"record": record.pk, "reason": ""})
    assert refused.status_code == 200 and not BanLift.objects.exists()
    lifted = client.post(add, {"record": record.pk, "reason": "服务器故障导致断线"})

    assert lifted.status_code == 302
    lift = BanLift.objects.get()
    assert (lift.record_id, lift.lifted_by_id, lift.reason) == (record.pk, boss.pk,
                                                                "服务器故障导致断线")
    assert EscapeRecord.objects.filter(pk=record.pk, ban_until=record.ban_until).exists()
    assert not ban_status(banned.pk).banned
    assert room_quick_join(user=banned, room_id=room.pk).user_id == banned.pk
    page = client.get(reverse("admin:fair_play_escaperecord_changelist"))
    assert page.status_code == 200 and "alice" in page.content.decode()
    detail = client.get(reverse("admin:fair_play_escaperecord_change", args=[record.pk]))
    assert "服务器故障导致断线" in detail.content.decode()


def test_a_warning_has_no_ban_to_lift(client, room, escape_of):
    client.force_login(User.objects.create_superuser(username="boss", password="pw"))
    escape_of(make_player("alice"), room)
    warning = EscapeRecord.objects.get()

    response = client.post(reverse("admin:fair_play_banlift_add"),
                           {"record": warning.pk, "reason": "误判"})

    assert response.status_code == 200 and not BanLift.objects.exists()


def test_the_ban_status_endpoint_is_in_the_schema(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()

    operation = schema["paths"]["/api/me/ban"]["get"]
    assert operation["summary"] == "My escape ban status"
    assert "BanStatus" in schema["components"]["schemas"]


def test_the_ban_is_told_in_english_to_an_english_reader(client, room, banned):
    client.force_login(banned)

    response = client.post(reverse("room-quick-join", args=[room.pk]), follow=True,
                           HTTP_ACCEPT_LANGUAGE="en")

    html = response.content.decode()
    assert "may not sit down for 10 more minutes" in html
    assert "You left 2 games within 24 hours" in html


def test_quick_join_over_the_api_while_banned_is_refused_with_the_code(client, room, banned):
    client.force_login(banned)

    response = client.post(reverse("api-room-join", args=[room.pk]))

    assert response.status_code == 400
    assert response.json()["code"] == "play_banned"
    assert "还剩 10 分钟" in response.json()["detail"]
    assert not Seat.objects.filter(user=banned).exists()


def test_quick_join_over_the_api_seats_a_player_who_is_not_banned(client, room):
    alice = make_player("alice")
    client.force_login(alice)

    response = client.post(reverse("api-room-join", args=[room.pk]))

    seat = Seat.objects.get(user=alice)
    assert response.status_code == 200
    assert response.json() == {"table": seat.table_id, "seat": seat.index,
                               "url": f"/tables/{seat.table_id}/"}
    schema = client.get("/api/schema/", {"format": "json"}).json()
    assert "post" in schema["paths"]["/api/rooms/{room_id}/join"]


def test_the_players_own_profile_shows_the_ban_and_nobody_elses_does(client, banned):
    client.force_login(banned)
    assert 'id="play-ban"' in client.get(reverse("my-profile")).content.decode()
    client.force_login(make_player("bob"))
    assert 'id="play-ban"' not in client.get(
        reverse("player-profile", args=[banned.username])).content.decode()
