"""A game's lifecycle, in one place: deal, every action, the end, settlement and the
table's reopening (RULES §2, §6, §8, §10).

Each step is one short transaction (GUIDE): check it with the engine, append its
events and update the row (seq, turn, deadline) in one statement that lands only if the
row is still at the step's seq (games.live.append), then notify the table. A player's
action needs no lock (:func:`game_act`); the deal, the sweeper and a disconnect lock
the row first. Refusals reach only the sender and change nothing. The game's end
enqueues its settlement (games.tasks, by the task's stable name); :func:`game_settle`
posts the money (games.settlement) and opens the table for the next game.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import random
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta

from celery import current_app as celery_app  # the site's app (shuangkou_site.celery)
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from common.metrics.action_clock import action_committed
from games.engine.game import Game, GameError, event_for
from games.errors import ActionError
from games.hooks.deals import DealPlan, planned_deal
from games.hooks.signals import table_reopened
from games.live import warm_engines
from games.live.append import Step, append_step, row_seq
from games.live.bot_accounts import bot_user_ids, stand_bots_if_alone
from games.live.broadcast import announce_seats, seat_group, send_after_commit, table_group
from games.live.refusals import engine_message
from games.live.series import end_series, series_for_deal
from games.live.snapshots import seat_view, table_state
from games.live.step_io import ON_LOOP, ON_THREAD, StepIO, run_now
from games.live.strong_bots import enqueue_strong_move, is_strong_turn, strong_move
from games.live.timing import (
    log_settlement_lag,
    log_strong_backstop,
    log_strong_move,
    log_sweep_lag,
    timed_action,
)
from games.live.warm_engines import GameFacts, WarmGame
from games.models import (
    BotLevel,
    GameEvent,
    GameRecord,
    PrivateTable,
    Room,
    Seat,
    Series,
    Table,
)
from games.settlement.settle import post_settlement
from ledger.models import Currency
from ledger.selectors import coin_wallets, point_balances
from ledger.services import LedgerError, balance_of, freeze_game_coins

logger = logging.getLogger(__name__)

# games.tasks.settle_game_task, named rather than imported: the task module calls this
# one, and queued messages refer to the task by this name anyway.
SETTLE_TASK = "games.tasks.settle_game_task"
MAX_AUTOMATIC_MOVES = 400  # a whole game is far fewer; a guard against a loop
# Tries of an action whose engine turned out to be behind the row (another process
# moved the game): the second has the committed state unless the game moves again.
ACT_ATTEMPTS = 3


def game_start(table: Table, seats: list[Seat], *, plan: DealPlan | None = None) -> GameRecord:
    """Deal a game at a full, ready table (call with the table locked): freeze the
    stakes in coin rooms (RULES §8), seat the players as the 明牌 swap says (§2).
    ``plan`` (or a registered planner's, games.hooks.deals) gives the seed and the
    previous game: a tournament's duplicate boards deal every table alike."""
    plan = plan or planned_deal(table)
    room = table.room
    rules = room.rule_set.as_rule_set()
    players = [seat.user_id for seat in seats]
    # Each player's sockets listen on the group of the seat they sat in before the deal
    # until the `table` message moves them: a 明牌 swap moves two players below.
    listening = {seat.user_id: seat.index for seat in seats}
    stake = _tcy_stake(room, rules, players) if rules.players == 2 else 1
    # classic's 等级倍率 (RULES §9): the seats' point balances now, frozen in the deal.
    points = point_balances(players) if rules.has_level_multiplier else None
    seed, previous = (plan.seed, plan.previous) if plan else (_deal_seed(table), table.last_result)
    game = Game.deal(rules, players, seed, previous, stake=stake,
                     coins=room.is_coins, escape_mode=room.escape_mode, points=points)
    bots = bot_user_ids(players)
    record = GameRecord.objects.create(
        table=table, room=room, rule_set_name=rules.name, players=game.players,
        terms=room.money_terms(), series=series_for_deal(table, players),
        bot_level=room.bot_level,
        bot_seats=sorted(seat for seat, user in enumerate(game.players) if user in bots))
    if game.players != players:  # the 明牌 swap moved two players (hands go with them)
        # Their `connected` flags go with them too: the flag is the player's socket, and
        # left behind it showed a bot as connected and the moved person as offline.
        connected = {seat.user_id: seat.connected for seat in seats}
        Seat.objects.filter(table=table).update(user=None)
        for seat in seats:
            seat.user_id = game.players[seat.index]
            seat.connected = connected[seat.user_id]
            seat.save(update_fields=["user", "connected"])
    if room.is_coins:
        users = User.objects.in_bulk(players)
        try:
            freeze_game_coins(game_key=record.ledger_key,
                              stakes=[(users[user], room.max_loss) for user in game.players])
        except LedgerError as error:
            raise ActionError(_("无法开局：%(error)s"), {"error": error}) from None
    table.status = Table.Status.PLAYING
    table.current_game = record
    table.waiting_since = None
    table.save(update_fields=["status", "current_game", "waiting_since"])
    # A grace left over from before the deal (an earlier occupant's) must not put
    # this game's player in 托管 (games.live.presence).
    Seat.objects.filter(table=table).update(ready_deadline=None, away_deadline=None)
    _commit(record, game, 0)
    # After _commit: the bots' and 托管 moves it ran are in the engine, and the record
    # has its final seq and deadline.
    # The players' coins after the freeze, read here in the deal's transaction (all
    # four at once) rather than by each socket afterwards (docs/protocol.md, "wallet").
    wallets = coin_wallets(record.players)
    for seat, snapshot in enumerate(_deal_snapshots(table, record, game)):
        user_id = record.players[seat]
        # To the group the player's sockets are in now, so that a swapped player's
        # socket gets its own snapshot too rather than reading it on the database
        # thread: at a cold start that read queued for tens of seconds, and every
        # event of the table waited behind it in the socket (issue #12).
        send_after_commit(seat_group(table.pk, listening[user_id]), {
            "type": "game.snapshot", "game": record.pk, "user": user_id,
            "snapshot": snapshot, "wallet": wallets[user_id]})
    announce_seats(table.pk, table.room_id)
    return record


def _deal_snapshots(table: Table, record: GameRecord, game: Game) -> list[dict]:
    """Each seat's snapshot, by seat, as its socket would read it right after commit
    (games.live.table_socket._snapshot), built from the engine just dealt: four sockets
    reading their snapshots at once at every deal queued on the process's one database
    thread, ahead of every table's actions. The public table state is read once; each
    message holds one seat's hand only (it goes to that seat's private group)."""
    table_public = table_state(table)
    snapshots = []
    for user_id in record.players:
        # A copy: the view shares lists with the engine, which the warm engines
        # (games.live.warm_engines) move on in place, maybe before the send is encoded.
        view = copy.deepcopy(seat_view(record, game, user_id))
        snapshots.append({"type": "snapshot", "table": table_public, "game": view,
                          "seq": view["seq"]})
    return snapshots


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

    Runs on the event loop (issue #12): the engine's work there, the step's one
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
    await _follow_up(written, io)
    return written.public


async def _act(io: StepIO, user_id: int, game_id: int, action: str, *, cards, reading, on,
               client_seq: int | None) -> Written:
    """Checked on this process's warm engine without reading the row, then written in
    one statement that lands only if the row is still where the engine was
    (games.live.append, issue #12): if another process moved the game meanwhile, the
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
        written = await _write_step(warm, mark, io)
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


def game_disconnected(*, user_id: int, game_id: int) -> list[dict]:
    """A seat's player went away (their last socket closed and the grace passed,
    games.live.presence): 托管 (RULES §10). Coming back does not cancel it: the player
    does that when they choose to."""
    with transaction.atomic():
        record = _locked(game_id)
        if record.status != GameRecord.Status.PLAYING or user_id not in record.players:
            return []
        game = warm_engines.engine_for(record)
        mark = len(game.events)
        game.set_trustee(record.players.index(user_id), True, "disconnect")
        return _commit(record, game, mark)


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
        if not _automatic_move(facts, game):
            if record.undelivered_since is not None:
                # The table may not have heard this turn begin (the channel layer failed,
                # GUIDE: a fault of the server never counts against a player). No timeout:
                # the turn's full time again; games.live.delivery gives it afresh once
                # the table has been told.
                record.deadline = turn_deadline(facts, game)
                record.save(update_fields=["deadline"])
                warm_engines.remember(WarmGame(facts, game))
                return []
            game.timeout(game.turn)
        return _commit(record, game, mark)


def game_settle(*, game_id: int) -> bool:
    """Post the points and coins of an ended game, store what each seat got, append
    the ``settled`` event and open the table for the next game. Idempotent: a
    settled game is left alone. Returns whether this call settled it."""
    with transaction.atomic():
        record = GameRecord.objects.select_for_update(of=("self",)) \
            .filter(pk=game_id).first()
        if record is None or record.status != GameRecord.Status.ENDED or record.settled_at:
            return False
        summary = post_settlement(record)
        record.settled_at = timezone.now()
        record.settlement = summary
        record.seq += 1
        event = {"seq": record.seq, "type": "settled", **summary}
        GameEvent.objects.create(game=record, seq=record.seq, type="settled", data=event)
        record.save(update_fields=["settled_at", "settlement", "seq"])
        log_settlement_lag(record)
        _reopen_table(record, record.result.get("escaped"))
        send_after_commit(table_group(record.table_id), {
            "type": "game.events", "game": record.pk, "seq": record.seq, "turn": None,
            "deadline": None, "events": [event]})
        table_reopened.send(sender=GameRecord, record=record)
    return True


# --- internals --------------------------------------------------------------------------

def _deal_seed(table: Table) -> int:
    """A fresh random seed; with settings.GAMES_DEAL_SEED set (tests only: it makes
    deals predictable), one derived from it and the table's place: see
    :func:`derived_deal_seed`."""
    base = settings.GAMES_DEAL_SEED
    if not base:
        return secrets.randbits(64)
    # The room's rank rather than its id: ids depend on what ran before in the same
    # database (other tests, other orders, other xdist workers), the deal must not.
    room = Room.objects.filter(pk__lte=table.room_id).count()
    games = GameRecord.objects.filter(table=table).count()
    return derived_deal_seed(base, room=room, table_number=table.number, games=games)


def derived_deal_seed(base: str, *, room: int, table_number: int, games: int) -> int:
    """The seed of the game after ``games`` games at table ``table_number`` of the
    ``room``-th room, under the fixed seed ``base``: the same on every run and in every
    process given the same base (servers a test starts get it through the environment)."""
    digest = hashlib.sha256(f"{base}:{room}:{table_number}:{games}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _tcy_stake(room: Room, rules, players: list[int]) -> int:
    """X: the stake of the lowest-level seated player (RULES §9 tcy tables)."""
    users = User.objects.in_bulk(players)
    stakes = []
    for user in users.values():
        amount = balance_of(user, Currency.COIN if room.is_coins else Currency.POINT)
        table_rows = rules.stakes_coins if room.is_coins else rules.stakes_points
        reached = [stake for needed, stake in table_rows if amount >= needed]
        stakes.append(reached[-1] if reached else table_rows[0][1])
    return min(stakes)


def _enqueue_settlement(game_id: int) -> None:
    celery_app.signature(SETTLE_TASK, args=(game_id,)).delay()


def _enqueue_settlement_robustly(game_id: int) -> None:
    """After the game's last step committed: a broker that refuses the task must not
    turn it into an error for the player (whose socket would close and go to 托管).
    sweep_unsettled settles any game whose task was lost."""
    try:
        _enqueue_settlement(game_id)
    except Exception:
        logger.exception("could not enqueue the settlement of game %s", game_id)


def _locked(game_id: int) -> GameRecord:
    # of=("self",): lock the game row only. Without it PostgreSQL also locks the joined
    # room row, and every action at every table of the room queued on that one row.
    record = GameRecord.objects.select_for_update(of=("self",)).select_related("room") \
        .filter(pk=game_id).first()
    if record is None:
        raise ActionError(_("没有牌局 %(game)s"), {"game": game_id})
    return record


def _bot_move(game: Game) -> None:
    # Seeded by the deal's seed and the step, not the row's id: the log alone then says
    # how each bot chose, and a test's games (dealt from its seed) play out the same on
    # every run, whatever ids the database hands out.
    game.bot_turn(rng=random.Random(f"{game.events[0]['seed']}:{len(game.events)}"))


def _run_automatic(facts: GameFacts, game: Game) -> None:
    """With no think time, bots and 托管 seats move at once, in the same step; never a
    strong bot, whose move is thought out off the live path (games.live.strong_bots)."""
    if settings.GAMES_BOT_THINK_SECONDS > 0:
        return
    for _move in range(MAX_AUTOMATIC_MOVES):
        if game.status != "playing" or is_strong_turn(facts, game) \
                or not _automatic_move(facts, game):
            return


def _automatic_move(facts: GameFacts, game: Game) -> bool:
    """Move for the seat to act if nobody is there to: a server bot plays its room's
    level's move (issue #15: ``easy`` the §10 托管 move, ``table`` its livelier own; a
    ``strong`` bot reaches here only when its deadline passed without its thought-out
    move, and plays the table move), a seat in 托管 the §10 move. False: a person's
    turn, nothing done."""
    seat = game.turn
    if seat in facts.bot_seats:
        if facts.bot_level == BotLevel.EASY:
            game.bot_turn()
        else:
            _bot_move(game)
    elif game.trustee[seat]:
        game.bot_turn()
    else:
        return False
    return True


def game_strong_move(*, game_id: int, seq: int) -> bool:
    """The strong bot to act at ``seq`` of ``game_id`` thinks and moves (issue #15):
    the body of games.tasks.strong_bot_move_task, on a worker, never on the live path.
    Reads the committed game without a lock, decides as that seat only
    (games.live.strong_bots.strong_move), and writes the move as one step from ``seq``
    (games.live.append), followed by the 托管 and bot moves after it as any step is.
    Does nothing, and returns False, if the game is no longer at ``seq`` waiting for a
    strong bot (someone else moved: the deadline's backstop, an escape, this task run
    twice) or moves on meanwhile. Returns whether it moved."""
    # One cheap read before the search: a stale task costs no thinking.
    if run_now(row_seq(game_id, ON_THREAD.execute)) != seq:
        return False
    warm = warm_engines.take(game_id)
    if warm is None or warm.seq > seq:
        warm = warm_engines.load(game_id)  # the committed game: read-only
    else:
        # The web processes may have moved the game since this worker's last step in
        # it: only their events are read (without the lock, unlike engine_for).
        warm_engines.catch_up(warm.game, game_id, seq)
    if warm is None:
        return False
    if warm.seq != seq or not is_strong_turn(warm.facts, warm.game):
        return False  # moved on meanwhile: the engine is not kept (it may be behind)
    game, seat = warm.game, warm.game.turn
    started = time.perf_counter()
    move = strong_move(game, seat)
    try:
        if move == "pass":
            game.pass_turn(seat, by="bot")
        else:
            game.play(seat, move, by="bot")
    except GameError:
        # The engine's contract is a legal action; should it fail, the seat still moves
        # (the table bot's move) rather than wait for its deadline.
        logger.error("strong bot's move %r refused in game %s at %s", move, game_id, seq)
        _bot_move(game)
    written = run_now(_write_and_follow_up(warm, seq, ON_THREAD))
    moved = written is not None and written.step is not None
    log_strong_move(game_id, seq, started, moved)
    return moved


def _commit(record: GameRecord, game: Game, mark: int) -> list[dict]:
    """Write the steps of ``game`` after ``mark`` with the game row locked (the deal,
    the sweeper's moves, a disconnect's 托管), and bring ``record`` up to date."""
    written = run_now(_write_and_follow_up(WarmGame(GameFacts.of(record), game), mark,
                                           ON_THREAD))
    if written is None:  # the lock holds the row at the engine's seq: cannot happen
        raise RuntimeError(f"game {record.pk} moved while its row was locked")
    step = written.step
    if step is not None:
        record.seq, record.turn, record.deadline = step.seq, step.turn, step.deadline
        record.status, record.result, record.ended_at = step.status, step.result, step.ended_at
    return written.public


@dataclass(frozen=True)
class Written:
    """A step written (None: there was nothing to write), its public events, and
    whether it left a strong bot the turn."""

    step: Step | None
    public: list[dict]
    strong: bool = False


async def _write_step(warm: WarmGame, mark: int, io: StepIO) -> Written | None:
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


async def _follow_up(written: Written, io: StepIO) -> None:
    """What a written step starts once it has committed: the end of the game its
    settlement, a strong bot's turn its move (games.live.strong_bots; not waited for,
    so tables of strong bots keep the same p99, issue #15)."""
    step = written.step
    if step is None:
        return
    if step.result is not None:
        await io.enqueue(_enqueue_settlement_robustly, step.game, wait=True)
    elif written.strong:
        await io.enqueue(enqueue_strong_move, step.game, step.seq, wait=False)


async def _write_and_follow_up(warm: WarmGame, mark: int, io: StepIO) -> Written | None:
    written = await _write_step(warm, mark, io)
    if written is not None:
        await _follow_up(written, io)
    return written


def _step_of(warm: WarmGame, mark: int) -> Step | None:
    """The automatic moves that follow, then the step of every event after ``mark``
    (None if there is none), computed on ``warm``: nothing is written."""
    game, facts = warm.game, warm.facts
    _run_automatic(facts, game)
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


def turn_deadline(facts: GameFacts, game: Game):
    """The deadline of the turn to play now, given its full time: after each step, and
    again after an outage (games.live.delivery)."""
    if game.status != "playing":
        return None
    seat = game.turn
    if is_strong_turn(facts, game):
        # The backstop of a strong bot's move thought out off the live path
        # (games.live.strong_bots): its think time, then the sweeper moves the seat.
        seconds = settings.GAMES_BOT_THINK_SECONDS + settings.GAMES_STRONG_BOT_BACKSTOP_SECONDS
    elif seat in facts.bot_seats or game.trustee[seat]:
        seconds = settings.GAMES_BOT_THINK_SECONDS
    elif game.plays == 0:
        seconds = facts.first_turn_seconds
    else:
        seconds = facts.turn_seconds
    return timezone.now() + timedelta(seconds=seconds)


def _reopen_table(record: GameRecord, escaped: int | None) -> None:
    table = Table.objects.select_for_update(of=("self",)).select_related("room") \
        .get(pk=record.table_id)
    finish = record.result["finish"]
    leavers = {record.players[seat] for seat in _left_seats(record, escaped)}
    table.status = Table.Status.WAITING
    table.current_game = None
    # The next first lead follows it (RULES §9); classic's is random after an escape,
    # also one an auto_play room played out.
    table.last_result = {"first_out": record.players[finish[0]], "kou": record.result["kou"],
                         "escaped": bool(leavers)}
    table.waiting_since = timezone.now()
    table.save(update_fields=["status", "current_game", "last_result", "waiting_since"])
    if leavers:
        end_series(table, Series.End.LEFT)  # a series is its players' (issue #14)
    bots = bot_user_ids(record.players)
    # Friends wait for one another at a private table (games.live.private_tables).
    deadline = None if PrivateTable.objects.filter(table=table).exists() else \
        timezone.now() + timedelta(seconds=table.room.ready_seconds)
    for seat in Seat.objects.filter(table=table, user__isnull=False):
        fields = ["user", "is_ready", "ready_deadline"]
        if seat.user_id in leavers:
            seat.user, seat.is_ready, seat.ready_deadline = None, False, None
            seat.connected = False  # the flag is the occupant's socket (games.live.seating)
            fields.append("connected")
        elif seat.user_id in bots:
            seat.is_ready, seat.ready_deadline = True, None
        else:
            seat.is_ready, seat.ready_deadline = False, deadline
        seat.save(update_fields=fields)
    stand_bots_if_alone(table)
    announce_seats(table.pk, table.room_id)


def _left_seats(record: GameRecord, escaped: int | None) -> set[int]:
    """Seats whose player escaped, in either escape mode."""
    seats = set() if escaped is None else {escaped}
    for data in GameEvent.objects.filter(game=record, type="escape") \
            .values_list("data", flat=True):
        seats.add(data["seat"])
    return seats
