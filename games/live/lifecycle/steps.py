"""How a step is written, whoever takes it: the automatic moves that follow, every new
event in one statement (games.live.append), the table told once it has committed, then
what the step starts (the settlement, a strong bot's move)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from celery import current_app as celery_app  # the site's app (shuangkou_site.celery)
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine.game import Game, event_for
from games.errors import ActionError
from games.live import warm_engines
from games.live.append import Step, append_step
from games.live.broadcast import table_group
from games.live.lifecycle.automatic import run_automatic, turn_deadline
from games.live.step_io import ON_THREAD, StepIO, run_now
from games.live.strong_bots import enqueue_strong_move, is_strong_turn
from games.live.warm_engines import GameFacts, WarmGame
from games.models import GameRecord

logger = logging.getLogger("games.live.lifecycle")

# games.tasks.settle_game_task, named rather than imported: the task module calls this
# package, and queued messages refer to the task by this name anyway.
SETTLE_TASK = "games.tasks.settle_game_task"


@dataclass(frozen=True)
class Written:
    """A step written (None: there was nothing to write), its public events, and
    whether it left a strong bot the turn."""

    step: Step | None
    public: list[dict]
    strong: bool = False


async def write_step(warm: WarmGame, mark: int, io: StepIO) -> Written | None:
    """Run the automatic moves that follow, write every event after ``mark`` in one
    step (games.live.append) and, once it has committed, keep the engine and tell the
    table. None if the row was no longer at ``mark`` (nothing written, ``warm``
    dropped)."""
    step = _step_of(warm, mark)
    if step is None:
        warm_engines.remember(warm)
        return Written(None, [])
    if not await append_step(step, io.execute):
        return None
    # Read before the engine is kept: on the loop, the next step may move it on at once.
    strong = step.result is None and is_strong_turn(warm.facts, warm.game)
    public = [event_for(event, None) for event in step.events]
    io.after_commit(lambda: warm_engines.remember(warm))
    io.send(table_group(warm.facts.table_id), _events_message(step, public))
    return Written(step, public, strong)


async def follow_up(written: Written, io: StepIO) -> None:
    """What a written step starts once it has committed: the end of the game its
    settlement, a strong bot's turn its move (games.live.strong_bots; not waited for,
    so tables of strong bots keep the same p99)."""
    step = written.step
    if step is None:
        return
    if step.result is not None:
        await io.enqueue(_enqueue_settlement_robustly, step.game, wait=True)
    elif written.strong:
        await io.enqueue(enqueue_strong_move, step.game, step.seq, wait=False)


async def write_and_follow_up(warm: WarmGame, mark: int, io: StepIO) -> Written | None:
    written = await write_step(warm, mark, io)
    if written is not None:
        await follow_up(written, io)
    return written


def _step_of(warm: WarmGame, mark: int) -> Step | None:
    """The automatic moves that follow, then the step of every event after ``mark``
    (None if there is none), computed on ``warm``: nothing is written."""
    game, facts = warm.game, warm.facts
    run_automatic(facts, game)
    new = game.events[mark:]
    if not new:
        return None
    ended = game.status == "ended"
    return Step(game=facts.game_id, base=mark, events=new, turn=game.turn,
                deadline=turn_deadline(facts, game),
                result=game.result.to_dict() if ended else None,
                ended_at=timezone.now() if ended else None)


def _events_message(step: Step, public: list[dict]) -> dict:
    """The table group's message of a written step (docs/protocol.md, ``events``)."""
    return {"type": "game.events", "game": step.game, "seq": step.seq, "turn": step.turn,
            "deadline": step.deadline.isoformat() if step.deadline else None,
            "events": public}


def commit_locked(record: GameRecord, game: Game, mark: int) -> list[dict]:
    """Write the steps of ``game`` after ``mark`` with the game row locked (the deal,
    the sweeper's moves, a disconnect's 托管), and bring ``record`` up to date."""
    written = run_now(write_and_follow_up(WarmGame(GameFacts.of(record), game), mark,
                                           ON_THREAD))
    if written is None:  # the lock holds the row at the engine's seq: cannot happen
        raise RuntimeError(f"game {record.pk} moved while its row was locked")
    step = written.step
    if step is not None:
        record.seq, record.turn, record.deadline = step.seq, step.turn, step.deadline
        record.status, record.result, record.ended_at = step.status, step.result, step.ended_at
    return written.public


def locked_game(game_id: int) -> GameRecord:
    # of=("self",): lock the game row only. Without it PostgreSQL also locks the joined
    # room row, and every action at every table of the room queued on that one row.
    record = GameRecord.objects.select_for_update(of=("self",)).select_related("room") \
        .filter(pk=game_id).first()
    if record is None:
        raise ActionError(_("没有牌局 %(game)s"), {"game": game_id})
    return record


def enqueue_settlement(game_id: int) -> None:
    celery_app.signature(SETTLE_TASK, args=(game_id,)).delay()


def _enqueue_settlement_robustly(game_id: int) -> None:
    """After the game's last step committed: a broker that refuses the task must not
    turn it into an error for the player (whose socket would close and go to 托管).
    sweep_unsettled settles any game whose task was lost."""
    try:
        enqueue_settlement(game_id)
    except Exception:
        logger.exception("could not enqueue the settlement of game %s", game_id)
