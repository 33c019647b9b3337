"""Private tables (好友房) and their series (games.live.private_tables,
games.live.series): invite codes, who may sit and watch, the host's powers, bots only
on the host's word, and a series' running score read from its settled games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from games.errors import ActionError
from games.live import sweeps
from games.live.lifecycle.act import game_act
from games.live.lobby_tables import lobby_tables
from games.live.private_tables import (
    CODE_ALPHABET,
    CODE_LENGTH,
    private_table_close,
    private_table_fill_bots,
    private_table_join,
    private_table_open,
    private_table_remove,
)
from games.live.seating import room_quick_join, table_ready, table_sit, table_stand
from games.live.series import series_score
from games.live.visibility import may_watch
from games.models import GameRecord, PrivateTable, Seat, Series, Table
from games.testing.room_helpers import coin_room, make_player, make_room
from ledger.audit import ledger_violations
from ledger.models import Currency, Leg

pytestmark = pytest.mark.django_db(transaction=True)


def snapshot() -> dict:
    """What a refusal must leave as it was."""
    return {"seats": sorted(Seat.objects.filter(user__isnull=False)
                            .values_list("user_id", "table_id")),
            "tables": Table.objects.count(), "private": PrivateTable.objects.count(),
            "games": GameRecord.objects.count()}


def refused(call, code: str | None = None) -> ActionError:
    before = snapshot()
    with pytest.raises(ActionError) as error:
        call()
    assert snapshot() == before
    if code is not None:
        assert error.value.code == code
    return error.value


def four_at_a_private_table(room=None):
    room = room or make_room("friends")
    host, *friends = [make_player(name) for name in ("host", "amy", "ben", "cat")]
    private = private_table_open(host=host, room_id=room.pk)
    for friend in friends:
        private_table_join(user=friend, code=private.code)
    return private, [host, *friends]


def play_out(table_id: int, players) -> GameRecord:
    """Everyone ready; then everyone in 托管, so the game plays itself to its end and is
    settled (test settings: no think time, eager tasks)."""
    for player in players:
        table_ready(user=player)
    record = GameRecord.objects.filter(table_id=table_id).order_by("-pk").first()
    for player in players:
        record.refresh_from_db()
        if record.status == GameRecord.Status.PLAYING:
            game_act(user_id=player.pk, game_id=record.pk, action="trustee", on=True)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.ENDED and record.settlement is not None
    return record


def test_an_invite_code_seats_friends_and_quick_join_never_does():
    room = make_room("friends")
    host = make_player("host")
    private = private_table_open(host=host, room_id=room.pk)
    assert len(private.code) == CODE_LENGTH and set(private.code) <= set(CODE_ALPHABET)
    assert Seat.objects.get(user=host).table_id == private.table_id
    stranger = make_player("stranger")
    assert room_quick_join(user=stranger, room_id=room.pk).table_id != private.table_id
    amy = make_player("amy")
    seat = private_table_join(user=amy, code=f"  {private.code.lower()} ")
    assert seat.table_id == private.table_id and seat.ready_deadline is None


def test_a_friend_who_takes_back_their_ready_is_not_put_on_the_clock():
    """Friends wait for one another: no seat of a private table gets a deadline to get
    ready, also after a ready taken back (it had one, and the sweep unseated them)."""
    private, players = four_at_a_private_table()
    table_ready(user=players[1])
    table_ready(user=players[1], ready=False)

    seat = Seat.objects.get(user=players[1])
    assert not seat.is_ready and seat.ready_deadline is None
    assert not Seat.objects.filter(table_id=private.table_id,
                                   ready_deadline__isnull=False).exists()


def test_bad_codes_and_every_other_refusal_change_nothing():
    private, players = four_at_a_private_table()
    late = make_player("late")
    refused(lambda: private_table_join(user=late, code="ZZZZZZ"), "invite_unknown")
    refused(lambda: private_table_join(user=late, code=""), "invite_unknown")
    refused(lambda: private_table_join(user=late, code=private.code))  # full
    refused(lambda: table_sit(user=late, table_id=private.table_id), "private_table")
    # Seated elsewhere.
    other = private_table_open(host=late, room_id=private.table.room_id)
    private_table_remove(host=players[0], table_id=private.table_id, user_id=players[3].pk)
    refused(lambda: private_table_join(user=late, code=private.code), "already_seated")
    assert Seat.objects.get(user=late).table_id == other.table_id
    # Expired, then closed.
    PrivateTable.objects.filter(pk=private.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1))
    refused(lambda: private_table_join(user=players[3], code=private.code), "invite_expired")
    private_table_close(host=players[0], table_id=private.table_id)
    refused(lambda: private_table_join(user=players[3], code=private.code), "invite_closed")


def test_too_few_coins_is_refused_and_opens_no_table():
    room = coin_room()
    poor = make_player("poor", coins=room.min_coins - 1)
    refused(lambda: private_table_open(host=poor, room_id=room.pk))
    rich = make_player("rich", coins=room.min_coins)
    private = private_table_open(host=rich, room_id=room.pk)
    refused(lambda: private_table_join(user=poor, code=private.code))
    assert ledger_violations() == []


def test_only_the_host_removes_fills_and_closes_and_only_between_games():
    private, (host, amy, ben, cat) = four_at_a_private_table()
    refused(lambda: private_table_remove(host=amy, table_id=private.table_id,
                                         user_id=ben.pk), "not_host")
    refused(lambda: private_table_close(host=amy, table_id=private.table_id), "not_host")
    refused(lambda: private_table_remove(host=host, table_id=private.table_id, user_id=host.pk))
    private_table_remove(host=host, table_id=private.table_id, user_id=cat.pk)
    assert not Seat.objects.filter(user=cat).exists()
    # Ready, and waiting for a fourth: no bot comes unless the host asks.
    for player in (host, amy, ben):
        table_ready(user=player)
    sweeps.sweep_tables()
    assert Table.objects.get(pk=private.table_id).current_game_id is None
    assert private_table_fill_bots(host=host, table_id=private.table_id)
    table = Table.objects.get(pk=private.table_id)
    assert table.current_game_id is not None  # the bot sat, everyone was ready: dealt
    refused(lambda: private_table_remove(host=host, table_id=private.table_id,
                                         user_id=amy.pk))
    refused(lambda: private_table_close(host=host, table_id=private.table_id))


def test_a_series_of_three_games_keeps_its_running_score():
    private, players = four_at_a_private_table()
    games = [play_out(private.table_id, players) for _ in range(3)]
    series = Series.objects.get(table_id=private.table_id)
    assert {game.series_id for game in games} == {series.pk} and series.ended_at is None
    score = series_score(series)
    # What the ledger posted to each player for these three games.
    keys = [game.ledger_key for game in games]
    expected = {player.pk: Leg.objects.filter(
        account__user=player, account__currency=Currency.POINT,
        transaction__game_key__in=keys).aggregate(total=Sum("amount"))["total"] or 0
        for player in players}
    assert score["games"] == 3 and any(expected.values())
    assert {row["user"]: row["points"] for row in score["players"]} == expected
    assert ledger_violations() == []
    # A player leaving ends it; the next game with someone else begins another.
    table_stand(user=players[3])
    series.refresh_from_db()
    assert series.ended_at is not None and series.end_reason == Series.End.LEFT
    newcomer = make_player("newcomer")
    private_table_join(user=newcomer, code=private.code)
    game = play_out(private.table_id, [*players[:3], newcomer])
    assert game.series_id not in (None, series.pk)
    private_table_close(host=players[0], table_id=private.table_id)
    assert Series.objects.get(pk=game.series_id).end_reason == Series.End.CLOSED
    assert not Seat.objects.filter(table_id=private.table_id, user__isnull=False).exists()


def test_spectators_only_where_the_host_allows_them():
    room = make_room("friends")
    host, friend, outsider = (make_player(name) for name in ("host", "friend", "outsider"))
    closed = private_table_open(host=host, room_id=room.pk, spectators=False)
    private_table_join(user=friend, code=closed.code)
    assert may_watch(friend, closed.table_id) and may_watch(host, closed.table_id)
    assert not may_watch(outsider, closed.table_id)
    public = room_quick_join(user=make_player("public"), room_id=room.pk).table_id
    assert may_watch(outsider, public)


def test_the_lobby_lists_public_tables_only():
    room = make_room("friends")
    private = private_table_open(host=make_player("host"), room_id=room.pk)
    public = room_quick_join(user=make_player("public"), room_id=room.pk).table_id
    listed = [table["id"] for table in lobby_tables([room.pk])[room.pk]["listed_tables"]]
    assert listed == [public] and private.table_id not in listed


def test_each_players_history_shows_the_series_and_its_running_score(client):
    private, players = four_at_a_private_table()
    games = [play_out(private.table_id, players) for _ in range(2)]
    amy = players[1]
    points = [Leg.objects.filter(account__user=amy, account__currency=Currency.POINT,
                                 transaction__game_key=game.ledger_key)
              .aggregate(total=Sum("amount"))["total"] or 0 for game in games]
    client.force_login(amy)
    page = client.get(reverse("game-history")).content.decode()
    series = games[0].series_id
    assert f"系列赛 {series} 第 1 局 · 累计 {points[0]:+d}" in page
    assert f"系列赛 {series} 第 2 局 · 累计 {points[0] + points[1]:+d}" in page


def test_operators_see_private_tables_and_series_in_the_admin_and_cannot_change_them(client):
    private, players = four_at_a_private_table()
    game = play_out(private.table_id, players)
    admin = make_player("operator")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    client.force_login(admin)
    tables = client.get(reverse("admin:games_privatetable_changelist")).content.decode()
    assert private.code in tables
    series = client.get(reverse("admin:games_series_change", args=[game.series_id]))
    assert series.status_code == 200
    score = series_score(Series.objects.get(pk=game.series_id))
    assert f"{players[0].pk}: {score['players'][0]['points']:+d}" in series.content.decode()
    assert client.post(reverse("admin:games_series_delete", args=[game.series_id]),
                       {"post": "yes"}).status_code == 403
    assert Series.objects.filter(pk=game.series_id).exists()
