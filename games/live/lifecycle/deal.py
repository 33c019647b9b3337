"""The deal: a full, ready table's game, its seed, and the snapshot each seat gets with
it (RULES §2, §8, §9)."""

from __future__ import annotations

import copy
import hashlib
import secrets

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.engine.game import Game
from games.errors import ActionError
from games.hooks.deals import DealPlan, planned_deal
from games.live.bot_accounts import bot_user_ids
from games.live.broadcast import announce_seats, seat_group, send_after_commit
from games.live.lifecycle.steps import commit_locked
from games.live.series import is_private, series_for_deal
from games.live.snapshots import seat_view, table_state
from games.models import GameRecord, Room, Seat, Table
from ledger.models import Currency
from ledger.selectors import coin_wallets, point_balances
from ledger.services import LedgerError, balance_of, freeze_game_coins


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
    seed, previous = (plan.seed, plan.previous) if plan else (deal_seed(table), table.last_result)
    game = Game.deal(rules, players, seed, previous, stake=stake,
                     coins=room.is_coins, escape_mode=room.escape_mode, points=points)
    bots = bot_user_ids(players)
    record = GameRecord.objects.create(
        table=table, room=room, rule_set_name=rules.name, players=game.players,
        terms=room.money_terms(), series=series_for_deal(table, players),
        bot_level=room.bot_level, rated=room.rated and not is_private(table),
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
    commit_locked(record, game, 0)
    # After commit_locked: the bots' and 托管 moves it ran are in the engine, and the record
    # has its final seq and deadline.
    # The players' coins after the freeze, read here in the deal's transaction (all
    # four at once) rather than by each socket afterwards (docs/protocol.md, "wallet").
    wallets = coin_wallets(record.players)
    snapshots = deal_snapshots(table, record, game)
    for seat, snapshot in enumerate(snapshots):
        user_id = record.players[seat]
        # To the group the player's sockets are in now, so that a swapped player's
        # socket gets its own snapshot too rather than reading it on the database
        # thread: at a cold start that read queued for tens of seconds, and every
        # event of the table waited behind it in the socket.
        send_after_commit(seat_group(table.pk, listening[user_id]), {
            "type": "game.snapshot", "game": record.pk, "user": user_id,
            "snapshot": snapshot, "wallet": wallets[user_id]})
    # The public state the snapshots carry, read in this transaction: the same as a
    # read after commit, without the query.
    announce_seats(table.pk, table.room_id, snapshots[0]["table"])
    return record


def deal_snapshots(table: Table, record: GameRecord, game: Game) -> list[dict]:
    """Each seat's snapshot, by seat, as its socket would read it right after commit
    (games.live.snapshots.table_snapshot), built from the engine just dealt: four sockets
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


def deal_seed(table: Table) -> int:
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
