"""Scoring a finished game, in score units (RULES §6, §9 and §10).

Coins and points (N, the fee A, caps) belong to the ledger; here a game's
result is the base by place, the multiplier and the contributions. Where a rule set
caps the multiplier for coins (classic, RULES §9) the result also carries the scores
in coins' units (``coin_scores``, ``coin_penalty``), so the ledger needs no rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .patterns import BOMB, JOKER_BOMB, Reading
from .rulesets import RuleSet

DOUBLE, SINGLE, DRAW, ESCAPE = "double", "single", "draw", "escape"


@dataclass(frozen=True, slots=True)
class BombRecord:
    """A bomb as it was played: by which seat, read how (RULES §4.1)."""

    seat: int
    kind: str
    stars: int
    size: int
    rank: int


@dataclass(slots=True)
class Result:
    kou: str
    finish: list[int]
    multiplier: int
    base: list[int]
    contributions: list[int]
    scores: list[int]
    winners: list[int] = field(default_factory=list)
    escaped: int | None = None
    penalty: int = 0  # units the escaper pays on top of contributions
    cards_left: int | None = None
    # classic (RULES §9): the 等级倍率 inside ``multiplier`` (multiplier = bomb × level),
    # and for coins, when the cap binds, the scores and penalty at the capped multiplier
    # (None: as ``scores`` and ``penalty``).
    level_multiplier: int = 1
    coin_scores: list[int] | None = None
    coin_penalty: int | None = None

    def to_dict(self) -> dict:
        data = {
            "kou": self.kou, "finish": self.finish, "multiplier": self.multiplier,
            "base": self.base, "contributions": self.contributions, "scores": self.scores,
            "winners": self.winners, "escaped": self.escaped, "penalty": self.penalty,
            "cards_left": self.cards_left,
        }
        # Only where they say something: the other rule sets' results stay as they were.
        if self.level_multiplier != 1:
            data["level_multiplier"] = self.level_multiplier
        if self.coin_scores is not None:
            data["coin_scores"] = self.coin_scores
        if self.coin_penalty is not None:
            data["coin_penalty"] = self.coin_penalty
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Result:
        return cls(**data)


def bomb_record(seat: int, reading: Reading) -> BombRecord:
    return BombRecord(seat, reading.kind, reading.stars, reading.size, reading.rank)


def team_of(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat


def kou_of(finish: Sequence[int]) -> str:
    """双扣 / 单扣 / 平扣 from the order the seats went out (RULES §3)."""
    first = finish[0] % 2
    if finish[1] % 2 == first:
        return DOUBLE
    if finish[2] % 2 == first:
        return SINGLE
    return DRAW


def score_places(rules: RuleSet, finish: Sequence[int], bombs: Sequence[BombRecord],
                 level_multiplier: int = 1) -> Result:
    """A four-player game by places: base × multiplier + contributions (RULES §6, §9),
    the multiplier being the bombs' × the 等级倍率 (``level_multiplier``, classic)."""
    kou = kou_of(finish)
    table = {DOUBLE: rules.base_double, SINGLE: rules.base_single, DRAW: rules.base_draw}[kou]
    base = [0] * 4
    for place, seat in enumerate(finish):
        base[seat] = table[place]
    winning_team = finish[0] % 2
    bombs_factor = game_bomb_multiplier(rules, bombs, winning_team)
    multiplier = bombs_factor * level_multiplier
    contributions = bomb_contributions(rules, bombs, 4)
    scores = [base[seat] * multiplier + contributions[seat] for seat in range(4)]
    winners = [seat for seat in range(4) if seat % 2 == winning_team]
    result = Result(kou, list(finish), multiplier, base, contributions, scores, winners,
                    level_multiplier=level_multiplier)
    coin_multiplier = capped_for_coins(rules, multiplier)
    if coin_multiplier != multiplier:
        result.coin_scores = [base[seat] * coin_multiplier + contributions[seat]
                              for seat in range(4)]
    return result


