"""The admin: every page loads, the ledger is read-only, corrections and adjustments
go through the ledger services, the level ladder refuses a bad edit."""

import re

import pytest
from django.contrib import admin
from django.contrib.messages import get_messages
from django.test import RequestFactory
from django.urls import reverse

from accounts.models import Level, User
from accounts.selectors import levels_of
from accounts.services import api_token_for
from accounts.tests.helpers import PASSWORD, make_player, post_points
from games.models import RuleSetConfig
from ledger.audit import ledger_violations
from ledger.models import Account, Currency, Hold, Kind, Transaction
from ledger.services import balance_of, freeze_coins, grant_coins

pytestmark = pytest.mark.django_db


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


@pytest.fixture
def superuser() -> User:
    return make_player("root", is_staff=True, is_superuser=True)


@pytest.fixture
def staff(client, superuser):
    client.force_login(superuser)
    return client


@pytest.fixture
def player() -> User:
    user = make_player("lihua", nickname="李华")
    grant_coins(user=user, amount=1000, key="grant:test:lihua")
    return user


def test_every_registered_model_has_working_admin_pages(staff, player):
    freeze_coins(user=player, game_key="g-admin", amount=100)
    api_token_for(player)
    RuleSetConfig.objects.get_or_create(name="qq", defaults={"label": "QQ"})
    from django.contrib.auth.models import Group
    Group.objects.create(name="operators")

    request = RequestFactory().get("/")
    request.user = User.objects.get(username="root")
    opened = set()
    for model, model_admin in admin.site._registry.items():
        info = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        changelist = staff.get(reverse(f"{info}_changelist"))
        assert changelist.status_code == 200, model
        if model_admin.has_add_permission(request):
            assert staff.get(reverse(f"{info}_add")).status_code == 200, model
        obj = model._default_manager.first()
        if obj is not None:  # other apps' models may have no rows in this test
            change = staff.get(reverse(f"{info}_change", args=[obj.pk]))
            assert change.status_code == 200, model
            opened.add(model.__name__)
    assert {"User", "Level", "Account", "Transaction", "Hold", "TokenProxy", "Group",
            "RuleSetConfig"} <= opened


@pytest.mark.parametrize("model", [Account, Transaction, Hold])
def test_ledger_models_are_read_only_in_the_admin(staff, player, model):
    freeze_coins(user=player, game_key="g-ro", amount=100)
    request = RequestFactory().get("/")
    request.user = User.objects.get(username="root")
    model_admin = admin.site._registry[model]
    obj = model.objects.first()

    assert model_admin.has_view_permission(request, obj)
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, obj)
    assert not model_admin.has_delete_permission(request, obj)
    info = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    assert staff.get(reverse(f"{info}_add")).status_code == 403
    assert staff.get(reverse(f"{info}_delete", args=[obj.pk])).status_code == 403
    change_page = staff.get(reverse(f"{info}_change", args=[obj.pk]))
    assert 'name="_save"' not in change_page.content.decode()


def test_a_transaction_page_shows_its_legs_without_editing(staff, player):
    grant = Transaction.objects.get(key="grant:test:lihua")

    html = staff.get(reverse("admin:ledger_transaction_change", args=[grant.pk])).content.decode()

    assert "+1000" in html
    assert "-1000" in html
    assert 'name="legs-0-amount"' not in html
    before = Transaction.objects.count()
    response = staff.post(reverse("admin:ledger_transaction_change", args=[grant.pk]),
                          {"memo": "changed"})
    assert response.status_code == 403
    assert Transaction.objects.count() == before
    assert Transaction.objects.get(pk=grant.pk).memo == ""


def test_the_correct_action_asks_for_a_reason_then_posts_a_reversal_once(staff, player):
    grant = Transaction.objects.get(key="grant:test:lihua")
    changelist = reverse("admin:ledger_transaction_changelist")
    action = {"action": "correct_selected", "_selected_action": [grant.pk]}

    ask = staff.post(changelist, action)
    assert ask.status_code == 200
    assert 'name="reason"' in ask.content.decode()
    assert not Transaction.objects.filter(kind=Kind.CORRECTION).exists()

    no_reason = staff.post(changelist, {**action, "post": "yes", "reason": " "})
    assert no_reason.status_code == 200
    assert not Transaction.objects.filter(kind=Kind.CORRECTION).exists()

    done = staff.post(changelist, {**action, "post": "yes", "reason": "发错了"})
    assert done.status_code == 302
    correction = Transaction.objects.get(kind=Kind.CORRECTION)
    assert correction.reverses_id == grant.pk
    assert correction.memo == "发错了"
    assert correction.created_by.username == "root"
    assert balance_of(player, Currency.COIN) == 0
    assert any("已冲正" in message for message in messages_of(done))

    again = staff.post(changelist, {**action, "post": "yes", "reason": "再来一次"},
                       follow=True)
    assert again.status_code == 200
    assert Transaction.objects.filter(kind=Kind.CORRECTION).count() == 1
    assert any("未冲正" in message for message in messages_of(again))
    assert ledger_violations() == []


