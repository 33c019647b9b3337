"""Plain-JSON forms of readings, for events, views and replays."""

from __future__ import annotations

from .cards import RANK_INDEX, RANK_TOKENS, Counts
from .patterns import (
    BOMB_TYPES,
    JOKER_BOMB,
    Reading,
    bomb_power,
    joker_bomb,
)
from .rulesets import RuleSet


def reading_to_dict(reading: Reading, cards: Counts, rules: RuleSet) -> dict:
    data = reading.to_protocol()
    data.pop("valid")
    data["irregular"] = reading.irregular
    data["group"] = reading.group
    data["filled"] = [RANK_TOKENS[rank] for rank in reading.filled]
    data["text"] = describe(reading, cards, rules)
    return data


def reading_from_dict(data: dict, rules: RuleSet) -> Reading:
    """Rebuild a recorded reading with its power under ``rules``."""
    kind = data["type"]
    size = data["size"]
    if kind == JOKER_BOMB:
        reading = joker_bomb(rules, size)
        assert reading is not None
        return reading
    rank = RANK_INDEX[data["rank"]]
    length = data.get("length", 1)
    filled = tuple(RANK_INDEX[token] for token in data.get("filled", ()))
    if kind in BOMB_TYPES:
        stars = data["stars"]
        group = data.get("group", 2)
        return Reading(kind, size, rank, length, stars, data.get("irregular", False), group,
                       filled=filled,
                       power=bomb_power(rules, stars=stars, size=size, rank=rank, group=group))
    return Reading(kind, size, rank, length, filled=filled, power=(0, rank, length))


_KIND_NAMES = {
    "single": "single", "pair": "pair", "triple": "triple", "straight": "straight",
    "pairs": "pairs", "triples": "triples", "bomb": "bomb", "chain_bomb": "chain bomb",
    "joker_bomb": "joker bomb",
}


def describe(reading: Reading, cards: Counts, rules: RuleSet) -> str:
    """Short English text of a reading, e.g. ``"straight to 9 (BJ as 9)"``."""
    name = _KIND_NAMES[reading.kind]
    if reading.kind == JOKER_BOMB:
        text = f"{name}, {reading.stars} stars"
    elif reading.kind in BOMB_TYPES:
        text = f"{name} of {RANK_TOKENS[reading.rank]}, {reading.stars} stars"
    elif reading.length > 1:
        text = f"{name} to {RANK_TOKENS[reading.rank]}"
    else:
        text = f"{name} of {RANK_TOKENS[reading.rank]}"
    wilds = reading.describe_wildcards(cards, rules)
    return f"{text} ({wilds})" if wilds else text
