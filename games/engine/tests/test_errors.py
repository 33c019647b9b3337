"""The engine refuses with stable codes and JSON params (games/engine/errors.py,
docs/engine.md "Refusals"): every code of the table is raised somewhere, every raise site
names a code of the table, and each code's English template is filled by the params its
raise sites pass."""

from __future__ import annotations

import ast
import json
import pickle
import re
import string
from pathlib import Path

import pytest

from games.engine.cards import CardError
from games.engine.errors import MESSAGES, EngineError, english
from games.engine.game import Game, GameError
from games.engine.tests.game_helpers import snapshot
from games.engine.tests.refusal_cases import QQ, Case, all_cases, raised

ENGINE = Path(__file__).resolve().parents[1]
CASES = all_cases()
ERROR_CLASSES = {"GameError", "CardError", "EngineError"}


def template_fields(template: str) -> set[str]:
    """The params a template reads: ``{beat[text]}`` reads ``beat``."""
    return {re.split(r"[.\[]", name)[0]
            for _, name, _, _ in string.Formatter().parse(template) if name is not None}


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_refusal_carries_its_code_and_params(case: Case):
    before = snapshot(case.game) if case.game is not None else None

    error = raised(case)

    assert type(error) is case.error
    assert (error.code, error.params) == (case.code, case.params)
    assert json.loads(json.dumps(error.params)) == error.params  # plain JSON
    assert template_fields(MESSAGES[case.code]) <= set(error.params)
    assert str(error) == MESSAGES[case.code].format(**error.params)
    assert not re.search(r"[{}]", str(error)), str(error)
    if case.game is not None:
        assert snapshot(case.game) == before  # refused: nothing changed


def test_every_code_of_the_table_is_raised_by_a_case():
    assert {case.code for case in CASES} == set(MESSAGES)


def raise_sites() -> list[tuple[str, int, ast.Call]]:
    """Every construction of an engine error in games/engine/ (``GameError(...)``,
    ``CardError(...)``, ``EngineError(...)``, ``cls(...)`` inside those classes)."""
    sites = []
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ERROR_CLASSES:
                sites.append((path.name, node.lineno, node))
    return sites


def test_every_raise_site_names_a_code_of_the_table():
    sites = raise_sites()
    assert len(sites) >= 25  # the scan finds the raise sites at all
    used = set()
    for name, line, call in sites:
        first = call.args[0] if call.args else None
        assert isinstance(first, ast.Constant) and isinstance(first.value, str), \
            f"{name}:{line}: the code must be a literal"
        assert first.value in MESSAGES, f"{name}:{line}: {first.value!r} is not in MESSAGES"
        assert len(call.args) == 1, f"{name}:{line}: params are keywords"
        keywords = {keyword.arg for keyword in call.keywords}
        assert None not in keywords, f"{name}:{line}: params are named"
        missing = template_fields(MESSAGES[first.value]) - keywords
        assert not missing, f"{name}:{line}: {first.value} needs {missing}"
        used.add(first.value)
    assert used == set(MESSAGES)  # no code of the table is left unused


def test_an_unknown_code_is_refused_when_the_error_is_made():
    with pytest.raises(ValueError, match="unknown engine error code"):
        GameError("it is not your turn")
    with pytest.raises(ValueError, match="unknown engine error code"):
        CardError("no_such_code")


def test_the_params_are_a_copy_the_game_does_not_change_later():
    game = Game.from_hands(QQ, ["9 9 BJ 3", "5 5 5 4", "4", "4"], 0, auto_pass=False)
    game.play(0, "9 9 BJ")
    with pytest.raises(GameError) as caught:
        game.play(1, "5 5 5")
    error = caught.value
    assert error.params["beat"] == game.current["reading"]
    assert error.params["beat"] is not game.current["reading"]
    error.params["beat"]["filled"].append("X")
    assert game.current["reading"]["filled"] == ["9"]


def test_a_card_error_in_a_play_becomes_a_game_error_with_the_same_code():
    game = Game.from_hands(QQ, ["3 3", "4", "4", "4"], 0)
    with pytest.raises(GameError) as caught:
        game.play(0, "3 X")
    assert not isinstance(caught.value, CardError)
    assert isinstance(caught.value, EngineError)
    assert caught.value.code == "unknown_card" and caught.value.params["token"] == "X"


def test_an_error_survives_pickling_with_its_code_and_params():
    error = GameError("rank_not_held", count=2, rank="Q")
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), copy.code, copy.params, str(copy)) == (
        GameError, "rank_not_held", {"count": 2, "rank": "Q"}, "you do not hold 2 × Q")


def test_the_english_text_never_raises_even_when_params_do_not_fit():
    assert english("does_not_beat", {"cards": "5"}).startswith("does_not_beat")
    assert english("rank_not_held", {"count": 2, "rank": "Q"}) == "you do not hold 2 × Q"
