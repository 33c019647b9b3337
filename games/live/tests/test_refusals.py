"""Refusals on the table socket (docs/protocol.md, "Errors"): an error reaches only the
sender, echoes its ``ref``, and changes nothing (the game row, the event log and the
fold are compared before and after)."""

import json
import re

import pytest

from games.engine.patterns import best_beating, classify
from games.engine.records import reading_from_dict
from games.live.seating import room_quick_join
from games.testing.live_helpers import (
    CARD_BY_CODE,
    TableClient,
    counts_of_codes,
    db,
    events_of,
    game_state,
    make_person,
    make_room,
    pump,
    run,
    start_game,
    two_unmatched_cards,
)

pytestmark = pytest.mark.django_db(transaction=True)


class Table:
    """Two people and two bots in a game, and a person watching."""

    def __init__(self, a: TableClient, b: TableClient, spectator: TableClient) -> None:
        self.people = [a, b]
        self.spectator = spectator
        self.other_tabs: list[TableClient] = []  # more sockets a test opened

    @property
    def mover(self) -> TableClient:
        return next(client for client in self.people if client.my_turn)

    @property
    def idle(self) -> TableClient:
        return next(client for client in self.people if not client.my_turn)

    @property
    def everyone(self) -> list[TableClient]:
        return [*self.people, self.spectator]

    async def assert_quiet(self) -> None:
        """Nobody has a message left unread: refusals went to their senders alone, and
        set nothing off later. One wait for the whole test (the first client's); the
        others' messages would have been on their way as long."""
        for number, client in enumerate(self.everyone):
            assert await client.silent(0.2 if number == 0 else 0.05), client

    async def close(self) -> None:
        for client in [*self.everyone, *self.other_tabs]:
            await client.close()


def with_a_game(body, state: str = "any"):
    """Run ``body(table)`` with a game at ``state``: ``any``, ``lead`` (a person is on
    lead) or ``follow`` (a person must beat someone else's play)."""
    room = make_room()
    alice, bob, carol = make_person("alice"), make_person("bob"), make_person("carol")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        table = Table(TableClient(alice, table_id), TableClient(bob, table_id),
                      TableClient(carol, table_id))
        for client in table.everyone:
            await client.connect()
        await start_game(table.people)
        await table.spectator.drain(0.1)

        def reached() -> bool:
            mover = next((client for client in table.people if client.my_turn), None)
            if mover is None:
                return False
            if state == "lead":
                return mover.current is None
            if state == "follow":
                return mover.current is not None and mover.current["seat"] != mover.seat
            return True

        await pump(table.everyone, reached)
        try:
            result = await body(table)
            await table.assert_quiet()
            return result
        finally:
            await table.close()

    return run(scenario)


async def assert_refused(table: Table, sender: TableClient, message, match: str,
                         ref: object = "r-1") -> dict:
    """Send ``message`` (a dict, or raw text); the sender's next message is an error
    matching ``match``, with ``ref`` echoed; the game does not change. That nobody hears
    anything more is checked once, when the test's body is done (Table.assert_quiet):
    anything a refusal set off would still be unread then."""
    game_id = table.people[0].game_id
    before = await db(game_state)(game_id)
    if isinstance(message, str):
        await sender.send_text(message)
    else:
        await sender.send({**message, "ref": ref})
    error = await sender.receive()
    assert error["type"] == "error", error
    assert re.search(match, error["message"]), error["message"]
    assert error.get("ref") == (None if isinstance(message, str) else ref)
    assert await db(game_state)(game_id) == before
    return error


async def unheld_code(client: TableClient) -> str:
    """A card another seat still holds."""
    game_id = client.game_id
    deal = (await db(events_of)(game_id, "deal"))[0]
    played = {code for event in await db(events_of)(game_id, "play") for code in event["cards"]}
    others = {code for hand in deal["hands"] for code in hand} - set(client.hand) - played
    return sorted(others)[0]


def a_valid_play_that_does_not_beat(client: TableClient) -> list[str]:
    over = reading_from_dict(client.current["reading"], client.rules)
    by_rank: dict[int, list[str]] = {}
    for code in client.hand:
        by_rank.setdefault(CARD_BY_CODE[code].rank, []).append(code)
    for codes in by_rank.values():
        for size in (1, 2, 3):
            cards = codes[:size]
            counts = counts_of_codes(cards)
            if len(cards) == size and classify(counts, client.rules) is not None \
                    and best_beating(counts, over, client.rules) is None:
                return cards
    raise AssertionError("no valid play that fails to beat: a different deal is needed")