def test_the_correct_button_on_a_transaction_page(staff, player):
    grant = Transaction.objects.get(key="grant:test:lihua")
    url = reverse("admin:ledger_transaction_correct", args=[grant.pk])

    page = staff.get(reverse("admin:ledger_transaction_change", args=[grant.pk]))
    assert url in page.content.decode()
    assert 'name="reason"' in staff.get(url).content.decode()

    response = staff.post(url, {"reason": "测试冲正"})

    correction = Transaction.objects.get(reverses=grant)
    assert response.status_code == 302
    assert response.url == reverse("admin:ledger_transaction_change", args=[correction.pk])
    assert balance_of(player, Currency.COIN) == 0


def test_a_refused_correction_is_an_admin_message_not_a_server_error(staff, player):
    # The player spent the coins; reversing the grant would take them below zero.
    spend = Transaction.objects.get(key="grant:test:lihua")
    staff.post(reverse("admin:accounts_user_adjust_balance", args=[player.pk]), {
        "currency": "coin", "amount": -1000, "reason": "spent",
        "key": "00000000-0000-0000-0000-000000000001"})
    assert balance_of(player, Currency.COIN) == 0

    response = staff.post(reverse("admin:ledger_transaction_correct", args=[spend.pk]),
                          {"reason": "撤销赠送"}, follow=True)

    assert response.status_code == 200
    assert any("未冲正" in message for message in messages_of(response))
    assert not Transaction.objects.filter(kind=Kind.CORRECTION).exists()
    assert balance_of(player, Currency.COIN) == 0


def test_a_staff_member_without_ledger_rights_cannot_correct_or_adjust(client, player):
    from django.contrib.auth.models import Permission

    clerk = make_player("clerk", is_staff=True)
    clerk.user_permissions.add(*Permission.objects.filter(
        codename__in=["view_transaction", "view_user", "change_user"]))
    client.force_login(clerk)
    grant = Transaction.objects.get(key="grant:test:lihua")

    assert client.post(reverse("admin:ledger_transaction_correct", args=[grant.pk]),
                       {"reason": "x"}).status_code == 403
    assert client.get(reverse("admin:accounts_user_adjust_balance",
                              args=[player.pk])).status_code == 403
    changelist = client.get(reverse("admin:ledger_transaction_changelist")).content.decode()
    assert "correct_selected" not in changelist
    assert not Transaction.objects.filter(kind=Kind.CORRECTION).exists()


# --- users and balance adjustments ----------------------------------------------------------

def test_the_user_pages_show_level_points_and_coins_read_only(staff, player):
    post_points(player, 150)

    changelist = staff.get(reverse("admin:accounts_user_changelist")).content.decode()
    change = staff.get(reverse("admin:accounts_user_change", args=[player.pk])).content.decode()

    for html in (changelist, change):
        assert "长工" in html
        assert "150" in html
        assert "1000" in html
    assert 'name="points"' not in change
    assert 'name="coins"' not in change
    assert 'name="level"' not in change
    assert reverse("admin:accounts_user_adjust_balance", args=[player.pk]) in change


def test_the_user_list_sorts_by_the_computed_level(staff, player):
    for name, points in (("top", 300), ("middle", 60), ("bottom", -10)):
        post_points(make_player(name), points)
    url = reverse("admin:accounts_user_changelist")
    column = staff.get(url).context["cl"].list_display.index("level")

    def usernames(order: str) -> list[str]:
        rows = staff.get(url, {"o": order}).context["cl"].result_list
        return [user.username for user in rows if user.username in {"top", "middle", "bottom"}]

    assert usernames(f"{column}") == ["bottom", "middle", "top"]
    assert usernames(f"-{column}") == ["top", "middle", "bottom"]


