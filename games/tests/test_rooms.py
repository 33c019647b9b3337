"""Rooms: validation, the admin pages of rooms, tables, games and bots, and the demo rooms."""

from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games.live.lifecycle.act import game_act
from games.live.seating import room_quick_join
from games.models import BotPlayer, GameRecord, Room, RuleSetConfig, Table
from games.testing.room_helpers import make_player, make_room, presets, start_game_with_bots
from ledger.models import Currency
from ledger.services import balance_of

pytestmark = pytest.mark.django_db


def errors_of(room: Room) -> dict[str, list[str]]:
    # In the source language, whatever an earlier test's request left active.
    with translation.override("zh-hans"), pytest.raises(ValidationError) as caught:
        room.full_clean()
    return caught.value.message_dict


def qq_room(**fields) -> Room:
    return Room(name="test room", rule_set=presets()["qq"], **fields)


# --- validation ---------------------------------------------------------------------------

def test_coin_room_without_coefficient_is_refused_on_the_coefficient():
    errors = errors_of(qq_room(kind=Room.Kind.COINS, coefficient=0, fee=10, min_coins=1000,
                               max_loss=20000))

    assert list(errors) == ["coefficient"]
    assert "系数 N 至少为 1" in errors["coefficient"][0]


def test_max_loss_below_the_fee_is_refused_on_max_loss():
    errors = errors_of(qq_room(kind=Room.Kind.COINS, coefficient=100, fee=50, min_coins=1000,
                               max_loss=40))

    assert list(errors) == ["max_loss"]
    assert "最多冻结金币（40）" in errors["max_loss"][0]
    assert "系统回收 A（50）" in errors["max_loss"][0]


def test_coin_room_with_nothing_to_freeze_is_refused_on_max_loss():
    # fee 0 and max loss 0 would fail only when a game starts (a hold must be positive).
    errors = errors_of(qq_room(kind=Room.Kind.COINS, coefficient=100, fee=0, min_coins=100,
                               max_loss=0))

    assert list(errors) == ["max_loss"]


def test_minimum_to_sit_below_the_fee_is_refused_on_min_coins():
    errors = errors_of(qq_room(kind=Room.Kind.COINS, coefficient=100, fee=50, min_coins=20,
                               max_loss=20000))

    assert list(errors) == ["min_coins"]


def test_a_classic_coin_room_with_a_flat_fee_is_refused_on_the_fee():
    # classic's 系统回收 is 10 % of each winner's gain, not a flat A (RULES §9).
    room = Room(name="classic coins", rule_set=presets()["classic"], kind=Room.Kind.COINS,
                coefficient=100, fee=10, min_coins=1000, max_loss=20000)
    errors = errors_of(room)

    assert list(errors) == ["fee"]
    assert "10%" in errors["fee"][0] and "A 须为 0" in errors["fee"][0]
    room.fee = 0
    room.full_clean()


def test_tiny_timeouts_are_refused_each_on_its_own_field():
    errors = errors_of(qq_room(turn_seconds=4, first_turn_seconds=2, ready_seconds=1))

    assert set(errors) == {"turn_seconds", "first_turn_seconds", "ready_seconds"}
    assert "至少为 5 秒" in errors["first_turn_seconds"][0]


def test_points_room_with_a_zero_stake_unit_is_refused():
    assert list(errors_of(qq_room(stake_unit=0))) == ["stake_unit"]


def test_sensible_rooms_pass_validation():
    qq_room().full_clean()
    qq_room(kind=Room.Kind.COINS, coefficient=100, fee=10, min_coins=1000,
            max_loss=20000).full_clean()
    qq_room(turn_seconds=5, first_turn_seconds=5, ready_seconds=5).full_clean()


def test_a_room_with_tables_keeps_a_rule_set_of_the_same_size():
    room = make_room("qq 积分")
    room_quick_join(user=make_player("alice"), room_id=room.pk)
    room.rule_set = RuleSetConfig.objects.get(name="jinyou")  # 4 players too: fine
    room.full_clean()

    room.rule_set = RuleSetConfig.objects.get(name="tcy")
    errors = errors_of(room)

    assert list(errors) == ["rule_set"]
    assert "有 4 个座位" in errors["rule_set"][0]


