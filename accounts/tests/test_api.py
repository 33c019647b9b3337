"""The HTTP API: /api/me, /api/ledger/entries, /api/levels, /api/token."""

import pytest
from rest_framework.test import APIClient

from accounts.tests.helpers import PASSWORD, make_player, post_coins, post_points
from ledger.models import Leg
from ledger.services import grant_coins

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def test_me_describes_the_requesting_player(api):
    player = make_player("api", nickname="接口")
    post_points(player, 150)
    post_coins(player, 900)
    api.force_authenticate(player)

    response = api.get("/api/me")

    assert response.status_code == 200
    assert response.json() == {
        "username": "api", "nickname": "接口", "level": 3, "title": "长工", "points": 150,
        "coins": 900, "progress_percent": 6,
        "next_level": {"level": 4, "title": "佃户", "min_points": 300, "points_needed": 150},
    }


def test_me_at_the_top_level_has_no_next_level(api):
    player = make_player("top")
    post_points(player, 1_000_000)
    api.force_authenticate(player)

    body = api.get("/api/me").json()

    assert (body["level"], body["title"], body["next_level"]) == (23, "帝王", None)


def test_me_needs_authentication(api):
    response = api.get("/api/me")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_the_session_of_the_site_authenticates_the_api(client):
    client.force_login(make_player("browser"))

    assert client.get("/api/me").json()["username"] == "browser"


def test_levels_are_the_public_ladder(api):
    response = api.get("/api/levels")

    assert response.status_code == 200
    ladder = response.json()
    assert len(ladder) == 23
    assert ladder[0] == {"level": 1, "title": "包身工", "min_points": 0}
    assert ladder[1] == {"level": 2, "title": "短工", "min_points": 60}
    assert ladder[-1] == {"level": 23, "title": "帝王", "min_points": 1_000_000}


# --- ledger entries -----------------------------------------------------------------------

def test_entries_are_my_own_legs_newest_first_with_their_transactions(api):
    me, other = make_player("me"), make_player("other")
    grant_coins(user=me, amount=1000, key="grant:test:me", memo="见面礼")
    post_points(me, 10)
    grant_coins(user=other, amount=5000, key="grant:test:other")
    post_coins(other, 7)
    api.force_authenticate(me)

    body = api.get("/api/ledger/entries").json()

    mine = list(Leg.objects.filter(account__user=me).order_by("-id").values_list("id", flat=True))
    assert [entry["id"] for entry in body["results"]] == mine
    assert body["count"] == 2
    oldest = body["results"][-1]
    assert oldest["transaction_key"] == "grant:test:me"
    assert oldest["kind"] == "grant"
    assert oldest["currency"] == "coin"
    assert (oldest["amount"], oldest["balance_after"]) == (1000, 1000)
    assert oldest["memo"] == "见面礼"
    assert oldest["game_key"] == ""
    assert set(oldest) == {"id", "transaction_key", "kind", "currency", "amount",
                           "balance_after", "game_key", "created_at", "memo"}


def test_another_players_entries_never_show(api):
    me, other = make_player("me"), make_player("other")
    grant_coins(user=other, amount=5000, key="grant:test:other")
    api.force_authenticate(me)

    body = api.get("/api/ledger/entries").json()

    assert body["count"] == 0
    assert body["results"] == []


def test_entries_are_paginated(api):
    me = make_player("busy")
    for _ in range(25):
        post_coins(me, 1)
    api.force_authenticate(me)

    first = api.get("/api/ledger/entries").json()
    second = api.get("/api/ledger/entries", {"page": 2}).json()
    small = api.get("/api/ledger/entries", {"page_size": 5}).json()

    assert first["count"] == 25
    assert len(first["results"]) == 20
    assert "page=2" in first["next"]
    assert len(second["results"]) == 5
    assert second["next"] is None
    assert [entry["balance_after"] for entry in second["results"]] == [5, 4, 3, 2, 1]
    assert len(small["results"]) == 5
    assert api.get("/api/ledger/entries", {"page": 9}).status_code == 404


def test_entries_filter_by_currency_and_kind(api):
    me = make_player("mixed")
    grant_coins(user=me, amount=1000, key="grant:test:mixed")
    post_coins(me, 5)
    post_points(me, 3)
    api.force_authenticate(me)

    points = api.get("/api/ledger/entries", {"currency": "point"}).json()["results"]
    coins = api.get("/api/ledger/entries", {"currency": "coin"}).json()["results"]
    grants = api.get("/api/ledger/entries", {"kind": "grant"}).json()["results"]
    coin_adjustments = api.get("/api/ledger/entries",
                               {"kind": "admin_adjustment", "currency": "coin"}).json()["results"]

    assert [entry["amount"] for entry in points] == [3]
    assert [entry["amount"] for entry in coins] == [5, 1000]
    assert [entry["transaction_key"] for entry in grants] == ["grant:test:mixed"]
    assert [entry["amount"] for entry in coin_adjustments] == [5]


@pytest.mark.parametrize(("params", "field", "hint"), [
    ({"currency": "gold"}, "currency", "coin, point"),
    ({"kind": "bribe"}, "kind", "admin_adjustment"),
])
def test_a_bad_filter_is_a_400_that_names_the_valid_values(api, params, field, hint):
    api.force_authenticate(make_player("picky"))

    response = api.get("/api/ledger/entries", params)

    assert response.status_code == 400
    message = response.json()[field][0]
    assert hint in message
    assert list(params.values())[0] in message


def test_entries_need_authentication(api):
    assert api.get("/api/ledger/entries").status_code == 401


# --- tokens ---------------------------------------------------------------------------------

def test_a_token_from_username_and_password_authenticates_the_api(api):
    make_player("tok", nickname="令牌")

    response = api.post("/api/token", {"username": "tok", "password": PASSWORD}, format="json")

    assert response.status_code == 200
    token = response.json()["token"]
    assert api.post("/api/token", {"username": "tok", "password": PASSWORD}).json() == {
        "token": token}
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/me").json()["nickname"] == "令牌"
    api.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert api.get("/api/me").status_code == 401


@pytest.mark.parametrize("body", [
    {"username": "tok", "password": "wrong"},
    {"username": "nobody", "password": PASSWORD},
    {"username": "tok"},
    {},
])
def test_bad_token_requests_are_400s(api, body):
    make_player("tok")

    response = api.post("/api/token", body, format="json")

    assert response.status_code == 400
    assert "token" not in response.json()


def test_the_token_endpoint_shares_the_login_limits(api, client, login_limits):
    login_limits(username=3, ip=100, window=600)
    make_player("tok")

    for _ in range(2):
        assert api.post("/api/token", {"username": "tok", "password": "x"}).status_code == 400
    blocked = api.post("/api/token", {"username": "tok", "password": "x"})
    assert blocked.status_code == 429
    assert int(blocked["Retry-After"]) > 500
    assert "10 分钟" in blocked.json()["detail"]
    assert api.post("/api/token", {"username": "tok", "password": PASSWORD}).status_code == 429
    # The login page counts the same failures.
    page = client.post("/accounts/login/", {"username": "tok", "password": PASSWORD})
    assert "登录失败次数过多" in page.content.decode()


def test_the_schema_documents_the_four_endpoints(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()

    assert {"/api/me", "/api/ledger/entries", "/api/levels", "/api/token"} <= set(schema["paths"])
    entry_params = {param["name"] for param in schema["paths"]["/api/ledger/entries"]["get"]
                    ["parameters"]}
    assert {"currency", "kind", "page"} <= entry_params
    assert "tokenAuth" in schema["components"]["securitySchemes"]
