"""Rule sets as data (RULES §9).

A :class:`RuleSet` is immutable and validated. Operators edit rule sets as JSON
in admin, so :meth:`RuleSet.from_dict` refuses any bad value with a message that
names the field; :meth:`RuleSet.to_dict` gives back the same JSON.

Fields added after the first rule sets were stored (:data:`LATER_FIELDS`) may be
absent: they then take the value that behaves as before they existed, so rule sets
saved in admin and the rules logged in old games' deals still read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from .cards import RANK_INDEX


class RuleSetError(ValueError):
    """A rule-set value that is missing, unknown or out of range."""


# Pairs (threshold, value) are kept as tuples of 2-tuples so the object stays hashable.
Steps = tuple[tuple[int, int], ...]

HEAVENLY_PLACES = ("top_of_seven", "bottom_of_seven", "top_of_all")
BOMB_ORDERS = ("stars", "cards")
# random_then_winner: a random player first, then the last game's first out;
# random_after_double: the same, but a random player again after a 双扣 or an escape.
FIRST_LEADS = ("reveal_every_game", "random_card", "reveal_after_double", "random_then_winner",
               "random_after_double")
RESULT_MODES = ("places", "cards_left")
MULTIPLIER_BASES = ("stars", "cards")
CONTRIBUTION_MODES = ("per_bomb", "per_game_pairwise", "none")
ESCAPE_MODES = ("end_game", "auto_play")
# Whose bombs set the multiplier: the winning team's (qq) or anyone's (classic).
MULTIPLIER_FROM = ("winners", "anyone")
# How coins move: by each score × N (RULES §7), or the winners share equally what the
# losers pay (classic, RULES §9).
COIN_SPLITS = ("by_score", "winners_share")

# A rung of a level ladder: (title, points needed, level multiplier).
Rung = tuple[str, int, int]


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str
    players: int
    # Which jokers stand for any card 3…2 when played with other cards (RULES §4.1).
    wildcards: tuple[str, ...]
    chain_bombs: bool
    # tcy: consecutive ranks with unequal counts ≥ 4 count as the smallest count.
    irregular_chain_bombs: bool
    # jinyou: in chain bombs only, ranks run in the cycle 3 … A 2 3.
    chain_bombs_through_two: bool
    three_joker_bomb: bool
    # Where 天王炸弹 (all four jokers) sits among the bombs.
    heavenly_bomb: str
    # "stars": stars, then fewer cards, then rank; "cards": more cards, then rank.
    bomb_order: str
    max_stars: int
    first_lead: str
    result_by: str
    auto_pass: bool
    # Base score by place 1st…4th (RULES §6), per result.
    base_double: tuple[int, ...]
    base_single: tuple[int, ...]
    base_draw: tuple[int, ...]
    # tcy: the 扣 multiplier a and the cards left that make 单扣 / 双扣.
    kou_factor_double: int
    kou_factor_single: int
    kou_factor_draw: int
    cards_left_single: int
    cards_left_double: int
    # Multiplier (翻倍): (at least this many stars, or cards, → factor).
    multiplier_by: str
    multipliers: Steps
    heavenly_multiplier: int
    contributions: str
    # per_bomb: (stars at least, gain of the player, paid by each other player).
    bomb_contributions: tuple[tuple[int, int, int], ...]
    # tcy doubling b by the winner's largest 相, points rooms and coin rooms.
    doubling_points: Steps
    doubling_coins: Steps
    # tcy operator switch: non-adjacent 4相 bombs add up (3 = 5相, 4 = 6相 …).
    count_nonadjacent_four_star: bool
    # tcy 对局分 by level: (points or coins needed, stake).
    stakes_points: Steps
    stakes_coins: Steps
    escape_mode: str
    escape_penalty_units: int
    escape_compensation_percent: int
    # --- classic's details (RULES §9); see LATER_FIELDS for their defaults.
    multiplier_from: str = "winners"
    # 等级倍率: the score is also × the factor of the rung reached by the seated player
    # with the fewest points; rows in increasing order of points. Empty: none (×1).
    level_ladder: tuple[Rung, ...] = ()
    # Coin rooms: the combined multiplier counts at most this much for coins (0: no cap).
    coin_multiplier_cap: int = 0
    coin_split: str = "by_score"
    # Coin rooms: 0 charges the room's flat fee A to each player (RULES §7); above 0
    # the fee is this percent of each winner's gain instead, and A is not charged.
    winner_fee_percent: int = 0
    # The end_game escape penalty is × the multipliers reached so far (classic: twice a
    # 双扣 at the current multipliers), not a flat number of units.
    escape_penalty_multiplied: bool = False

    @classmethod
    def from_dict(cls, data: Any) -> RuleSet:
        if not isinstance(data, dict):
            raise RuleSetError("a rule set must be a JSON object")
        known = {spec.name for spec in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleSetError(f"unknown field {unknown[0]!r}")
        values = {}
        for name in (spec.name for spec in fields(cls)):
            if name in data:
                values[name] = _FIELD_CHECKS[name](name, data[name])
        missing = [spec.name for spec in fields(cls)
                   if spec.name not in data and spec.name not in LATER_FIELDS]
        if missing:
            raise RuleSetError(f"missing field {missing[0]!r}")
        rule_set = cls(**values)
        rule_set._check_consistency()
        return rule_set

    def to_dict(self) -> dict[str, Any]:
        return {spec.name: _to_json(getattr(self, spec.name)) for spec in fields(self)}

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed, validated like JSON input."""
        data = self.to_dict()
        data.update({key: _to_json(value) for key, value in changes.items()})
        return RuleSet.from_dict(data)

    @property
    def small_joker_wild(self) -> bool:
        return "SJ" in self.wildcards

    @property
    def big_joker_wild(self) -> bool:
        return "BJ" in self.wildcards

    def _check_consistency(self) -> None:
        if self.irregular_chain_bombs and not self.chain_bombs:
            raise RuleSetError("irregular_chain_bombs needs chain_bombs")
        if self.chain_bombs_through_two and not self.chain_bombs:
            raise RuleSetError("chain_bombs_through_two needs chain_bombs")
        if self.result_by == "cards_left" and self.cards_left_double <= self.cards_left_single:
            raise RuleSetError("cards_left_double must be above cards_left_single")
        if self.players == 2 and self.result_by != "cards_left":
            raise RuleSetError("result_by must be 'cards_left' for two players")
        if self.players == 4 and self.result_by != "places":
            raise RuleSetError("result_by must be 'places' for four players")
        if self.level_ladder and self.players != 4:
            raise RuleSetError("level_ladder is for four players (two use stakes_points)")
        if self.coin_split == "winners_share" and self.players != 4:
            raise RuleSetError("coin_split 'winners_share' is for four players")

    @property
    def has_level_multiplier(self) -> bool:
        return bool(self.level_ladder)


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(item) for item in value]
    return value


