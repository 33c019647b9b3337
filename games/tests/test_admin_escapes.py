"""The admin of escapes (逃跑, RULES §10), rule sets, rooms and games: escapes made
through the services are listed with what they cost, filtered and searched, and nothing
in them can be added, changed or deleted; a bad rule set or room is refused with a
message and nothing is saved; a game's page shows its event log and its replay link."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from html import unescape

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.live.lifecycle.act import game_act
from games.models import GameEscape, GameEvent, GameRecord, Room, RuleSetConfig
from games.testing.room_helpers import coin_room, make_player, make_room, start_game_with_bots
from ledger.models import Kind, Transaction
from ledger.services import balance_of

pytestmark = pytest.mark.django_db

PENALTY_UNITS = 12  # qq's escape penalty (RULES §10)
CHANGELIST = "admin:games_gameescape_changelist"


@pytest.fixture
def staff(client):
    client.force_login(User.objects.create_superuser(username="boss", password="pw"))
    return client


@pytest.fixture
def escape_of(django_capture_on_commit_callbacks):
    """``escape_of(user, room)``: start a game with bots and leave it, through the
    services, running what follows the commit (the settlement task: eager in tests)."""
    def escape(user: User, room: Room) -> GameRecord:
        record = start_game_with_bots(user, room)
        with django_capture_on_commit_callbacks(execute=True):
            game_act(user_id=user.pk, game_id=record.pk, action="leave")
        record.refresh_from_db()
        return record
    return escape


def rows(response) -> list[GameEscape]:
    return list(response.context["cl"].result_list)


def cells(response, escape: GameEscape) -> str:
    """The text of one row of the changelist."""
    html = response.content.decode()
    link = reverse("admin:games_gameescape_change", args=[escape.pk])
    start = html.index(f'href="{link}"')
    row = html[html.rindex("<tr", 0, start):html.index("</tr>", start)]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row))


# --- the escapes list ---------------------------------------------------------------------

def test_an_escape_in_a_points_room_is_listed_with_its_player_game_room_and_penalty(
        staff, escape_of):
    room = make_room("qq 积分", stake_unit=2)
    alice = make_player("alice")
    record = escape_of(alice, room)
    seat = record.players.index(alice.pk)
    assert record.result["escaped"] == seat and record.settlement is not None
    escape = GameEscape.objects.get()

    response = staff.get(reverse(CHANGELIST))

    assert response.status_code == 200
    assert rows(response) == [escape]
    assert escape.game_id == record.pk and escape.data == {
        "seq": escape.seq, "type": "escape", "seat": seat, "mode": "end_game"}
    html = response.content.decode()
    assert reverse("admin:accounts_user_change", args=[alice.pk]) in html
    assert reverse("admin:games_gamerecord_change", args=[record.pk]) in html
    assert reverse("game-replay", args=[record.pk]) in html
    row = cells(response, escape)
    assert "qq 积分" in row and "逃跑即结束" in row and "alice" in row
    # 12 units × the stake unit 2, to the house; the escaper's points as posted.
    posted = record.settlement["points"][seat]
    assert posted == record.result["scores"][seat] * 2 == balance_of(alice, "point")
    assert f" {PENALTY_UNITS} " in row
    assert "积分 -24" in row and f"积分 {posted:+d}" in row


def test_an_escape_in_a_coin_room_shows_the_coins_charged_and_each_others_share(
        staff, escape_of):
    alice = make_player("alice", coins=50_000)
    room = coin_room()  # N = 100, A = 10
    record = escape_of(alice, room)
    seat = record.players.index(alice.pk)
    contributions = record.result["contributions"]
    # RULES §10: 12 × N from the escaper; 70 % shared equally by the three others.
    charged = PENALTY_UNITS * room.coefficient
    share = charged * 70 // 100 // 3
    for other, coins in enumerate(record.settlement["coins"]):
        if other != seat:
            assert coins == contributions[other] * room.coefficient - room.fee + share

    escape = GameEscape.objects.get()
    page = staff.get(reverse("admin:games_gameescape_change", args=[escape.pk]))

    assert page.status_code == 200
    html = re.sub(r"\s+", " ", page.content.decode())
    assert f"金币 -{charged}" in html and f"金币 +{share}" in html
    escaper_coins = record.settlement["coins"][seat]
    assert f"金币 {escaper_coins:+d}" in html
    assert balance_of(alice, "coin") == 50_000 + escaper_coins
    ledger = reverse("admin:ledger_transaction_changelist") + f"?game_key=game%3A{record.pk}"
    assert ledger.replace("&", "&amp;") in html
    assert Transaction.objects.get(game_key=record.ledger_key,
                                   kind=Kind.ESCAPE_PENALTY) is not None


def test_an_escape_in_auto_play_mode_has_no_penalty(staff, escape_of):
    alice = make_player("alice")
    record = escape_of(alice, make_room("托管房", escape_mode="auto_play"))
    # Alone with bots, 托管 plays the escaper's seat and the game ends in the same action.
    assert record.status == GameRecord.Status.ENDED and record.result["escaped"] is None

    response = staff.get(reverse(CHANGELIST))

    row = cells(response, GameEscape.objects.get())
    assert "逃跑后托管" in row
    assert "-24" not in row and f" {PENALTY_UNITS} " not in row


def test_escapes_filter_by_room_mode_and_date_and_search_by_player(staff, escape_of):
    first, second = make_room("一号房", stake_unit=1), make_room("二号房", stake_unit=1,
                                                             escape_mode="auto_play")
    alice, bob = make_player("alice"), make_player("bob")
    bob.nickname = "小明"
    bob.save(update_fields=["nickname"])
    escape_of(alice, first)
    escape_of(bob, second)
    alice_escape = GameEscape.objects.get(game__room=first)
    bob_escape = GameEscape.objects.get(game__room=second)
    # A week ago, for the date filter.
    GameEvent.objects.filter(pk=alice_escape.pk).update(
        created_at=timezone.now() - timedelta(days=7))
    url = reverse(CHANGELIST)

    assert rows(staff.get(url)) == [bob_escape, alice_escape]  # newest first
    assert rows(staff.get(url, {"game__room__id__exact": first.pk})) == [alice_escape]
    assert rows(staff.get(url, {"game__room__id__exact": second.pk})) == [bob_escape]
    assert rows(staff.get(url, {"mode": "auto_play"})) == [bob_escape]
    assert rows(staff.get(url, {"mode": "end_game"})) == [alice_escape]
    midnight = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    assert rows(staff.get(url, {"created_at__gte": str(midnight)})) == [bob_escape]
    today = midnight.date()
    assert rows(staff.get(url, {"created_at__year": today.year,
                                "created_at__month": today.month,
                                "created_at__day": today.day})) == [bob_escape]
    assert rows(staff.get(url, {"q": "ALI"})) == [alice_escape]  # username, any case
    assert rows(staff.get(url, {"q": "小明"})) == [bob_escape]  # nickname
    assert rows(staff.get(url, {"q": str(alice_escape.game_id)})) == [alice_escape]
    assert rows(staff.get(url, {"q": "nobody"})) == []
    # Bots were at those tables too, but only the escapers' rows match their names.
    bot = User.objects.filter(bot_player__isnull=False).first()
    assert rows(staff.get(url, {"q": bot.username})) == []


def test_escapes_cannot_be_added_changed_or_deleted(staff, escape_of):
    escape_of(make_player("alice"), make_room("qq 积分"))
    escape = GameEscape.objects.get()
    before = dict(GameEvent.objects.values_list("pk", "data"))

    assert staff.get(reverse("admin:games_gameescape_add")).status_code == 403
    assert staff.get(reverse("admin:games_gameescape_delete", args=[escape.pk])) \
        .status_code == 403
    assert staff.post(reverse("admin:games_gameescape_delete", args=[escape.pk]),
                      {"post": "yes"}).status_code == 403
    changed = staff.post(reverse("admin:games_gameescape_change", args=[escape.pk]),
                         {"data": json.dumps({"seat": 9, "mode": "auto_play"})})
    assert changed.status_code == 403
    page = staff.get(reverse("admin:games_gameescape_change", args=[escape.pk]))
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    listing = staff.get(reverse(CHANGELIST))
    assert reverse("admin:games_gameescape_add") not in listing.content.decode()
    assert "delete_selected" not in listing.content.decode()
    assert dict(GameEvent.objects.values_list("pk", "data")) == before


def test_staff_with_the_view_permission_sees_escapes_and_nothing_else_of_them(
        client, escape_of):
    escape_of(make_player("alice"), make_room("qq 积分"))
    operator = make_player("operator")
    operator.is_staff = True
    operator.save(update_fields=["is_staff"])
    client.force_login(operator)
    assert client.get(reverse(CHANGELIST)).status_code == 403

    operator.user_permissions.add(Permission.objects.get(codename="view_gameescape"))

    assert len(rows(client.get(reverse(CHANGELIST)))) == 1
    assert client.get(reverse("admin:games_gameescape_add")).status_code == 403


def test_only_escape_events_are_escapes(escape_of):
    record = escape_of(make_player("alice"), make_room("qq 积分"))

    assert GameEvent.objects.filter(game=record).count() > 3
    assert [escape.type for escape in GameEscape.objects.all()] == ["escape"]


# --- games: the event log and the replay link ------------------------------------------------

def test_a_games_page_shows_its_event_log_and_replay_link(staff, escape_of):
    record = escape_of(make_player("alice"), make_room("qq 积分"))

    html = staff.get(reverse("admin:games_gamerecord_change", args=[record.pk])) \
        .content.decode()

    assert f'href="{reverse("game-replay", args=[record.pk])}"' in html
    types = re.findall(r'<td class="field-type">\s*<p>(\w+)</p>', html)
    assert types == list(GameEvent.objects.filter(game=record).order_by("seq")
                         .values_list("type", flat=True))
    assert types[0] == "deal" and types[-2:] == ["end", "settled"] and "escape" in types


# --- rule sets and rooms ----------------------------------------------------------------------

def rule_set_form(config, **overrides) -> dict:
    text = config if isinstance(config, str) else json.dumps(config)
    return {"name": "qq", "label": "QQ", "config": text, **overrides}


def test_a_bad_rule_set_value_is_refused_with_the_engine_message_and_nothing_saved(staff):
    make_room("qq 积分")
    qq = RuleSetConfig.objects.get(name="qq")
    stored = qq.config
    url = reverse("admin:games_rulesetconfig_change", args=[qq.pk])

    for bad, message in [({**stored, "max_stars": 99}, "max_stars must be a whole number"),
                         ({**stored, "auto_pass": "yes"}, "auto_pass must be true or false"),
                         ({**stored, "bogus": 1}, "unknown field 'bogus'"),
                         ('{"name": "qq",', None)]:  # not JSON: the form's own message
        response = staff.post(url, rule_set_form(bad))
        assert response.status_code == 200, bad  # the form again, not a redirect
        errors = response.context["adminform"].form.errors["config"]
        assert errors and errors[0] in unescape(response.content.decode())
        assert message is None or message in errors[0], errors
    qq.refresh_from_db()
    assert qq.config == stored and qq.label != "QQ"


def test_a_rule_set_whose_rooms_have_tables_keeps_its_number_of_players(staff):
    room = make_room("qq 积分")
    start_game_with_bots(make_player("alice"), room)  # a table of four seats
    qq = RuleSetConfig.objects.get(name="qq")
    two_players = {**RuleSetConfig.objects.get(name="tcy").config, "name": "qq"}

    response = staff.post(reverse("admin:games_rulesetconfig_change", args=[qq.pk]),
                          rule_set_form(two_players))

    assert response.status_code == 200
    assert "已有 4 人的牌桌，不能改为 2 人规则" in response.content.decode()
    qq.refresh_from_db()
    assert qq.as_rule_set().players == 4


def test_a_good_rule_set_edit_is_saved_and_the_form_shows_one_field_a_line(staff):
    qq = make_room("qq 积分").rule_set
    url = reverse("admin:games_rulesetconfig_change", args=[qq.pk])

    form = staff.get(url).content.decode()
    response = staff.post(url, rule_set_form({**qq.config, "max_stars": 10}))

    assert '\n  &quot;max_stars&quot;: ' in form
    assert response.status_code == 302
    qq.refresh_from_db()
    assert qq.as_rule_set().max_stars == 10


def test_a_rooms_kind_cannot_change_while_a_game_runs_in_it(staff):
    room = make_room("qq 积分")
    start_game_with_bots(make_player("alice"), room)
    form = {"name": room.name, "rule_set": room.rule_set_id, "kind": "coins",
            "stake_unit": 1, "coefficient": 100, "fee": 10, "min_coins": 1000,
            "max_loss": 20000, "turn_seconds": 20, "first_turn_seconds": 30,
            "ready_seconds": 60, "escape_mode": "end_game", "bots_allowed": "on",
            "bot_level": "table", "is_open": "on", "position": 0}

    response = staff.post(reverse("admin:games_room_change", args=[room.pk]), form)

    assert response.status_code == 200
    assert list(response.context["adminform"].form.errors) == ["kind"]
    assert "不能更改类型" in response.content.decode()
    room.refresh_from_db()
    assert room.kind == Room.Kind.POINTS
    GameRecord.objects.update(status=GameRecord.Status.ENDED)  # no game running now
    assert staff.post(reverse("admin:games_room_change", args=[room.pk]),
                      form).status_code == 302


# --- the ledger behind an escape ---------------------------------------------------------------

def test_an_escapes_ledger_rows_cannot_be_changed_only_corrected(staff, escape_of):
    escape_of(make_player("alice", coins=50_000), coin_room())
    posting = Transaction.objects.get(kind=Kind.ESCAPE_PENALTY)
    legs = list(posting.legs.order_by("pk").values_list("pk", "amount"))
    change = reverse("admin:ledger_transaction_change", args=[posting.pk])

    page = staff.get(change).content.decode()
    refused = staff.post(change, {"memo": "changed", "legs-0-amount": "0"})

    assert 'name="_save"' not in page and 'name="legs-0-amount"' not in page
    assert reverse("admin:ledger_transaction_correct", args=[posting.pk]) in page
    assert refused.status_code == 403
    assert staff.post(reverse("admin:ledger_transaction_delete", args=[posting.pk]),
                      {"post": "yes"}).status_code == 403
    posting.refresh_from_db()
    assert posting.memo == "逃跑结算"
    assert list(posting.legs.order_by("pk").values_list("pk", "amount")) == legs
