"""One step of a game written at once: the step's events appended and the game row moved
to the step's seq, turn and deadline, if and only if the row is still at the seq the
step was computed from.

The check replaces the row lock of the live path: a process computes a step on its warm
engine (games.live.warm_engines) without reading the row, then writes it here. If
another process (or the sweeper, or a settlement) moved the game meanwhile, nothing is
written and the caller reloads the engine and tries again. It is one statement, so one
round trip and its own transaction when autocommit is on: the UPDATE takes the row's
lock, and a concurrent writer holding it makes this statement wait and then re-check
the seq (READ COMMITTED), so two steps from the same seq cannot both land.

The statement runs where the caller's step does (games.live.step_io): a table socket's
action from the event loop through the loop's own connections (games.live.action_pool),
the rest on Django's connection, inside the caller's transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from games.live.step_io import Execute
from games.models import GameEvent, GameRecord

_STEP_SQL = f"""
WITH moved AS (
    UPDATE {GameRecord._meta.db_table}
       SET seq = %(seq)s, turn = %(turn)s, deadline = %(deadline)s, status = %(status)s,
           result = %(result)s::jsonb, ended_at = %(ended_at)s
     WHERE id = %(game)s AND seq = %(base)s AND status = %(playing)s
 RETURNING id
)
INSERT INTO {GameEvent._meta.db_table} (game_id, seq, type, data, created_at)
SELECT moved.id, step.seq, step.type, step.data, now()
  FROM moved, jsonb_to_recordset(%(events)s::jsonb) AS step(seq integer, type text, data jsonb)
"""


_SEQ_SQL = f"SELECT seq FROM {GameRecord._meta.db_table} WHERE id = %(game)s"


@dataclass(frozen=True)
class Step:
    """A step of ``game``: its new events (seq ``base`` + 1 onwards) and the row after it."""

    game: int
    base: int
    events: list[dict]
    turn: int | None
    deadline: datetime | None
    result: dict | None = None  # set when the step ends the game
    ended_at: datetime | None = None

    @property
    def seq(self) -> int:
        return self.base + len(self.events)

    @property
    def status(self) -> str:
        return GameRecord.Status.ENDED if self.result is not None else GameRecord.Status.PLAYING


async def append_step(step: Step, execute: Execute) -> bool:
    """Write ``step`` if the game row is still playing at ``step.base``; return whether
    it was written. Nothing is written otherwise."""
    rowcount, _row = await execute(_STEP_SQL, _statement_params(step))
    return rowcount == len(step.events)


async def row_seq(game_id: int, execute: Execute) -> int | None:
    """The game row's seq (None: no such game)."""
    _rowcount, row = await execute(_SEQ_SQL, {"game": game_id})
    return None if row is None else row[0]


def _statement_params(step: Step) -> dict:
    rows = [{"seq": event["seq"], "type": event["type"], "data": event}
            for event in step.events]
    return {"game": step.game, "base": step.base, "seq": step.seq, "turn": step.turn,
            "deadline": step.deadline, "status": step.status,
            "result": None if step.result is None else json.dumps(step.result),
            "ended_at": step.ended_at, "playing": GameRecord.Status.PLAYING,
            "events": json.dumps(rows)}
