"""Writes of the stats app: each seat's facts of a settled game, once."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from django.db import transaction

from accounts.models import User
from games.models import GameEvent, GameRecord, Room
from games.settlement.report import bombs_played

from .models import SeatBombs, SeatFacts


def record_facts_of_settled_game(*, record: GameRecord, events: Sequence[dict],
                                  **_signal) -> None:
    """games.hooks.signals.game_settled: the facts of the game being settled, in its
    transaction (settled means counted)."""
    game_facts_record(record=record, events=events)


def game_facts_record(*, record: GameRecord, events: Sequence[dict] | None = None) -> int:
    """Store one SeatFacts row per seat of the ended game ``record`` (and its bombs by
    stars, read from the log as the result panel reads them: games.settlement.report),
    unless they are stored already. Returns how many rows were written (0 the second
    time). Call inside the settlement's transaction with the game row locked (or with
    it locked by the caller, as the backfill does); ``events`` is the game's log when
    the caller has read it."""
    result = record.result
    if not result or SeatFacts.objects.filter(game=record).exists():
        return 0
    if events is None:
        events = list(GameEvent.objects.filter(game=record).order_by("seq")
                      .values_list("data", flat=True))
    bombs = Counter((bomb["seat"], bomb["stars"] or 0) for bomb in bombs_played(events))
    winners = set(result.get("winners") or [])
    escaped = result.get("escaped")
    with transaction.atomic():
        facts = SeatFacts.objects.bulk_create([
            SeatFacts(game=record, seat=seat, user_id=user_id,
                      rule_set_name=record.rule_set_name, room_kind=_room_kind(record),
                      kou=result["kou"], won=seat in winners, escaped=seat == escaped,
                      bombs=sum(count for (bomb_seat, _), count in bombs.items()
                                if bomb_seat == seat),
                      ended_at=record.ended_at)
            for seat, user_id in enumerate(record.players)])
        SeatBombs.objects.bulk_create([
            SeatBombs(facts=facts[seat], user_id=record.players[seat], stars=stars,
                      count=count)
            for (seat, stars), count in sorted(bombs.items())])
    return len(facts)


def _room_kind(record: GameRecord) -> str:
    """The kind the game was dealt as (its terms), whatever the room says now."""
    if "coins" in (record.terms or {}):
        return Room.Kind.COINS if record.terms["coins"] else Room.Kind.POINTS
    return record.room.kind


def stats_visibility_set(*, user: User, public: bool) -> None:
    """Make ``user``'s stats public (everyone sees them) or private (only they and
    staff do; others see name and level)."""
    User.objects.filter(pk=user.pk).update(stats_public=public)
    user.stats_public = public
