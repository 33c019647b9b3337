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


def test_a_reconnecting_player_acts_again_when_its_action_died_with_the_server():
    # The server stopped with the player's action unanswered: after reconnecting, the
    # snapshot shows the same turn, and the player must act again, not wait for events
    # that will never come (the restart test charged such a turn as a timeout).
    from websockets.asyncio.server import serve

    from games.loadtest.socket_player import ReconnectingBotClient

    events = sample_log("qq", 1)
    player = sample_players("qq")[0]
    seq = next(n for n in range(2, len(events))
               if (game := Game.replay(events[:n])).status == "playing"
               and game.turn == game.players.index(player))
    picture = json.dumps(snapshot(events[:seq], player))
    actions: list[dict] = []

    async def scenario() -> None:
        acted_twice = asyncio.Event()

        async def table(socket) -> None:
            await socket.send(picture)
            async for raw in socket:
                message = json.loads(raw)
                if message["type"] not in ("play", "pass"):
                    continue
                actions.append(message)
                if len(actions) == 1:
                    await socket.close(1012)  # stopped before acting on it
                    return
                acted_twice.set()

        async with serve(table, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            client = ReconnectingBotClient(f"ws://127.0.0.1:{port}", "session",
                                           "http://127.0.0.1", Stats(), think=0, jitter=0)
            running = asyncio.create_task(client.run(float("inf")))
            try:
                await asyncio.wait_for(acted_twice.wait(), 10)
            finally:
                running.cancel()

    asyncio.run(scenario())
    assert len(actions) == 2
    assert actions[0]["seq"] == actions[1]["seq"] == seq


def test_errors_are_told_by_code_most_frequent_first():
    stats = Stats(errors=[("stale", "a"), ("busy", "b"), ("stale", "c"), (None, "d"),
                          ("stale", "e")])
    assert stats.error_codes() == "stale: 3, busy: 1, None: 1"
    assert Stats().error_codes() == ""
