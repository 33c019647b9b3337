"""A seated player's action: ``play``, ``pass``, ``trustee`` or ``leave``, checked on
the process's warm engine and written as one step (games.live.lifecycle.steps)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from common.metrics.action_clock import action_committed
from games.engine.game import Game, GameError
from games.errors import ActionError
from games.live import warm_engines
from games.live.append import row_seq
from games.live.lifecycle.steps import Written, follow_up, write_step
from games.live.refusals import engine_message
from games.live.step_io import ON_LOOP, ON_THREAD, StepIO, run_now
from games.live.timing import timed_action

# Tries of an action whose engine turned out to be behind the row (another process
# moved the game): the second has the committed state unless the game moves again.
ACT_ATTEMPTS = 3


def game_act(*, user_id: int, game_id: int, action: str, cards: str | list | None = None,
             reading: dict | None = None, on: bool | None = None,
             client_seq: int | None = None) -> list[dict]:
    """A seated player's action from sync code: :func:`game_act_on_loop` on Django's
    connection, inside the caller's transaction if there is one (games.live.step_io)."""
    return run_now(_game_act(io=ON_THREAD, user_id=user_id, game_id=game_id, action=action,
                             cards=cards, reading=reading, on=on, client_seq=client_seq))


async def game_act_on_loop(*, user_id: int, game_id: int, action: str,
                           cards: str | list | None = None, reading: dict | None = None,
                           on: bool | None = None, client_seq: int | None = None) -> list[dict]:
    """A seated player's action, from a table socket: ``play``, ``pass``, ``trustee``
    (on/off) or ``leave`` (an escape, RULES §10). ``client_seq`` is the last seq the
    client saw: an action based on an older state is refused as stale. Returns the
    public events.

    Runs on the event loop: the engine's work there, the step's one
    statement through the loop's own connections (games.live.action_pool), the
    database thread only for a game this process has not loaded yet."""
    return await _game_act(io=ON_LOOP, user_id=user_id, game_id=game_id, action=action,
                           cards=cards, reading=reading, on=on, client_seq=client_seq)


@timed_action
async def _game_act(*, io: StepIO, user_id: int, game_id: int, action: str, cards,
                    reading, on, client_seq: int | None) -> list[dict]:
    """The action, on ``io``'s path. Actions on one game take turns (on the loop:
    games.live.game_queue); what follows the step (the settlement's or a strong bot's
    task) is enqueued once the turn is over."""
    async with io.one_at_a_time(game_id):
        written = await _act(io, user_id, game_id, action, cards=cards, reading=reading,
                             on=on, client_seq=client_seq)
    await follow_up(written, io)
    return written.public


async def _act(io: StepIO, user_id: int, game_id: int, action: str, *, cards, reading, on,
               client_seq: int | None) -> Written:
    """Checked on this process's warm engine without reading the row, then written in
    one statement that lands only if the row is still where the engine was
    (games.live.append): if another process moved the game meanwhile, the
    engine is reloaded and the action checked again. A refusal is given only once the
    engine is known to be current, so it is never the answer to an old state."""
    for _attempt in range(ACT_ATTEMPTS):
        warm = warm_engines.take(game_id) or await io.load(game_id)
        if warm is None:
            raise ActionError(_("没有牌局 %(game)s"), {"game": game_id})
        mark = warm.seq
        try:
            _apply(warm.game, user_id, action, cards=cards, reading=reading, on=on,
                   client_seq=client_seq)
        except ActionError:
            # A refusal leaves the engine as it was. Unless the game is over (for good),
            # make sure the engine was not behind the row before giving it.
            if warm.game.status == "playing" and await row_seq(game_id, io.execute) != mark:
                continue  # behind: dropped, the next attempt loads the game afresh
            warm_engines.remember(warm)
            raise
        written = await write_step(warm, mark, io)
        if written is not None:
            if written.step is not None:
                action_committed()  # its latency (common.metrics), before the follow-up
            return written
        # The row moved on since this engine was current: it is dropped, and the next
        # attempt loads the game afresh.
    raise _busy()


def _busy() -> ActionError:
    return ActionError(_("牌局正忙，请重试"), code="busy")


def _apply(game: Game, user_id: int, action: str, *, cards, reading, on,
           client_seq: int | None) -> None:
    """Apply a player's action to ``game``; refuse it, leaving ``game`` unchanged."""
    if game.status != "playing":
        raise ActionError(_("本局已经结束"), code="game_over")
    if user_id not in game.players:
        raise ActionError(_("你没有参加这局牌"))
    seat = game.players.index(user_id)
    if client_seq is not None and client_seq != len(game.events):
        raise ActionError(
            _("操作已过期：牌局已到第 %(seq)s 步，你发送的是第 %(sent)s 步；"
                         "请重新获取牌局状态"),
            {"seq": len(game.events), "sent": client_seq}, code="stale")
    if action in ("play", "pass") and seat in game.escaped:
        # RULES §10 auto_play: the seat stays in 托管 to the end. Without this an
        # escaper could still move whenever 托管 has think time (bots' delay).
        raise ActionError(_("你已离开本局：托管将替这个座位打到结束"))
    try:
        if action == "play":
            game.play(seat, cards if cards is not None else "", reading)
        elif action == "pass":
            game.pass_turn(seat)
        elif action == "trustee":
            game.set_trustee(seat, bool(on), "player")
        elif action == "leave":
            game.escape(seat)
        else:
            raise ActionError(_("未知的操作 %(action)s"), {"action": repr(action)})
    except GameError as error:
        # Translated when shown, in the reader's language, from the refusal's code
        # and params (games.live.refusals).
        raise ActionError(engine_message(error)) from None
