"""Levels on a rule set's own ladder (classic's 流浪汉 … 皇帝 and its 等级倍率, RULES §9):
what classic rooms show for a seat's level and title, instead of the site's ladder
(accounts.Level, RULES §7), and the multiplier a table's seated players would play at.

A rule set without a ladder (the others) gets None everywhere: its rooms show the site's
levels. The numbers are the rungs counted from 1, the lowest; the rule (highest rung
reached, the lowest below them all) is the engine's (games.engine.scoring.ladder_rung).
"""

from __future__ import annotations

from accounts.titles import level_title
from games.engine.rulesets import RuleSet, RuleSetError
from games.engine.scoring import ladder_rung


def own_ladder(config: dict) -> RuleSet | None:
    """The rule set of a stored ``config`` (RuleSetConfig.config) when it has a ladder of
    its own; None otherwise, also for a config an operator broke (its rooms then show the
    site's levels, as the rest of the site does). Parsed only when it has one: the table
    state reads this at every seat change."""
    if not isinstance(config, dict) or not config.get("level_ladder"):
        return None
    try:
        return RuleSet.from_dict(config)
    except RuleSetError:
        return None


def ladder_level(rules: RuleSet, points: int) -> int:
    """The rung ``points`` reach on the rule set's ladder, counted from 1."""
    return ladder_rung(rules, points) + 1


def ladder_titles(rules: RuleSet) -> dict[int, str]:
    """Rung number → title, in the reader's language where it is a shipped title."""
    return {number: level_title(title)
            for number, (title, _needed, _factor) in enumerate(rules.level_ladder, start=1)}
