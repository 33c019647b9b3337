"""A player's stats, added up in SQL from stats.models: three queries
whatever the number of games (one grouped by rule set, room kind and 扣, one of bombs
grouped by stars, one of rule-set labels), plus the player's level."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum

from accounts.models import User
from accounts.selectors import PlayerStanding, player_standing
from games.engine.scoring import DOUBLE, DRAW, ESCAPE, SINGLE
from games.hooks.escapes import escapes_of
from games.models import Room, RuleSetConfig
from games.rule_set_names import rule_set_name
from games.vocabulary import kou_label

from .models import SeatBombs, SeatFacts

KOUS = (DOUBLE, SINGLE, DRAW, ESCAPE)


def may_see_stats(viewer, player: User) -> bool:
    """Everyone sees a public player's stats; a private player's only they and staff."""
    if player.stats_public:
        return True
    return bool(viewer.is_authenticated and (viewer.pk == player.pk or viewer.is_staff))


def _rate(part: int, whole: int) -> float | None:
    """``part`` of ``whole`` as a percentage rounded to 0.1; None without games."""
    return round(part * 100 / whole, 1) if whole else None


@dataclass
class Tally:
    games: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> float | None:
        return _rate(self.wins, self.games)


@dataclass
class GroupStats(Tally):
    """Games of one rule set in one room kind."""

    rule_set: str = ""
    rule_set_label: str = ""
    room_kind: str = ""

    @property
    def room_kind_label(self) -> str:
        return str(Room.Kind(self.room_kind).label) if self.room_kind in Room.Kind.values \
            else self.room_kind


@dataclass
class KouStats(Tally):
    """Games that ended in one 扣 (or an escape); ``rate`` is their share of all games."""

    kou: str = ""
    rate: float | None = None

    @property
    def label(self) -> str:
        return kou_label(self.kou)


@dataclass
class PlayerStats:
    player: User
    standing: PlayerStanding
    total: Tally = field(default_factory=Tally)
    escapes: int = 0
    groups: list[GroupStats] = field(default_factory=list)
    kous: list[KouStats] = field(default_factory=list)
    bombs: dict[int, int] = field(default_factory=dict)  # stars → bombs played

    @property
    def escape_rate(self) -> float | None:
        return _rate(self.escapes, self.total.games)

    @property
    def bomb_total(self) -> int:
        return sum(self.bombs.values())


def player_stats(player: User) -> PlayerStats:
    """Everything the stats page and API show of ``player``'s settled games."""
    rows = (SeatFacts.objects.filter(user=player).order_by()
            .values("rule_set_name", "room_kind", "kou")
            .annotate(games=Count("pk"), wins=Count("pk", filter=Q(won=True))))
    stats = PlayerStats(player=player, standing=player_standing(player))
    groups: dict[tuple[str, str], GroupStats] = {}
    kous = {kou: KouStats(kou=kou) for kou in KOUS}
    for row in rows:
        key = (row["rule_set_name"], row["room_kind"])
        group = groups.setdefault(key, GroupStats(rule_set=key[0], room_kind=key[1]))
        kou = kous.setdefault(row["kou"], KouStats(kou=row["kou"]))
        for tally in (group, kou, stats.total):
            tally.games += row["games"]
            tally.wins += row["wins"]
    # The same escapes as the history and the lobby's warning (games.hooks.escapes):
    # a game that ended in an escape, and whatever else fair play counts as one.
    stats.escapes = len(set(SeatFacts.objects.filter(user=player, escaped=True)
                            .values_list("game_id", flat=True)) | set(escapes_of(player.pk)))
    labels = dict(RuleSetConfig.objects.filter(name__in={name for name, _ in groups})
                  .values_list("name", "label")) if groups else {}
    for group in groups.values():
        group.rule_set_label = rule_set_name(group.rule_set, labels.get(group.rule_set, ""))
    stats.groups = sorted(groups.values(), key=lambda group: (group.rule_set, group.room_kind))
    for kou in kous.values():
        kou.rate = _rate(kou.games, stats.total.games)
    stats.kous = list(kous.values())
    stats.bombs = dict(SeatBombs.objects.filter(user=player).order_by("stars")
                       .values("stars").annotate(total=Sum("count"))
                       .values_list("stars", "total"))
    return stats
