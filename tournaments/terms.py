"""A tournament's settings (赛制), copied from its template when it opens so that an
operator's later edit of the template changes the next tournament, not this one."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from django.utils.translation import gettext

from games.engine.rulesets import RuleSetError


@dataclass(frozen=True)
class Terms:
    rule_set: str
    players_per_table: int
    kind: str
    stake: int
    entry_fee: int
    fee_percent: int
    prize_table: list[int] = field(default_factory=list)
    size: int = 16
    rounds: int = 3
    boards_per_round: int = 2
    turn_seconds: int = 20
    start_mode: str = "when_full"
    bots_for_no_shows: bool = True
    bot_level: str = "table"

    @classmethod
    def of_template(cls, template) -> Terms:
        return cls(rule_set=template.rule_set.name,
                   players_per_table=template.rule_set.as_rule_set().players,
                   kind=template.kind, stake=template.stake, entry_fee=template.entry_fee,
                   fee_percent=template.fee_percent, prize_table=list(template.prize_table),
                   size=template.size, rounds=template.rounds,
                   boards_per_round=template.boards_per_round,
                   turn_seconds=template.turn_seconds, start_mode=template.start_mode,
                   bots_for_no_shows=template.bots_for_no_shows, bot_level=template.bot_level)

    @classmethod
    def of(cls, tournament) -> Terms:
        return cls(**tournament.terms)

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def tables(self) -> int:
        return self.size // self.players_per_table

    def fee_share(self) -> int:
        """The 系统回收 part of one entry fee, in whole coins (rounded down)."""
        return self.entry_fee * self.fee_percent // 100


def terms_errors(template) -> dict[str, str]:
    """What is wrong with a template, field by field (empty: nothing)."""
    from tournaments.models import MAX_SIZE, MIN_SIZE  # noqa: PLC0415

    errors: dict[str, str] = {}
    players = None
    if template.rule_set_id:
        try:
            players = template.rule_set.as_rule_set().players
        except RuleSetError as error:
            errors["rule_set"] = gettext("规则配置无效：%(error)s") % {"error": error}
    size = template.size or 0
    if not MIN_SIZE <= size <= MAX_SIZE:
        errors["size"] = gettext("人数须在 %(low)d 到 %(high)d 之间。") % {
            "low": MIN_SIZE, "high": MAX_SIZE}
    elif players and size % players:
        errors["size"] = gettext("人数须是每桌人数（%(players)d）的倍数。") % {"players": players}
    if not template.rounds or template.rounds > 20:
        errors["rounds"] = gettext("轮数须在 1 到 20 之间。")
    if not template.boards_per_round or template.boards_per_round > 12:
        errors["boards_per_round"] = gettext("每轮牌数须在 1 到 12 之间。")
    if (template.turn_seconds or 0) < 5:
        errors["turn_seconds"] = gettext("出牌时限至少为 5 秒。")
    if (template.fee_percent or 0) > 100:
        errors["fee_percent"] = gettext("系统回收比例不能超过 100%。")
    if (template.stake or 0) < 1:
        errors["stake"] = gettext("每分计至少为 1。")
    table = template.prize_table
    if not isinstance(table, list) or not all(
            isinstance(share, int) and not isinstance(share, bool) and share > 0
            for share in table):
        errors["prize_table"] = gettext("奖励表须是正整数百分比的列表，例如 [50, 30, 20]。")
    elif sum(table) > 100:
        errors["prize_table"] = gettext("奖励表合计不能超过 100%。")
    elif len(table) > size:
        errors["prize_table"] = gettext("获奖名次不能多于人数。")
    return errors