def game_bomb_multiplier(rules: RuleSet, bombs: Sequence[BombRecord], winning_team: int) -> int:
    """翻倍 of a game: the largest of its bombs' factors, not added up (RULES §6, §9).
    Only the winning team's bombs count, or everyone's where the rule set says so
    (classic: 按照最高倍率计算，不可累加)."""
    return max((bomb_multiplier(rules, bomb) for bomb in bombs
                if rules.multiplier_from == "anyone" or bomb.seat % 2 == winning_team),
               default=1)


def capped_for_coins(rules: RuleSet, multiplier: int) -> int:
    """The multiplier coins use: at most the rule set's cap (classic ×5, RULES §9)."""
    cap = rules.coin_multiplier_cap
    return min(multiplier, cap) if cap else multiplier


def ladder_rung(rules: RuleSet, points: int) -> int | None:
    """The index of the rung of the rule set's level ladder that ``points`` reach: the
    highest reached, the lowest when none is (RULES §9); None without a ladder."""
    ladder = rules.level_ladder
    if not ladder:
        return None
    reached = [index for index, (_title, needed, _factor) in enumerate(ladder)
               if points >= needed]
    return reached[-1] if reached else 0


def level_multiplier(rules: RuleSet, points: Sequence[int] | None) -> int:
    """等级倍率 (classic, RULES §9): the factor of the rung of the seated player with
    the fewest points; 1 without a ladder or without point balances."""
    if not rules.level_ladder or not points:
        return 1
    return rules.level_ladder[ladder_rung(rules, min(points))][2]


def bomb_multiplier(rules: RuleSet, bomb: BombRecord) -> int:
    """翻倍 for one bomb: the largest step it reaches (RULES §6, §9)."""
    if bomb.kind == JOKER_BOMB and bomb.size == 4 and rules.heavenly_multiplier:
        return rules.heavenly_multiplier
    measure = bomb.size if rules.multiplier_by == "cards" else bomb.stars
    if rules.multiplier_by == "cards" and bomb.kind == JOKER_BOMB:
        measure = 0  # classic: only 天王 has a factor of its own
    return _step(rules.multipliers, measure, 1)


def bomb_contributions(rules: RuleSet, bombs: Sequence[BombRecord], players: int) -> list[int]:
    """贡献分 paid at once for each big bomb, by either team (RULES §6)."""
    totals = [0] * players
    if rules.contributions != "per_bomb":
        return totals
    for bomb in bombs:
        row = None
        for stars, gain, each in rules.bomb_contributions:
            if bomb.stars >= stars:
                row = (gain, each)
        if row is None:
            continue
        gain, each = row
        for seat in range(players):
            totals[seat] += gain if seat == bomb.seat else -each
    return totals


def _step(steps: Sequence[tuple[int, int]], value: int, default: int) -> int:
    result = default
    for threshold, factor in steps:
        if value >= threshold:
            result = factor
    return result


# --- tcy: two players, result by the cards left (RULES §9) -----------------------

def tcy_kou(rules: RuleSet, cards_left: int) -> str:
    if cards_left >= rules.cards_left_double:
        return DOUBLE
    if cards_left >= rules.cards_left_single:
        return SINGLE
    return DRAW


def tcy_kou_factor(rules: RuleSet, kou: str) -> int:
    return {DOUBLE: rules.kou_factor_double, SINGLE: rules.kou_factor_single,
            DRAW: rules.kou_factor_draw}[kou]


def tcy_level(rules: RuleSet, bombs: Sequence[BombRecord], seat: int) -> int:
    """A player's 相 for scoring: the largest bomb, or combined bombs (RULES §9):
    two bombs of the same 相 on adjacent ranks count as one of 相+1; with the
    operator switch, non-adjacent 4相 bombs add up (3 = 5相, 4 = 6相, 5 = 7相,
    6 = 8相) and two 5相 make a 6相."""
    own = [bomb for bomb in bombs if bomb.seat == seat]
    level = max((bomb.stars for bomb in own), default=0)
    plain = [bomb for bomb in own if bomb.kind == BOMB]
    by_stars: dict[int, set[int]] = {}
    for bomb in plain:
        by_stars.setdefault(bomb.stars, set()).add(bomb.rank)
    for stars, ranks in by_stars.items():
        if any(rank + 1 in ranks for rank in ranks):
            level = max(level, stars + 1)
    if rules.count_nonadjacent_four_star:
        fours = sum(1 for bomb in plain if bomb.stars == 4)
        if fours >= 3:
            level = max(level, min(fours + 2, 8))
        if sum(1 for bomb in plain if bomb.stars == 5) >= 2:
            level = max(level, 6)
    return min(level, rules.max_stars)


