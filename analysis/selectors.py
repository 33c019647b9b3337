"""Reads of an analysis for the replay page and the API: its moves and summary with
names and texts in the reader's language (games.vocabulary, as the replay speaks)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.utils.translation import pgettext

from analysis.compute import OK, PASS
from analysis.models import AnalysisOptions, GameAnalysis
from games.models import BotPlayer, GameRecord
from games.vocabulary import rank_label, reading_text


def human_seats(record: GameRecord) -> list[int]:
    """Seats a person played: not a server bot's seat, nor a bot account's."""
    bots = set(record.bot_seats or [])
    bot_users = set(BotPlayer.objects.filter(user_id__in=record.players)
                    .values_list("user_id", flat=True))
    return [seat for seat, user_id in enumerate(record.players)
            if seat not in bots and user_id not in bot_users]


def auto_coin_games() -> bool:
    """Whether settled coin games are analysed without being asked: the operator's
    choice in admin (AnalysisOptions) if saved, else settings.ANALYSIS_AUTO_COIN_GAMES."""
    options = AnalysisOptions.objects.order_by("pk").first()
    return settings.ANALYSIS_AUTO_COIN_GAMES if options is None else options.auto_coin_games


def analysis_of(record: GameRecord) -> GameAnalysis | None:
    return GameAnalysis.objects.filter(game=record).first()


def move_text(cards: str, reading: dict | None, wildcards: list[str]) -> str:
    """A move in words: its reading ("对子 7（大王当7）"), bare cards when it has none,
    or 过 for a pass."""
    if cards == PASS:
        return pgettext("replay action", "过")
    tokens = cards.split()
    if reading:
        return reading_text(reading, tokens, wildcards)
    return " ".join(rank_label(token) for token in tokens)


def analysis_data(analysis: GameAnalysis, record: GameRecord,
                  name: Callable[[int], str]) -> dict:
    """The analysis as the page and the API give it: every analysed move with its
    player and texts, and the summary per human seat with its biggest mistakes."""
    players = record.players or []
    moves = []
    by_seq = {}
    for move in analysis.moves or []:
        user_id = players[move["seat"]] if move["seat"] < len(players) else None
        row = {
            **{key: move[key] for key in ("seq", "seat", "played", "best", "loss", "mark",
                                          "played_value", "best_value")},
            "step": move["seq"],  # the replay's step that shows this move
            "player": user_id, "name": name(user_id),
            "played_text": move_text(move["played"], move.get("played_reading"),
                                     analysis.wildcards),
            "best_text": move_text(move["best"], move.get("best_reading"), analysis.wildcards),
        }
        moves.append(row)
        by_seq[move["seq"]] = row
    summary = []
    for row in analysis.summary or []:
        user_id = players[row["seat"]] if row["seat"] < len(players) else None
        summary.append({**row, "player": user_id, "name": name(user_id),
                        "mistakes": [by_seq[seq] for seq in row["mistakes"] if seq in by_seq]})
    return {
        "game": record.pk, "status": analysis.status,
        "status_label": analysis.get_status_display(),
        "created_at": analysis.created_at, "started_at": analysis.started_at,
        "finished_at": analysis.finished_at, "seconds": analysis.seconds,
        "move_budget_ms": analysis.move_budget_ms, "budget_used_ms": analysis.budget_used_ms,
        "thresholds": analysis.thresholds, "moves": moves, "summary": summary,
    }


def page_marks(data: dict) -> dict[str, dict]:
    """The replay script's marks: by step, the moves marked ? or ?? with the
    suggestion (static/js/replay.js puts them in the step list)."""
    return {str(move["step"]): {"mark": move["mark"], "best": move["best_text"],
                                "loss": move["loss"]}
            for move in data["moves"] if move["mark"] != OK}


def history_cells(games: list[GameRecord]) -> dict[int, dict]:
    """The history's 分析 column (games.archive.panels.HistoryColumn): for each game of
    the page that has an analysis, its status and the viewer's accuracy in it (the
    games carry ``my_seat``), in one query."""
    seats = {game.pk: game.my_seat for game in games}
    return {game_id: {"game_id": game_id, "status": status,
                      "accuracy": _accuracy(summary, seats[game_id])}
            for game_id, status, summary in GameAnalysis.objects.filter(game__in=games)
            .values_list("game_id", "status", "summary")}


def _accuracy(summary: list[dict], seat: int) -> float | None:
    """My accuracy in a finished analysis (analysis.compute.summarise); None where it
    has none (not analysed, or no move of mine had a choice)."""
    return next((row["accuracy"] for row in summary or [] if row["seat"] == seat), None)
