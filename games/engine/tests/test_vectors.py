"""The rule cases of ``shared/rules/vectors.jsonl`` and ``vectors-classic.jsonl``
(classic's scoring, RULES §9), answered through the engine protocol of RULES §11 by
one ``python -m games.engine`` process each, plus the protocol's handling of bad
lines."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.presets import PRESETS

REPO_ROOT = Path(__file__).resolve().parents[3]
# The rules live beside the repository (README): shared/rules/vectors.jsonl.
VECTORS = Path(os.environ.get(
    "SHUANGKOU_VECTORS", REPO_ROOT.parent / "shared" / "rules" / "vectors.jsonl"))
# Classic's scoring cases (its level multiplier among them), beside the others.
CLASSIC_VECTORS = Path(os.environ.get(
    "SHUANGKOU_CLASSIC_VECTORS", VECTORS.with_name("vectors-classic.jsonl")))

# The ops whose vector lines are checked; score and game join when the engine answers them.
PROTOCOL_OPS = {"classify", "beats", "moves", "score", "game"}


def load_vectors(path: Path = VECTORS) -> list[tuple[int, dict]]:
    """(line number, case) for each vector line of an op in PROTOCOL_OPS."""
    cases = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        if line.strip():
            case = json.loads(line)
            if case["op"] in PROTOCOL_OPS:
                cases.append((number, case))
    return cases


CASES = load_vectors()
CLASSIC_CASES = load_vectors(CLASSIC_VECTORS)


def run_engine(lines: list[str]) -> list[dict]:
    """Send the lines to one engine process; return its replies, one per line."""
    completed = subprocess.run(
        [sys.executable, "-m", "games.engine"],
        input="".join(line + "\n" for line in lines),
        capture_output=True, text=True, encoding="utf-8", cwd=REPO_ROOT, timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    replies = completed.stdout.splitlines()
    assert len(replies) == len(lines), (
        f"{len(lines)} requests got {len(replies)} replies; stderr: {completed.stderr}")
    return [json.loads(reply) for reply in replies]


def replies_to(cases: list[tuple[int, dict]]) -> dict[int, dict]:
    """Line number → the engine's reply to that case (its ``expect`` left out)."""
    requests = [{key: value for key, value in case.items() if key != "expect"}
                for _, case in cases]
    replies = run_engine([json.dumps(request, ensure_ascii=False) for request in requests])
    return {number: reply for (number, _), reply in zip(cases, replies)}


@pytest.fixture(scope="module")
def vector_replies() -> dict[int, dict]:
    return replies_to(CASES)


@pytest.fixture(scope="module")
def classic_vector_replies() -> dict[int, dict]:
    return replies_to(CLASSIC_CASES)


def check_reply(case: dict, reply: dict) -> None:
    """Compare a reply with a vector's expectation, as RULES §11 describes."""
    expect = case["expect"]
    op = case["op"]
    if "error" not in expect:
        assert "error" not in reply, reply
    if op == "moves":
        assert len(reply["moves"]) == len(set(reply["moves"])), "duplicate moves"
        assert sorted(reply["moves"]) == sorted(expect["moves"])
        return
    for key, value in expect.items():
        if op == "classify" and key == "stars" and case.get("ruleset") == "classic":
            continue  # classic has no star levels (RULES §9): stars is not checked
        if key == "error" and value is True:
            assert isinstance(reply.get("error"), str) and reply["error"], reply
            continue
        assert key in reply, f"reply lacks {key!r}: {reply}"
        assert reply[key] == value, f"{key}: expected {value!r}, got {reply[key]!r}"


@pytest.mark.parametrize(("number", "case"), CASES,
                         ids=[f"line{number}-{case['op']}" for number, case in CASES])
def test_vector(number, case, vector_replies):
    check_reply(case, vector_replies[number])


def test_the_vectors_cover_every_selected_op():
    assert {case["op"] for _, case in CASES} == PROTOCOL_OPS


@pytest.mark.parametrize(("number", "case"), CLASSIC_CASES,
                         ids=[f"classic-line{number}-{case['op']}"
                              for number, case in CLASSIC_CASES])
def test_classic_vector(number, case, classic_vector_replies):
    check_reply(case, classic_vector_replies[number])


def test_the_classic_vectors_score_with_and_without_point_balances():
    assert {case["op"] for _, case in CLASSIC_CASES} == {"score"}
    assert {"points" in case for _, case in CLASSIC_CASES} == {True, False}


# --- robustness: a bad line gets {"error": ...} on its own line and the engine carries on

