"""The table page (templates/games/table.html, static/js/table/) and the socket's
``hint`` message it uses (docs/protocol.md, "hints")."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import Level
from games.engine.cards import RANK_TOKENS, Counts, pack
from games.engine.expert import expert_move
from games.engine.game import Game
from games.engine.moves import legal_moves
from games.engine.patterns import best_beating
from games.engine.planner import plan
from games.engine.presets import PRESETS
from games.engine.records import reading_from_dict
from games.errors import ActionError
from games.live.hints import game_hints
from games.live.seating import room_quick_join, table_ready
from games.models import GameRecord, Table
from games.testing import live_helpers
from games.testing.html_helpers import json_block
from games.testing.live_helpers import (
    CARD_BY_CODE,
    TableClient,
    counts_of_codes,
    game_state,
    make_person,
    make_room,
    run,
    start_game,
)

# Each test talks on a channel-layer prefix of its own (games.testing.fixtures).
pytestmark = pytest.mark.usefixtures("private_channel_layer")

GAME_BUTTONS = {"play-button": "出牌", "pass-button": "过", "hint-button": "提示",
                "trustee-toggle": "托管", "leave-button": "离开对局"}



def button_label(html: str, element_id: str) -> str:
    match = re.search(rf'<button[^>]*id="{element_id}"[^>]*>(.*?)</button>', html, re.S)
    assert match, f"no button #{element_id}"
    return match.group(1).strip()


def seat_sections(html: str) -> dict[int, str]:
    """Seat index → the position the page puts it at."""
    return {int(index): position for index, position in re.findall(
        r'<section class="seat[^"]*"\s+id="seat-(\d)" data-seat="\d" data-position="(\w+)"',
        html)}


# --- the page -------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_table_page_needs_a_login(client):
    room = make_room()
    table_id = room_quick_join(user=make_person("bob"), room_id=room.pk).table_id

    response = client.get(reverse("table", args=[table_id]))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.django_db
def test_a_seated_player_gets_the_table_with_seats_hand_buttons_and_strings(client):
    room = make_room(bots_allowed=False)
    bob = make_person("bob")
    alice = make_person("alice")
    level, _ = Level.objects.get_or_create(number=1, defaults={"title": "包身工",
                                                               "min_points": -10**9})
    room_quick_join(user=bob, room_id=room.pk)
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    client.force_login(alice)

    response = client.get(reverse("table", args=[table_id]))

    html = response.content.decode()
    assert response.status_code == 200
    # Four seats, placed from the viewer's seat (1) in playing order.
    assert seat_sections(html) == {1: "bottom", 2: "right", 3: "top", 0: "left"}
    assert 'data-my-seat="1"' in html
    assert ">bob<" in html and ">alice<" in html
    assert 'id="hand"' in html and 'id="hand-area"' in html
    for element_id, label in GAME_BUTTONS.items():
        assert button_label(html, element_id) == label
    assert button_label(html, "ready-button") == "准备"
    assert button_label(html, "stand-button") == "离座"
    assert 'id="result-panel"' in html and 'id="leave-dialog"' in html
    strings = json_block(html, "table-strings")
    assert strings["pass"] == "过" and strings["big_joker"] == "大王"
    assert "%(seconds)s" in strings["seconds"]
    config = json_block(html, "table-config")
    assert config["user"] == alice.pk and config["table"] == table_id
    assert config["socket"] == f"/ws/table/{table_id}/"
    assert config["deadline"] is None
    assert [seat["user"] for seat in config["table_state"]["seats"]] == [bob.pk, alice.pk,
                                                                          None, None]
    assert config["titles"]["1"] == level.title  # the ladder, for the seats' titles
    assert '<script type="module" src="/static/js/table/main.js">' in html
    assert "css/table.css" in html


@pytest.mark.django_db
def test_a_spectator_gets_the_table_without_a_hand_or_seat_buttons(client):
    room = make_room(bots_allowed=False)
    table_id = room_quick_join(user=make_person("bob"), room_id=room.pk).table_id
    client.force_login(make_person("carol"))

    response = client.get(reverse("table", args=[table_id]))

    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-my-seat=""' in html
    assert seat_sections(html) == {0: "bottom", 1: "right", 2: "top", 3: "left"}
    assert re.search(r'<section class="hand-area"[^>]*\bhidden\b', html)
    assert re.search(r'<button[^>]*id="ready-button"[^>]*\bhidden\b', html)
    assert re.search(r'<button[^>]*id="sit-button"[^>]*>入座</button>', html)
    for element_id, label in GAME_BUTTONS.items():
        assert button_label(html, element_id) == label  # present, shown by the page's script
    assert json_block(html, "table-strings")["spectating"]


@pytest.mark.django_db
def test_a_running_game_gives_the_page_its_turn_deadline(client):
    room = make_room()
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    table_ready(user=alice)  # bots fill the table, the game starts
    record = GameRecord.objects.get(table_id=table_id)
    client.force_login(alice)

    html = client.get(reverse("table", args=[table_id])).content.decode()

    config = json_block(html, "table-config")
    assert config["deadline"] == record.deadline.isoformat()
    assert Table.objects.get(pk=table_id).status == Table.Status.PLAYING
    assert re.search(r'<button[^>]*id="ready-button"[^>]*\bhidden\b', html)  # not now


# --- hints: the order (no database) ----------------------------------------------------------

def hint_ranks(game: Game, seat: int) -> list[str]:
    hints = game_hints(game, seat)
    assert all(set(play) <= set(game.hands[seat]) for play in hints)
    return [" ".join(RANK_TOKENS[CARD_BY_CODE[code].rank] for code in play) for play in hints]


def test_hints_follow_with_natural_cards_before_wildcards_and_bombs_last():
    game = Game.from_hands(PRESETS["qq"], ["4 4 K", "5 5 8 7 7 7 7 BJ", "3", "6"], 0)
    game.play(0, "4 4")

    assert hint_ranks(game, 1) == [
        "5 5", "5 BJ", "7 7", "7 BJ", "8 BJ",  # pairs by rank; a natural pair first
        "7 7 7 7", "7 7 7 BJ",                 # then bombs: 4 stars, natural first,
        "7 7 7 7 BJ",                          # then 5 stars (RULES §5)
    ]


def test_hints_on_lead_are_every_pattern_the_plans_advice_first():
    # The whole hand is one pattern (BJ stands for a 3): it goes out at once.
    game = Game.from_hands(PRESETS["qq"], ["3 BJ", "5", "6", "7"], 0)

    assert hint_ranks(game, 0) == ["3 BJ", "3", "BJ"]


def test_a_lead_hint_is_the_plans_lead_not_the_lowest_card():
    # Smallest first would offer the 3; the plan leads its 连对 and keeps the 2 for control.
    game = Game.from_hands(PRESETS["qq"], ["3 4 4 5 5 6 6 2", "5", "6", "7"], 0)

    hints = hint_ranks(game, 0)
    assert hints[0] == "4 4 5 5 6 6"
    assert hints[1:3] == ["3", "2"]
    assert len(hints) == len(set(hints))


def test_hints_only_on_the_seats_own_turn():
    game = Game.from_hands(PRESETS["qq"], ["3 4", "5", "6", "7"], 0)

    # The message counts seats from 1, as the page does.
    with translation.override("en"), \
            pytest.raises(ActionError, match="it is seat 1's turn, not seat 3's"):
        game_hints(game, 2)


# --- the hint message ------------------------------------------------------------------------

def check_hints(reply: dict, client: TableClient) -> str:
    """Every hint is a legal play of the client's own cards that beats the play on the
    table (or leads); all of them, each once: the planner's advice first (the expert
    bot's choice, then the plan's groups), then the rest smallest first. Returns
    lead/follow."""
    hand = set(client.hand)
    over = reading_from_dict(client.current["reading"], client.rules) \
        if client.current else None
    plays = reply["plays"]
    assert plays, "a person is only asked to move when they can (auto-pass)"
    packed = []
    order = []
    for play in plays:
        assert len(set(play)) == len(play) and set(play) <= hand, play
        counts: Counts = counts_of_codes(play)
        reading = best_beating(counts, over, client.rules)
        assert reading is not None, f"{play} does not beat {client.current}"
        packed.append(pack(counts))
        order.append((reading.is_bomb, reading.power))
    assert len(set(packed)) == len(packed), "a play is offered twice"
    assert set(packed) == set(legal_moves(counts_of_codes(client.hand), over, client.rules))
    hand_counts = counts_of_codes(client.hand)
    advised = expert_move(hand_counts, over, client.current["seat"] if client.current else None,
                          client.seat, client.view["hand_counts"], client.rules)
    if advised is not None:
        assert packed[0] == pack(advised), "the planner's advice is not the first hint"
    groups = {pack(group.cards) for group in plan(hand_counts, client.rules).plain}
    advice = 1
    while advice < len(packed) and packed[advice] in groups:
        advice += 1
    assert order[advice:] == sorted(order[advice:]), "the rest is not smallest first"
    return "follow" if over else "lead"


async def hint_and_play(client: TableClient, game_id: int) -> str:
    """Ask for hints on this turn, check them, play the first one."""
    before = await live_helpers.db(game_state)(game_id)
    await client.send({"type": "hint", "ref": f"h{client.seq}"})
    reply = await client.expect("hints")
    assert reply["ref"] == f"h{client.seq}"
    assert reply["game"] == game_id and reply["seq"] == client.seq
    kind = check_hints(reply, client)
    assert await live_helpers.db(game_state)(game_id) == before  # a read: nothing changed
    smallest = reply["plays"][0]
    await client.send({"type": "play", "cards": smallest, "seq": client.seq})
    played = await client.expect("events", lambda message: any(
        event["type"] == "play" and event["by"] == "player" for event in message["events"]))
    mine = next(event for event in played["events"]
                if event["type"] == "play" and event["by"] == "player")
    assert sorted(mine["cards"]) == sorted(smallest)
    return kind


@pytest.mark.django_db(transaction=True)
def test_hints_are_the_players_own_legal_plays_advice_first_and_playable():
    room = make_room()
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        client = TableClient(alice, table_id)
        await client.connect()
        seen: dict[str, int] = {"lead": 0, "follow": 0}
        # The test's deal (dealt from its own seed) gives alice a turn on lead and one
        # following a play before her game ends.
        game_id = await start_game([client])
        while not (seen["lead"] and seen["follow"]):
            while client.status == "playing" and not client.my_turn:
                if client.need_snapshot:
                    client.need_snapshot = False
                    await client.send({"type": "snapshot"})
                await client.receive()
            if client.status != "playing":
                break
            seen[await hint_and_play(client, game_id)] += 1
        await client.close()
        assert client.errors == []
        return seen

    seen = run(scenario)
    assert seen["lead"] >= 1 and seen["follow"] >= 1, seen


@pytest.mark.django_db(transaction=True)
def test_a_spectator_and_a_player_out_of_turn_get_no_hints_but_a_clear_error():
    room = make_room()
    alice, bob, carol = make_person("alice"), make_person("bob"), make_person("carol")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    room_quick_join(user=bob, room_id=room.pk)

    async def scenario():
        people = [TableClient(alice, table_id), TableClient(bob, table_id)]
        for person in people:
            await person.connect()
        await start_game(people)
        for person in people:
            await person.drain()
        waiting = next(person for person in people if not person.my_turn)
        watcher = TableClient(carol, table_id)
        await watcher.connect()
        await watcher.send({"type": "hint", "ref": "w"})
        await waiting.send({"type": "hint", "ref": "o"})
        refused = [await watcher.expect("error"), await waiting.expect("error")]
        quiet = await watcher.silent(0.3)
        for client in (*people, watcher):
            await client.close()
        return refused, waiting, watcher, quiet

    (spectator, out_of_turn), waiting, watcher, quiet = run(scenario)
    assert spectator == {"type": "error", "message": "you are not playing in this game",
                         "ref": "w"}
    assert out_of_turn["ref"] == "o"
    assert out_of_turn["message"] == (f"it is seat {waiting.turn + 1}'s turn, "
                                      f"not seat {waiting.seat + 1}'s")
    assert quiet and not any(message["type"] == "hints"
                             for message in watcher.log + waiting.log)


@pytest.mark.django_db(transaction=True)
def test_a_hint_without_a_game_is_refused():
    room = make_room(bots_allowed=False)
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        client = TableClient(alice, table_id)
        await client.connect()
        await client.send({"type": "hint", "ref": 7})
        reply = await client.expect("error")
        await client.close()
        return reply

    assert run(scenario) == {"type": "error", "message": "no game is running at this table",
                             "ref": 7}