def test_an_adjustment_submitted_twice_posts_once(staff, player):
    url = reverse("admin:accounts_user_adjust_balance", args=[player.pk])
    page = staff.get(url).content.decode()
    key = re.search(r'name="key" value="([0-9a-f-]+)"', page).group(1)
    form = {"currency": "coin", "amount": 250, "reason": "活动补偿", "key": key}

    first = staff.post(url, form)
    second = staff.post(url, form)

    assert first.status_code == second.status_code == 302
    assert balance_of(player, Currency.COIN) == 1250
    adjustment = Transaction.objects.get(kind=Kind.ADJUSTMENT)
    assert (adjustment.key, adjustment.memo) == (f"admin-adjust:{key}", "活动补偿")
    assert adjustment.created_by.username == "root"
    assert any("重复提交" in message for message in messages_of(second))
    assert staff.get(url).content.decode().count(key) == 0  # a fresh page, a fresh key
    assert ledger_violations() == []


@pytest.mark.parametrize(("form", "error"), [
    ({"currency": "coin", "amount": 0, "reason": "零"}, "不能为 0"),
    ({"currency": "coin", "amount": 10, "reason": ""}, "必填"),
    ({"currency": "gold", "amount": 10, "reason": "x"}, "gold"),
    ({"currency": "coin", "amount": "many", "reason": "x"}, "整数"),
])
def test_bad_adjustments_are_form_errors(staff, player, form, error):
    url = reverse("admin:accounts_user_adjust_balance", args=[player.pk])

    response = staff.post(url, {**form, "key": "00000000-0000-0000-0000-000000000002"})

    assert response.status_code == 200
    assert error in response.content.decode()
    assert not Transaction.objects.filter(kind=Kind.ADJUSTMENT).exists()


def test_an_adjustment_the_ledger_refuses_is_an_admin_error_message(staff, player):
    url = reverse("admin:accounts_user_adjust_balance", args=[player.pk])

    response = staff.post(url, {"currency": "coin", "amount": -5000, "reason": "罚没",
                                "key": "00000000-0000-0000-0000-000000000003"})

    assert response.status_code == 200
    assert any("调整未记账" in message for message in messages_of(response))
    assert balance_of(player, Currency.COIN) == 1000
    assert not Transaction.objects.filter(kind=Kind.ADJUSTMENT).exists()


def test_points_adjusted_in_the_admin_move_the_level(staff, player):
    url = reverse("admin:accounts_user_adjust_balance", args=[player.pk])

    staff.post(url, {"currency": "point", "amount": 300, "reason": "补分",
                     "key": "00000000-0000-0000-0000-000000000004"})

    assert levels_of([player.pk]) == {player.pk: 4}


# --- the level ladder -----------------------------------------------------------------------

def level_form(level: Level, **changes) -> dict:
    return {"number": level.number, "title": level.title, "min_points": level.min_points,
            **changes}


def test_a_level_edit_that_breaks_the_ladder_is_refused_with_a_message(staff):
    level_3 = Level.objects.get(number=3)
    url = reverse("admin:accounts_level_change", args=[level_3.pk])

    too_low = staff.post(url, level_form(level_3, min_points=60))
    too_high = staff.post(url, level_form(level_3, min_points=300))

    for response, neighbour in ((too_low, "短工"), (too_high, "佃户")):
        assert response.status_code == 200
        assert "min_points" in response.context["adminform"].form.errors
        assert neighbour in response.content.decode()
    assert Level.objects.get(number=3).min_points == 140


def test_a_good_level_edit_is_saved_and_players_levels_follow(staff):
    climber = make_player("climber")
    post_points(climber, 120)
    assert levels_of([climber.pk]) == {climber.pk: 2}
    level_3 = Level.objects.get(number=3)

    response = staff.post(reverse("admin:accounts_level_change", args=[level_3.pk]),
                          level_form(level_3, min_points=100, title="长工"))

    assert response.status_code == 302
    assert Level.objects.get(number=3).min_points == 100
    assert levels_of([climber.pk]) == {climber.pk: 3}


def test_a_new_level_must_fit_the_ladder_too(staff):
    url = reverse("admin:accounts_level_add")

    refused = staff.post(url, {"number": 24, "title": "仙人", "min_points": 999_999})
    accepted = staff.post(url, {"number": 24, "title": "仙人", "min_points": 2_000_000})

    assert refused.status_code == 200
    assert "帝王" in refused.content.decode()
    assert accepted.status_code == 302
    assert Level.objects.filter(number=24, title="仙人").exists()


def test_the_admin_login_page_still_logs_staff_in(client, superuser):
    response = client.post(reverse("admin:login"), {"username": "root", "password": PASSWORD})

    assert response.status_code == 302
    assert client.get(reverse("admin:index")).status_code == 200
