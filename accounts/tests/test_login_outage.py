"""While the failed-login limits cannot be checked (Redis refuses connections), every
way in answers 503 with Retry-After, never a 500 and never a password check without
the limits (accounts.login_limits: logins fail closed)."""

import copy

import pytest
from django.urls import reverse

from accounts.login_limits import LoginUnavailable
from accounts.tests.helpers import PASSWORD, make_player
from common.testing.server_helpers import refusing_port

pytestmark = pytest.mark.django_db


def test_the_login_page_answers_503_with_retry_after_when_redis_is_down(client, redis_down):
    make_player("zhou")

    response = client.post(reverse("login"), {"username": "zhou", "password": PASSWORD})

    assert response.status_code == 503
    assert response["Retry-After"] == str(LoginUnavailable.RETRY_AFTER_SECONDS)
    assert "登录暂时不可用" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_login_page_still_shows_its_form_when_redis_is_down(client, redis_down):
    assert client.get(reverse("login")).status_code == 200


def test_the_admin_login_answers_503_when_redis_is_down(client, redis_down):
    make_player("boss", is_staff=True, is_superuser=True)

    response = client.post(reverse("admin:login"), {"username": "boss", "password": PASSWORD})

    assert response.status_code == 503
    assert "_auth_user_id" not in client.session


def test_the_token_endpoint_answers_503_json_when_redis_is_down(client, redis_down):
    make_player("tok")

    response = client.post("/api/token", {"username": "tok", "password": PASSWORD},
                           content_type="application/json")

    assert response.status_code == 503
    assert response["Retry-After"] == str(LoginUnavailable.RETRY_AFTER_SECONDS)
    assert "登录暂时不可用" in response.json()["detail"]
    assert "token" not in response.json()


def test_logins_work_again_once_redis_is_back(client, settings):
    make_player("zhou")
    with refusing_port() as port:
        down = copy.deepcopy(settings.CACHES)
        down["default"]["LOCATION"] = f"redis://127.0.0.1:{port}/0"
        up, settings.CACHES = settings.CACHES, down
        assert client.post(reverse("login"),
                           {"username": "zhou", "password": PASSWORD}).status_code == 503
    settings.CACHES = up

    response = client.post(reverse("login"), {"username": "zhou", "password": PASSWORD})

    assert response.status_code == 302
    assert "_auth_user_id" in client.session
