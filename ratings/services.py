"""Writes of the ratings app: a settled game's rating updates, once per game, in the
settlement's transaction (games.hooks.signals.game_settled). docs/ratings.md says why
each rule is what it is."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import GameEvent, GameRecord

from .models import RatedGame, Rating, RatingChange, family_of
from .rating_math import Skill, damped, from_shown, rate_sides, repeat_weight


def rate_settled_game(*, record: GameRecord, events: Sequence[dict], **_signal) -> None:
    """games.hooks.signals.game_settled: rate the game being settled."""
    rate_game(record=record, events=events)


def side_of(seat: int, players: int) -> int:
    """Partners share a side: seats 0 and 2 against 1 and 3; in a two-player game each
    seat is its own side (games.engine.scoring.team_of)."""
    return seat % 2 if players == 4 else seat


def bot_skill(level: str) -> Skill:
    """A bot's fixed skill by its level (settings.RATINGS_BOT_RATINGS): bots are
    never rated, people are rated against them."""
    rating = settings.RATINGS_BOT_RATINGS.get(level, settings.RATINGS_BOT_RATINGS["table"])
    return Skill(from_shown(rating), from_shown(settings.RATINGS_BOT_DEVIATION))


def rate_game(*, record: GameRecord, events: Sequence[dict] | None = None) -> RatedGame:
    """Rate the ended game ``record`` unless it was looked at already (then return that
    row, changing nothing). Casual games (a casual room, a private table) and games
    without people are recorded as such and change no rating."""
    existing = RatedGame.objects.filter(game=record).first()
    if existing is not None:
        return existing
    players = len(record.players)
    family = family_of(players)
    bots = set(record.bot_seats or [])
    people = [seat for seat in range(players) if seat not in bots]
    if not record.rated or not record.result:
        return _looked_at(record, family, RatedGame.Outcome.CASUAL)
    if not people:
        return _looked_at(record, family, RatedGame.Outcome.NO_PEOPLE)
    if events is None:
        events = list(GameEvent.objects.filter(game=record).order_by("seq")
                      .values_list("data", flat=True))
    escapers = _escapers(record, events)
    # An escape is a loss, whatever the 托管 made of the game afterwards.
    losing = side_of(escapers[0] if escapers else next(
        seat for seat in range(players) if seat not in record.result["winners"]), players)
    user_ids = sorted({record.players[seat] for seat in people})
    group = ",".join(map(str, user_ids)) if len(user_ids) > 1 else ""
    weight = _group_weight(family, group)
    with transaction.atomic():
        outcome, created = RatedGame.objects.get_or_create(
            game=record, defaults={"family": family, "outcome": RatedGame.Outcome.RATED,
                                   "group": group, "weight": weight})
        if not created:  # rated meanwhile by another settlement of the same game
            return outcome
        _apply(record, family, people, escapers, losing, weight)
    return outcome


def _apply(record: GameRecord, family: str, people: list[int], escapers: list[int],
           losing: int, weight: float) -> None:
    players = len(record.players)
    ratings = _locked_ratings(family, [record.players[seat] for seat in people])
    before = {seat: (Skill(ratings[record.players[seat]].mu,
                           ratings[record.players[seat]].sigma) if seat in people
                     else bot_skill(record.bot_level))
              for seat in range(players)}
    winners = [seat for seat in range(players) if side_of(seat, players) != losing]
    losers = [seat for seat in range(players) if side_of(seat, players) == losing]
    won_after, lost_after = rate_sides([before[seat] for seat in winners],
                                       [before[seat] for seat in losers])
    after = dict(zip(winners + losers, won_after + lost_after, strict=True))
    now = timezone.now()
    changes = []
    for seat in people:
        if escapers and seat in losers and seat not in escapers:
            continue  # the escaper's partner did not lose the game: unchanged
        rating = ratings[record.players[seat]]
        new = damped(before[seat], after[seat], weight)
        won = seat in winners
        changes.append(RatingChange(
            game=record, user_id=rating.user_id, family=family, seat=seat, won=won,
            escaped=seat in escapers, mu_before=rating.mu, sigma_before=rating.sigma,
            mu_after=new.mu, sigma_after=new.sigma, weight=weight, created_at=now))
        rating.mu, rating.sigma, rating.updated_at = new.mu, new.sigma, now
        rating.games += 1
        rating.wins += won
        rating.save(update_fields=["mu", "sigma", "games", "wins", "updated_at"])
    RatingChange.objects.bulk_create(changes)


def _locked_ratings(family: str, user_ids: list[int]) -> dict[int, Rating]:
    """The people's ratings in ``family``, new ones created at the start, each row
    locked in user order (two games settling at once with a player in common wait for
    each other, never deadlock)."""
    Rating.objects.bulk_create([Rating(user_id=user_id, family=family) for user_id in user_ids],
                               ignore_conflicts=True)
    rows = Rating.objects.select_for_update().filter(family=family, user_id__in=user_ids) \
        .order_by("user_id")
    return {rating.user_id: rating for rating in rows}


def _escapers(record: GameRecord, events: Sequence[dict]) -> list[int]:
    """Seats that escaped, in order: from the log (an escape in auto_play mode leaves
    the game running under 托管), or the result of one that ended the game."""
    seats = [event["seat"] for event in events if event.get("type") == "escape"]
    escaped = record.result.get("escaped")
    if escaped is not None and escaped not in seats:
        seats.append(escaped)
    return seats


def _group_weight(family: str, group: str) -> float:
    """Anti-farming: the same people's rated games together within
    RATINGS_REPEAT_WINDOW_HOURS count less after the first RATINGS_REPEAT_FREE_GAMES."""
    if not group:
        return 1.0
    since = timezone.now() - timedelta(hours=settings.RATINGS_REPEAT_WINDOW_HOURS)
    earlier = RatedGame.objects.filter(family=family, group=group, created_at__gte=since,
                                       outcome=RatedGame.Outcome.RATED).count()
    return repeat_weight(earlier, settings.RATINGS_REPEAT_FREE_GAMES)


def _looked_at(record: GameRecord, family: str, outcome: str) -> RatedGame:
    row, _created = RatedGame.objects.get_or_create(
        game=record, defaults={"family": family, "outcome": outcome})
    return row