# --- field checks: each takes (field name, JSON value) and returns the typed value.

def _bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RuleSetError(f"{name} must be true or false")
    return value


def _int_in(low: int, high: int) -> Callable[[str, Any], int]:
    def check(name: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RuleSetError(f"{name} must be a whole number from {low} to {high}")
        return value
    return check


def _choice(options: tuple[str, ...]) -> Callable[[str, Any], str]:
    def check(name: str, value: Any) -> str:
        if value not in options:
            raise RuleSetError(f"{name} must be one of {', '.join(options)}")
        return value
    return check


def _name(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value or len(value) > 40 or not value.isascii() \
            or not value.replace("_", "").replace("-", "").isalnum():
        raise RuleSetError(f"{name} must be 1–40 ASCII letters, digits, '-' or '_'")
    return value


def _wildcards(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or any(item not in ("SJ", "BJ") for item in value) \
            or len(set(value)) != len(value):
        raise RuleSetError(f"{name} must be a list of distinct jokers, \"SJ\" and/or \"BJ\"")
    return tuple(sorted(value, key=RANK_INDEX.__getitem__))


def _int_list(length: int, low: int, high: int) -> Callable[[str, Any], tuple[int, ...]]:
    def check(name: str, value: Any) -> tuple[int, ...]:
        if not isinstance(value, list) or len(value) != length or any(
            isinstance(item, bool) or not isinstance(item, int) or not low <= item <= high
            for item in value
        ):
            raise RuleSetError(
                f"{name} must be a list of {length} whole numbers from {low} to {high}"
            )
        return tuple(value)
    return check


def _steps(width: int, high: int) -> Callable[[str, Any], tuple]:
    """Rows of whole numbers ≥ 0, strictly increasing in their first column."""
    def check(name: str, value: Any) -> tuple:
        if not isinstance(value, list) or not all(
            isinstance(row, list) and len(row) == width
            and all(not isinstance(item, bool) and isinstance(item, int) and 0 <= item <= high
                    for item in row)
            for row in value
        ):
            raise RuleSetError(
                f"{name} must be a list of rows of {width} whole numbers from 0 to {high}"
            )
        firsts = [row[0] for row in value]
        if firsts != sorted(set(firsts)):
            raise RuleSetError(f"{name} rows must be in increasing order of their first number")
        if width == 2:
            return tuple((row[0], row[1]) for row in value)
        return tuple(tuple(row) for row in value)
    return check


def _ladder(name: str, value: Any) -> tuple[Rung, ...]:
    """Rows [title, points needed, multiplier]: titles distinct, 1–20 characters;
    points strictly increasing; multipliers 1–1000 (RULES §9, 等级倍率)."""
    shape = (f"{name} must be a list of rows [title, points needed, multiplier]: a title of "
             f"1–20 characters, a whole number of points and a multiplier from 1 to 1000")
    if not isinstance(value, list):
        raise RuleSetError(shape)
    rungs = []
    for index, row in enumerate(value):
        if not isinstance(row, list) or len(row) != 3:
            raise RuleSetError(f"{shape} (row {index + 1} is not)")
        title, needed, factor = row
        if not isinstance(title, str) or not 1 <= len(title.strip()) <= 20 \
                or title != title.strip():
            raise RuleSetError(f"{name} row {index + 1}: the title must be 1–20 characters")
        if isinstance(needed, bool) or not isinstance(needed, int) or not -BIG <= needed <= BIG:
            raise RuleSetError(
                f"{name} row {index + 1}: the points needed must be a whole number "
                f"from {-BIG} to {BIG}")
        if isinstance(factor, bool) or not isinstance(factor, int) or not 1 <= factor <= 1000:
            raise RuleSetError(
                f"{name} row {index + 1}: the multiplier must be a whole number from 1 to 1000")
        rungs.append((title, needed, factor))
    for index in range(1, len(rungs)):
        if rungs[index][1] <= rungs[index - 1][1]:
            raise RuleSetError(
                f"{name} row {index + 1}: {rungs[index][0]} must need more points than "
                f"{rungs[index - 1][0]} ({rungs[index - 1][1]})")
    titles = [rung[0] for rung in rungs]
    if len(set(titles)) != len(titles):
        twice = next(title for title in titles if titles.count(title) > 1)
        raise RuleSetError(f"{name}: the title {twice!r} is used twice")
    return tuple(rungs)


def _players(name: str, value: Any) -> int:
    # A whole number, like every other count (RULES §9): 4.0 == 4 must not slip through.
    if isinstance(value, bool) or not isinstance(value, int) or value not in (2, 4):
        raise RuleSetError(f"{name} must be 2 or 4")
    return value


BIG = 10**9
_FIELD_CHECKS: dict[str, Callable[[str, Any], Any]] = {
    "name": _name,
    "players": _players,
    "wildcards": _wildcards,
    "chain_bombs": _bool,
    "irregular_chain_bombs": _bool,
    "chain_bombs_through_two": _bool,
    "three_joker_bomb": _bool,
    "heavenly_bomb": _choice(HEAVENLY_PLACES),
    "bomb_order": _choice(BOMB_ORDERS),
    "max_stars": _int_in(8, 12),
    "first_lead": _choice(FIRST_LEADS),
    "result_by": _choice(RESULT_MODES),
    "auto_pass": _bool,
    "base_double": _int_list(4, -100, 100),
    "base_single": _int_list(4, -100, 100),
    "base_draw": _int_list(4, -100, 100),
    "kou_factor_double": _int_in(0, 100),
    "kou_factor_single": _int_in(0, 100),
    "kou_factor_draw": _int_in(0, 100),
    "cards_left_single": _int_in(1, 27),
    "cards_left_double": _int_in(1, 27),
    "multiplier_by": _choice(MULTIPLIER_BASES),
    "multipliers": _steps(2, 1024),
    "heavenly_multiplier": _int_in(0, 1024),
    "contributions": _choice(CONTRIBUTION_MODES),
    "bomb_contributions": _steps(3, 1000),
    "doubling_points": _steps(2, 100000),
    "doubling_coins": _steps(2, 100000),
    "count_nonadjacent_four_star": _bool,
    "stakes_points": _steps(2, BIG),
    "stakes_coins": _steps(2, BIG),
    "escape_mode": _choice(ESCAPE_MODES),
    "escape_penalty_units": _int_in(0, 1000),
    "escape_compensation_percent": _int_in(0, 100),
    "multiplier_from": _choice(MULTIPLIER_FROM),
    "level_ladder": _ladder,
    "coin_multiplier_cap": _int_in(0, 1024),
    "coin_split": _choice(COIN_SPLITS),
    "winner_fee_percent": _int_in(0, 100),
    "escape_penalty_multiplied": _bool,
}

# Fields a stored rule set may lack (added later): absent, each behaves as before it
# existed (the dataclass defaults above).
LATER_FIELDS = frozenset({
    "multiplier_from", "level_ladder", "coin_multiplier_cap", "coin_split",
    "winner_fee_percent", "escape_penalty_multiplied",
})