# --- the game refuses -----------------------------------------------------------------------

def test_a_play_out_of_turn_is_refused():
    async def body(table):
        idle = table.idle
        await assert_refused(table, idle, {"type": "play", "cards": idle.hand[:1],
                                           "seq": idle.seq}, r"it is seat \d's turn, not seat")
    with_a_game(body)


def test_a_play_of_cards_not_held_is_refused():
    async def body(table):
        mover = table.mover
        code = await unheld_code(mover)
        await assert_refused(table, mover, {"type": "play", "cards": [code], "seq": mover.seq},
                             "you do not hold all of those cards")
        rank = CARD_BY_CODE[code].token
        held = sum(1 for card in mover.hand if CARD_BY_CODE[card].token == rank)
        text = " ".join([rank] * (held + 1))
        # The message names the rank as a player reads it (games.live.refusals).
        label = {"T": "10", "SJ": "Small Joker", "BJ": "Big Joker"}.get(rank, rank)
        await assert_refused(table, mover, {"type": "play", "cards": text, "seq": mover.seq},
                             f"you do not hold {held + 1} × {label}")
    with_a_game(body)


def test_a_play_that_is_no_pattern_is_refused():
    async def body(table):
        mover = table.mover
        await assert_refused(table, mover, {"type": "play", "cards": two_unmatched_cards(mover),
                                            "seq": mover.seq}, "is not a valid pattern")
        await assert_refused(table, mover, {"type": "play", "cards": "3 X", "seq": mover.seq},
                             "unknown card 'X'")
        await assert_refused(table, mover, {"type": "play", "cards": [], "seq": mover.seq},
                             "a play needs at least one card")
    with_a_game(body)


def test_a_play_that_does_not_beat_the_current_play_is_refused():
    async def body(table):
        mover = table.mover
        cards = a_valid_play_that_does_not_beat(mover)
        await assert_refused(table, mover, {"type": "play", "cards": cards, "seq": mover.seq},
                             "does not beat")
    with_a_game(body, state="follow")


def test_a_play_read_otherwise_than_the_reading_asked_for_is_refused():
    async def body(table):
        mover = table.mover
        await assert_refused(table, mover, {"type": "play", "cards": mover.hand[:1],
                                            "reading": {"type": "bomb"}, "seq": mover.seq},
                             "not as the type 'bomb' asked for")
    with_a_game(body, state="lead")


def test_a_pass_on_lead_is_refused():
    async def body(table):
        mover = table.mover
        await assert_refused(table, mover, {"type": "pass", "seq": mover.seq},
                             "you are on lead: a pass is not allowed")
    with_a_game(body, state="lead")


def test_a_replayed_message_is_refused_as_stale():
    async def body(table):
        mover = table.mover
        sent = await mover.play_turn()
        for client in table.everyone:
            await client.expect("events")
            await client.drain(0.1)
        await assert_refused(table, mover, sent, rf"stale action: the game is at seq "
                             rf"{mover.seq}, you sent {sent['seq']}")
    with_a_game(body)


def test_an_action_with_a_stale_seq_is_refused():
    async def body(table):
        mover = table.mover
        move, _ = mover.choose("first")  # a play the rules would take, but for its seq
        await assert_refused(table, mover, {"type": "play", "cards": mover.codes_for(move),
                                            "seq": mover.seq - 1}, "stale action")
        await assert_refused(table, mover, {"type": "pass", "seq": "12"},
                             '"seq" must be the last sequence number you saw')
        # JSON's true is Python's True, an int: it is no seq.
        await assert_refused(table, mover, {"type": "pass", "seq": True},
                             '"seq" must be the last sequence number you saw')
    with_a_game(body)


def test_trustee_on_must_be_true_or_false():
    async def body(table):
        for on in ("false", 1, None):  # bool("false") is True: it turned 托管 on
            await assert_refused(table, table.idle, {"type": "trustee", "on": on},
                                 '"on" must be true or false')
    with_a_game(body)


