"""Friends: requests and acceptance, blocks, statuses from the live path's rows,
invitations to a private table, seat choice and rematch (the series goes on)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from friends import invites, presence, services
from friends.models import Block, FriendRequest, Friendship, Seen, TableInvite
from friends.rematch import rematch
from games.errors import ActionError
from games.live.lifecycle.act import game_act
from games.live.private_tables import private_table_join, private_table_open
from games.live.seat_choice import seat_move
from games.live.seating import room_quick_join, table_ready
from games.live.series import series_score
from games.models import GameRecord, Seat, Series, TableSocket
from games.testing.room_helpers import make_player, make_room
from ledger.audit import ledger_violations

pytestmark = pytest.mark.django_db(transaction=True)


def friends(a, b) -> None:
    services.friend_request(sender=a, recipient=b)
    services.friend_accept(user=b, sender_id=a.pk)


def test_a_request_then_its_acceptance_makes_one_friendship():
    amy, ben = make_player("amy"), make_player("ben")
    assert services.friend_request(sender=amy, recipient=ben) == "sent"
    assert services.friend_request(sender=amy, recipient=ben) == "sent"  # again: the same
    assert FriendRequest.objects.count() == 1 and not services.are_friends(amy.pk, ben.pk)
    services.friend_accept(user=ben, sender_id=amy.pk)
    services.friend_accept(user=ben, sender_id=amy.pk)  # a double click
    assert Friendship.objects.count() == 1 and FriendRequest.objects.count() == 0
    assert services.friend_ids(amy.pk) == [ben.pk] and services.friend_ids(ben.pk) == [amy.pk]


def test_two_requests_crossing_make_friends_at_once():
    amy, ben = make_player("amy"), make_player("ben")
    services.friend_request(sender=amy, recipient=ben)
    assert services.friend_request(sender=ben, recipient=amy) == "friends"
    assert services.are_friends(amy.pk, ben.pk) and not FriendRequest.objects.exists()


def test_refusals_change_nothing():
    amy, ben = make_player("amy"), make_player("ben")
    with pytest.raises(ActionError):
        services.friend_request(sender=amy, recipient=amy)
    with pytest.raises(ActionError):  # nobody asked
        services.friend_accept(user=ben, sender_id=amy.pk)
    for name in ("", None, "nobody-here", 5):
        with pytest.raises(ActionError):
            services.person(name)
    assert not FriendRequest.objects.exists() and not Friendship.objects.exists()


def test_a_block_ends_the_friendship_and_refuses_their_requests_and_invitations():
    amy, ben = make_player("amy"), make_player("ben")
    friends(amy, ben)
    room = make_room("friends")
    private_table_open(host=ben, room_id=room.pk)
    invites.invite_friend(sender=ben, recipient_id=amy.pk)
    assert len(invites.pending_invites(amy)) == 1

    services.block(user=amy, other=ben)

    assert not services.are_friends(amy.pk, ben.pk)
    assert invites.pending_invites(amy) == []
    with pytest.raises(ActionError) as error:
        services.friend_request(sender=ben, recipient=amy)
    assert error.value.code == "blocked"
    with pytest.raises(ActionError):
        invites.invite_friend(sender=ben, recipient_id=amy.pk, friends_only=False)
    assert services.blocked_ids(amy.pk) == [ben.pk] and services.blocked_ids(ben.pk) == []
    services.unblock(user=amy, other_id=ben.pk)
    assert not Block.objects.exists()


def test_statuses_come_from_seats_sockets_and_the_notice_polls():
    me = make_player("me")
    seated, playing, watching, online, offline = (
        make_player(name) for name in ("seated", "playing", "watching", "online", "offline"))
    room = make_room("points")
    room_quick_join(user=seated, room_id=room.pk)
    # ``playing`` plays with bots in a room of their own
    other_room = make_room("bots")
    room_quick_join(user=playing, room_id=other_room.pk)
    table_ready(user=playing)
    game_table = Seat.objects.get(user=playing).table_id
    TableSocket.objects.create(channel="w1", user=watching, table_id=game_table)
    presence.mark_seen(online.pk)
    Seen.objects.create(user=offline, seen_at=timezone.now() - timedelta(minutes=5))

    rows = presence.statuses(me, [offline, online, watching, seated, playing])

    assert [(row.user, row.status) for row in rows] == [
        (playing, "playing"), (seated, "seated"), (watching, "watching"),
        (online, "online"), (offline, "offline")]
    assert rows[0].table_id == game_table and rows[0].watchable
    assert rows[2].table_id == game_table


def test_a_friend_invited_from_the_list_sits_with_one_acceptance_and_only_once():
    host, amy = make_player("host"), make_player("amy")
    friends(host, amy)
    private = private_table_open(host=host, room_id=make_room("friends").pk)
    invite = invites.invite_friend(sender=host, recipient_id=amy.pk)
    assert invites.invite_friend(sender=host, recipient_id=amy.pk).pk == invite.pk

    seat = invites.invite_accept(user=amy, invite_id=invite.pk)
    again = invites.invite_accept(user=amy, invite_id=invite.pk)

    assert seat.table_id == private.table_id and again.pk == seat.pk
    assert TableInvite.objects.get(pk=invite.pk).answer == "accepted"
    assert invites.pending_invites(amy) == []


def test_invitations_are_refused_to_strangers_without_a_table_and_to_others_answers():
    host, amy, eve = make_player("host"), make_player("amy"), make_player("eve")
    with pytest.raises(ActionError) as error:
        invites.invite_friend(sender=host, recipient_id=amy.pk)
    assert error.value.code == "no_table"
    private_table_open(host=host, room_id=make_room("friends").pk)
    with pytest.raises(ActionError) as error:
        invites.invite_friend(sender=host, recipient_id=amy.pk)
    assert error.value.code == "not_friends"
    friends(host, amy)
    invite = invites.invite_friend(sender=host, recipient_id=amy.pk)
    with pytest.raises(ActionError):  # not eve's to accept
        invites.invite_accept(user=eve, invite_id=invite.pk)
    assert not Seat.objects.filter(user=eve).exists()
    TableInvite.objects.filter(pk=invite.pk).update(created_at=timezone.now() - timedelta(hours=2))
    with pytest.raises(ActionError) as error:
        invites.invite_accept(user=amy, invite_id=invite.pk)
    assert error.value.code == "invite_expired" and not Seat.objects.filter(user=amy).exists()


def test_a_player_chooses_a_seat_and_so_a_partner_at_a_private_table_only():
    host, amy = make_player("host"), make_player("amy")
    private = private_table_open(host=host, room_id=make_room("friends").pk)
    private_table_join(user=amy, code=private.code)
    assert Seat.objects.get(user=amy).index == 1
    assert seat_move(user=amy, seat_index=2).index == 2  # opposite the host: partners
    with pytest.raises(ActionError):
        seat_move(user=amy, seat_index=0)  # taken
    for bad in (7, -1, "2", True, None):
        with pytest.raises(ActionError):
            seat_move(user=amy, seat_index=bad)
    assert Seat.objects.get(user=amy).index == 2
    lone = make_player("lone")
    room_quick_join(user=lone, room_id=make_room("public").pk)
    with pytest.raises(ActionError) as error:
        seat_move(user=lone, seat_index=3)
    assert error.value.code == "not_private"


def play_out(table_id: int, players) -> GameRecord:
    """Everyone ready, then everyone in 托管: the game plays itself out and is settled
    (test settings: no think time, eager tasks)."""
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


def test_rematch_reseats_the_same_players_and_the_series_goes_on():
    room = make_room("friends")
    host, *others = [make_player(name) for name in ("host", "amy", "ben", "cat")]
    private = private_table_open(host=host, room_id=room.pk)
    for other in others:
        private_table_join(user=other, code=private.code)
    first = play_out(private.table_id, [host, *others])
    series = Series.objects.get(pk=first.series_id)
    seat_of = {user: index for index, user in enumerate(first.players)}

    new = rematch(user=others[0], game_id=first.pk)  # amy asks

    assert new.table_id != private.table_id and new.host_id == others[0].pk
    assert Seat.objects.get(user=others[0]).table_id == new.table_id
    assert Seat.objects.get(user=others[0]).index == seat_of[others[0].pk]
    for other in (host, *others[1:]):
        (invite,) = invites.pending_invites(other)
        assert invite.rematch and invite.seat == seat_of[other.pk]
        assert invites.invite_accept(user=other, invite_id=invite.pk).index == seat_of[other.pk]
    second = play_out(new.table_id, [host, *others])

    assert second.series_id == series.pk
    series.refresh_from_db()
    assert series.table_id == new.table_id and series.ended_at is None
    assert series_score(series)["games"] == 2
    assert ledger_violations() == []


def test_rematch_refuses_a_game_not_mine_or_not_ended():
    room = make_room("friends")
    players = [make_player(name) for name in ("host", "amy", "ben", "cat")]
    private = private_table_open(host=players[0], room_id=room.pk)
    for other in players[1:]:
        private_table_join(user=other, code=private.code)
    first = play_out(private.table_id, players)
    stranger = make_player("eve")
    for user, game in ((stranger, first.pk), (players[0], "x"), (players[0], 10**9)):
        with pytest.raises(ActionError):
            rematch(user=user, game_id=game)
    assert not Seat.objects.filter(user=stranger).exists()
    assert Seat.objects.get(user=players[0]).table_id == private.table_id


def test_rematch_seats_the_games_bots_again_so_a_series_with_bots_goes_on_too():
    from games.live.private_tables import private_table_fill_bots

    room = make_room("friends")
    host, amy = make_player("host"), make_player("amy")
    private = private_table_open(host=host, room_id=room.pk)
    private_table_join(user=amy, code=private.code)
    private_table_fill_bots(host=host, table_id=private.table_id)
    first = play_out(private.table_id, [host, amy])
    bots = {index: user for index, user in enumerate(first.players)
            if user not in (host.pk, amy.pk)}

    new = rematch(user=host, game_id=first.pk)

    seated = dict(Seat.objects.filter(table_id=new.table_id, user__isnull=False)
                  .values_list("index", "user_id"))
    assert {index: seated.get(index) for index in bots} == bots
    (invite,) = invites.pending_invites(amy)
    invites.invite_accept(user=amy, invite_id=invite.pk)
    second = play_out(new.table_id, [host, amy])
    assert second.series_id == first.series_id
    assert sorted(second.players) == sorted(first.players)
