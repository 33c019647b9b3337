"""What a finished game settles by, from its result, the money terms and the rules it
was dealt with (RULES §7–§10): the settlement posts it, and the result panel and the
escapes' admin recompute the same split with it.

Points follow the engine's scores; coins follow its coin scores where a rule set caps
the multiplier for coins (classic, §9). The fee is the room's flat A (§7), or a percent
of each winner's gain where the rule set says so (classic, which then charges no A); in
classic the winners share what the losers paid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.rulesets import RuleSet
from games.settlement.coin_plan import CoinPlan, CoinRules, Escape, plan_game_coins


@dataclass(frozen=True)
class GameMoney:
    scores: list[int]  # points: the scores (an escape: the contributions; its penalty apart)
    coin_scores: list[int]  # coins, the same way
    escape: Escape | None
    coin_rules: CoinRules


def game_money(*, result: dict, terms: dict, rules: RuleSet) -> GameMoney:
    """``result`` as the engine wrote it, ``terms`` the room's when dealt (GameRecord.terms),
    ``rules`` the deal's."""
    escaped = result.get("escaped")
    escape = None
    scores = result["scores"]
    coin_scores = result.get("coin_scores") or scores
    if escaped is not None:
        escape = Escape(seat=escaped, penalty_units=result["penalty"],
                        compensation_percent=rules.escape_compensation_percent,
                        coin_penalty_units=result.get("coin_penalty"))
        scores = coin_scores = result["contributions"]
    percent = rules.winner_fee_percent
    coin_rules = CoinRules(fee=0 if percent else terms["fee"], fee_percent=percent,
                           winners_share=rules.coin_split == "winners_share")
    return GameMoney(list(scores), list(coin_scores), escape, coin_rules)


def game_coin_plan(*, result: dict, terms: dict, rules: RuleSet,
                   holds: Sequence[int]) -> CoinPlan:
    """The coins of a coin room's game as its settlement splits them, given the coins
    frozen for each seat (``holds``)."""
    money = game_money(result=result, terms=terms, rules=rules)
    return plan_game_coins(money.coin_scores, holds, terms["coefficient"], money.coin_rules,
                           money.escape)
