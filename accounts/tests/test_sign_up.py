"""Sign-up: creates the player, with no coins (the starting grant follows the first
settled game: games/settlement/tests/test_starting_grant.py), at most N per address and
window."""

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.services import player_sign_up
from accounts.tests.helpers import PASSWORD, make_player
from ledger.audit import ledger_violations
from ledger.models import Currency, Transaction
from ledger.services import balance_of


def sign_up_data(**overrides) -> dict:
    data = {"username": "xiaoming", "nickname": "小明", "password1": PASSWORD,
            "password2": PASSWORD}
    data.update(overrides)
    return data


@pytest.mark.django_db(transaction=True)
def test_sign_up_creates_the_player_without_coins_and_logs_in(client, settings):
    settings.LEDGER_STARTING_COINS = 2500

    response = client.post(reverse("signup"), sign_up_data(), follow=True)

    # A new player's next step is a first game (games.web.views.play_now).
    assert response.redirect_chain[-1][0] == reverse("play-now")
    user = User.objects.get(username="xiaoming")
    assert user.nickname == "小明"
    assert user.check_password(PASSWORD)
    # Coins enter the economy after the first settled game, not at sign-up.
    assert balance_of(user, Currency.COIN) == 0
    assert not Transaction.objects.exists()
    assert int(client.session["_auth_user_id"]) == user.pk
    assert ledger_violations() == []
    assert "2500" in response.content.decode()  # the message says when they come


def test_the_sign_up_page_says_the_coins_follow_the_first_game(client, settings):
    settings.LEDGER_STARTING_COINS = 2500
    page = client.get(reverse("signup")).content.decode()
    assert "打完第一局后赠送 2500 游戏币" in page
    assert "积分场" in page


def sign_up_from(client, address: str, number: int):
    return client.post(reverse("signup"), sign_up_data(username=f"farm{number}"),
                       REMOTE_ADDR=address)


@pytest.mark.django_db
def test_the_sign_up_after_the_limit_from_one_address_is_refused_others_are_not(
        client, settings):
    settings.ACCOUNTS_SIGNUP_LIMIT = {"signups": 3, "window_seconds": 3600}
    for number in range(3):
        assert sign_up_from(client, "203.0.113.7", number).status_code == 302
        client.logout()

    refused = sign_up_from(client, "203.0.113.7", 3)

    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert "注册次数过多" in refused.content.decode()
    assert "60 分钟" in refused.content.decode()
    assert not User.objects.filter(username="farm3").exists()
    assert "_auth_user_id" not in client.session
    # Another address has its own allowance; refusals used none of it.
    assert sign_up_from(client, "198.51.100.2", 3).status_code == 302
    assert User.objects.filter(username__startswith="farm").count() == 4


@pytest.mark.django_db
def test_the_sign_up_limit_counts_the_forwarded_address_behind_a_trusted_proxy(
        client, settings):
    settings.ACCOUNTS_SIGNUP_LIMIT = {"signups": 1, "window_seconds": 3600}
    settings.ACCOUNTS_TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.2"
    first = client.post(reverse("signup"), sign_up_data(username="p1"), REMOTE_ADDR=proxy,
                        HTTP_X_FORWARDED_FOR="203.0.113.7")
    client.logout()
    second = client.post(reverse("signup"), sign_up_data(username="p2"), REMOTE_ADDR=proxy,
                         HTTP_X_FORWARDED_FOR="203.0.113.7")
    client.logout()
    other = client.post(reverse("signup"), sign_up_data(username="p3"), REMOTE_ADDR=proxy,
                        HTTP_X_FORWARDED_FOR="203.0.113.8")
    assert [first.status_code, second.status_code, other.status_code] == [302, 429, 302]


@pytest.mark.django_db
def test_invalid_sign_ups_and_lost_races_use_none_of_the_allowance(client, settings):
    settings.ACCOUNTS_SIGNUP_LIMIT = {"signups": 1, "window_seconds": 3600}
    make_player("taken")
    for _ in range(3):
        bad = client.post(reverse("signup"), sign_up_data(password2="nope"))
        assert bad.status_code == 200
    assert client.post(reverse("signup"), sign_up_data()).status_code == 302


@pytest.mark.django_db
def test_sign_up_goes_to_a_safe_next_page_and_ignores_another_site(client):
    response = client.post(reverse("signup") + "?next=/players/someone/", sign_up_data())
    assert response.url == "/players/someone/"

    client.post(reverse("logout"))
    response = client.post(reverse("signup") + "?next=https://evil.example/",
                           sign_up_data(username="xiaohong"))
    assert response.url == reverse("play-now")


@pytest.mark.django_db
def test_a_next_that_is_not_a_path_sends_the_new_player_to_play(client):
    # A bare word was taken for a view's name: a server error after the sign-up.
    response = client.post(reverse("signup") + "?next=stranger1", sign_up_data())
    assert response.status_code == 302 and response.url == reverse("play-now")
    assert User.objects.filter(username=sign_up_data()["username"]).exists()


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


@pytest.mark.django_db
def test_a_username_taken_by_a_racing_sign_up_is_a_form_error_not_a_crash():
    from django.core.exceptions import ValidationError

    make_player("racer")
    with pytest.raises(ValidationError) as raised:
        player_sign_up(username="racer", nickname="抢注", password=PASSWORD)

    assert "username" in raised.value.message_dict
    assert User.objects.filter(username="racer").count() == 1
