"""Bots that choose a seat's next action from what that seat may see.

``decide`` answers one action with one of the bots of :data:`BOTS`:

- ``trustee``: the 托管 move of RULES §10 (:func:`bot.trustee_move`);
- ``table``: :func:`bot.simple_player_move`, the livelier bot of the tables;
- ``expert``: the rule-based player of :mod:`.expert`, which follows its hand plan;
- ``strong``: determinized Monte-Carlo search (:mod:`.search`).

The positions are :mod:`.position`'s, the playouts :mod:`.playout`'s.
"""

from __future__ import annotations

import random

from .bot import simple_player_move, trustee_move
from .cards import CardError, parse_cards
from .expert import expert_move
from .position import (
    PASS,
    Position,
    position_from_actions,
    position_from_events,
    position_from_game,
)
from .search import BUDGET_MS, DEFAULT_MAX_SAMPLES, search, text_of

BOTS = ("trustee", "table", "expert", "strong")


def decide(position: Position, *, bot: str = "strong", seed: int = 0,
           budget_ms: int = BUDGET_MS,
           max_samples: int | None = None, started: float | None = None) -> str:
    """The seat's next action as canonical text, or ``"pass"``; always legal.
    ``started`` is the ``thread_time()`` the decision began at (before the position
    was built): the strong bot's budget counts from it."""
    if bot == "trustee":
        cards = trustee_move(position.hand, position.current, position.partner_winning,
                             position.rules)
        return text_of(cards)
    if bot == "table":
        cards = simple_player_move(position.hand, position.current, position.partner_winning,
                                   position.opponent_cards(), position.rules,
                                   random.Random(seed))
        return text_of(cards)
    if bot == "expert":
        return text_of(expert_move(position.hand, position.current, position.current_seat,
                                   position.seat, position.hand_counts, position.rules))
    if bot != "strong":
        raise ValueError(f"unknown bot {bot!r}: use one of {', '.join(BOTS)}")
    return search(position, seed=seed, budget_ms=budget_ms, max_samples=max_samples,
                  started=started)["best"]


def analyse(position: Position, played: str, *, seed: int = 0, budget_ms: int = 500,
            max_samples: int | None = None) -> dict:
    """How much ``played`` lost against the search's best action, in expected final
    score of the seat's team. ``played`` stays in the search even if it looks poor;
    the loss is 0 unless the best is clearly ahead of it on the same sampled deals.
    Raises ValueError if ``played`` is not a legal action here."""
    if not isinstance(played, str):
        raise ValueError("'played' must be card text or \"pass\"")
    try:
        played_cards = None if played.strip().lower() == PASS else parse_cards(played)
    except CardError as error:
        raise ValueError(str(error)) from None
    if played_cards is not None and not any(played_cards):
        raise ValueError("an empty play")
    report = search(position, seed=seed, budget_ms=budget_ms, max_samples=max_samples,
                    include=played_cards, must_include=True)
    key = text_of(played_cards)
    played_value = report["values"][key]
    best, best_value = report["best"], report["best_value"]
    if played_value >= best_value or not report.get("clearly_better", False):
        # Only a candidate clearly ahead on the same sampled deals (paired difference
        # above two standard errors) counts as better: noise alone costs nothing.
        best, best_value = key, played_value
    return {"best": best, "best_value": best_value, "played_value": played_value,
            "loss": best_value - played_value, "forced": report["forced"]}


__all__ = ["BOTS", "BUDGET_MS", "DEFAULT_MAX_SAMPLES", "PASS", "Position", "analyse",
           "decide", "position_from_actions", "position_from_events", "position_from_game",
           "search"]
