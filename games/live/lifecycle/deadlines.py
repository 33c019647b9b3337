"""Steps the sweeper and presence take with the game row locked: a turn's deadline
passed (the automatic move, or a person's timeout), a player gone away (托管)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.live import warm_engines
from games.live.broadcast import send_after_commit, table_group
from games.live.lifecycle.automatic import automatic_move, turn_deadline
from games.live.lifecycle.steps import commit_locked, locked_game
from games.live.socket_rows import lost_with_its_process
from games.live.strong_bots import is_strong_turn
from games.live.timing import log_strong_backstop, log_sweep_lag, log_turn_kept
from games.live.warm_engines import GameFacts, WarmGame
from games.models import GameRecord


def game_deadline(*, game_id: int, seq: int) -> list[dict]:
    """The turn deadline of ``game_id`` at ``seq`` passed: the bot or 托管 seat acts,
    or a person's turn times out (RULES §10). Claims the turn with the row lock and
    the seq: if anything happened meanwhile, nothing is done."""
    with transaction.atomic():
        record = (GameRecord.objects.select_for_update(skip_locked=True, of=("self",))
                  .filter(pk=game_id, seq=seq, status=GameRecord.Status.PLAYING,
                          deadline__lte=timezone.now()).select_related("room").first())
        if record is None:
            return []
        log_sweep_lag(record)
        game = warm_engines.engine_for(record)
        mark = len(game.events)
        facts = GameFacts.of(record)
        if is_strong_turn(facts, game):
            log_strong_backstop(game_id, seq)
        if not automatic_move(facts, game):
            if record.undelivered_since is not None:
                # The table may not have heard this turn begin (the channel layer failed,
                # GUIDE: a fault of the server never counts against a player). No timeout:
                # the turn's full time again; games.live.delivery gives it afresh once
                # the table has been told.
                _turn_again(record, facts, game)
                return []
            if lost_with_its_process(record.players[game.turn], record.table_id):
                # The player's socket died with a server process (killed, or hung): they
                # may not have seen the turn, or be reconnecting to another process. The
                # turn's full time again, told to the table; the dead process's rows go
                # stale, and a player who does not come back goes to 托管 after the
                # grace (games.live.presence).
                _turn_again(record, facts, game)
                send_after_commit(table_group(record.table_id),
                                  {"type": "game.snapshot", "game": record.pk})
                log_turn_kept(game_id, game.turn)
                return []
            game.timeout(game.turn)
        return commit_locked(record, game, mark)


def _turn_again(record: GameRecord, facts: GameFacts, game) -> None:
    """The turn gets its full time again, not timed out: the server's fault."""
    record.deadline = turn_deadline(facts, game)
    record.save(update_fields=["deadline"])
    warm_engines.remember(WarmGame(facts, game))


def game_disconnected(*, user_id: int, game_id: int) -> list[dict]:
    """A seat's player went away (their last socket closed and the grace passed,
    games.live.presence): 托管 (RULES §10). Coming back does not cancel it: the player
    does that when they choose to."""
    with transaction.atomic():
        record = locked_game(game_id)
        if record.status != GameRecord.Status.PLAYING or user_id not in record.players:
            return []
        game = warm_engines.engine_for(record)
        mark = len(game.events)
        game.set_trustee(record.players.index(user_id), True, "disconnect")
        return commit_locked(record, game, mark)
