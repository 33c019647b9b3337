"""The four rule sets that ship (RULES §9), as plain JSON-able data."""

from __future__ import annotations

from .rulesets import RuleSet

_QQ = {
    "name": "qq",
    "players": 4,
    "wildcards": ["BJ"],
    "chain_bombs": True,
    "irregular_chain_bombs": False,
    "chain_bombs_through_two": False,
    "three_joker_bomb": True,
    "heavenly_bomb": "top_of_seven",  # QQ: 4个王比其他7线炸大
    "bomb_order": "stars",
    "max_stars": 12,
    "first_lead": "reveal_every_game",
    "result_by": "places",
    "auto_pass": True,
    "base_double": [4, 4, -4, -4],
    "base_single": [2, -2, 2, -2],
    "base_draw": [1, 0, 0, 1],
    "kou_factor_double": 4,
    "kou_factor_single": 2,
    "kou_factor_draw": 1,
    "cards_left_single": 7,
    "cards_left_double": 12,
    "multiplier_by": "stars",
    "multipliers": [[5, 2], [6, 4], [7, 8], [8, 16]],
    "heavenly_multiplier": 0,
    "contributions": "per_bomb",
    "bomb_contributions": [[6, 6, 2], [7, 12, 4], [8, 18, 6]],
    "doubling_points": [[5, 2], [6, 4], [7, 8], [8, 16], [9, 32], [10, 64], [11, 128], [12, 256]],
    "doubling_coins": [[5, 1], [6, 2], [7, 4], [8, 8], [9, 16], [10, 32], [11, 64], [12, 128]],
    "count_nonadjacent_four_star": False,
    "stakes_points": [
        [0, 5], [50, 5], [100, 10], [200, 20], [500, 40], [1000, 60], [2000, 80], [4000, 100],
        [8000, 150], [16000, 200], [32000, 260], [64000, 300], [128000, 400], [262000, 500],
        [500000, 600], [1000000, 700], [2000000, 800],
    ],
    "stakes_coins": [
        [100, 5], [1000, 10], [10000, 100], [100000, 500], [500000, 1000], [1000000, 1500],
        [2500000, 2000], [5000000, 2500], [10000000, 3000], [25000000, 3500], [50000000, 4000],
    ],
    "escape_mode": "end_game",
    "escape_penalty_units": 12,
    "escape_compensation_percent": 70,
    "multiplier_from": "winners",
    "level_ladder": [],
    "coin_multiplier_cap": 0,
    "coin_split": "by_score",
    "winner_fee_percent": 0,
    "escape_penalty_multiplied": False,
}

_TCY = {
    **_QQ,
    "name": "tcy",
    "players": 2,
    "wildcards": ["SJ", "BJ"],  # 财神: both jokers are wild
    "irregular_chain_bombs": True,
    "heavenly_bomb": "bottom_of_seven",  # 相当于最小的七相
    "first_lead": "random_card",
    "result_by": "cards_left",
    "contributions": "per_game_pairwise",
}

_JINYOU = {
    **_QQ,
    "name": "jinyou",
    "chain_bombs_through_two": True,  # 2能和A、3相连
    "heavenly_bomb": "bottom_of_seven",  # 百变: 4个王炸最小
    "first_lead": "reveal_after_double",
    "base_draw": [1, -1, -1, 1],
    "multipliers": [[6, 2], [7, 3], [8, 4], [9, 8]],
}

_CLASSIC = {
    **_QQ,
    "name": "classic",
    "wildcards": [],
    "chain_bombs": False,
    "three_joker_bomb": False,
    "heavenly_bomb": "top_of_all",
    "bomb_order": "cards",
    # A random player in the first game, after a 双扣 and after an escape; else the
    # last game's first out (seats fixed).
    "first_lead": "random_after_double",
    "base_draw": [1, 0, 0, 1],  # 平扣第一、四名玩家得一半底分
    "multiplier_by": "cards",
    "multipliers": [[5, 2], [6, 3], [7, 4], [8, 5]],
    "heavenly_multiplier": 5,
    # 按照最高倍率计算，不可累加: the largest bomb of the game, whoever played it.
    "multiplier_from": "anyone",
    "contributions": "none",
    "bomb_contributions": [],
    # 等级倍率 (RULES §9): the seated player with the fewest points sets it.
    "level_ladder": [
        ["流浪汉", 0, 1],
        ["短工", 100, 2], ["长工", 200, 2], ["佃户", 300, 2],
        ["贫农", 500, 3], ["渔夫", 1000, 3], ["猎人", 2000, 3],
        ["中农", 4000, 4],
        ["富农", 7000, 5], ["商人", 11000, 5], ["财主", 16000, 5], ["地主", 22000, 5],
        ["知县", 30000, 5],
        ["通判", 45000, 6], ["知州", 70000, 6], ["知府", 100000, 6],
        ["巡抚", 150000, 7], ["总督", 250000, 7],
        ["丞相", 500000, 8], ["皇帝", 1000000, 8],
    ],
    "coin_multiplier_cap": 5,
    "coin_split": "winners_share",
    "winner_fee_percent": 10,
    # Twice a 双扣 at the current multipliers: 4 units × bomb × level.
    "escape_penalty_units": 4,
    "escape_penalty_multiplied": True,
}

PRESET_DATA: dict[str, dict] = {data["name"]: data for data in (_QQ, _TCY, _JINYOU, _CLASSIC)}
PRESETS: dict[str, RuleSet] = {name: RuleSet.from_dict(data) for name, data in PRESET_DATA.items()}
DEFAULT_RULESET = "qq"


def get_ruleset(name: str) -> RuleSet:
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown rule set {name!r}: use one of {', '.join(PRESETS)}") from None
