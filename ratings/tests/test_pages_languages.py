"""The ratings pages read in English and 繁體中文 (docs/i18n.md): no Chinese left on an
English page but names from the database, no Simplified-only form on a 繁體中文 one."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from common.testing.i18n_checks import CHINESE, ENDONYMS, SIMPLIFIED_ONLY, visible_text, without
from games.live.lifecycle.end import game_settle
from games.testing.room_helpers import make_player
from ratings.models import Rating, Season
from ratings.testing import rated_game, rated_room

pytestmark = pytest.mark.django_db


@pytest.fixture
def pages(client):
    room = rated_room()
    people = [make_player(f"lang-{seat}") for seat in range(4)]
    game_settle(game_id=rated_game(room, people, seed=3).pk)
    Rating.objects.update(sigma=3.0)
    now = timezone.now()
    Season.objects.create(name="S1", starts_at=now - timedelta(days=1),
                          ends_at=now + timedelta(days=1))
    client.force_login(people[0])
    urls = [reverse("rating-leaderboard"), reverse("rating-leaderboard") + "?season=current",
            reverse("player-ratings", args=[people[0].username]), reverse("lobby"),
            reverse("player-stats", args=[people[0].username])]
    names = [room.name, "S1", *ENDONYMS, *(str(person) for person in people)]
    return client, urls, names


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_the_ratings_pages_are_in_the_readers_language(pages, language):
    client, urls, names = pages
    for url in urls:
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        text = without(visible_text(page), names)
        if language == "en":
            assert not CHINESE.findall(text), (url, "".join(CHINESE.findall(text))[:80])
        else:
            assert not [form for form in SIMPLIFIED_ONLY if form in text], url
            assert "等級分" in text, url