def test_an_action_by_someone_not_in_the_game_is_refused():
    async def body(table):
        watcher = table.spectator
        seq = table.mover.seq
        cards = table.mover.hand[:1]
        await assert_refused(table, watcher, {"type": "play", "cards": cards, "seq": seq},
                             "you are not playing in this game")
        for kind in ("pass", "leave"):
            await assert_refused(table, watcher, {"type": kind, "seq": seq},
                                 "you are not playing in this game")
        await assert_refused(table, watcher, {"type": "trustee", "on": True},
                             "you are not playing in this game")
        # Sitting down or standing up is for waiting tables.
        await assert_refused(table, watcher, {"type": "sit"}, "a game is running")
        await assert_refused(table, table.idle, {"type": "stand"},
                             "leaving now is an escape")
    with_a_game(body)


# --- the socket refuses --------------------------------------------------------------------

def test_malformed_unknown_and_oversized_messages_are_refused():
    async def body(table):
        mover = table.mover
        await assert_refused(table, mover, '{"type": "play", "cards": [', "malformed JSON")
        await assert_refused(table, mover, '["play"]', 'a JSON object with a "type"')
        await assert_refused(table, mover, '{"type": 5}', 'a JSON object with a "type"')
        await assert_refused(table, mover, {"type": "cheat"}, "unknown message type 'cheat'")
        await assert_refused(table, mover, {"type": "play", "seq": mover.seq},
                             '"cards" must be a list of card codes or a text of ranks')
        await assert_refused(table, mover, {"type": "play", "cards": {"a": 1},
                                            "seq": mover.seq}, '"cards" must be')
        huge = json.dumps({"type": "play", "cards": "3 " * 2100, "seq": mover.seq})
        assert len(huge.encode()) > 4096
        await assert_refused(table, mover, huge, "at most 4096 bytes")
        # Just under the limit is read (and refused by the rules instead).
        fits = json.dumps({"type": "play", "cards": ["3S0"] * 500, "seq": mover.seq})
        fits = fits[:-1] + " " * (4096 - len(fits.encode())) + "}"
        assert len(fits.encode()) == 4096
        await assert_refused(table, mover, fits, "impossible cards|do not hold")
    with_a_game(body)


class StoppedClock:
    """The rate limit's clock (games.live.table_socket.clock), moved only by the test:
    the bucket refills exactly as much as the test says, whatever the machine's speed."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_beyond_the_rate_limit_is_refused_unread_until_the_bucket_refills(
        settings, monkeypatch):
    clock = StoppedClock()
    monkeypatch.setattr("games.live.table_socket.clock", clock)

    async def body(table):
        # A small limit, read by the sockets that connect from now on: a second tab of
        # the player on turn.
        settings.GAMES_SOCKET_RATE = {"per_second": 2.0, "burst": 3.0}
        mover = table.mover
        tab = TableClient(mover.user, mover.table_id)
        await tab.connect()
        table.other_tabs.append(tab)  # closed with the table: closing puts the seat in 托管
        game_id = mover.game_id
        before = await db(game_state)(game_id)
        for number in range(3):  # the burst: each is read and answered
            await tab.send({"type": "snapshot", "ref": number})
            assert (await tab.expect("snapshot"))["ref"] == number
        move, _ = mover.choose("first")
        play = {"type": "play", "cards": mover.codes_for(move), "seq": mover.seq}
        await tab.send({**play, "ref": "over"})  # the 4th message: over the limit
        refused = await tab.receive()
        assert refused == {"type": "error", "message": "too many messages: slow down",
                           "code": "rate_limited"}  # not read: no ref echoed
        await table.assert_quiet()
        assert await tab.silent(0.05)
        assert await db(game_state)(game_id) == before  # the play was dropped, not made
        clock.now += 0.5  # at 2 a second: one token back
        await tab.send({**play, "ref": "again"})
        events = await tab.expect("events")
        assert events["events"][0]["type"] == "play"
        assert events["events"][0]["seat"] == mover.seat
        assert events["events"][0]["by"] == "player"
        for client in table.everyone:
            await client.expect("events", lambda message: message["seq"] == events["seq"])
        await tab.send({"type": "snapshot", "ref": "empty"})  # that token is spent again
        assert (await tab.expect("error"))["code"] == "rate_limited"
        clock.now += 60  # a long pause refills no more than the burst
        for number in range(3):
            await tab.send({"type": "snapshot", "ref": f"late-{number}"})
            assert (await tab.expect("snapshot"))["ref"] == f"late-{number}"
        await tab.send({"type": "snapshot", "ref": "late-over"})
        assert (await tab.expect("error"))["code"] == "rate_limited"
        assert await tab.silent(0.05)
    with_a_game(body, state="lead")
