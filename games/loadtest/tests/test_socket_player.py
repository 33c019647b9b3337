"""The load test's socket player (games.loadtest.socket_player) follows a game from
snapshots and events; here it is fed the messages a server sends, without a server."""

from __future__ import annotations

import asyncio
import json

from games.engine.game import Game
from games.engine.sample_games import sample_log, sample_players
from games.loadtest.socket_player import BotClient, Stats


class SentMessages:
    """Stands in for the WebSocket: keeps what the player sends."""

    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def snapshot(events: list[dict], player: int, game_id: int = 7) -> dict:
    game = Game.replay(events)
    view = game.view(game.players.index(player))
    settled = next((event for event in events if event["type"] == "settled"), None)
    view.update(id=game_id, deadline=None,
                settlement={"points": settled["points"], "coins": settled["coins"]}
                if settled else None)
    return {"type": "snapshot", "table": {}, "game": view, "seq": view["seq"]}


def player_for(events: list[dict], seq: int) -> tuple[BotClient, SentMessages]:
    client = BotClient("ws://unused", "session", "http://unused", Stats(), think=0, jitter=0)
    client.socket = SentMessages()
    asyncio.run(client._handle(snapshot(events[:seq], sample_players("qq")[0])))
    return client, client.socket


def test_a_snapshot_of_its_game_settled_counts_the_game_and_readies_for_the_next():
    # The events that ended and settled the game were lost; the snapshot asked for
    # after the gap shows the game settled: the player must not wait for them forever.
    events = sample_log("qq", 1)
    client, socket = player_for(events, 10)
    assert client.playing and client.game_id == 7

    asyncio.run(client._handle(snapshot(events, sample_players("qq")[0])))

    assert not client.playing
    assert 7 in client.stats.games_ended and 7 in client.stats.games_settled
    assert socket.sent[-1] == {"type": "ready"}


def test_a_finished_game_of_someone_else_is_not_taken_as_its_own():
    events = sample_log("qq", 1)
    client, socket = player_for(events, 10)

    asyncio.run(client._handle(snapshot(events, sample_players("qq")[0], game_id=6)))

    assert client.playing and client.game_id == 7
    assert client.stats.games_settled == set()


def test_events_fold_into_the_players_view_and_a_gap_asks_for_a_snapshot():
    events = sample_log("qq", 2)
    client, socket = player_for(events, 10)
    public = Game.replay(events).view(None)["history"]

    asyncio.run(client._handle({"type": "events", "game": 7, "seq": 12, "turn": None,
                                "deadline": None, "events": public[10:12]}))
    assert client.seq == 12
    asyncio.run(client._handle({"type": "events", "game": 7, "seq": 15, "turn": None,
                                "deadline": None, "events": public[13:15]}))
    assert client.seq == 12 and {"type": "snapshot"} in socket.sent
