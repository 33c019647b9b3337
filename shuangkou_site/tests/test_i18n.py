"""The site in three languages (docs/i18n.md): the catalogs are complete, the language
switch in the header round-trips through Django's set_language view, and the main pages
render wholly in the language chosen there (English: no Chinese but names from the
database; 繁體中文: Traditional forms, no Simplified ones)."""

from __future__ import annotations

import json
import re
from importlib import import_module
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import Level, User
from accounts.services import player_sign_up
from common.testing.i18n_checks import (
    CHINESE,
    ENDONYMS,
    SIMPLIFIED_ONLY,
    po_entries,
    visible_text,
    without,
)
from games.errors import ActionError
from games.live.lifecycle.act import game_act
from games.live.seating import room_quick_join, table_ready
from games.models import BotPlayer, GameRecord, Room, RuleSetConfig, Seat
from games.testing.room_helpers import coin_room, make_player, make_room, start_game_with_bots
from ledger.labels import SYSTEM_MEMOS
from ledger.models import Account, Hold, Transaction
from ledger.services import adjust_balance, correct_transaction

JSON_BLOCK = re.compile(r'<script id="([\w-]+)" type="application/json">(.*?)</script>', re.S)
PASSWORD = "Tea-house-2048"


# --- catalogs ------------------------------------------------------------------------------

