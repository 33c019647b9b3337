"""Bad input gets a clear 4xx, not a 500: a NUL byte in a URL reached
PostgreSQL, which refuses text containing NUL."""

import pytest

from accounts.models import User


@pytest.mark.django_db
def test_a_nul_byte_in_a_player_route_is_a_400_not_a_500(client):
    User.objects.create_user(username="alice")

    response = client.get("/players/%00/")

    assert response.status_code == 400
    assert b"NUL" in response.content
    assert client.get("/players/alice/").status_code == 200  # the route itself still works


@pytest.mark.django_db
def test_a_nul_byte_in_the_query_string_is_a_400(client):
    assert client.get("/api/schema/", {"format": "json\x00"}).status_code == 400
    assert client.get("/api/schema/", {"format\x00": "json"}).status_code == 400
    assert client.get("/api/schema/", {"format": "json"}).status_code == 200
