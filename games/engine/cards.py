"""Cards and the rank-only notation of RULES §1.

A set of cards, as far as the rules care, is a multiset of ranks. It is kept as
a tuple of 15 counts indexed by rank (``3`` … ``2``, ``SJ``, ``BJ``) and, on the
hot paths of move generation, packed into one int with four bits per rank.
Physical cards (rank, suit, deck copy) matter only for dealing, display and the
明牌 (RULES §2).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import EngineError

RANK_TOKENS: tuple[str, ...] = (
    "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ",
)
RANK_INDEX: dict[str, int] = {token: index for index, token in enumerate(RANK_TOKENS)}
RANK_INDEX["10"] = RANK_INDEX["T"]

ACE = RANK_INDEX["A"]
TWO = RANK_INDEX["2"]
SMALL_JOKER = RANK_INDEX["SJ"]
BIG_JOKER = RANK_INDEX["BJ"]
NATURAL_RANKS = range(TWO + 1)  # 3 … 2: the ranks a wildcard can stand for
RANK_COUNT = len(RANK_TOKENS)

DECKS = 2
SUITS: tuple[str, ...] = ("S", "H", "C", "D")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
# How many copies of each rank two decks hold.
MAX_COPIES: tuple[int, ...] = tuple(
    DECKS * (1 if rank >= SMALL_JOKER else len(SUITS)) for rank in range(RANK_COUNT)
)

Counts = tuple[int, ...]
"""A multiset of ranks: 15 counts indexed by rank."""

EMPTY: Counts = (0,) * RANK_COUNT

BITS = 4  # four bits per rank: a rank never appears more than 8 times
PACK_UNIT: tuple[int, ...] = tuple(1 << (BITS * rank) for rank in range(RANK_COUNT))


class CardError(EngineError):
    """A card text that does not name a possible set of cards: ``CardError(code,
    **params)``, a code of :data:`.errors.MESSAGES`."""


def parse_cards(text: str | Iterable[str]) -> Counts:
    """Read rank tokens (``"5 5 6 BJ"`` or a list of tokens) into counts.

    An unknown token or more copies of a rank than two decks hold is a
    :class:`CardError`.
    """
    tokens = text.split() if isinstance(text, str) else list(text)
    counts = [0] * RANK_COUNT
    for token in tokens:
        if not isinstance(token, str):
            raise CardError("bad_token", token=repr(token))
        index = RANK_INDEX.get(token.upper())
        if index is None:
            raise CardError("unknown_card", token=token, tokens=" ".join(RANK_TOKENS))
        counts[index] += 1
    check_possible(counts)
    return tuple(counts)


def check_possible(counts: Iterable[int]) -> None:
    """Raise :class:`CardError` if two decks cannot hold these counts."""
    for rank, (count, limit) in enumerate(zip(counts, MAX_COPIES, strict=True)):
        if count < 0:
            raise CardError("negative_count", rank=RANK_TOKENS[rank], count=count)
        if count > limit:
            raise CardError("impossible_cards", count=count, rank=RANK_TOKENS[rank],
                            limit=limit)


def format_cards(counts: Counts) -> str:
    """Canonical text: rank tokens ascending, single spaces (RULES §1)."""
    return " ".join(
        token for token, count in zip(RANK_TOKENS, counts) for _ in range(count)
    )


def card_count(counts: Counts) -> int:
    return sum(counts)


def contains(hand: Counts, cards: Counts) -> bool:
    return all(have >= need for have, need in zip(hand, cards))


def subtract(hand: Counts, cards: Counts) -> Counts:
    if not contains(hand, cards):
        raise CardError("not_in_hand")
    return tuple(have - need for have, need in zip(hand, cards))


def add(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b))


def pack(counts: Counts) -> int:
    """Pack counts into one int, four bits per rank (cheap to add and hash)."""
    key = 0
    for rank, count in enumerate(counts):
        key |= count << (BITS * rank)
    return key


def unpack(key: int) -> Counts:
    return tuple((key >> (BITS * rank)) & 0xF for rank in range(RANK_COUNT))


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One physical card of the 108: rank index, suit (None for jokers), deck copy."""

    rank: int
    suit: str | None
    copy: int

    @property
    def token(self) -> str:
        return RANK_TOKENS[self.rank]

    @property
    def code(self) -> str:
        """Stable text id, e.g. ``AS0`` (ace of spades, first deck) or ``BJ1``."""
        return f"{self.token}{self.suit or ''}{self.copy}"

    @property
    def label(self) -> str:
        """Display text, e.g. ``♠A`` or ``BJ``."""
        return f"{SUIT_SYMBOLS[self.suit]}{self.token}" if self.suit else self.token

    def twin(self) -> Card:
        """The same rank and suit from the other deck (RULES §2)."""
        return Card(self.rank, self.suit, 1 - self.copy)

    @classmethod
    def from_code(cls, code: str) -> Card:
        try:
            copy = int(code[-1])
            body = code[:-1]
            if body in ("SJ", "BJ"):
                card = cls(RANK_INDEX[body], None, copy)
            else:
                card = cls(RANK_INDEX[body[:-1]], body[-1], copy)
        except (KeyError, ValueError, IndexError):
            raise CardError("unknown_physical_card", card=code) from None
        if card not in FULL_DECK_SET:
            raise CardError("unknown_physical_card", card=code)
        return card


def full_deck() -> list[Card]:
    """The 108 cards of two decks, in a fixed order."""
    cards = []
    for copy in range(DECKS):
        for rank in NATURAL_RANKS:
            for suit in SUITS:
                cards.append(Card(rank, suit, copy))
        cards.append(Card(SMALL_JOKER, None, copy))
        cards.append(Card(BIG_JOKER, None, copy))
    return cards


FULL_DECK: tuple[Card, ...] = tuple(full_deck())
FULL_DECK_SET = frozenset(FULL_DECK)


def counts_of(cards: Iterable[Card]) -> Counts:
    counts = [0] * RANK_COUNT
    for card in cards:
        counts[card.rank] += 1
    return tuple(counts)


CARD_BY_CODE: dict[str, Card] = {card.code: card for card in FULL_DECK}


def counts_of_codes(codes: Iterable[str]) -> Counts:
    """The rank counts of physical card codes (``["5S0", "BJ1"]``)."""
    return counts_of(CARD_BY_CODE[code] for code in codes)
