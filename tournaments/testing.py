"""Set-up shared by the tournaments' tests and benchmark: templates, players with
coins, the figures recomputed from the game logs alone."""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.utils import timezone

from accounts.models import User
from games.engine.game import Game
from games.models import GameEvent, RuleSetConfig
from games.presets import rule_set_presets_load
from ledger.services import grant_coins
from tournaments.boards import dealt_hands
from tournaments.matchpoints import SeatResult, standings
from tournaments.models import Board, StartMode, Tournament, TournamentTemplate
from tournaments.registration import open_tournament


def make_template(**fields) -> TournamentTemplate:
    rule_set_presets_load()
    defaults = {"name": f"test {uuid.uuid4().hex[:6]}",
                "rule_set": RuleSetConfig.objects.get(name="qq"), "size": 16, "rounds": 2,
                "boards_per_round": 2, "entry_fee": 100, "fee_percent": 10,
                "prize_table": [50, 30, 20], "start_mode": StartMode.SCHEDULED,
                "bots_for_no_shows": True}
    template = TournamentTemplate(**{**defaults, **fields})
    template.full_clean()
    template.save()
    return template


def open_scheduled(template: TournamentTemplate) -> Tournament:
    """A scheduled tournament open for registration now, starting in an hour."""
    tournament = open_tournament(template, starts_at=timezone.now() + timedelta(hours=1))
    Tournament.objects.filter(pk=tournament.pk).update(
        registration_opens_at=timezone.now() - timedelta(minutes=1))
    tournament.refresh_from_db()
    return tournament


def make_people(count: int, *, coins: int = 1000, prefix: str = "p") -> list[User]:
    people = []
    for number in range(count):
        user = User.objects.create_user(username=f"{prefix}{number}-{uuid.uuid4().hex[:6]}",
                                        password="pw", nickname=f"{prefix}{number}")
        if coins:
            grant_coins(user=user, amount=coins, key=f"test:{uuid.uuid4().hex}")
        people.append(user)
    return people


def make_due(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(seconds=1))


def logs_of(tournament: Tournament) -> dict[int, list[dict]]:
    """Each of the tournament's games' event logs, by game id."""
    logs: dict[int, list[dict]] = {}
    for game_id, data in GameEvent.objects.filter(
            game__tournament_board__tournament=tournament).order_by("game", "seq") \
            .values_list("game_id", "data"):
        logs.setdefault(game_id, []).append(data)
    return logs


def hands_by_board(tournament: Tournament) -> dict[tuple[int, int], list[list[list[str]]]]:
    """(round, board) → each table's hands by seat, read from the logs alone."""
    logs = logs_of(tournament)
    found: dict[tuple[int, int], list] = {}
    for board in Board.objects.filter(tournament=tournament).order_by("table"):
        found.setdefault((board.round, board.board), []).append(
            dealt_hands(logs[board.game_id]))
    return found


def standings_from_logs(tournament: Tournament, entrants: list[int]) -> list[tuple]:
    """(user, matchpoints, score) best first, recomputed from the game logs alone:
    each game's result replayed from its events (not the stored result)."""
    logs = logs_of(tournament)
    results = []
    for board in Board.objects.filter(tournament=tournament):
        game = Game.replay([event for event in logs[board.game_id]
                            if event["type"] != "settled"])
        assert game.status == "ended", board
        for seat, (user, score) in enumerate(zip(game.players, game.result.scores)):
            results.append(SeatResult(board.round, board.board, seat, user, score))
    return [(standing.user, standing.matchpoints, standing.score)
            for standing in standings(results, entrants)]