def tcy_doubling(rules: RuleSet, level: int, coins: bool) -> int:
    return _step(rules.doubling_coins if coins else rules.doubling_points, level, 1)


def tcy_contribution(level: int) -> int:
    """2^(N−5) for a largest 相 N ≥ 6, none below (RULES §9)."""
    return 2 ** (level - 5) if level >= 6 else 0


def score_tcy(rules: RuleSet, winner: int, cards_left: int, bombs: Sequence[BombRecord],
              stake: int = 1, coins: bool = False) -> Result:
    """Score = X·a·b + X·c for the winner, the negative for the loser (RULES §9)."""
    loser = 1 - winner
    kou = tcy_kou(rules, cards_left)
    factor = tcy_kou_factor(rules, kou)
    doubling = tcy_doubling(rules, tcy_level(rules, bombs, winner), coins)
    contributions = _tcy_contributions(rules, bombs, stake)
    base = [0, 0]
    base[winner] = stake * factor
    base[loser] = -stake * factor
    scores = [base[seat] * doubling + contributions[seat] for seat in (0, 1)]
    return Result(kou, [winner, loser], doubling, base, contributions, scores, [winner],
                  cards_left=cards_left)


# --- escapes (RULES §10, and §9 for tcy) ------------------------------------------

def score_escape(rules: RuleSet, escaper: int, finish: Sequence[int],
                 bombs: Sequence[BombRecord], players: int, stake: int = 1,
                 coins: bool = False, level_multiplier: int = 1) -> Result:
    """``end_game`` escape: the escaper pays the penalty plus contributions owed;
    the others score 0 base and keep their contributions. Where the rule set says so
    (classic, RULES §9) the penalty is × the multipliers reached so far: the bombs'
    (as they would count if the escaper's side lost) × the 等级倍率."""
    if players == 2:
        return _score_tcy_escape(rules, escaper, bombs, stake, coins)
    contributions = bomb_contributions(rules, bombs, players)
    multiplier = 1
    if rules.escape_penalty_multiplied:
        multiplier = game_bomb_multiplier(rules, bombs, 1 - escaper % 2) * level_multiplier
    penalty = rules.escape_penalty_units * stake * multiplier
    scores = list(contributions)
    scores[escaper] -= penalty
    winners = [seat for seat in range(players) if seat % 2 != escaper % 2]
    result = Result(ESCAPE, list(finish), multiplier, [0] * players, contributions, scores,
                    winners, escaped=escaper, penalty=penalty,
                    level_multiplier=level_multiplier if rules.escape_penalty_multiplied else 1)
    coin_multiplier = capped_for_coins(rules, multiplier)
    if coin_multiplier != multiplier:
        result.coin_penalty = rules.escape_penalty_units * stake * coin_multiplier
    return result


def _score_tcy_escape(rules: RuleSet, escaper: int, bombs: Sequence[BombRecord], stake: int,
                      coins: bool) -> Result:
    # 12·X plus the 单扣 loss the opponent would win now (X·a·b with the opponent's
    # doubling); contributions owed so far stand, as in a four-player escape.
    other = 1 - escaper
    contributions = _tcy_contributions(rules, bombs, stake)
    penalty = stake * (rules.escape_penalty_units + rules.kou_factor_single * tcy_doubling(
        rules, tcy_level(rules, bombs, other), coins))
    scores = list(contributions)
    scores[escaper] -= penalty
    return Result(ESCAPE, [other, escaper], 1, [0, 0], contributions, scores, [other],
                  escaped=escaper, penalty=penalty)


def _tcy_contributions(rules: RuleSet, bombs: Sequence[BombRecord], stake: int) -> list[int]:
    """Each pays the other's contribution and receives their own (RULES §9)."""
    own = [stake * tcy_contribution(tcy_level(rules, bombs, seat)) for seat in (0, 1)]
    return [own[0] - own[1], own[1] - own[0]]
