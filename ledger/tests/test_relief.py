"""The daily relief grant (救济金, ledger/relief.py): claimed below the threshold up to
the day's limit, each claim posted once under its key whatever is repeated, refused
with a message and nothing written otherwise; through the service, the statement's
form (with and without htmx) and the API. The ledger's audit is clean after each."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.urls import reverse

from accounts.models import User
from games.settlement.posting import settle_game
from ledger.audit import ledger_violations
from ledger.models import Kind, Transaction
from ledger.relief import claim_relief, relief_status
from ledger.services import LedgerError, balance_of, freeze_coins
from ledger.tests.ledger_helpers import ledger_snapshot, make_players, unique
from ledger.tests.ledger_helpers import make_user as make_new_user

pytestmark = pytest.mark.django_db

SHANGHAI = zoneinfo.ZoneInfo("Asia/Shanghai")
AMOUNT, THRESHOLD = 300, 1000


@pytest.fixture(autouse=True)
def relief_settings(settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    settings.LEDGER_RELIEF_THRESHOLD = THRESHOLD
    settings.LEDGER_RELIEF_AMOUNT = AMOUNT
    settings.LEDGER_RELIEF_PER_DAY = 2


@pytest.fixture(autouse=True)
def ledger_audit_clean_after():
    yield
    assert ledger_violations() == []


def make_user(coins: int = 0):
    """A player who has finished a game (a points settlement): relief needs one."""
    player = make_new_user(coins=coins)
    settle_game(game_key=unique("game"), players=[player, *make_players(coins=0, count=3)],
                scores=[1, 1, -1, -1])
    return player


def reliefs() -> list[str]:
    return sorted(Transaction.objects.filter(kind=Kind.RELIEF).values_list("key", flat=True))


def at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 12, day, hour, minute, tzinfo=SHANGHAI)


def test_two_claims_a_day_then_the_third_is_refused():
    player = make_user(coins=100)
    now = at(2, 12)

    claim_relief(user=player, now=now)
    claim_relief(user=player, now=now)
    with pytest.raises(LedgerError, match="今天的救济金已经领完了（每天 2 次）"):
        claim_relief(user=player, now=now)

    assert balance_of(player, "coin") == 100 + 2 * AMOUNT
    assert reliefs() == [f"relief:{player.pk}:2026-12-02:1", f"relief:{player.pk}:2026-12-02:2"]
    status = relief_status(player, now=now)
    assert (status.claimed, status.remaining, status.eligible) == (2, 0, False)
    assert ledger_violations() == []


def test_the_day_begins_at_midnight_in_the_sites_time_zone():
    player = make_user(coins=0)
    claim_relief(user=player, now=at(2, 23, 59))
    claim_relief(user=player, now=at(2, 23, 59))

    # 16:01 UTC is 00:01 of the 3rd in Shanghai: a new day, new claims.
    claim_relief(user=player, now=dt.datetime(2026, 12, 2, 16, 1, tzinfo=dt.UTC))

    assert reliefs()[-1] == f"relief:{player.pk}:2026-12-03:1"
    assert relief_status(player, now=at(3, 9)).remaining == 1
    assert ledger_violations() == []


def test_a_player_at_or_above_the_threshold_is_refused():
    player = make_user(coins=THRESHOLD)

    with pytest.raises(LedgerError, match=f"不少于 {THRESHOLD}，不能领取救济金"):
        claim_relief(user=player)

    assert reliefs() == [] and balance_of(player, "coin") == THRESHOLD
    assert relief_status(player).eligible is False
    assert ledger_violations() == []


def test_a_player_who_never_finished_a_game_is_refused():
    fresh = make_new_user(coins=0)

    with pytest.raises(LedgerError, match="先完成一局对局"):
        claim_relief(user=fresh)

    assert reliefs() == [] and relief_status(fresh).eligible is False
    played = make_new_user(coins=0)
    settle_game(game_key=unique("game"), players=[*make_players(coins=0, count=3), played],
                scores=[1, 1, -1, -1])
    claim_relief(user=played)
    assert balance_of(played, "coin") == AMOUNT


def test_frozen_coins_count_as_the_players_so_a_whole_stake_in_play_gets_no_relief():
    player = make_user(coins=10_000)
    freeze_coins(user=player, game_key=unique("game"), amount=10_000)  # available: 0
    before = ledger_snapshot()

    with pytest.raises(LedgerError, match="可用 0，冻结 10000）不少于 1000"):
        claim_relief(user=player)

    assert ledger_snapshot() == before
    status = relief_status(player)
    assert (status.balance, status.frozen, status.eligible) == (0, 10_000, False)


def test_below_the_threshold_with_the_frozen_coins_counted_the_claim_is_paid():
    player = make_user(coins=900)
    freeze_coins(user=player, game_key=unique("game"), amount=400)  # 500 + 400 frozen

    claim_relief(user=player)

    assert balance_of(player, "coin") == 500 + AMOUNT
    status = relief_status(player)
    assert (status.balance, status.frozen, status.eligible) == (500 + AMOUNT, 400, False)


def test_the_same_claim_again_returns_the_first_posting_and_pays_once():
    player = make_user(coins=0)

    first = claim_relief(user=player, claim=1)
    again = claim_relief(user=player, claim="1")

    assert again.pk == first.pk
    assert balance_of(player, "coin") == AMOUNT
    assert relief_status(player).claimed == 1
    assert ledger_violations() == []


@pytest.mark.parametrize("claim", ["abc", "0", "-1", 3])
def test_a_bad_or_skipped_claim_number_is_refused_and_writes_nothing(claim):
    player = make_user(coins=0)

    with pytest.raises(LedgerError):
        claim_relief(user=player, claim=claim)

    assert reliefs() == [] and balance_of(player, "coin") == 0


# --- the statement page ---------------------------------------------------------------------

def test_the_statement_offers_the_claim_and_shows_it_as_its_own_kind(client):
    player = make_user(coins=0)
    client.force_login(player)
    page = client.get(reverse("my-coins")).content.decode()
    assert 'action="/me/coins/relief/"' in page and 'name="claim" value="1"' in page

    response = client.post(reverse("relief-claim"), {"claim": "1"}, follow=True)

    html = response.content.decode()
    assert response.redirect_chain == [(reverse("my-coins"), 302)]
    assert f"游戏币 +{AMOUNT}" in html
    assert '<td class="kind">救济金</td>' in html
    assert '<option value="relief"' in html  # and the filter offers the kind
    assert 'name="claim" value="2"' in html  # the next claim is offered
    assert balance_of(player, "coin") == AMOUNT


def test_a_double_click_on_the_form_pays_once(client):
    player = make_user(coins=0)
    client.force_login(player)

    for _click in range(2):
        client.post(reverse("relief-claim"), {"claim": "1"})

    assert balance_of(player, "coin") == AMOUNT and len(reliefs()) == 1
    assert ledger_violations() == []


def test_with_htmx_the_section_is_rendered_in_place_with_the_refusal(client):
    player = make_user(coins=THRESHOLD + 1)
    client.force_login(player)

    response = client.post(reverse("relief-claim"), {"claim": "1"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<section class="relief"')
    assert "不能领取救济金" in html and 'name="claim"' not in html
    assert reliefs() == []


def test_the_statement_says_frozen_coins_count_and_offers_no_claim_while_they_are_enough(
        client):
    player = make_user(coins=10_000)
    freeze_coins(user=player, game_key=unique("game"), amount=10_000)
    client.force_login(player)

    page = client.get(reverse("my-coins")).content.decode()

    assert 'name="claim"' not in page
    assert "游戏币（含对局中冻结的）少于 1000 时可领取" in page
    assert "你有 10000 游戏币冻结在进行中的对局里" in page


# --- the API --------------------------------------------------------------------------------

def test_the_api_reads_todays_claims_and_claims(client):
    player = make_user(coins=0)
    client.force_login(player)
    url = reverse("api-relief")
    assert client.get(url).json()["remaining"] == 2

    first = client.post(url, {"claim": 1}, content_type="application/json")
    repeat = client.post(url, {"claim": 1}, content_type="application/json")
    second = client.post(url, {}, content_type="application/json")
    third = client.post(url, {}, content_type="application/json")

    assert first.status_code == 200 and first.json()["amount"] == AMOUNT
    assert repeat.json()["transaction_key"] == first.json()["transaction_key"]
    assert second.json()["status"]["remaining"] == 0
    assert third.status_code == 400 and "已经领完" in third.json()["detail"]
    assert balance_of(player, "coin") == 2 * AMOUNT
    assert client.post(url, {"claim": "x"}, content_type="application/json").status_code == 400
    assert ledger_violations() == []


def test_the_api_counts_frozen_coins_and_refuses_a_claim_they_make_up(client):
    player = make_user(coins=10_000)
    freeze_coins(user=player, game_key=unique("game"), amount=10_000)
    client.force_login(player)
    url = reverse("api-relief")

    status = client.get(url).json()
    claimed = client.post(url, {"claim": 1}, content_type="application/json")

    assert (status["balance"], status["frozen"], status["eligible"]) == (0, 10_000, False)
    assert claimed.status_code == 400 and "冻结 10000" in claimed.json()["detail"]
    assert reliefs() == [] and balance_of(player, "coin") == 0


def test_the_api_needs_a_login(client):
    assert client.post(reverse("api-relief"), {}).status_code in (401, 403)
    assert reliefs() == []


def test_the_relief_endpoints_are_in_the_schema(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()

    assert set(schema["paths"]["/api/ledger/relief"]) >= {"get", "post"}
    assert "ReliefClaimed" in schema["components"]["schemas"]


def test_the_admin_lists_relief_grants_as_their_own_kind(client):
    player = make_user(coins=0)
    posted = claim_relief(user=player)
    client.force_login(User.objects.create_superuser(username="boss", password="pw"))

    response = client.get(reverse("admin:ledger_transaction_changelist"), {"kind": "relief"})

    assert response.status_code == 200
    assert [row.pk for row in response.context["cl"].result_list] == [posted.pk]
    assert posted.key in response.content.decode()


def test_with_htmx_a_claim_reloads_the_page_with_the_new_balance_and_line(client):
    """The section alone said +amount beside a balance and a statement still at 0."""
    player = make_user(coins=0)
    client.force_login(player)

    response = client.post(reverse("relief-claim"), {"claim": "1"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 200 and response["HX-Refresh"] == "true"
    page = client.get(reverse("my-coins")).content.decode()
    assert f'<strong class="balance">{AMOUNT}</strong>' in page
    assert '<td class="kind">救济金</td>' in page
    assert f"游戏币 +{AMOUNT}" in page  # the message, once, on the reloaded page
