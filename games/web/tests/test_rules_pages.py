"""The rules pages (games/web/rules.py): one per rule set in each of the three languages,
each stating that rule set's own values, read here from the engine's presets."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from common.testing.i18n_checks import (
    CHINESE,
    ENDONYMS,
    SIMPLIFIED_ONLY,
    visible_text,
    without,
)
from games.engine.presets import PRESET_DATA, PRESETS
from games.models import RuleSetConfig
from games.rule_set_names import rule_set_name, rule_set_summary
from games.testing.room_helpers import make_room, presets

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _name in settings.LANGUAGES]


def page_in(client, path: str, language: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(path)
    assert response.status_code == 200, (path, language, response.status_code)
    return response.content.decode()


def attribute(html: str, element_id: str, name: str) -> str:
    match = re.search(rf'id="{element_id}"[^>]*\s{name}="([^"]*)"', html)
    assert match, (element_id, name)
    return match[1]


def rows(html: str, css_class: str, *names: str) -> list[tuple[str, ...]]:
    """The data-* values of the items of the list or table of class ``css_class``."""
    block = re.search(rf'class="[^"]*\b{css_class}\b[^"]*".*?</(ul|table)>', html, re.S)
    assert block, css_class
    pattern = r"<(?:li|tr)\b[^>]*?" + r"[^>]*?".join(rf'\s{name}="([^"]*)"' for name in names)
    return [tuple(match) if isinstance(match, tuple) else (match,)
            for match in re.findall(pattern, block[0])]


def steps(values) -> list[tuple[str, ...]]:
    return [tuple(str(item) for item in row) for row in values]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", list(PRESETS))
def test_every_rule_set_has_a_page_in_each_language_stating_its_values(client, code, language):
    presets()
    rule_set = PRESETS[code]

    html = page_in(client, reverse("rules", args=[code]), language)

    with translation.override(language):
        name, summary = rule_set_name(code), rule_set_summary(code)
    assert f"<h1>{escape(name)}</h1>" in html and escape(summary) in html
    assert attribute(html, "rules", "data-players") == str(rule_set.players)
    assert attribute(html, "wild", "data-wildcards") == " ".join(rule_set.wildcards)
    assert attribute(html, "bombs", "data-heavenly") == rule_set.heavenly_bomb
    assert attribute(html, "bombs", "data-bomb-order") == rule_set.bomb_order
    assert attribute(html, "play", "data-first-lead") == rule_set.first_lead
    assert attribute(html, "scoring", "data-result-by") == rule_set.result_by
    if rule_set.result_by == "places":
        for kou in ("double", "single", "draw"):
            values = ",".join(map(str, getattr(rule_set, f"base_{kou}")))
            assert f'data-kou="{kou}" data-values="{values}"' in html
            cells = re.search(rf'data-kou="{kou}".*?</tr>', html, re.S)[0]
            assert re.findall(r'<td class="num">(-?\d+)</td>', cells) == values.split(",")
        shown = rows(html, "multipliers", "data-at", "data-factor")
        expected = steps(rule_set.multipliers)
        if rule_set.heavenly_multiplier:
            expected.append(("heavenly", str(rule_set.heavenly_multiplier)))
        assert shown == expected
        for _at, factor in expected:  # and in the words of the page
            assert re.search(rf'data-factor="{factor}">[^<]*×{factor}</li>', html)
    else:
        assert rows(html, "doubling", "data-at", "data-factor") == steps(rule_set.doubling_points)
        assert f'data-single="{rule_set.cards_left_single}"' in html
        assert f'data-double="{rule_set.cards_left_double}"' in html
        assert rows(html, "stakes", "data-needed", "data-stake")[:3] == steps(
            rule_set.stakes_points[:3])
    assert f'data-contributions="{rule_set.contributions}"' in html
    if rule_set.contributions == "per_bomb":
        assert rows(html, "contributions", "data-stars", "data-gain", "data-paid") == steps(
            rule_set.bomb_contributions)
    assert f'data-escape-units="{rule_set.escape_penalty_units}"' in html
    assert f"{rule_set.escape_compensation_percent}%" in html
    text = without(visible_text(html), list(ENDONYMS))  # the language switch's own names
    if language == "en":
        assert CHINESE.findall(text) == [], CHINESE.findall(text)
    elif language == "zh-hant":
        assert [form for form in SIMPLIFIED_ONLY if form in text] == []


def test_the_rule_sets_differ_where_the_presets_do(client):
    """The distinguishing rules show up only where the rule set has them."""
    presets()
    pages = {code: page_in(client, reverse("rules", args=[code]), "zh-hans") for code in PRESETS}

    assert "财神" in pages["tcy"] and "财神" not in pages["qq"]
    assert "2 能和 A、3 相连" in pages["jinyou"] and "2 能和 A、3 相连" not in pages["qq"]
    assert "这里没有百搭" in pages["classic"]
    assert "三王炸弹" in pages["qq"] and "三王炸弹" not in pages["classic"]
    assert "最大的 7 相炸弹" in pages["qq"] and "最小的 7 相炸弹" in pages["jinyou"]
    assert "比所有炸弹都大" in pages["classic"]
    assert "接风" in pages["qq"] and "接风" not in pages["tcy"]


def test_the_rules_index_links_every_shipped_rule_set_and_an_operators_own(client):
    presets()
    custom = PRESET_DATA["qq"] | {"name": "house", "multipliers": [[5, 3], [8, 20]]}
    RuleSetConfig.objects.create(name="house", label="本店规则", config=custom)

    html = page_in(client, reverse("rules-index"), "en")

    for code in PRESETS:
        with translation.override("en"):
            assert (f'<a href="{reverse("rules", args=[code])}">{rule_set_name(code)}</a>'
                    in html)
    assert f'<a href="{reverse("rules", args=["house"])}">本店规则</a>' in html
    house = page_in(client, reverse("rules", args=["house"]), "en")
    assert rows(house, "multipliers", "data-at", "data-factor") == [("5", "3"), ("8", "20")]


def test_a_shipped_rule_set_has_its_page_before_the_presets_are_loaded(client):
    html = page_in(client, reverse("rules", args=["tcy"]), "zh-hans")

    assert 'data-players="2"' in html


def test_an_unknown_rule_set_is_404_and_the_page_names_the_rooms_that_use_it(client):
    room = make_room("金游 百变积分场", "jinyou")

    assert client.get(reverse("rules", args=["nope"])).status_code == 404
    assert room.name in page_in(client, reverse("rules", args=["jinyou"]), "zh-hans")


# --- classic's details (RULES §9): its ladder, multipliers and money rules ------------------

def test_the_classic_page_shows_its_ladder_multipliers_and_money_rules(client):
    presets()
    classic = PRESETS["classic"]

    html = page_in(client, reverse("rules", args=["classic"]), "zh-hans")

    assert rows(html, "ladder", "data-title", "data-needed", "data-factor") == steps(
        classic.level_ladder)
    assert "<th scope=\"row\">流浪汉</th>" in html and "<th scope=\"row\">皇帝</th>" in html
    assert re.search(r'data-factor="8"><td class="num">20</td>', html)
    assert "积分最少的玩家" in html
    assert 'class="multiplier-from" data-from="anyone"' in html
    assert 'data-coin-split="winners_share"' in html and "赢家平分" in html
    assert 'data-coin-cap="5"' in html and "最多算 ×5" in html
    assert 'data-fee-percent="10"' in html and "所得的 10%" in html
    assert 'data-escape-multiplied="yes"' in html and "4 倍底分 × 当时的炸弹倍数 × 等级倍率" in html
    assert "双扣之后和有人逃跑之后" in html
    # The 平扣 row pays the 1st and the 4th (平扣第一、四名玩家得一半底分).
    assert 'data-kou="draw" data-values="1,0,0,1"' in html


def test_the_other_pages_have_no_ladder_or_classic_money_rules(client):
    presets()
    html = page_in(client, reverse("rules", args=["qq"]), "zh-hans")

    assert 'class="ladder"' not in html and "等级倍率" not in html
    assert 'data-from="winners"' in html and 'data-coin-split="by_score"' in html
    assert "data-coin-cap" not in html and "data-fee-percent" not in html
    assert 'data-escape-multiplied="no"' in html


def test_the_classic_ladder_reads_in_english(client):
    presets()
    html = page_in(client, reverse("rules", args=["classic"]), "en")

    titles = [row[0] for row in rows(html, "ladder", "data-title")]
    assert titles[0] == "Vagrant" and titles[-1] == "Emperor" and "Sub-prefect" in titles


def test_an_operators_edited_classic_reads_true_on_its_page(client):
    presets()
    config = RuleSetConfig.objects.get(name="classic")
    config.config = {**config.config, "level_ladder": [["新手", 0, 1], ["高手", 5000, 4]],
                     "winner_fee_percent": 6, "coin_multiplier_cap": 9,
                     "multiplier_from": "winners", "escape_penalty_units": 6}
    config.full_clean()
    config.save()

    html = page_in(client, reverse("rules", args=["classic"]), "zh-hans")

    assert rows(html, "ladder", "data-title", "data-needed", "data-factor") == [
        ("新手", "0", "1"), ("高手", "5000", "4")]
    assert 'data-fee-percent="6"' in html and "所得的 6%" in html
    assert 'data-coin-cap="9"' in html and "最多算 ×9" in html
    assert 'data-from="winners"' in html
    assert 'data-escape-units="6"' in html and "6 倍底分 × 当时的炸弹倍数" in html
