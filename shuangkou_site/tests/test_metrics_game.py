"""A game played over the table socket, seen through /metrics: every action's latency to
its commit and to its broadcast, the refusal, the sweeper's claim, the settlement,
the sockets open and the tables playing (docs/operations.md, "Metrics")."""

from __future__ import annotations

import asyncio

import pytest

from games.live.seating import room_quick_join
from games.live.sweeps import sweep_deadlines
from games.models import GameEvent
from games.testing.live_helpers import (
    connect_all,
    db,
    expire_turn,
    make_person,
    make_room,
    run,
    start_game,
)
from shuangkou_site.tests.metrics_helpers import TOKEN, Samples, sample, scrape_here, total

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow,
              pytest.mark.usefixtures("private_channel_layer")]



def actions_count(samples: Samples, stage: str) -> float:
    return sample(samples, "shuangkou_action_seconds_count", stage=stage)


def players_actions(game_id: int) -> int:
    """The plays and passes the people sent (not the bots', 托管's or timeouts')."""
    return sum(1 for data in GameEvent.objects.filter(game_id=game_id, type__in=["play", "pass"])
               .values_list("data", flat=True) if data.get("by") == "player")


def test_a_game_played_over_sockets_shows_in_the_metrics(settings):
    settings.METRICS_TOKEN = TOKEN
    room = make_room()
    alice, bob, watcher = make_person("alice"), make_person("bob"), make_person("watcher")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    seen: dict[str, Samples] = {}

    async def scenario() -> int:
        seen["before"] = await db(scrape_here)()
        clients = await connect_all(table_id, alice, bob, watcher)
        players, spectator = clients[:2], clients[2]
        seen["connected"] = await db(scrape_here)()
        game_id = await start_game(players)  # two bots fill the other seats
        seen["dealt"] = await db(scrape_here)()

        waiting = next(client for client in players if not client.my_turn)
        await waiting.send({"type": "pass", "seq": waiting.seq})  # not its turn
        await waiting.expect("error")
        waiting.errors.clear()

        await db(expire_turn)(game_id)
        seen["expired"] = await db(scrape_here)()
        assert await db(sweep_deadlines)() == 1  # the person to play times out
        for client in clients:
            await client.expect("events")

        await asyncio.gather(*(client.play_until_settled() for client in players),
                             spectator.follow_until_settled())
        seen["settled"] = await db(scrape_here)()
        for client in clients:
            assert client.errors == [], client
            await client.close()
        seen["closed"] = await db(scrape_here)()
        return game_id

    game_id = run(scenario)
    before, settled = seen["before"], seen["settled"]
    actions = players_actions(game_id)
    assert actions > 0

    for stage in ("committed", "broadcast"):
        assert actions_count(settled, stage) - actions_count(before, stage) == actions
    assert total(settled, "shuangkou_actions_refused_total") \
        - total(before, "shuangkou_actions_refused_total") == 1
    assert sample(settled, "shuangkou_sweeper_lag_seconds_count") \
        - sample(before, "shuangkou_sweeper_lag_seconds_count") == 1
    assert sample(settled, "shuangkou_settlement_lag_seconds_count") \
        - sample(before, "shuangkou_settlement_lag_seconds_count") == 1

    assert [sample(seen[moment], "shuangkou_sockets_open")
            for moment in ("before", "connected", "settled", "closed")] == [0, 3, 3, 0]
    assert [sample(seen[moment], "shuangkou_tables_playing")
            for moment in ("before", "connected", "dealt", "settled")] == [0, 0, 1, 0]
    assert sample(seen["expired"], "shuangkou_oldest_expired_turn_seconds") >= 1
    assert sample(seen["dealt"], "shuangkou_oldest_expired_turn_seconds") == 0
    assert sample(settled, "shuangkou_oldest_unsettled_game_seconds") == 0
