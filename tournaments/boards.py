"""Duplicate boards: every table of a round is dealt board b from the same seed, so
the player in seat k at each table holds the same hand (RULES §2's 明牌 swap is the
deal's too, the same at every table). The seed of the tournament comes from a fresh
random number, or from settings.GAMES_DEAL_SEED in tests (predictable deals)."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings

from games.engine.game import Game


def tournament_seed(name: str) -> str:
    base = settings.GAMES_DEAL_SEED
    if base:
        return hashlib.sha256(f"{base}:tournament:{name}".encode()).hexdigest()[:32]
    return secrets.token_hex(16)


def board_seed(seed: str, round_number: int, board: int) -> int:
    """The shuffle's seed of board ``board`` of round ``round_number``."""
    digest = hashlib.sha256(f"{seed}:{round_number}:{board}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def dealt_hands(events: list[dict]) -> list[list[str]]:
    """Each seat's 27 cards once the deal is done (after any 明牌 swap), read from a
    game's log: the hand that seat k held at every table of the board."""
    opening = []
    for event in events:
        if event["type"] in ("play", "pass", "timeout", "trustee", "escape"):
            break
        opening.append(event)
    return [sorted(hand) for hand in Game.replay(opening).hands]
