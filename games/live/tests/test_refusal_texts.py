"""The engine's refusal codes in the site's three languages (games/refusals.py,
docs/i18n.md "Socket errors"): every code of the engine's table has a text, translated
(not fuzzy) in each catalog, rendered from the params the engine really passes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from common.testing.i18n_checks import po_entries
from games.engine.errors import MESSAGES
from games.engine.game import GameError
from games.engine.tests.refusal_cases import Case, all_cases, raised
from games.live import refusals
from games.live.refusals import engine_message

CASES = all_cases()
LANGUAGES = [code for code, _ in settings.LANGUAGES]
# Han characters and CJK punctuation: an English text has none, a Chinese one some.
CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
LEFT_OVER = re.compile(r"%\(\w+\)|%[sd]|\{\w*[\]}]")


def catalog(language: str) -> dict[str, dict]:
    path = Path(settings.BASE_DIR, "locale", language, "LC_MESSAGES", "django.po")
    return {entry["msgid"]: entry for entry in po_entries(path)[1:] if "msgctxt" not in entry}


def test_every_code_of_the_engine_has_a_text_and_no_other():
    assert set(refusals.REFUSALS) == set(MESSAGES)


@pytest.mark.parametrize("language", ["zh_Hant", "en"])
def test_every_codes_text_is_translated_and_not_fuzzy(language):
    entries = catalog(language)
    for code, refusal in refusals.REFUSALS.items():
        entry = entries.get(refusal.msgid)
        assert entry is not None, (language, code, refusal.msgid)
        assert entry["msgstr"].get(0), (language, code)
        assert "fuzzy" not in entry["flags"], (language, code)


def render(error: GameError) -> dict[str, str]:
    """The refusal's message as each language shows it."""
    message = engine_message(error)
    texts = {}
    for language in LANGUAGES:
        with translation.override(language):
            texts[language] = str(message)
    return texts


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_refusal_reads_in_each_language(case: Case):
    error = raised(case)
    texts = render(error)
    for language, text in texts.items():
        assert text and error.code not in text, (language, text)  # not the fallback
        assert not LEFT_OVER.search(text), (language, text)  # every placeholder filled
    assert not CHINESE.search(texts["en"]), texts["en"]
    assert CHINESE.search(texts["zh-hans"]) and CHINESE.search(texts["zh-hant"]), texts
    assert texts["en"] != texts["zh-hans"]


def test_seats_are_counted_from_one_as_the_table_page_counts_them():
    assert render(GameError("not_your_turn", seat=1, turn=0)) == {
        "zh-hans": "现在轮到 1 号座位出牌，不是 2 号座位",
        "zh-hant": "現在輪到 1 號座位出牌，不是 2 號座位",
        "en": "it is seat 1's turn, not seat 2's",
    }
    assert render(GameError("no_such_seat", seat=4))["en"] == "no seat 5 at this table"
    assert render(GameError("no_such_seat", seat="0"))["en"] == "no seat '0' at this table"


def test_the_play_to_beat_is_read_from_the_structured_reading_not_from_english():
    case = next(case for case in CASES if case.code == "does_not_beat")
    error = raised(case)
    # The engine's English reading text is not what the site shows: drop it.
    error.params["beat"]["text"] = "nonsense"
    assert render(error) == {
        "zh-hans": "5 5 5 大不过 三张 9（大王当9）",
        "zh-hant": "5 5 5 大不過 三張 9（大王當9）",
        "en": "5 5 5 does not beat triple of 9 (Big Joker as 9)",
    }


def test_a_play_read_otherwise_names_the_recorded_reading_and_what_was_asked():
    case = next(case for case in CASES if case.code == "read_otherwise")
    texts = render(raised(case))
    assert texts["en"] == ("5 6 7 8 Big Joker is read as straight 5–9 (Big Joker as 9), "
                           "not as the rank '8' asked for")
    assert texts["zh-hans"] == "5 6 7 8 大王 按规则读作 顺子 5–9（大王当9），而不是所要求的点数“8”"
    asked_type = GameError("read_otherwise", cards="5", key="type", asked="bomb",
                           reading={"type": "single", "size": 1, "rank": "5", "filled": [],
                                    "text": "single of 5"}, wildcards=["BJ"])
    assert render(asked_type)["en"] == "5 is read as single 5, not as the type 'bomb' asked for"


def test_ranks_in_a_refusal_are_shown_as_players_read_them():
    texts = render(GameError("rank_not_held", count=3, rank="T"))
    assert texts["en"] == "you do not hold 3 × 10"
    assert render(GameError("impossible_cards", count=3, rank="BJ", limit=2))["zh-hans"] == \
        "不可能的牌：3 张 大王，两副牌只有 2 张"


def test_the_text_is_rendered_in_the_language_active_when_shown_from_a_copy():
    error = GameError("not_a_pattern", cards="3 5")
    with translation.override("en"):
        message = engine_message(error)
    error.params["cards"] = "4 6"  # the error changing later does not change the message
    with translation.override("zh-hant"):
        assert str(message) == "3 5 不是有效的牌型"
    with translation.override("en"):
        assert str(message) == "3 5 is not a valid pattern"


def test_a_code_without_a_text_on_the_site_is_shown_as_the_engine_writes_it(monkeypatch):
    monkeypatch.delitem(refusals.REFUSALS, "rank_not_held")
    with translation.override("zh-hans"):
        assert str(engine_message(GameError("rank_not_held", count=2, rank="Q"))) == \
            "you do not hold 2 × Q"


def test_params_that_do_not_fit_the_text_fall_back_to_the_engines_english():
    error = GameError("does_not_beat", cards="5", beat={"type": "single", "rank": "9",
                                                        "size": 1, "text": "single of 9"})
    with translation.override("zh-hans"):
        assert str(engine_message(error)) == "5 大不过 单张 9"
    del error.params["beat"]
    with translation.override("zh-hans"):
        assert str(engine_message(error)).startswith("does_not_beat")

