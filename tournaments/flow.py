"""A tournament from its start to its end (docs/tournaments.md): the start (bots for
no-shows, or a cancellation with refunds), the rounds (Swiss pairing, every table
dealt at once), each table's next board once its last one is settled, the end
(standings, places, prizes once). All its state is in the database: :func:`advance`
picks up wherever it is, after each settlement and from the beat's sweep, so a web or
worker restart mid-round loses nothing."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.live.bot_accounts import free_bot
from games.models import BotPlayer, Seat, Table
from tournaments import live
from tournaments.dealing import create_tables, deal_board, seat_round, tables_of
from tournaments.matchpoints import standings
from tournaments.models import MIN_SIZE, Board, Entry, Pairing, StartMode, Tournament
from tournaments.money import pay_prizes, refund_entry
from tournaments.pairing import first_round, partners_of, swiss_round
from tournaments.standings import entrants, seat_results
from tournaments.terms import Terms

logger = logging.getLogger(__name__)


def is_due(tournament: Tournament, count: int, terms: Terms) -> bool:
    if terms.start_mode == StartMode.SCHEDULED:
        return tournament.starts_at is not None and timezone.now() >= tournament.starts_at
    return count >= terms.size


def start(tournament_id: int, *, force: bool = False) -> bool:
    """Start the tournament if it is due (or ``force``: an operator's start now):
    fill no-shows with bots, or cancel it with refunds when it cannot run. Returns
    whether it started."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status != Tournament.Status.REGISTERING:
            return False
        terms = Terms.of(tournament)
        _drop_players_in_games(tournament, terms)
        people = Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()
        if not force and not is_due(tournament, people, terms):
            return False
        size = _playing_size(people, terms)
        if size is None:
            _cancel(tournament, terms, gettext_noop("人数不足，比赛取消，报名费已退还"))
            return False
        _add_bots(tournament, size - people)
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["status", "started_at"])
        create_tables(tournament, size // terms.players_per_table, terms.players_per_table)
        _start_round(tournament, terms, 1)
        live.announce(tournament.pk)
    return True


def _playing_size(people: int, terms: Terms) -> int | None:
    """How many play: the full size with bots for no-shows; without bots those
    registered if they fill whole tables and reach the minimum; None: cannot run."""
    if people == 0:
        return None
    if terms.bots_for_no_shows:
        return terms.size
    if people >= MIN_SIZE and people % terms.players_per_table == 0:
        return people
    return None


def _drop_players_in_games(tournament: Tournament, terms: Terms) -> None:
    """A registered player in a game elsewhere at the start is a no-show: withdrawn,
    the entry refunded (their seat goes to a bot, or to nobody)."""
    busy = Entry.objects.filter(
        tournament=tournament, withdrawn_at__isnull=True,
        user_id__in=Seat.objects.filter(table__status=Table.Status.PLAYING)
        .exclude(table__room_id=tournament.room_id).values("user_id"))
    for entry in busy.select_related("user", "tournament"):
        refund_entry(entry, terms)
        entry.withdrawn_at, entry.paid = timezone.now(), 0
        entry.save(update_fields=["withdrawn_at", "paid"])


def _add_bots(tournament: Tournament, count: int) -> None:
    taken: list[int] = list(Entry.objects.filter(tournament=tournament)
                            .values_list("user_id", flat=True))
    for _bot in range(count):
        user = free_bot(tournament.room, passed_over=taken)
        Entry.objects.create(tournament=tournament, user=user, is_bot=True)
        taken.append(user.pk)


def _start_round(tournament: Tournament, terms: Terms, round_number: int) -> None:
    """Pair the round, seat it and deal board 1 at every table at once."""
    per_table = terms.players_per_table
    if round_number == 1:
        seatings = first_round(entrants(tournament), per_table, tournament.seed)
    else:
        ranked = [standing.user for standing in
                  standings(seat_results(tournament), entrants(tournament))]
        seatings = swiss_round(ranked, per_table, _earlier_partners(tournament))
    tournament.current_round = round_number
    tournament.save(update_fields=["current_round"])
    seat_round(tournament, round_number, seatings)
    for table in tables_of(tournament):
        deal_board(tournament, table.pk, round_number, 1)


def _earlier_partners(tournament: Tournament) -> set[frozenset[int]]:
    seen: set[frozenset[int]] = set()
    rows: dict[tuple[int, int], list[int]] = {}
    for round_number, table, user in Pairing.objects.filter(tournament=tournament) \
            .order_by("round", "table", "index").values_list("round", "table", "user"):
        rows.setdefault((round_number, table), []).append(user)
    for seating in rows.values():
        seen |= partners_of(seating)
    return seen


def advance(tournament_id: int) -> None:
    """Whatever is next: each table whose last board is settled gets its next board;
    once every table has played the round, the next round or the end. Idempotent."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status != Tournament.Status.RUNNING:
            return
        terms = Terms.of(tournament)
        round_number = tournament.current_round
        # A board settled less than the pause ago waits (its players read the result).
        ready = timezone.now() - timedelta(seconds=settings.TOURNAMENTS_BOARD_PAUSE_SECONDS)
        boards: dict[int, list[Board]] = {}
        for board in Board.objects.filter(tournament=tournament, round=round_number):
            boards.setdefault(board.table_id, []).append(board)
        done = 0
        tables = tables_of(tournament)
        for table in tables:
            dealt = boards.get(table.pk, [])
            if any(board.settled_at is None or board.settled_at > ready for board in dealt):
                continue
            if len(dealt) < terms.boards_per_round:
                if table.status == Table.Status.WAITING:
                    deal_board(tournament, table.pk, round_number, len(dealt) + 1)
                continue
            done += 1
        if tables and done == len(tables):
            if round_number < terms.rounds:
                _start_round(tournament, terms, round_number + 1)
            else:
                _finish(tournament, terms)
        live.announce(tournament.pk)


def _finish(tournament: Tournament, terms: Terms) -> None:
    """Final standings, places and prizes (once: the status and the ledger's keys),
    and the tables emptied."""
    ranked = standings(seat_results(tournament), entrants(tournament))
    entries = {entry.user_id: entry for entry in Entry.objects.filter(
        tournament=tournament, withdrawn_at__isnull=True)}
    bots = set(BotPlayer.objects.filter(user_id__in=list(entries)).values_list("user_id",
                                                                                flat=True))
    people = [standing.user for standing in ranked if standing.user not in bots]
    prizes = pay_prizes(tournament, terms, people)
    won = dict(zip(people, prizes))
    for standing in ranked:
        entry = entries[standing.user]
        entry.place, entry.matchpoints, entry.score = (standing.place, standing.matchpoints,
                                                       standing.score)
        entry.prize = won.get(standing.user, 0)
        entry.save(update_fields=["place", "matchpoints", "score", "prize"])
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    Seat.objects.filter(table__room_id=tournament.room_id).update(
        user=None, is_ready=False, ready_deadline=None, connected=False)


def cancel(tournament_id: int, reason: str = gettext_noop("比赛已取消，报名费已退还")) -> bool:
    """Cancel a tournament that has not started: every entry refunded."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status != Tournament.Status.REGISTERING:
            return False
        _cancel(tournament, Terms.of(tournament), reason)
    return True


def _cancel(tournament: Tournament, terms: Terms, reason: str) -> None:
    for entry in Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True) \
            .select_related("user", "tournament"):
        refund_entry(entry, terms)
        entry.withdrawn_at, entry.paid = timezone.now(), 0
        entry.save(update_fields=["withdrawn_at", "paid"])
    tournament.status = Tournament.Status.CANCELLED
    tournament.cancel_reason = reason
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "cancel_reason", "finished_at"])
    live.announce(tournament.pk)


def sweep() -> int:
    """The beat's work (tournaments.tasks): start what is due, cancel what cannot
    start, and move every running tournament on (after a restart, a lost task)."""
    moved = 0
    for tournament_id in Tournament.objects.filter(
            status=Tournament.Status.REGISTERING, starts_at__lte=timezone.now()) \
            .values_list("pk", flat=True):
        moved += start(tournament_id)
    for tournament_id in Tournament.objects.filter(
            status=Tournament.Status.REGISTERING, starts_at__isnull=True) \
            .values_list("pk", flat=True):
        moved += start(tournament_id)
    for tournament_id in Tournament.objects.filter(status=Tournament.Status.RUNNING) \
            .values_list("pk", flat=True):
        try:
            advance(tournament_id)
        except Exception:  # one broken tournament must not stop the others
            logger.exception("could not advance tournament %s", tournament_id)
    return moved
