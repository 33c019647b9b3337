"""Two uvicorn processes sharing one PROMETHEUS_MULTIPROC_DIR: a scrape of either adds up
both (docs/operations.md, "Metrics"). Four players, two on each process, play a game
over real WebSockets; one process's /metrics then counts every action of both, and
shows each process's event-loop lag and database pools under its own pid."""

from __future__ import annotations

import asyncio
import time
import urllib.request

import pytest
from asgiref.sync import async_to_sync

from accounts.models import User
from common.testing.server_helpers import served
from games.live.seating import table_create, table_sit
from games.loadtest.socket_player import BotClient, Stats
from games.management.commands.loadtest_prepare import _session_for
from games.testing.live_helpers import make_room
from shuangkou_site.tests.metrics_helpers import (
    TOKEN,
    Samples,
    label_values,
    parse_samples,
    sample,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]



def scrape(port: int) -> Samples:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/metrics",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return parse_samples(reply.read().decode())


def wait_for(port: int, ready, seconds: float = 30) -> Samples:
    """Scrape until ``ready(samples)``: the probes sample their pools once a second."""
    until = time.monotonic() + seconds
    while True:
        samples = scrape(port)
        if ready(samples) or time.monotonic() > until:
            return samples
        time.sleep(0.2)


def test_one_scrape_adds_up_both_server_processes(tmp_path):
    room = make_room(bots_allowed=False, turn_seconds=60, first_turn_seconds=60)
    table = table_create(room)
    players = [User.objects.create_user(username=f"p{seat}") for seat in range(4)]
    for seat, user in enumerate(players):
        table_sit(user=user, table_id=table.pk, seat_index=seat)
    sessions = [_session_for(user) for user in players]
    env = {"PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "METRICS_TOKEN": TOKEN}
    with served(2, env=env) as ports:
        stats = Stats()
        clients = [BotClient(f"ws://127.0.0.1:{ports[seat % 2]}/ws/table/{table.pk}/",
                             sessions[seat], f"http://127.0.0.1:{ports[seat % 2]}", stats,
                             think=0.02, jitter=0) for seat in range(4)]

        async def play() -> None:
            await asyncio.wait_for(asyncio.gather(*(
                client.run(time.perf_counter(), keep_playing=False) for client in clients)),
                timeout=120)

        async_to_sync(play)()
        assert [code for code, _ in stats.errors] == [], stats.errors
        samples = wait_for(ports[0], lambda samples: len(label_values(
            samples, "shuangkou_db_pool_connections", "pid")) == 2)
        other = scrape(ports[1])

    assert stats.actions >= 27
    for stage in ("committed", "broadcast"):
        assert sample(samples, "shuangkou_action_seconds_count", stage=stage) == stats.actions
    assert sample(samples, "shuangkou_settlement_lag_seconds_count") == 1
    # Both processes, each under its own pid, whichever is asked.
    pids = label_values(samples, "shuangkou_event_loop_lag_max_seconds", "pid")
    assert len(pids) == 2
    assert label_values(other, "shuangkou_event_loop_lag_max_seconds", "pid") == pids
    assert sample(samples, "shuangkou_event_loop_lag_seconds_count") > 0
    for pid in pids:
        assert sample(samples, "shuangkou_db_pool_max_connections", pool="default",
                      pid=pid) >= 1
        assert sample(samples, "shuangkou_db_pool_max_connections", pool="actions",
                      pid=pid) >= 1
    assert sample(samples, "shuangkou_tables_playing") == 0
