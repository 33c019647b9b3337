"""A seat's physical cards: their order in a hand, the cards a play takes from
it, physical cards for rank-only hands (tests, the ``game`` op)."""

from __future__ import annotations

from typing import Any

from .cards import CARD_BY_CODE, FULL_DECK, RANK_COUNT, RANK_TOKENS, CardError, Counts, parse_cards
from .errors import GameError


def sort_key(code: str) -> tuple:
    card = CARD_BY_CODE[code]
    return (card.rank, card.suit or "", card.copy)


def json_seat(seat: Any) -> Any:
    """A seat as given, for an error's params: itself if JSON can hold it, else its repr."""
    return seat if seat is None or isinstance(seat, (bool, int, float, str)) else repr(seat)


def pick_cards(hand: list[str], cards: str | list[str]) -> list[str]:
    """Physical cards for a play from ``hand``: codes as given, or rank text resolved
    to the hand's own cards of those ranks. Raises :class:`GameError`."""
    if isinstance(cards, list) and cards and all(
            isinstance(code, str) and code in CARD_BY_CODE for code in cards):
        if len(set(cards)) != len(cards) or any(code not in hand for code in cards):
            raise GameError("cards_not_held", cards=list(cards))
        return sorted(cards, key=sort_key)
    try:
        wanted = parse_cards(cards)
    except CardError as error:
        raise GameError.wrapping(error) from None
    if not any(wanted):
        raise GameError("empty_play")
    picked = []
    for rank, count in enumerate(wanted):
        if count:
            own = [code for code in hand if CARD_BY_CODE[code].rank == rank]
            if len(own) < count:
                raise GameError("rank_not_held", count=count, rank=RANK_TOKENS[rank])
            picked += own[:count]
    return picked


def physical_hands(counts: list[Counts]) -> list[list[str]]:
    """Physical cards for rank-only hands: each rank's codes dealt out in deck order."""
    pool: dict[int, list[str]] = {}
    for card in FULL_DECK:
        pool.setdefault(card.rank, []).append(card.code)
    return [[pool[rank].pop(0) for rank in range(RANK_COUNT) for _ in range(hand[rank])]
            for hand in counts]


def codes_for(hand: list[str], counts: Counts) -> list[str]:
    """The seat's own physical cards for a multiset of ranks: for each rank, the
    first cards of that rank in the (sorted) hand, so a hint is stable."""
    wanted = list(counts)
    picked = []
    for code in hand:
        rank = CARD_BY_CODE[code].rank
        if wanted[rank]:
            wanted[rank] -= 1
            picked.append(code)
    if any(wanted):
        raise ValueError("the play is not in the hand")
    return picked
