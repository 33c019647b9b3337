"""One way to make the engine raise each refusal code of games/engine/errors.py, with the
params it must carry: shared by the engine's tests (test_engine_errors.py) and the site's
(test_refusals.py, the texts in three languages)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from games.engine import protocol
from games.engine.cards import RANK_TOKENS, Card, CardError, check_possible, parse_cards, subtract
from games.engine.game import Game, GameError
from games.engine.presets import PRESETS

QQ = PRESETS["qq"]
HANDS = ["3 3 5 8 K", "4 4 6 9 A", "5 5 7 T 2", "6 6 8 J BJ"]
PLAYERS = ["ann", "bob", "cy", "dee"]
TOKENS = " ".join(RANK_TOKENS)
# The reading the rules record for 5 6 7 8 BJ under qq (RULES §4.1: the straight to 9).
STRAIGHT_TO_9 = {"type": "straight", "size": 5, "rank": "9", "length": 5, "irregular": False,
                 "group": 2, "filled": ["9"], "text": "straight to 9 (BJ as 9)"}
TRIPLE_9_WITH_BJ = {"type": "triple", "size": 3, "rank": "9", "irregular": False, "group": 2,
                    "filled": ["9"], "text": "triple of 9 (BJ as 9)"}


@dataclass
class Case:
    """``action()`` must raise ``error`` with ``code`` and exactly ``params``."""

    name: str
    code: str
    action: Callable[[], object]
    params: dict = field(default_factory=dict)
    error: type = GameError
    game: Game | None = None  # the game refused, if any: it must not change


def new_game(**options) -> Game:
    return Game.from_hands(QQ, HANDS, 0, **options)


def ended_game() -> Game:
    game = Game.from_hands(QQ, ["A", "3", "A", "4"], 0)
    game.play(0, "A")
    game.play(2, "A")
    assert game.status == "ended"
    return game


def escaped_game() -> Game:
    """Seat 1 escaped; the game goes on with 托管 for it (escape_mode auto_play)."""
    game = Game.deal(QQ, PLAYERS, 5, escape_mode="auto_play")
    game.escape(1)
    assert game.status == "playing" and game.trustee[1]
    return game


def game_cases() -> list[Case]:
    """The refusals of games: each on a fresh game."""
    cases = []

    def add(name: str, code: str, game: Game, action: Callable[[Game], object],
            params: dict | None = None) -> None:
        cases.append(Case(name, code, lambda: action(game), params or {}, GameError, game))

    add("play out of turn", "not_your_turn", new_game(), lambda g: g.play(1, "4"),
        {"seat": 1, "turn": 0})
    add("no such seat", "no_such_seat", new_game(), lambda g: g.play(7, "3"), {"seat": 7})
    add("a seat that is no number", "no_such_seat", new_game(),
        lambda g: g.pass_turn("0"), {"seat": "0"})
    add("after the end", "game_over", ended_game(), lambda g: g.pass_turn(1))
    add("托管 off after an escape", "escaped_stays_trustee", escaped_game(),
        lambda g: g.set_trustee(1, False), {"seat": 1})
    add("a second escape", "already_left", escaped_game(), lambda g: g.escape(1), {"seat": 1})
    held_by_seat_1 = new_game()
    code = held_by_seat_1.hands[1][0]
    add("physical cards not held", "cards_not_held", held_by_seat_1,
        lambda g: g.play(0, [code]), {"cards": [code]})
    add("an empty play", "empty_play", new_game(), lambda g: g.play(0, ""))
    add("a rank not held", "rank_not_held", new_game(), lambda g: g.play(0, "3 3 3"),
        {"count": 3, "rank": "3"})
    add("no pattern", "not_a_pattern", new_game(), lambda g: g.play(0, "3 5"),
        {"cards": "3 5"})
    follow = Game.from_hands(QQ, ["9 9 BJ 3", "5 5 5 4", "4", "4"], 0, auto_pass=False)
    follow.play(0, "9 9 BJ")
    add("does not beat", "does_not_beat", follow, lambda g: g.play(1, "5 5 5"),
        {"cards": "5 5 5", "beat": TRIPLE_9_WITH_BJ, "beat_cards": follow.current["cards"],
         "wildcards": ["BJ"]})
    add("read otherwise", "read_otherwise",
        Game.from_hands(QQ, ["5 6 7 8 BJ 3", "4", "4", "4"], 0),
        lambda g: g.play(0, "5 6 7 8 BJ", {"type": "straight", "rank": "8"}),
        {"cards": "5 6 7 8 BJ", "reading": STRAIGHT_TO_9, "key": "rank", "asked": "8",
         "wildcards": ["BJ"]})
    add("a pass on lead", "pass_on_lead", new_game(), lambda g: g.pass_turn(0))
    # A card error met while checking a play is refused as the game's, code and params kept.
    add("an unknown card in a play", "unknown_card", new_game(), lambda g: g.play(0, "3 Z"),
        {"token": "Z", "tokens": TOKENS})
    add("too many of a rank in a play", "impossible_cards", new_game(),
        lambda g: g.play(0, "3 " * 9), {"count": 9, "rank": "3", "limit": 8})
    add("an action of the game op that is no [seat, cards]", "bad_action", new_game(),
        lambda g: protocol._act(g, [0]))
    return cases


def construction_cases() -> list[Case]:
    return [
        Case("a deal to too few players", "wrong_players",
             lambda: Game.deal(QQ, PLAYERS[:3], 1), {"rules": "qq", "players": 4}),
        Case("a deal to a player twice", "wrong_players",
             lambda: Game.deal(QQ, ["ann", "bob", "ann", "dee"], 1),
             {"rules": "qq", "players": 4}),
        Case("three hands for four seats", "wrong_hands",
             lambda: Game.from_hands(QQ, HANDS[:3], 0), {"rules": "qq", "players": 4}),
        Case("a leader that is no seat", "bad_leader",
             lambda: Game.from_hands(QQ, HANDS, 4), {"leader": 4, "last": 3}),
        Case("nine 3s in the hands", "impossible_cards",
             lambda: Game.from_hands(QQ, ["3 3 3 3 3", "3 3 3 3", "4", "5"], 0),
             {"count": 9, "rank": "3", "limit": 8}),
    ]


def card_cases() -> list[Case]:
    return [
        Case("a token that is no text", "bad_token", lambda: parse_cards(["5", None]),
             {"token": "None"}, CardError),
        Case("an unknown token", "unknown_card", lambda: parse_cards("5 X 6"),
             {"token": "X", "tokens": TOKENS}, CardError),
        Case("a negative count", "negative_count",
             lambda: check_possible((0, -1) + (0,) * 13), {"rank": "4", "count": -1}, CardError),
        Case("three big jokers", "impossible_cards", lambda: parse_cards("BJ BJ BJ"),
             {"count": 3, "rank": "BJ", "limit": 2}, CardError),
        Case("subtracting cards not in the hand", "not_in_hand",
             lambda: subtract(parse_cards("5"), parse_cards("5 5")), {}, CardError),
        Case("an unknown physical card", "unknown_physical_card",
             lambda: Card.from_code("AX0"), {"card": "AX0"}, CardError),
    ]


def all_cases() -> list[Case]:
    return game_cases() + construction_cases() + card_cases()


def raised(case: Case) -> GameError | CardError:
    """The error ``case.action()`` raises (AssertionError if none)."""
    try:
        case.action()
    except (GameError, CardError) as error:
        return error
    raise AssertionError(f"{case.name}: nothing was refused")
