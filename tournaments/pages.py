"""What the tournament pages and API read (thin views call these): the list, one
tournament for a viewer, and one board compared across the tables."""

from __future__ import annotations

from django.db.models import Count, Q

from accounts.models import User
from tournaments import live
from tournaments.models import Board, Entry, Pairing, Tournament
from tournaments.money import pool_of
from tournaments.standings import board_matchpoints
from tournaments.terms import Terms
from tournaments.visibility import board_finished


def tournament_lists() -> dict[str, list[Tournament]]:
    rows = Tournament.objects.annotate(players=Count(
        "entries", filter=Q(entries__withdrawn_at__isnull=True, entries__is_bot=False)))
    return {
        "upcoming": list(rows.filter(status=Tournament.Status.REGISTERING).order_by("pk")),
        "running": list(rows.filter(status=Tournament.Status.RUNNING).order_by("pk")),
        "finished": list(rows.filter(status__in=[Tournament.Status.FINISHED,
                                                 Tournament.Status.CANCELLED])
                         .order_by("-finished_at", "-pk")[:30]),
    }


def summary(tournament: Tournament) -> dict:
    terms = Terms.of(tournament)
    return {"id": tournament.pk, "name": tournament.name, "status": tournament.status,
            "status_label": str(tournament.get_status_display()),
            "rule_set": terms.rule_set, "kind": terms.kind, "size": terms.size,
            "rounds": terms.rounds, "boards_per_round": terms.boards_per_round,
            "entry_fee": terms.entry_fee, "fee_percent": terms.fee_percent,
            "prize_table": terms.prize_table, "turn_seconds": terms.turn_seconds,
            "start_mode": terms.start_mode, "bots_for_no_shows": terms.bots_for_no_shows,
            "registration_opens_at": tournament.registration_opens_at,
            "starts_at": tournament.starts_at, "started_at": tournament.started_at,
            "finished_at": tournament.finished_at, "round": tournament.current_round,
            "pool": pool_of(tournament, terms), "cancel_reason": tournament.cancel_reason}


def detail(tournament: Tournament, user) -> dict:
    """The tournament for ``user`` (maybe anonymous): its terms and state, their entry,
    their table this round, and the boards they played."""
    state = live.state(tournament.pk)
    user_id = user.pk if user is not None and user.is_authenticated else None
    entry = Entry.objects.filter(tournament=tournament, user_id=user_id,
                                 withdrawn_at__isnull=True).first() if user_id else None
    my_table = None
    if entry is not None and tournament.status == Tournament.Status.RUNNING:
        my_table = Pairing.objects.filter(tournament=tournament, round=tournament.current_round,
                                          user_id=user_id).values_list("table_id", flat=True) \
            .first()
    return {"tournament": summary(tournament), "state": state, "entry": entry,
            "my_table": my_table, "boards": boards_of(tournament, user_id)}


def boards_of(tournament: Tournament, user_id: int | None) -> list[dict]:
    """Every (round, board) dealt: finished at every table or not, and the viewer's
    game there (their replay)."""
    found: dict[tuple[int, int], dict] = {}
    for board in Board.objects.filter(tournament=tournament).order_by("round", "board"):
        row = found.setdefault((board.round, board.board), {
            "round": board.round, "board": board.board, "tables": 0, "settled": 0,
            "my_game": None})
        row["tables"] += 1
        row["settled"] += board.settled_at is not None
        if user_id is not None and user_id in (board.players or board.seating):
            row["my_game"] = board.game_id
    for row in found.values():
        row["finished"] = row["settled"] == row["tables"]
    return list(found.values())


def comparison(tournament: Tournament, round_number: int, board: int, user) -> dict | None:
    """The board at every table: who held each seat's hand and what they scored, with
    their matchpoints; for the viewer, the others who held their hand. None until
    every table has finished the board (the same cards are still being played)."""
    rows = list(Board.objects.filter(tournament=tournament, round=round_number, board=board)
                .select_related("table").order_by("table__number"))
    if not rows or not board_finished(tournament.pk, round_number, board):
        return None
    points = board_matchpoints(tournament)
    users = User.objects.in_bulk([user for row in rows for user in row.players])
    tables = []
    for row in rows:
        tables.append({"table": row.table.number, "game": row.game_id, "seats": [
            {"seat": seat, "user": user_id,
             "name": users[user_id].nickname or users[user_id].username,
             "score": score, "matchpoints": points.get((round_number, board, seat, user_id), 0)}
            for seat, (user_id, score) in enumerate(zip(row.players, row.scores))]})
    viewer = user.pk if user is not None and user.is_authenticated else None
    mine = next(((table, seat) for table in tables for seat in table["seats"]
                 if seat["user"] == viewer), None)
    others = []
    if mine is not None:
        my_table, my_seat = mine
        others = [{"table": table["table"], "game": table["game"], **table["seats"][
            my_seat["seat"]]} for table in tables if table is not my_table]
    return {"round": round_number, "board": board, "tables": tables,
            "mine": mine[1] if mine else None, "others": others}
