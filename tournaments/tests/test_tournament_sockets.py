"""A 16-player tournament end to end with socket players: twelve people on the table
sockets (one closes their socket mid-round, one leaves a board: 托管 plays both to the
end), four bots for the no-shows. From the game logs alone: every table of a round
held the same cards seat by seat, and the standings recomputed from the logs are the
ones the tournament's socket and API show; the prizes are paid once and the ledger's
audit is clean."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from fair_play.models import EscapeRecord
from games.models import GameEvent
from games.testing.live_helpers import TableClient, run
from ledger.audit import ledger_violations
from ledger.models import Account, Currency, SystemAccount, Transaction
from tournaments import flow
from tournaments.models import Board, Entry, Tournament
from tournaments.registration import register
from tournaments.routing import websocket_urlpatterns
from tournaments.testing import (
    hands_by_board,
    make_due,
    make_people,
    make_template,
    open_scheduled,
    standings_from_logs,
)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("private_channel_layer")]

ROUNDS, BOARDS = 2, 2


class Watcher:
    """The tournament's socket, as the waiting page and the standings hold it."""

    def __init__(self, tournament_id: int, user=None) -> None:
        from channels.routing import URLRouter  # noqa: PLC0415

        self.communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns),
                                                  f"/ws/tournament/{tournament_id}/")
        if user is not None:
            self.communicator.scope["user"] = user
        self.states: list[dict] = []

    async def connect(self) -> dict:
        connected, _code = await self.communicator.connect(timeout=10)
        assert connected
        return await self.next()

    async def next(self, timeout: float = 400) -> dict:
        state = await self.communicator.receive_json_from(timeout=timeout)
        self.states.append(state)
        return state

    async def until(self, test, timeout: float = 400) -> dict:
        async def find():
            state = self.states[-1] if self.states else None
            while state is None or not test(state):
                state = await self.next()
            return state
        return await asyncio.wait_for(find(), timeout)


async def play_board(client: TableClient, played: set[int], *, quit_after: int | None = None,
                     leave: bool = False) -> bool:
    """Play this seat through one board (the next game not played yet); with
    ``quit_after`` moves, close the socket there (or ``leave``: escape). Returns
    whether the player is still there."""
    while client.view is None or client.game_id in played or client.status != "playing" \
            and client.settled is not None:
        if client.need_snapshot:
            client.need_snapshot = False
            await client.send({"type": "snapshot"})
        await client.receive(timeout=300)
    game_id = client.game_id
    moves = 0
    while client.settled is None:
        if client.need_snapshot:
            client.need_snapshot = False
            await client.send({"type": "snapshot"})
        elif client.my_turn and client.acted_at != client.seq:
            if quit_after is not None and moves >= quit_after:
                if leave:
                    await client.send({"type": "leave"})
                    await client.expect("events", lambda message: any(
                        event["type"] == "escape" for event in message["events"]))
                await client.close()
                return False
            await client.play_turn()
            moves += 1
        await client.receive(timeout=300)
    played.add(game_id)
    return True


async def person(user, tournament_id: int, *, quit_after: int | None = None,
                 leave: bool = False) -> None:
    """A person in the tournament: waits on the tournament's socket for each round,
    goes to their table, plays its boards; the quitter quits in round 1, board 1."""
    watcher = Watcher(tournament_id, user)
    await watcher.connect()
    client = None
    played: set[int] = set()
    for round_number in range(1, ROUNDS + 1):
        state = await watcher.until(lambda state, round_number=round_number:
                                    state["round"] >= round_number
                                    and str(user.pk) in state["tables"])
        table = TableClient(user, state["tables"][str(user.pk)])
        await table.connect()
        if client is not None:
            await client.close()
        client = table
        for board in range(1, BOARDS + 1):
            quitting = quit_after if round_number == 1 and board == 1 else None
            if not await play_board(client, played, quit_after=quitting, leave=leave):
                await watcher.communicator.disconnect()
                return
    await client.close()
    await watcher.communicator.disconnect()


def test_sixteen_players_duplicate_boards_matchpoints_and_prizes(settings):
    tournament = open_scheduled(make_template(rounds=ROUNDS, boards_per_round=BOARDS))
    people = make_people(12)
    for user in people:
        register(user=user, tournament_id=tournament.pk)
    make_due(tournament)
    assert flow.sweep() == 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    bots = list(Entry.objects.filter(tournament=tournament, is_bot=True)
                .values_list("user_id", flat=True))
    assert len(bots) == 4
    gone, left = people[0], people[1]

    async def scenario():
        watcher = Watcher(tournament.pk)
        await watcher.connect()
        await asyncio.gather(*(
            person(user, tournament.pk,
                   quit_after=2 if user in (gone, left) else None, leave=user == left)
            for user in people))
        return await watcher.until(lambda state: state["status"] == "finished"), watcher

    final, watcher = run(scenario, seconds=900)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    # every table of a round held the same cards, seat by seat (from the logs alone)
    hands = hands_by_board(tournament)
    assert sorted(hands) == [(r, b) for r in range(1, ROUNDS + 1) for b in range(1, BOARDS + 1)]
    for tables in hands.values():
        assert len(tables) == 4 and all(table == tables[0] for table in tables)
    # … and different boards are different deals
    assert len({str(tables[0]) for tables in hands.values()}) == ROUNDS * BOARDS

    # the standings recomputed from the logs are those shown (socket and API)
    entrants = list(Entry.objects.filter(tournament=tournament).order_by("pk")
                    .values_list("user_id", flat=True))
    from_logs = standings_from_logs(tournament, entrants)
    shown = [(row["user"], row["matchpoints"], row["score"]) for row in final["standings"]]
    assert shown == from_logs
    api = Client().get(f"/api/tournaments/{tournament.pk}").json()
    assert [(row["user"], row["matchpoints"], row["score"]) for row in api["standings"]] \
        == from_logs
    # the standings moved live, board by board
    boards_seen = [sum(row["boards"] for row in state["standings"])
                   for state in watcher.states if state["standings"]]
    assert len(set(boards_seen)) > 2 and boards_seen == sorted(boards_seen)

    # the one who closed their socket and the one who left were played by 托管 to the end
    for user in (gone, left):
        for board in Board.objects.filter(tournament=tournament, game__players__contains=[
                user.pk]).exclude(round=1, board=1):
            seat = board.game.players.index(user.pk)
            assert GameEvent.objects.filter(game=board.game, type="trustee",
                                            data__seat=seat, data__on=True).exists(), board
    # … and the one who left has the escape on record (the ban ladder counts it)
    assert EscapeRecord.objects.filter(user=left, kind="escape").count() == 1
    assert Entry.objects.get(tournament=tournament, user=left).left_at is not None

    # prizes: the top three people, once
    prizes = Transaction.objects.filter(kind="tournament_prize",
                                        key__startswith=f"tournament:{tournament.pk}:")
    assert prizes.count() == 3
    ranked_people = [row["user"] for row in final["standings"] if not row["bot"]]
    paid = dict(Entry.objects.filter(tournament=tournament, prize__gt=0)
                .values_list("user_id", "prize"))
    assert paid == dict(zip(ranked_people[:3], [540, 324, 216]))
    flow.advance(tournament.pk)
    flow.sweep()
    assert prizes.count() == 3
    pool = Account.objects.get(system=SystemAccount.PRIZE_POOL, currency=Currency.COIN)
    assert pool.balance == 0
    assert ledger_violations() == []