# --- admin --------------------------------------------------------------------------------

@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser(username="boss", password="pw"))
    return client


def room_form(**overrides) -> dict:
    form = {"name": "新房间", "rule_set": RuleSetConfig.objects.get(name="qq").pk,
            "kind": "points", "stake_unit": 1, "coefficient": 0, "fee": 0, "min_coins": 0,
            "max_loss": 0, "turn_seconds": 20, "first_turn_seconds": 30, "ready_seconds": 60,
            "escape_mode": "end_game", "bots_allowed": "on", "bot_level": "table",
            "is_open": "on", "position": 0}
    form.update(overrides)
    return form


def test_admin_refuses_a_bad_room_with_the_message_on_its_field(admin_client):
    presets()
    response = admin_client.post(reverse("admin:games_room_add"),
                                 room_form(kind="coins", coefficient=0, fee=10,
                                           min_coins=1000, max_loss=5))

    assert response.status_code == 200  # the form again, not a redirect
    errors = response.context["adminform"].form.errors
    assert set(errors) == {"coefficient", "max_loss"}
    assert "系数 N 至少为 1" in response.content.decode()
    assert not Room.objects.exists()


def test_admin_saves_a_good_room(admin_client):
    presets()
    response = admin_client.post(reverse("admin:games_room_add"),
                                 room_form(kind="coins", coefficient=100, fee=10,
                                           min_coins=1000, max_loss=20000))

    assert response.status_code == 302
    room = Room.objects.get()
    assert (room.kind, room.coefficient, room.max_loss) == ("coins", 100, 20000)


def test_admin_sets_a_rooms_bot_level_and_refuses_one_that_does_not_exist(admin_client):
    presets()
    room = Room.objects.create(name="新房间", rule_set=RuleSetConfig.objects.get(name="qq"))
    change = reverse("admin:games_room_change", args=[room.pk])
    assert room.bot_level == "table"  # today's bots, unless the operator chooses

    page = admin_client.get(change).content.decode()
    assert 'name="bot_level"' in page and "补位机器人怎样出牌" in page  # with its help

    refused = admin_client.post(change, room_form(bot_level="genius"))
    assert refused.status_code == 200
    assert set(refused.context["adminform"].form.errors) == {"bot_level"}
    room.refresh_from_db()
    assert room.bot_level == "table"

    saved = admin_client.post(change, room_form(bot_level="strong"))
    assert saved.status_code == 302
    room.refresh_from_db()
    assert room.bot_level == "strong"


def test_admin_pages_load_for_a_superuser(admin_client):
    room = make_room("qq 积分")
    alice = make_player("alice")
    record = start_game_with_bots(alice, room)
    game_act(user_id=alice.pk, game_id=record.pk, action="trustee", on=True)
    table = Table.objects.get()
    bot = BotPlayer.objects.first()

    pages = [
        reverse("admin:games_room_changelist"),
        reverse("admin:games_room_add"),
        reverse("admin:games_room_change", args=[room.pk]),
        reverse("admin:games_table_changelist"),
        reverse("admin:games_table_change", args=[table.pk]),
        reverse("admin:games_gamerecord_changelist"),
        reverse("admin:games_gamerecord_change", args=[record.pk]),
        reverse("admin:games_botplayer_changelist"),
        reverse("admin:games_botplayer_change", args=[bot.pk]),
        reverse("admin:games_rulesetconfig_changelist"),
    ]
    for page in pages:
        assert admin_client.get(page).status_code == 200, page

    table_page = admin_client.get(reverse("admin:games_table_change", args=[table.pk]))
    assert "alice" in table_page.content.decode()  # the seats inline
    game_page = admin_client.get(reverse("admin:games_gamerecord_change", args=[record.pk]))
    html = game_page.content.decode()
    assert f"/games/{record.pk}/replay/" in html
    record.refresh_from_db()
    assert record.status == GameRecord.Status.ENDED
    assert html.count('class="field-seq"') == record.seq  # every event, inline


