"""Reading and lifting bans. ``check_may_sit`` is the one check every way of
taking a seat goes through (games.live.seating: quick join and sit, over HTTP and the
socket)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from fair_play.models import BanLift, EscapeRecord
from games.errors import ActionError
from games.hooks.escapes import escape_rule


@dataclass(frozen=True)
class BanStatus:
    banned: bool
    until: datetime | None
    seconds_left: int
    escapes_in_window: int
    warning: bool  # the latest escape in the window was a warning: the next one bans
    window_hours: float
    last_game: int | None = None  # the latest escape's game, and the rule that made it one
    last_rule: str = ""

    @property
    def minutes_left(self) -> int:
        return math.ceil(self.seconds_left / 60)


def active_ban(user_id: int, *, now: datetime | None = None) -> EscapeRecord | None:
    """The record whose ban ends last among the player's running, unlifted bans."""
    now = now or timezone.now()
    return EscapeRecord.objects.filter(user_id=user_id, ban_until__gt=now, lift__isnull=True) \
        .order_by("-ban_until").first()


def ban_status(user_id: int, *, now: datetime | None = None) -> BanStatus:
    from fair_play import ladder
    from fair_play.escapes import counted_escapes

    now = now or timezone.now()
    ban = active_ban(user_id, now=now)
    recent = list(counted_escapes(user_id, since=now - ladder.window(), until=now)
                  .order_by("-occurred_at", "-id"))
    return BanStatus(
        banned=ban is not None, until=ban.ban_until if ban else None,
        seconds_left=max(0, math.ceil((ban.ban_until - now).total_seconds())) if ban else 0,
        escapes_in_window=len(recent), warning=bool(recent) and recent[0].is_warning,
        window_hours=float(settings.FAIR_PLAY_WINDOW_HOURS),
        last_game=recent[0].game_id if recent else None,
        last_rule=escape_rule(recent[0].kind) if recent else "")


def check_may_sit(user, *, now: datetime | None = None) -> None:
    """Refuse a seat to a banned player, with the reason and the time left."""
    status = ban_status(user.pk, now=now)
    if status.banned:
        raise ActionError(
            _("你在 %(hours)s 小时内逃跑了 %(count)d 次，被禁止入座，还剩 %(minutes)d 分钟"),
            {"hours": f"{status.window_hours:g}", "count": status.escapes_in_window,
             "minutes": status.minutes_left}, code="play_banned")


def lift_ban(*, record: EscapeRecord, actor, reason: str) -> BanLift:
    """An admin lifts the ban of ``record``: a row saying who, when and why."""
    reason = (reason or "").strip()
    if not reason:
        raise ValueError(_("解除禁令须填写原因"))
    with transaction.atomic():
        record = EscapeRecord.objects.select_for_update().get(pk=record.pk)
        if record.ban_until is None:
            raise ValueError(_("这条记录只是警告，没有禁令可解除"))
        if BanLift.objects.filter(record=record).exists():
            raise ValueError(_("这条禁令已经解除"))
        return BanLift.objects.create(record=record, lifted_by=actor, reason=reason[:300])
