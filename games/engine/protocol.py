"""The JSON-lines engine protocol of RULES §11.

Each request line is answered by exactly one reply line, in order. A malformed
line, an unknown op or a bad card gets ``{"error": "..."}`` and the next line is
read as usual.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from time import thread_time
from typing import Any, TextIO

from .cards import CardError, Counts, format_cards, parse_cards, unpack
from .game import Game, GameError
from .moves import legal_moves
from .patterns import Reading, best_beating, classify
from .presets import DEFAULT_RULESET, PRESETS
from .rulesets import RuleSet, RuleSetError
from .scoring import bomb_record, level_multiplier, score_places, score_tcy


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
    except RecursionError:
        reply = {"error": "malformed JSON: nested too deeply"}
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


def _score(request: dict, rules: RuleSet) -> dict:
    """Score a game from its finishing order and bombs (RULES §6, §9, §11)."""
    finish = request.get("finish")
    seats = list(range(rules.players))
    if not isinstance(finish, list) or sorted(finish) != seats:
        raise RequestError(f"'finish' must list every seat {seats} once, in the order out")
    bombs = []
    for index, bomb in enumerate(request.get("bombs") or []):
        if not isinstance(bomb, dict) or bomb.get("seat") not in seats:
            raise RequestError(f"bombs[{index}] must be {{\"seat\": 0…{seats[-1]}, \"cards\": …}}")
        reading = classify(_cards(bomb, "cards"), rules)
        if reading is None or not reading.is_bomb:
            raise RequestError(f"bombs[{index}] is not a bomb: {bomb['cards']}")
        bombs.append(bomb_record(bomb["seat"], reading))
    if rules.players == 2:
        cards_left = request.get("cards_left")
        if isinstance(cards_left, bool) or not isinstance(cards_left, int) or cards_left < 1:
            raise RequestError("'cards_left' (the loser's cards, ≥ 1) is required for two players")
        result = score_tcy(rules, finish[0], cards_left, bombs, _whole(request, "stake", 1),
                           bool(request.get("coins", False)))
    else:
        result = score_places(rules, finish, bombs, level_multiplier(rules, _points(request,
                                                                                   rules)))
    reply = {"kou": result.kou, "multiplier": result.multiplier, "scores": result.scores,
             "contributions": result.contributions}
    if rules.has_level_multiplier:
        reply["level_multiplier"] = result.level_multiplier
    return reply


def _points(request: dict, rules: RuleSet) -> list[int] | None:
    """The seats' point balances for the 等级倍率 (RULES §9, §11); None when absent.
    Checked whatever the rule set (a rule set without a ladder multiplies by 1)."""
    points = request.get("points")
    if points is None:
        return None
    if not isinstance(points, list) or len(points) != rules.players or any(
            isinstance(value, bool) or not isinstance(value, int) for value in points):
        raise RequestError(f"'points' must list {rules.players} whole numbers, one per seat")
    return points


def _whole(request: dict, key: str, default: int) -> int:
    value = request.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RequestError(f"{key!r} must be a whole number ≥ 1")
    return value


def _game(request: dict, rules: RuleSet) -> dict:
    """Play a whole game from given hands, auto-pass off (RULES §11)."""
    hands = request.get("hands")
    if not isinstance(hands, list) or not all(isinstance(hand, str) for hand in hands):
        raise RequestError("'hands' must be a list of card strings, one per seat")
    leader = request.get("leader")
    if isinstance(leader, bool) or not isinstance(leader, int):
        raise RequestError("'leader' must be a seat number")
    actions = request.get("actions")
    if not isinstance(actions, list):
        raise RequestError("'actions' must be a list of [seat, cards or \"pass\"]")
    try:
        game = Game.from_hands(rules, hands, leader, auto_pass=False)
    except GameError as error:
        raise RequestError(str(error)) from None
    for index, action in enumerate(actions):
        try:
            _act(game, action)
        except GameError as error:
            return {"error": str(error), "at": index}
    if game.result is not None:
        result = game.result
        return {"ended": True, "finish": result.finish, "kou": result.kou,
                "multiplier": result.multiplier, "scores": result.scores}
    return {"ended": False, "finish": game.finish, "turn": game.turn}


def _decide(request: dict, rules: RuleSet) -> dict:
    """One seat's next action from what that seat sees (RULES §11 ``decide``)."""
    from .ai import BOTS, BUDGET_MS, decide, position_from_actions

    started = thread_time()  # the budget counts from here: the rebuild is its share
    bot = request.get("bot", "strong")
    if bot not in BOTS:
        raise RequestError(f"unknown bot {bot!r}: use one of {', '.join(BOTS)}")
    hand = request.get("hand")
    if not isinstance(hand, (str, list)):
        raise RequestError("'hand' must be a string of rank tokens")
    seed = request.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RequestError("'seed' must be a whole number")
    budget = _whole(request, "budget_ms", BUDGET_MS)
    try:
        position = position_from_actions(rules, request.get("seat"), hand,
                                         request.get("leader"), request.get("actions"))
    except ValueError as error:
        raise RequestError(str(error)) from None
    samples = request.get("max_samples")
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int)
                                or samples < 1):
        raise RequestError("'max_samples' must be a whole number from 1")
    return {"play": decide(position, bot=bot, seed=seed, budget_ms=budget,
                           max_samples=samples, started=started)}


def _act(game: Game, action: Any) -> None:
    """One action of the ``game`` op: ``[seat, cards]`` or ``[seat, "pass"]``."""
    if not isinstance(action, list) or len(action) != 2 or not isinstance(action[1], str):
        raise GameError("bad_action")
    seat, cards = action
    if cards.strip().lower() == "pass":
        game.pass_turn(seat)
    else:
        game.play(seat, cards)


_HANDLERS: dict[str, Callable[[dict, RuleSet], dict]] = {
    "classify": _classify,
    "beats": _beats,
    "moves": _moves,
    "score": _score,
    "game": _game,
    "decide": _decide,
}
