"""Sign-up: one transaction creates the player and posts the starting grant."""

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.services import player_sign_up
from accounts.tests.helpers import PASSWORD, make_player
from ledger.audit import ledger_violations
from ledger.models import Currency, Kind, Transaction
from ledger.services import LedgerError, balance_of


def sign_up_data(**overrides) -> dict:
    data = {"username": "xiaoming", "nickname": "小明", "password1": PASSWORD,
            "password2": PASSWORD}
    data.update(overrides)
    return data


@pytest.mark.django_db(transaction=True)
def test_sign_up_creates_the_player_with_the_starting_grant_and_logs_in(client, settings):
    settings.LEDGER_STARTING_COINS = 2500

    response = client.post(reverse("signup"), sign_up_data())

    assert response.status_code == 302
    assert response.url == reverse("my-profile")
    user = User.objects.get(username="xiaoming")
    assert user.nickname == "小明"
    assert user.check_password(PASSWORD)
    assert balance_of(user, Currency.COIN) == 2500
    grant = Transaction.objects.get(key=f"grant:signup:{user.pk}")
    assert grant.kind == Kind.GRANT
    assert int(client.session["_auth_user_id"]) == user.pk
    assert ledger_violations() == []
    profile = client.get(response.url).content.decode()
    assert "2500" in profile


@pytest.mark.django_db
def test_sign_up_goes_to_a_safe_next_page_and_ignores_another_site(client):
    response = client.post(reverse("signup") + "?next=/players/someone/", sign_up_data())
    assert response.url == "/players/someone/"

    client.post(reverse("logout"))
    response = client.post(reverse("signup") + "?next=https://evil.example/",
                           sign_up_data(username="xiaohong"))
    assert response.url == reverse("my-profile")


@pytest.mark.parametrize(("overrides", "field", "message"), [
    ({"username": "", "nickname": "", "password1": "", "password2": ""}, "username",
     "必填"),
    ({"nickname": "  "}, "nickname", "必填"),
    ({"username": "TAKEN"}, "username", "已存在"),
    ({"password2": PASSWORD + "x"}, "password2", "不一致"),
    ({"nickname": "长" * 33}, "nickname", "33"),
    ({"username": "u" * 151}, "username", "151"),
    ({"username": "bad name!"}, "username", "用户名"),
    ({"password1": "12345678", "password2": "12345678"}, "password2", "密码"),
])
@pytest.mark.django_db
def test_bad_sign_up_input_is_shown_on_the_form_and_creates_nothing(
        client, overrides, field, message):
    make_player("taken")
    users_before = User.objects.count()

    response = client.post(reverse("signup"), sign_up_data(**overrides))

    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors
    assert message in " ".join(errors[field])
    assert errors[field][0] in response.content.decode()
    assert User.objects.count() == users_before
    assert not Transaction.objects.exists()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_sign_up_page_offers_the_four_fields_and_a_signed_in_player_is_sent_on(client):
    page = client.get(reverse("signup")).content.decode()
    for name in ("username", "nickname", "password1", "password2"):
        assert f'name="{name}"' in page

    client.force_login(make_player("already"))
    response = client.get(reverse("signup"))
    assert response.status_code == 302
    assert response.url == reverse("my-profile")


@pytest.mark.django_db(transaction=True)
def test_a_failed_grant_leaves_no_player_behind(monkeypatch):
    def refuse(user):
        raise LedgerError("issuance is closed")

    # Where player_sign_up looks it up (it imports it from ledger.services).
    monkeypatch.setattr("accounts.services.grant_starting_coins", refuse)

    with pytest.raises(LedgerError):
        player_sign_up(username="ghost", nickname="幽灵", password=PASSWORD)

    assert not User.objects.filter(username="ghost").exists()
    assert not Transaction.objects.exists()


@pytest.mark.django_db
def test_a_username_taken_by_a_racing_sign_up_is_a_form_error_not_a_crash():
    from django.core.exceptions import ValidationError

    make_player("racer")
    with pytest.raises(ValidationError) as raised:
        player_sign_up(username="racer", nickname="抢注", password=PASSWORD)

    assert "username" in raised.value.message_dict
    assert User.objects.filter(username="racer").count() == 1