CATALOGS = sorted(Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/*.po"))
PLACEHOLDER = re.compile(r"%\((\w+)\)[-+ #0]*\d*[sdif]|\{(\w+)\}")


def test_there_is_a_catalog_for_each_language_but_the_source_one():
    assert {path.parts[-3] for path in CATALOGS} == {"en", "zh_Hant"}
    assert settings.LANGUAGE_CODE == "zh-hans"
    assert [code for code, _ in settings.LANGUAGES] == ["zh-hans", "zh-hant", "en"]


@pytest.mark.parametrize("path", CATALOGS, ids=lambda path: "/".join(path.parts[-3:]))
def test_every_catalog_entry_is_translated_and_none_is_fuzzy(path):
    header, *entries = po_entries(path)
    assert header["msgid"] == "" and "fuzzy" not in header["flags"]
    assert f"Language: {path.parts[-3]}\n" in header["msgstr"][0]
    assert len(entries) > 300
    untranslated = [entry["msgid"] for entry in entries
                    if not all(entry["msgstr"].values()) or not entry["msgstr"]]
    fuzzy = [entry["msgid"] for entry in entries if "fuzzy" in entry["flags"]]
    assert untranslated == [] and fuzzy == []


@pytest.mark.parametrize("path", CATALOGS, ids=lambda path: "/".join(path.parts[-3:]))
def test_translations_keep_the_placeholders_of_their_source(path):
    wrong = []
    for entry in po_entries(path)[1:]:
        wanted = {"".join(match) for match in PLACEHOLDER.findall(entry["msgid"])}
        for text in entry["msgstr"].values():
            if {"".join(match) for match in PLACEHOLDER.findall(text)} != wanted:
                wrong.append((entry["msgid"], text))
    assert wrong == []


# --- the switch ----------------------------------------------------------------------------

def switch(client: Client, language: str, back_to: str = "/") -> None:
    """Pick a language as a person does: the header's form, posted to set_language."""
    response = client.post(reverse("set_language"), {"language": language, "next": back_to})
    assert response.status_code == 302 and response["Location"] == back_to
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == language


@pytest.mark.django_db
def test_the_header_has_a_labelled_language_switch_that_returns_to_the_page(client):
    page = client.get(reverse("levels"), {"page": "1"}).content.decode()

    form = re.search(r'<form class="language-switch" method="post" action="([^"]+)">(.*?)</form>',
                     page, re.S)
    assert form and form[1] == reverse("set_language")
    body = form[2]
    assert 'name="csrfmiddlewaretoken"' in body
    assert '<input type="hidden" name="next" value="/levels/?page=1">' in body
    assert re.search(r'<label for="language-select">语言</label>\s*<select id="language-select" '
                     r'name="language">', body)
    assert re.findall(r'<option value="([\w-]+)"', body) == ["zh-hans", "zh-hant", "en"]
    assert re.search(r'<option value="zh-hans" lang="zh-Hans" selected>简体中文</option>', body)
    assert re.search(r'<button type="submit">切换</button>', body)


@pytest.mark.django_db
def test_the_language_switch_round_trips_through_set_language(client):
    levels = reverse("levels")
    assert '<html lang="zh-Hans">' in client.get(levels).content.decode()

    switch(client, "en", back_to=f"{levels}?page=1")
    english = client.get(f"{levels}?page=1").content.decode()
    switch(client, "zh-hant", back_to=levels)
    traditional = client.get(levels).content.decode()
    switch(client, "zh-hans", back_to=levels)
    simplified = client.get(levels).content.decode()

    assert '<html lang="en">' in english and "Levels and titles" in english
    assert '<option value="en" lang="en" selected>English</option>' in english
    assert '<html lang="zh-Hant">' in traditional and "等級與稱號" in traditional
    assert '<html lang="zh-Hans">' in simplified and "等级与称号" in simplified


@pytest.mark.django_db
def test_a_switch_to_an_unknown_language_changes_nothing(client):
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})

    assert '<html lang="zh-Hans">' in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
def test_without_a_choice_the_browsers_language_is_used(client):
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="zh-TW,zh;q=0.9")

    assert '<html lang="zh-Hant">' in page.content.decode()


# --- the pages -----------------------------------------------------------------------------

@pytest.fixture
def world(transactional_db, settings) -> dict:
    """Alice signed up, played a points game to its end beside three bots (托管 played
    for her; the starting grant followed it) and is still seated at its table."""
    settings.LEDGER_STARTING_COINS = 10000
    # The shipped ladder (a data migration: transactional tests flush it), for the titles.
    for number, title, min_points in import_module("accounts.migrations.0003_level_table").LADDER:
        Level.objects.update_or_create(number=number,
                                       defaults={"title": title, "min_points": min_points})
    alice = player_sign_up(username="alice", nickname="Alice", password=PASSWORD)
    room = make_room("QQ 积分场")  # a room's name is data: it stays as the operator wrote it
    record = start_game_with_bots(alice, room)
    game_act(user_id=alice.pk, game_id=record.pk, action="trustee", on=True)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.ENDED and record.settlement is not None
    return {"alice": alice, "record": record,
            "table": Seat.objects.get(user=alice).table_id}


def main_pages(world: dict) -> dict[str, str]:
    return {
        "home": reverse("home"),
        "lobby": reverse("lobby"),
        "table": reverse("table", args=[world["table"]]),
        "replay": reverse("game-replay", args=[world["record"].pk]),
        "history": reverse("game-history"),
        "coins": reverse("my-coins"),
        "points": reverse("my-points"),
        "levels": reverse("levels"),
        "leaderboard": reverse("leaderboard"),
        "profile": reverse("my-profile"),
    }


ANONYMOUS_PAGES = {"login": "login", "signup": "signup"}


def data_names() -> list[str]:
    """Texts from the database that no catalog translates: players' names and room names,
    and the languages' own names; longest first, so none is cut by a shorter one."""
    names = {str(user) for user in User.objects.all()} | set(Room.objects.values_list("name",
                                                                                      flat=True))
    return sorted(names | set(ENDONYMS), key=len, reverse=True)


def script_texts(page: str) -> list[str]:
    """Every string in the page's JSON blocks (what the table's and the replay's scripts show)."""
    found: list[str] = []

    def walk(value) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for _name, block in JSON_BLOCK.findall(page):
        walk(json.loads(block))
    return found


def rendered(client: Client, world: dict, language: str | None) -> dict[str, str]:
    """Every main page as Alice sees it, and the login and sign-up pages as a visitor
    does, in ``language`` picked with the header's switch (None: no choice made)."""
    visitor = Client()
    client.force_login(world["alice"])
    if language is not None:
        switch(client, language)
        switch(visitor, language)
    pages = {}
    for name, url in main_pages(world).items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        pages[name] = response.content.decode()
    for name, url_name in ANONYMOUS_PAGES.items():
        response = visitor.get(reverse(url_name))
        assert response.status_code == 200, name
        pages[name] = response.content.decode()
    return pages


def test_english_pages_have_no_chinese_but_names_from_the_database(client, world):
    pages = rendered(client, world, "en")
    names = data_names()

    leaks = {}
    for name, page in pages.items():
        assert '<html lang="en">' in page, name
        texts = [visible_text(page), *script_texts(page)]
        found = sorted({text.strip() for text in texts
                        if CHINESE.search(without(text, names))})
        chinese = CHINESE.findall(without(" ".join(texts), names))
        if chinese:
            leaks[name] = ("".join(chinese), found[:5])
    assert leaks == {}
    # What the fixture made shows, in English.
    assert "Lobby" in pages["home"] and "Huopin Shuangkou" in pages["home"]
    assert "Quick join" in pages["lobby"] and "Points room" in pages["lobby"]
    assert "New player grant" in pages["coins"]
    assert "Bonded Laborer" in pages["levels"] and "Emperor" in pages["levels"]
    assert "Final settlement" in pages["replay"]
    assert "Trick 1" in pages["replay"]


def test_traditional_chinese_pages_use_traditional_forms(client, world):
    pages = rendered(client, world, "zh-hant")
    names = data_names()

    for name, page in pages.items():
        assert '<html lang="zh-Hant">' in page, name
        assert "大廳" in visible_text(page), name  # the header's link to the lobby
        text = without(" ".join([visible_text(page), *script_texts(page)]), names)
        assert [form for form in SIMPLIFIED_ONLY if form in text] == [], name
    assert "積分場" in pages["lobby"] and "快速加入" in pages["lobby"]
    assert "長工" in pages["levels"] and "等級與稱號" in pages["levels"]
    assert "遊戲幣" in pages["coins"] and "新玩家贈送" in pages["coins"]
    assert "我的積分" in pages["points"]  # (a game may end moving no points: no chart)
    assert "輪次" in visible_text(pages["replay"])
    assert "登入" in pages["login"] and "註冊" in pages["signup"]


def test_without_a_choice_the_pages_are_in_simplified_chinese(client, world):
    pages = rendered(client, world, None)

    for name, page in pages.items():
        assert '<html lang="zh-Hans">' in page, name
        assert "大厅" in visible_text(page), name
    assert "快速加入" in pages["lobby"] and "新玩家赠送" in pages["coins"]


# --- the admin -----------------------------------------------------------------------------

@pytest.fixture
def admin_world(world) -> dict:
    """The pages' world, a coin game running (its holds and freeze), a correction, and
    an operator to sign in to the admin."""
    bob = make_player("bob", coins=50000)
    coin_game = start_game_with_bots(bob, coin_room("QQ 金币场"))
    grant = Transaction.objects.get(key=f"grant:signup:{world['alice'].pk}")
    correction = correct_transaction(original=grant, reason="operator's test")
    boss = User.objects.create_superuser(username="boss", password=PASSWORD)
    return {**world, "boss": boss, "coin_game": coin_game, "grant": grant,
            "correction": correction,
            "account": Account.objects.filter(user=bob).first(),
            "system_account": Account.objects.filter(system__isnull=False).first(),
            "hold": Hold.objects.filter(user=bob).first(),
            "freeze": Transaction.objects.filter(kind="freeze").first()}


def admin_pages(world: dict) -> dict[str, str]:
    def change(model: str, pk: int) -> str:
        return reverse(f"admin:{model}_change", args=[pk])

    return {
        "index": reverse("admin:index"),
        "ledger": reverse("admin:app_list", args=["ledger"]),
        "games": reverse("admin:app_list", args=["games"]),
        "accounts": reverse("admin:ledger_account_changelist"),
        "account": change("ledger_account", world["account"].pk),
        "system account": change("ledger_account", world["system_account"].pk),
        "transactions": reverse("admin:ledger_transaction_changelist"),
        "grant": change("ledger_transaction", world["grant"].pk),
        "correction": change("ledger_transaction", world["correction"].pk),
        "freeze": change("ledger_transaction", world["freeze"].pk),
        "correct": reverse("admin:ledger_transaction_correct", args=[world["freeze"].pk]),
        "holds": reverse("admin:ledger_hold_changelist"),
        "hold": change("ledger_hold", world["hold"].pk),
        "rule sets": reverse("admin:games_rulesetconfig_changelist"),
        "rule set": change("games_rulesetconfig", RuleSetConfig.objects.get(name="qq").pk),
        "rooms": reverse("admin:games_room_changelist"),
        "room": change("games_room", world["coin_game"].room_id),
        "new room": reverse("admin:games_room_add"),
        "tables": reverse("admin:games_table_changelist"),
        "table": change("games_table", world["table"]),
        "games list": reverse("admin:games_gamerecord_changelist"),
        "game": change("games_gamerecord", world["record"].pk),
        "running game": change("games_gamerecord", world["coin_game"].pk),
        "bots": reverse("admin:games_botplayer_changelist"),
        "bot": change("games_botplayer", BotPlayer.objects.first().pk),
        "escapes": reverse("admin:games_gameescape_changelist"),
    }


def admin_data_names() -> list[str]:
    """Besides the pages' names: rule-set labels and the memos operators wrote (the
    services' own memos are translated, in the admin too)."""
    names = set(data_names()) | set(RuleSetConfig.objects.values_list("label", flat=True))
    names |= set(Transaction.objects.values_list("memo", flat=True)) - SYSTEM_MEMOS - {""}
    return sorted(names, key=len, reverse=True)


def test_the_admin_of_the_ledger_and_the_games_is_english_in_english(client, admin_world):
    client.force_login(admin_world["boss"])
    switch(client, "en")
    names = admin_data_names()

    pages, leaks = {}, {}
    for name, url in admin_pages(admin_world).items():
        response = client.get(url)
        assert response.status_code == 200, (name, url, response.status_code)
        page = pages[name] = response.content.decode()
        assert '<html lang="en"' in page, name
        text = without(visible_text(page), names)
        chinese = CHINESE.findall(text)
        if chinese:
            lines = sorted({line.strip() for line in text.splitlines()
                            if CHINESE.search(line)})
            leaks[name] = ("".join(chinese), lines[:5])
    assert leaks == {}
    # The models' names, fields, choices and the actions, in English.
    assert "Ledger" in pages["index"] and "Holds" in pages["index"]
    assert "Balance" in pages["accounts"] and "Currency" in pages["accounts"]
    assert "Issuance" in pages["accounts"] and "Escrow" in pages["accounts"]
    assert "Reverse the selected transactions" in pages["transactions"]
    assert "New player grant" in pages["transactions"] and "Coins held" in pages["transactions"]
    assert "Idempotency key" in pages["grant"] and "Reversal" in pages["correction"]
    assert "Held" in pages["holds"]
    assert "Coin room" in pages["rooms"] and "Coins each player pays per game." in pages["room"]
    assert "Bot seats" in pages["game"] and "Seat" in pages["table"]


def test_a_ledger_refusal_in_the_admin_is_in_english(client, admin_world):
    client.force_login(admin_world["boss"])
    switch(client, "en")
    url = reverse("admin:ledger_transaction_correct", args=[admin_world["grant"].pk])

    response = client.post(url, {"reason": "once more"}, follow=True)

    page = visible_text(response.content.decode())
    assert "has already been reversed" in page, page
    assert not CHINESE.search(without(page, admin_data_names()))


def test_a_room_refused_in_the_english_admin_says_why_in_english(client, admin_world):
    client.force_login(admin_world["boss"])
    switch(client, "en")

    response = client.post(reverse("admin:games_room_add"), {
        "name": "New room", "rule_set": RuleSetConfig.objects.get(name="qq").pk,
        "kind": "coins", "stake_unit": 1, "coefficient": 0, "fee": 10, "min_coins": 5,
        "max_loss": 5, "turn_seconds": 2, "first_turn_seconds": 30, "ready_seconds": 60,
        "escape_mode": "end_game", "bots_allowed": "on", "bot_level": "table", "is_open": "on",
        "position": 0})

    assert response.status_code == 200  # the form again
    errors = response.context["adminform"].form.errors
    assert set(errors) == {"coefficient", "max_loss", "min_coins", "turn_seconds"}
    messages = " ".join(" ".join(field) for field in errors.values())
    assert not CHINESE.search(messages), messages
    assert "A coin room needs a coefficient N of at least 1." in messages
    assert "at least 5 seconds" in messages
    assert not CHINESE.search(without(visible_text(response.content.decode()),
                                      admin_data_names()))


@pytest.mark.django_db
def test_a_game_that_cannot_start_says_why_in_the_readers_language():
    # Bob sits down with coins, loses them all before he is ready: the freeze refuses.
    bob = make_player("Bob", coins=50_000)
    room_quick_join(user=bob, room_id=coin_room().pk)
    adjust_balance(user=bob, currency="coin", amount=-50_000, reason="test", key="empty")

    with pytest.raises(ActionError) as refused:
        table_ready(user=bob)

    error = refused.value
    with translation.override("en"):
        assert str(error) == "cannot start: Bob has no coins to freeze"
    with translation.override("zh-hant"):
        assert str(error) == "無法開局：Bob 沒有可凍結的金幣"
    with translation.override("zh-hans"):
        assert str(error) == "无法开局：Bob 没有可冻结的金币"


@pytest.mark.django_db
def test_the_api_answers_an_unknown_game_in_the_requests_language(client):
    response = client.get("/api/games/999999", HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 404
    assert response.json() == {"detail": "There is no game 999999."}
    chinese = client.get("/api/games/999999").json()["detail"]
    assert chinese == "没有编号为 999999 的牌局。"
