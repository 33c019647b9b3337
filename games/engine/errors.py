"""The engine's refusals as stable codes with parameters.

A refusal is raised as ``GameError(code, **params)`` (or ``CardError`` the same way):
``code`` is one of :data:`MESSAGES` and ``params`` a plain-JSON dict (seat numbers
counted from 0 as the engine counts them, card text, the readings a text names).
``str(error)`` is the English sentence of the code's template, filled with the params:
the JSON-lines protocol (RULES §11) answers it as ``{"error": …}``. Whoever shows a
refusal to people in another language renders it from the code and the params
(games/refusals.py on the site), never from the English text.
"""

from __future__ import annotations

import copy
from typing import Any

# Every code the engine raises, and its English text (``str.format`` fields, filled
# from the params). Add a code here before raising it: :class:`EngineError` refuses
# any other.
MESSAGES: dict[str, str] = {
    # Cards (cards.py): a text or code that names no possible set of cards.
    "bad_token": "a card must be a rank token, not {token}",
    "unknown_card": "unknown card {token!r}: use one of {tokens} (10 for T is accepted)",
    "negative_count": "negative count of {rank}",
    "impossible_cards": "impossible cards: {count} × {rank}, two decks hold only {limit}",
    "not_in_hand": "those cards are not all in the hand",
    "unknown_physical_card": "unknown physical card {card!r}",
    # Building a game (game.py: Game.deal, Game.from_hands).
    "wrong_players": "{rules} needs {players} different players",
    "wrong_hands": "{rules} needs {players} hands",
    "bad_leader": "leader must be a seat from 0 to {last}",
    # Actions (game.py): who may act, and when.
    "no_such_seat": "no seat {seat!r} at this table",
    "game_over": "the game is over",
    "not_your_turn": "it is seat {turn}'s turn, not seat {seat}'s",
    "escaped_stays_trustee": "a seat that escaped stays in 托管 to the end",
    "already_left": "this seat has already left the game",
    # Plays and passes (game.py).
    "cards_not_held": "you do not hold all of those cards",
    "empty_play": "a play needs at least one card",
    "rank_not_held": "you do not hold {count} × {rank}",
    "not_a_pattern": "{cards} is not a valid pattern",
    "does_not_beat": "{cards} does not beat {beat[text]}",
    "read_otherwise": "{cards} is read as {reading[text]}, not as the {key} {asked!r} asked for",
    "pass_on_lead": "you are on lead: a pass is not allowed, play any pattern",
    # The ``game`` op of the protocol (protocol.py).
    "bad_action": "an action must be [seat, cards] or [seat, \"pass\"]",
}


class EngineError(ValueError):
    """A refusal: ``code`` (a key of :data:`MESSAGES`) and ``params`` (plain JSON,
    copied: the game may move on, the error keeps what it said)."""

    def __init__(self, code: str, /, **params: Any) -> None:
        if code not in MESSAGES:
            raise ValueError(f"unknown engine error code {code!r}")
        super().__init__(code)
        self.code = code
        self.params: dict[str, Any] = copy.deepcopy(params)

    def __str__(self) -> str:
        return english(self.code, self.params)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, **{self.params!r})"


def english(code: str, params: dict[str, Any]) -> str:
    """The English text of a refusal; the bare code and params if they do not fit the
    template (a bug, but an error message must not raise)."""
    try:
        return MESSAGES[code].format(**params)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return f"{code} {params!r}"


class GameError(EngineError):
    """An action the rules refuse; the game is unchanged. ``GameError(code, **params)``
    with a code of :data:`.errors.MESSAGES` (docs/engine.md, "Refusals")."""

    @classmethod
    def wrapping(cls, error: EngineError) -> GameError:
        """The same refusal as a card error met while checking an action."""
        return cls(error.code, **error.params)
