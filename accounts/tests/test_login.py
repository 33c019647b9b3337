"""Log in, log out, change password, and the failed-login limits."""

import time

import pytest
from django.core.cache import caches
from django.test import RequestFactory
from django.urls import reverse

from accounts.login_limits import _keys, client_ip
from accounts.tests.helpers import PASSWORD, make_player

pytestmark = pytest.mark.django_db

TOO_MANY = "登录失败次数过多"


def log_in(client, username: str, password: str, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def is_logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_a_player_logs_in_and_out(client):
    player = make_player("zhou", nickname="小周")

    response = log_in(client, "zhou", PASSWORD)
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == player.pk
    assert "小周" in client.get(reverse("home")).content.decode()

    assert client.get(reverse("logout")).status_code == 405  # logging out takes a POST
    assert is_logged_in(client)
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert not is_logged_in(client)


def test_the_nav_offers_sign_up_and_log_in_or_profile_and_log_out(client):
    page = client.get(reverse("home")).content.decode()
    assert reverse("signup") in page
    assert reverse("login") in page
    assert reverse("my-profile") not in page

    client.force_login(make_player("nav", nickname="导航"))
    page = client.get(reverse("home")).content.decode()
    assert reverse("my-profile") in page
    assert f'action="{reverse("logout")}"' in page
    assert reverse("signup") not in page


@pytest.mark.parametrize(("username", "password", "field"), [
    ("", "", "username"),
    ("zhou", "", "password"),
    ("", PASSWORD, "username"),
])
def test_empty_login_fields_are_form_errors(client, username, password, field):
    make_player("zhou")

    response = log_in(client, username, password)

    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert "必填" in response.content.decode()
    assert not is_logged_in(client)


def test_a_wrong_password_is_a_clear_form_error(client):
    make_player("zhou")

    response = log_in(client, "zhou", "not-it")

    assert response.status_code == 200
    assert "正确的用户名和密码" in response.content.decode()
    assert not is_logged_in(client)


def test_a_player_changes_the_password_and_stays_logged_in(client):
    player = make_player("wu")
    client.force_login(player)
    new_password = "Lantern-festival-77"

    response = client.post(reverse("password_change"), {
        "old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password})

    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    assert client.get(response.url).status_code == 200
    player.refresh_from_db()
    assert player.check_password(new_password)
    assert client.get(reverse("my-profile")).status_code == 200  # session kept
    client.post(reverse("logout"))
    assert log_in(client, "wu", PASSWORD).status_code == 200
    assert log_in(client, "wu", new_password).status_code == 302


def test_a_wrong_old_password_changes_nothing(client):
    player = make_player("wu")
    client.force_login(player)

    response = client.post(reverse("password_change"), {
        "old_password": "wrong", "new_password1": "Lantern-festival-77",
        "new_password2": "Lantern-festival-77"})

    assert response.status_code == 200
    assert "old_password" in response.context["form"].errors
    player.refresh_from_db()
    assert player.check_password(PASSWORD)


def test_the_password_page_needs_a_login(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


# --- failed-login limits ------------------------------------------------------------------

def test_a_username_is_blocked_after_its_failures_and_not_before(client, login_limits):
    login_limits(username=3, ip=100, window=600)
    make_player("target")

    for _ in range(2):
        page = log_in(client, "target", "guess").content.decode()
        assert TOO_MANY not in page
        assert "正确的用户名和密码" in page

    third = log_in(client, "target", "guess").content.decode()
    assert TOO_MANY in third
    assert "10 分钟后再试" in third

    # Blocked even with the right password, in any letter case, from any address.
    for username, address in (("target", "127.0.0.1"), ("TARGET", "10.0.0.9")):
        response = log_in(client, username, PASSWORD, REMOTE_ADDR=address)
        assert response.status_code == 200
        assert TOO_MANY in response.content.decode()
        assert not is_logged_in(client)

    # Other players on the same address are not affected.
    make_player("bystander")
    assert log_in(client, "bystander", PASSWORD).status_code == 302


def test_a_client_ip_is_blocked_after_its_failures_across_usernames(client, login_limits):
    login_limits(username=100, ip=3, window=600)
    make_player("victim")

    for name in ("a1", "a2"):
        assert TOO_MANY not in log_in(client, name, "guess").content.decode()
    assert TOO_MANY in log_in(client, "a3", "guess").content.decode()

    blocked = log_in(client, "victim", PASSWORD)
    assert TOO_MANY in blocked.content.decode()
    assert not is_logged_in(client)
    assert log_in(client, "victim", PASSWORD, REMOTE_ADDR="10.1.2.3").status_code == 302


def test_a_successful_login_clears_the_username_count(client, login_limits):
    login_limits(username=3, ip=100, window=600)
    make_player("forgetful")

    for _ in range(2):
        log_in(client, "forgetful", "guess")
    assert log_in(client, "forgetful", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    for _ in range(2):
        assert TOO_MANY not in log_in(client, "forgetful", "guess").content.decode()


def test_the_block_ends_with_its_window(client, login_limits):
    login_limits(username=2, ip=100, window=1)
    make_player("patient")
    for _ in range(2):
        log_in(client, "patient", "guess")
    assert TOO_MANY in log_in(client, "patient", PASSWORD).content.decode()

    # The window closes when Redis expires its count: wait for that, not a fixed time.
    count = _keys(username="patient", ip="127.0.0.1")["username"][0] + ":n"
    deadline = time.monotonic() + 10
    while caches["default"].get(count) is not None:
        assert time.monotonic() < deadline, "the 1 s window never closed"
        time.sleep(0.02)

    assert log_in(client, "patient", PASSWORD).status_code == 302


def test_the_admin_login_counts_failures_too(client, login_limits):
    login_limits(username=2, ip=100, window=600)
    make_player("boss", is_staff=True, is_superuser=True)
    url = reverse("admin:login")

    for _ in range(2):
        client.post(url, {"username": "boss", "password": "guess"})
    response = client.post(url, {"username": "boss", "password": PASSWORD})

    assert response.status_code == 200
    assert TOO_MANY in response.content.decode()
    assert not is_logged_in(client)


def test_the_counts_live_in_the_shared_redis_cache():
    cache = caches["default"]
    assert type(cache).__name__ == "RedisCache"
    cache.set("probe", 41, timeout=10)
    assert cache.incr("probe") == 42


def test_the_client_ip_comes_from_forwarded_for_only_behind_trusted_proxies(settings):
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1",
                                   HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")

    settings.ACCOUNTS_TRUSTED_PROXY_COUNT = 0
    assert client_ip(request) == "10.0.0.1"
    settings.ACCOUNTS_TRUSTED_PROXY_COUNT = 1
    assert client_ip(request) == "203.0.113.7"
    settings.ACCOUNTS_TRUSTED_PROXY_COUNT = 2
    assert client_ip(request) == "6.6.6.6"
