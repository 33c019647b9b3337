"""The scale-out shape: two ASGI server processes (uvicorn) on two ports share one
PostgreSQL and one Redis; four players, two on each server, play a whole game
over real WebSockets through to its settlement."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import async_to_sync

from accounts.models import User
from common.testing.server_helpers import served
from games.live.lifecycle.deal import derived_deal_seed
from games.live.seating import table_create, table_sit
from games.loadtest.socket_player import BotClient, Stats
from games.management.commands.loadtest_prepare import _session_for
from games.models import GameEvent, GameRecord
from games.testing.live_helpers import make_room
from ledger.audit import ledger_violations
from ledger.models import Currency
from ledger.services import balance_of

# Two uvicorn processes and a whole game over real WebSockets.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_two_server_processes_play_one_game_to_settlement(settings):
    room = make_room(bots_allowed=False, turn_seconds=60, first_turn_seconds=60)
    table = table_create(room)
    players = [User.objects.create_user(username=f"p{seat}") for seat in range(4)]
    for seat, user in enumerate(players):
        table_sit(user=user, table_id=table.pk, seat_index=seat)
    sessions = [_session_for(user) for user in players]
    with served(2) as ports:
        stats = Stats()
        clients = [BotClient(f"ws://127.0.0.1:{ports[seat % 2]}/ws/table/{table.pk}/",
                             sessions[seat], f"http://127.0.0.1:{ports[seat % 2]}", stats,
                             think=0.02, jitter=0) for seat in range(4)]

        async def play() -> None:
            until = time.perf_counter()  # one game: no new game after this one
            await asyncio.wait_for(
                asyncio.gather(*(client.run(until, keep_playing=False) for client in clients)),
                timeout=120)

        try:
            async_to_sync(play)()
        except TimeoutError:
            record = GameRecord.objects.filter(table=table).first()
            pytest.fail(f"the game did not finish: record {record and record.__dict__}, "
                        f"client errors {stats.errors}, actions {stats.actions}, "
                        f"clients {[(c.seat, c.seq, c.turn, c.playing) for c in clients]}")

    record = GameRecord.objects.get(table=table)
    assert record.status == GameRecord.Status.ENDED and record.settled_at is not None
    # Errors are (code, message), the message in the socket's language. The test
    # settings give sockets a burst no game reaches and each client acts once a turn,
    # with the seq it saw: no refusal of any code is expected, rate_limited included.
    assert [code for code, _ in stats.errors] == [], stats.errors
    # The server that dealt did so from this test's seed, passed through the environment.
    deal = GameEvent.objects.get(game=record, type="deal").data
    assert deal["seed"] == derived_deal_seed(settings.GAMES_DEAL_SEED, room=1,
                                             table_number=table.number, games=0)
    assert stats.games_settled == {record.pk}
    assert stats.actions >= 27, "every card was played by the clients themselves"
    points = [balance_of(user, Currency.POINT) for user in players]
    assert points == [record.settlement["points"][record.players.index(user.pk)]
                      for user in players]
    assert sorted(points) != [0, 0, 0, 0]
    assert ledger_violations() == []