VALID = [
    ('{"op": "classify", "ruleset": "qq", "cards": "7 7 7 7 BJ"}',
     {"valid": True, "type": "bomb", "size": 5, "rank": "7", "stars": 5}),
    ('{"op": "beats", "ruleset": "qq", "cards": "5 6 7 8 BJ", "over": "3 4 5 6 7"}',
     {"beats": True}),
    ('{"op": "moves", "ruleset": "qq", "hand": "5 5 6 BJ", "over": "4 4"}',
     {"moves": ["5 5", "5 BJ", "6 BJ"]}),
]

BAD = {
    "malformed_json": ('{"op": "classify", "cards": ', ["JSON"]),
    "not_an_object": ('["classify", "5 5"]', ["object"]),
    "a_bare_number": ("42", ["object"]),
    "unknown_op": ('{"op": "shuffle", "ruleset": "qq"}', ["'shuffle'", "classify"]),
    "missing_op": ('{"ruleset": "qq", "cards": "5"}', ["op", "classify"]),
    "unknown_ruleset": ('{"op": "classify", "ruleset": "poker", "cards": "5"}',
                        ["'poker'", "qq"]),
    "unknown_card": ('{"op": "classify", "ruleset": "qq", "cards": "5 X 6"}', ["'X'"]),
    "three_big_jokers": ('{"op": "classify", "ruleset": "qq", "cards": "BJ BJ BJ"}',
                         ["3 × BJ", "2"]),
    "nine_fives": ('{"op": "classify", "ruleset": "qq", "cards": "5 5 5 5 5 5 5 5 5"}',
                   ["9 × 5", "8"]),
    "impossible_hand": ('{"op": "moves", "ruleset": "qq", "hand": "SJ SJ SJ", "over": null}',
                        ["SJ"]),
    "missing_cards": ('{"op": "classify", "ruleset": "qq"}', ["cards"]),
    "over_not_a_play": ('{"op": "beats", "ruleset": "qq", "cards": "5 5", "over": "3 4"}',
                        ["over"]),
    "beats_without_over": ('{"op": "beats", "ruleset": "qq", "cards": "5 5"}', ["over"]),
    "bad_custom_ruleset": ('{"op": "classify", "ruleset": {"name": "x", "players": 3}, '
                           '"cards": "5"}', ["players"]),
}


@pytest.fixture(scope="module")
def robustness_replies() -> dict[str, tuple[dict, dict]]:
    """Each bad line followed by a valid one, all through one process."""
    lines, names = [], []
    for index, (name, (line, _)) in enumerate(BAD.items()):
        lines += [line, VALID[index % len(VALID)][0]]
        names.append(name)
    replies = run_engine(lines)
    return {name: (replies[2 * index], replies[2 * index + 1])
            for index, name in enumerate(names)}


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_line_gets_an_error_and_the_next_line_is_answered(name, robustness_replies):
    error_reply, next_reply = robustness_replies[name]
    _, words = BAD[name]
    index = list(BAD).index(name)

    assert set(error_reply) == {"error"}
    assert all(word in error_reply["error"] for word in words), error_reply["error"]
    assert next_reply == VALID[index % len(VALID)][1]


def test_a_custom_rule_set_object_is_used_for_the_request():
    no_wildcards = {**PRESETS["qq"].to_dict(), "name": "nowild", "wildcards": []}
    custom = {"op": "classify", "cards": "SJ BJ", "ruleset": no_wildcards}
    qq = {"op": "classify", "cards": "SJ BJ", "ruleset": "qq"}

    replies = run_engine([json.dumps(custom), json.dumps(qq)])

    assert replies == [{"valid": False},
                       {"valid": True, "type": "pair", "size": 2, "rank": "SJ"}]


def test_the_ruleset_defaults_to_qq():
    replies = run_engine(['{"op": "classify", "cards": "SJ BJ"}',
                          '{"op": "classify", "cards": "4 4 4 SJ"}'])

    assert replies == [{"valid": True, "type": "pair", "size": 2, "rank": "SJ"},
                       {"valid": False}]


def test_cards_may_be_a_list_of_tokens_and_use_ten():
    replies = run_engine(['{"op": "classify", "ruleset": "qq", "cards": ["10", "J", "Q", "K", '
                          '"BJ"]}'])

    assert replies == [{"valid": True, "type": "straight", "size": 5, "rank": "A", "length": 5}]


def test_moves_replies_are_in_canonical_text():
    replies = run_engine(['{"op": "moves", "ruleset": "qq", "hand": "BJ 6 5 5", "over": "4 4"}'])

    assert replies == [{"moves": ["5 5", "5 BJ", "6 BJ"]}]
