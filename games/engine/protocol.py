"""The JSON-lines engine protocol of RULES §11.

Each request line is answered by exactly one reply line, in order. A malformed
line, an unknown op or a bad card gets ``{"error": "..."}`` and the next line is
read as usual.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TextIO

from .cards import CardError, Counts, format_cards, parse_cards, unpack
from .moves import legal_moves
from .patterns import Reading, best_beating, classify
from .presets import DEFAULT_RULESET, PRESETS
from .rulesets import RuleSet, RuleSetError


class RequestError(ValueError):
    """A request the engine cannot answer; its text is the reply's ``error``."""


def handle(request: Any) -> dict:
    """Answer one decoded request."""
    try:
        if not isinstance(request, dict):
            raise RequestError("a request must be a JSON object")
        op = request.get("op")
        handler = _HANDLERS.get(op) if isinstance(op, str) else None
        if handler is None:
            raise RequestError(f"unknown op {op!r}: use one of {', '.join(_HANDLERS)}")
        return handler(request, _rule_set(request))
    except (RequestError, CardError, RuleSetError) as error:
        return {"error": str(error)}


def handle_line(line: str) -> str:
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        reply = {"error": f"malformed JSON: {error.msg} at column {error.colno}"}
    else:
        reply = handle(request)
    return json.dumps(reply, ensure_ascii=False)


def serve(stdin: TextIO, stdout: TextIO) -> None:
    """Answer every non-blank line of ``stdin`` on ``stdout``, flushing each."""
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(handle_line(line) + "\n")
        stdout.flush()


def _rule_set(request: dict) -> RuleSet:
    value = request.get("ruleset", DEFAULT_RULESET)
    if isinstance(value, dict):  # an edited rule set, validated like admin input
        return RuleSet.from_dict(value)
    if not isinstance(value, str) or value not in PRESETS:
        raise RequestError(f"unknown ruleset {value!r}: use one of {', '.join(PRESETS)}")
    return PRESETS[value]


def _cards(request: dict, key: str) -> Counts:
    value = request.get(key)
    if not isinstance(value, (str, list)):
        raise RequestError(f"{key!r} must be a string of rank tokens")
    cards = parse_cards(value)
    if not any(cards):
        raise RequestError(f"{key!r} holds no cards")
    return cards


def _over(request: dict, rules: RuleSet) -> Reading | None:
    if request.get("over") is None:
        return None
    over = classify(_cards(request, "over"), rules)
    if over is None:
        raise RequestError(f"'over' is not a valid play: {request['over']}")
    return over


def _classify(request: dict, rules: RuleSet) -> dict:
    reading = classify(_cards(request, "cards"), rules)
    return reading.to_protocol() if reading else {"valid": False}


def _beats(request: dict, rules: RuleSet) -> dict:
    over = _over(request, rules)
    if over is None:
        raise RequestError("'over' is required for beats")
    return {"beats": best_beating(_cards(request, "cards"), over, rules) is not None}


def _moves(request: dict, rules: RuleSet) -> dict:
    hand = request.get("hand")
    if not isinstance(hand, (str, list)):
        raise RequestError("'hand' must be a string of rank tokens")
    hand = parse_cards(hand)
    moves = legal_moves(hand, _over(request, rules), rules)
    return {"moves": sorted(format_cards(unpack(move)) for move in moves)}


def _not_yet(request: dict, rules: RuleSet) -> dict:
    raise RequestError(f"op {request['op']!r} arrives with the game engine; not available yet")


_HANDLERS: dict[str, Callable[[dict, RuleSet], dict]] = {
    "classify": _classify,
    "beats": _beats,
    "moves": _moves,
    "score": _not_yet,
    "game": _not_yet,
}