def test_game_records_tables_and_events_are_read_only_in_admin(admin_client):
    record = start_game_with_bots(make_player("alice"), make_room("qq 积分"))

    assert admin_client.get(reverse("admin:games_gamerecord_add")).status_code == 403
    assert admin_client.get(reverse("admin:games_table_add")).status_code == 403
    page = admin_client.get(reverse("admin:games_gamerecord_change", args=[record.pk]))
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()


def test_admin_needs_staff(client):
    client.force_login(make_player("alice"))

    response = client.get(reverse("admin:games_room_changelist"))

    assert response.status_code == 302 and "/admin/login/" in response["Location"]


# --- demo data ----------------------------------------------------------------------------

def run(command: str) -> str:
    out = StringIO()
    call_command(command, stdout=out)
    return out.getvalue()


def test_seed_demo_twice_creates_the_demo_rooms_once():
    run("load_presets")

    first = run("seed_demo")
    rooms = {room.name: room for room in Room.objects.select_related("rule_set")}
    second = run("seed_demo")

    first_rooms = [line for line in first.splitlines() if line.startswith("room ")]
    second_rooms = [line for line in second.splitlines() if line.startswith("room ")]
    assert Room.objects.count() == len(rooms) >= 8
    assert len(first_rooms) == len(second_rooms) == len(rooms)
    assert all(line.endswith("created") for line in first_rooms)
    assert all(line.endswith("left unchanged") for line in second_rooms)
    kinds = {(room.rule_set.name, room.kind) for room in rooms.values()}
    assert {("qq", "points"), ("jinyou", "points"), ("classic", "points"), ("tcy", "points"),
            ("qq", "coins"), ("tcy", "coins")} <= kinds
    for room in rooms.values():
        room.full_clean()  # every demo room passes the admin's checks


def test_seed_demo_rooms_have_the_documented_settings():
    run("load_presets")
    run("seed_demo")
    rooms = list(Room.objects.select_related("rule_set"))

    qq_coins = [room for room in rooms if (room.rule_set.name, room.kind) == ("qq", "coins")]
    assert any((room.coefficient, room.fee, room.min_coins, room.max_loss)
               == (100, 10, 1000, 20000) for room in qq_coins)
    assert any(room.coefficient > 100 for room in qq_coins)  # and a bigger one
    tcy_coins = [room for room in rooms if (room.rule_set.name, room.kind) == ("tcy", "coins")]
    assert [room.coefficient for room in tcy_coins] == [1]  # tcy's score holds the stake X
    assert any(room.escape_mode == Room.EscapeMode.AUTO_PLAY for room in rooms)
    assert all(room.turn_seconds >= 10 and room.ready_seconds >= 10 for room in rooms)


def test_seed_demo_tcy_room_seats_two_players_a_table():
    run("load_presets")
    run("seed_demo")
    tcy = Room.objects.get(rule_set__name="tcy", kind=Room.Kind.POINTS)

    seat = room_quick_join(user=make_player("alice"), room_id=tcy.pk)

    assert tcy.seat_count() == 2
    assert seat.table.seats.count() == 2


def test_seed_demo_gives_the_demo_player_coins_for_the_coin_rooms_once(settings):
    settings.LEDGER_STARTING_COINS = 10000
    run("load_presets")
    run("seed_demo")
    run("seed_demo")
    demo = User.objects.get(username="demo")
    small = Room.objects.get(rule_set__name="qq", kind=Room.Kind.COINS, coefficient=100)

    assert balance_of(demo, Currency.COIN) == 10000
    assert room_quick_join(user=demo, room_id=small.pk).user_id == demo.pk


def test_seed_demo_without_presets_skips_the_rooms_and_says_why():
    out = run("seed_demo")

    assert not Room.objects.exists()
    assert "run load_presets first" in out
    assert GameRecord.objects.count() == 0
