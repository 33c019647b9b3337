"""The tournament pages and API: the lists, one tournament, registering from the page
and the API, a board's comparison only once every table has finished it, and no
peeking: an entrant neither watches another table nor reads another table's game of a
board still being played."""

import pytest
from django.test import Client

from games.live.visibility import may_read_game, may_watch
from games.models import GameRecord, Seat
from tournaments import flow
from tournaments.models import Board, Entry, Tournament
from tournaments.registration import register
from tournaments.testing import make_due, make_people, make_template, open_scheduled

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_list_detail_and_registering_from_the_page_and_the_api():
    tournament = open_scheduled(make_template(name="周末杯"))
    alice, bob = make_people(2)
    page = Client().get("/tournaments/")
    assert page.status_code == 200 and "周末杯" in page.content.decode()
    response = signed_in(alice).post(f"/tournaments/{tournament.pk}/register/")
    assert response.status_code == 302
    assert Entry.objects.filter(tournament=tournament, user=alice).exists()
    api = signed_in(bob).post(f"/api/tournaments/{tournament.pk}/register")
    assert api.status_code == 201 and api.json() == {"registered": True, "paid": 100}
    again = signed_in(bob).post(f"/api/tournaments/{tournament.pk}/register")
    assert again.status_code == 400 and "已经报名" in again.json()["detail"]
    detail = signed_in(bob).get(f"/api/tournaments/{tournament.pk}").json()
    assert detail["players"] == 2 and detail["registered"] and detail["pool"] == 180
    listed = Client().get("/api/tournaments").json()
    assert [row["id"] for row in listed["upcoming"]] == [tournament.pk]
    html = signed_in(alice).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "data-withdraw" in html and 'data-status="registering"' in html
    assert signed_in(alice).post(f"/api/tournaments/{tournament.pk}/withdraw").json() == {
        "registered": False}
    assert Client().post(f"/api/tournaments/{tournament.pk}/register").status_code in (401, 403)
    assert Client().get("/api/tournaments/999999").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_no_peeking_at_a_board_until_every_table_has_finished_it():
    tournament = open_scheduled(make_template())
    people = make_people(8)
    for person in people:
        register(user=person, tournament_id=tournament.pk)
    make_due(tournament)
    flow.sweep()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    seat = Seat.objects.get(user=people[0])
    other = Board.objects.filter(tournament=tournament, round=1, board=1) \
        .exclude(table=seat.table).select_related("game").first()
    mine = Board.objects.get(tournament=tournament, round=1, board=1, table=seat.table)
    # an entrant does not watch another table of the round, nor read its game
    assert not may_watch(people[0], other.table_id)
    assert may_watch(people[0], seat.table_id)
    outsider, = make_people(1, coins=0, prefix="o")
    assert may_watch(outsider, other.table_id)
    # The page says why (the same deals at every table), not the private tables' reason;
    # my own table's page links back to the tournament.
    client = Client()
    client.force_login(people[0])
    refused = client.get(f"/tables/{other.table_id}/", follow=True).content.decode()
    assert "参赛者只能看自己的牌桌" in refused and "这张好友房不允许旁观" not in refused
    own = client.get(f"/tables/{seat.table_id}/")
    assert own.status_code == 200
    assert f'href="/tournaments/{tournament.pk}/"' in own.content.decode()
    if other.game.status == GameRecord.Status.ENDED:
        assert not may_read_game(people[0], other.game)
        assert not may_read_game(outsider, other.game)
    assert Client().get(f"/tournaments/{tournament.pk}/boards/1/1/").status_code == 404
    assert Client().get(f"/api/tournaments/{tournament.pk}/boards/1/1").status_code == 404
    assert mine.game.status == GameRecord.Status.PLAYING


@pytest.mark.django_db(transaction=True)
def test_the_pages_in_english_have_no_chinese_but_names():
    from common.testing.i18n_checks import CHINESE, ENDONYMS, visible_text, without

    tournament = open_scheduled(make_template(name="Weekend cup", size=8, rounds=1,
                                              boards_per_round=1))
    person, = make_people(1)
    register(user=person, tournament_id=tournament.pk)
    make_due(tournament)
    flow.sweep()
    client = signed_in(person)
    client.cookies["django_language"] = "en"
    names = list(Entry.objects.filter(tournament=tournament)
                 .values_list("user__nickname", flat=True)) + list(ENDONYMS)
    for path in ("/tournaments/", f"/tournaments/{tournament.pk}/"):
        text = without(visible_text(client.get(path).content.decode()), names)
        assert not CHINESE.findall(text), (path, CHINESE.findall(text)[:20])
    assert "Standings" in client.get(f"/tournaments/{tournament.pk}/").content.decode()
