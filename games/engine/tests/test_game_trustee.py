"""托管, timeouts and escapes (RULES §10, and §9 for tcy's escape)."""

from __future__ import annotations

import pytest

from games.engine.game import TIMEOUT_WARNING, Game
from games.engine.presets import PRESETS
from games.engine.tests.game_helpers import (
    assert_refused,
    check_invariants,
    codes_text,
    events_of,
    is_bomb_play,
    play_out,
    types_of,
)

QQ = PRESETS["qq"]
TCY = PRESETS["tcy"]


def bot_play(game: Game) -> str | None:
    """Let the 托管 move act; the cards it played as rank text, or None for a pass."""
    seat = game.turn
    first = game.bot_turn()[0]
    assert first["seat"] == seat and first["by"] == "bot"
    return codes_text(first["cards"]) if first["type"] == "play" else None


# --- the 托管 move ---------------------------------------------------------------------------

@pytest.mark.parametrize("hand, played", [
    ("5 5 3 K BJ", "3"),
    ("9 9 9 9 2 A", "9"),
    ("SJ BJ", "SJ"),
    ("2 BJ", "2"),
])
def test_on_lead_the_bot_plays_the_smallest_single(hand, played):
    game = Game.from_hands(QQ, [hand, "3", "4", "5"], 0)
    assert bot_play(game) == played


@pytest.mark.parametrize("lead, hand, played", [
    ("8", "3 9 J 2 BJ", "9"),
    ("6 6", "5 5 9 9 7 7 K K K K", "7 7"),
    ("9 9", "3 T BJ", "T BJ"),  # the wildcard makes the smallest pair that beats
    ("4 4 4", "3 3 3 8 8 8 Q Q Q", "8 8 8"),
    ("3 4 5 6 7", "5 6 7 8 9 T J", "5 6 7 8 9"),
    ("3 3 4 4 5 5", "6 6 7 7 8 8 9 9", "6 6 7 7 8 8"),
    ("2", "SJ BJ 3", "SJ"),
    ("SJ", "BJ 3", "BJ"),
])
def test_following_the_bot_plays_the_smallest_same_type_play_that_beats(lead, hand, played):
    game = Game.from_hands(QQ, ["A " + lead, hand, "3", "4"], 0, auto_pass=False)
    game.play(0, lead)
    assert bot_play(game) == played


@pytest.mark.parametrize("lead, hand", [
    ("A", "3 3 3 3 K"),  # only a bomb beats the ace
    ("3 4 5 6 7", "9 9 9 9 9 BJ"),
    ("K K", "A 7 7 7 7"),
])
def test_following_the_bot_never_bombs(lead, hand):
    game = Game.from_hands(QQ, ["A " + lead, hand, "3", "4"], 0)
    game.play(0, lead)
    assert game.turn == 1  # a bomb beats it, so no auto-pass
    assert bot_play(game) is None


def test_the_bot_passes_when_the_partner_is_winning():
    game = Game.from_hands(QQ, ["3 K", "4", "5 Q", "6"], 2)
    events = game.play(2, "Q")
    assert types_of(events) == ["play", "pass"]  # seat 3 cannot beat the queen
    assert game.turn == 0
    assert game.trustee_cards(0) is None
    assert bot_play(game) is None
    assert summary_of_last_trick(game) == ("trick", 2, 2)


def summary_of_last_trick(game: Game) -> tuple:
    trick = events_of(game.events, "trick")[-1]
    return ("trick", trick["winner"], trick["leader"])


def test_the_bot_passes_over_a_bomb_even_holding_a_bigger_one():
    game = Game.from_hands(QQ, ["5 5 5 5 3", "9 9 9 9 9 9", "3", "4"], 0)
    game.play(0, "5 5 5 5")
    assert game.turn == 1
    assert bot_play(game) is None


def test_the_bot_beats_an_opponent_even_when_its_partner_played_earlier_in_the_trick():
    game = Game.from_hands(QQ, ["3 K", "4 A", "5 Q", "6 J"], 0, auto_pass=False)
    game.play(0, "3")
    game.pass_turn(1)
    game.play(2, "5")
    game.play(3, "6")  # the opponent now wins the trick
    assert bot_play(game) == "K"


@pytest.mark.parametrize("lead, hand", [
    ("3 4 5 6 7", "9 A SJ SJ BJ BJ"),  # 9 + four jokers reads as a 5相 bomb of 9s
    ("3 3 4 4 5 5", "9 9 K SJ SJ BJ BJ"),  # 9 9 + four jokers reads as a 6相 bomb
    # 777 888 999 + three jokers as triples to T reads as the chain bomb 7777 8888 9999.
    ("3 3 3 4 4 4 5 5 5 6 6 6", "7 7 7 8 8 8 9 9 9 SJ SJ BJ BJ"),
])
def test_the_tcy_bot_never_bombs_with_four_wildcards(lead, hand):
    # RULES §10: never a bomb. With both jokers wild (RULES §9 tcy) a straight or
    # pairs chain made of one natural rank and four jokers is read as a bomb.
    game = Game.from_hands(TCY, ["A " + lead, hand], 0)
    game.play(0, lead)
    assert game.turn == 1
    events = game.bot_turn()
    assert not is_bomb_play(events[0])
    assert events[0]["type"] == "pass"


def test_the_tcy_bot_uses_wildcards_for_a_run_that_is_not_a_bomb():
    game = Game.from_hands(TCY, ["A 3 4 5 6 7", "9 T SJ SJ BJ BJ"], 0)
    game.play(0, "3 4 5 6 7")
    events = game.bot_turn()
    assert events[0]["type"] == "play"
    assert events[0]["reading"]["type"] == "straight"


def test_a_trustee_seat_is_played_by_the_bot_to_the_end():
    game = Game.deal(QQ, ["ann", "bob", "cy", "dee"], 21)
    for seat in range(4):
        game.set_trustee(seat, True, "disconnect")
    assert game.trustee == [True] * 4
    play_out(game)
    plays = events_of(game.events, "play")
    assert plays and all(event["by"] == "bot" for event in plays)
    check_invariants(game)


# --- timeouts ------------------------------------------------------------------------------------

LONG_HANDS = ["3 4 5 6 7 8 9 T J Q", "3 4 5 6 7 8 9 T J Q", "3 4 5 6 7 8 9 T J Q",
              "3 4 5 6 7 8 9 T J Q"]


def test_timeouts_warn_with_their_count_and_the_third_switches_to_trustee():
    game = Game.from_hands(QQ, LONG_HANDS, 0)
    for count in (1, 2, 3):
        while game.turn != 0:
            game.bot_turn()
        events = game.timeout(0)
        assert events[0]["type"] == "timeout" and events[0]["count"] == count
        assert events[0]["message"] == TIMEOUT_WARNING.format(count=count)
        assert f"你已经超时 {count} 次了" in events[0]["message"]
        if count < 3:
            assert types_of(events)[1] == "play" and events[1]["by"] == "timeout"
            assert game.trustee[0] is False
        else:
            assert events[1] == {**events[1], "type": "trustee", "seat": 0, "on": True,
                                 "reason": "timeouts"}
            assert events[2]["by"] == "timeout"
            assert game.trustee[0] is True
        assert game.timeouts[0] == count
    check_invariants(game)


def test_a_timeout_plays_the_trustee_move():
    game = Game.from_hands(QQ, ["5 9", "3 4 6", "3", "4"], 0)
    events = game.timeout(0)
    assert events[1]["type"] == "play" and codes_text(events[1]["cards"]) == "5"
    events = game.timeout(1)
    assert events[1]["type"] == "play" and codes_text(events[1]["cards"]) == "6"


def test_a_timeout_out_of_turn_is_refused():
    game = Game.from_hands(QQ, LONG_HANDS, 0)
    assert_refused(game, lambda: game.timeout(1), "turn")


def test_a_player_may_cancel_trustee_after_timeouts_and_the_next_timeout_resumes_it():
    game = Game.from_hands(QQ, LONG_HANDS, 0)
    for _ in range(3):
        while game.turn != 0:
            game.bot_turn()
        game.timeout(0)
    events = game.set_trustee(0, False)
    assert [(event["type"], event["on"]) for event in events] == [("trustee", False)]
    assert game.trustee[0] is False and game.timeouts[0] == 3
    while game.turn != 0:
        game.bot_turn()
    events = game.timeout(0)
    assert events[0]["count"] == 4
    assert [event["reason"] for event in events_of(events, "trustee")] == ["timeouts"]


def test_setting_trustee_to_what_it_already_is_writes_nothing():
    game = Game.from_hands(QQ, LONG_HANDS, 0)
    assert game.set_trustee(2, False) == []
    assert len(game.set_trustee(2, True, "disconnect")) == 1
    assert game.set_trustee(2, True) == []
    assert events_of(game.events, "trustee")[0]["reason"] == "disconnect"


def test_trustee_for_a_seat_that_does_not_exist_is_refused():
    game = Game.from_hands(QQ, LONG_HANDS, 0)
    assert_refused(game, lambda: game.set_trustee(4, True), "no seat")
    assert_refused(game, lambda: game.escape(-1), "no seat")


# --- escapes ------------------------------------------------------------------------------

def test_an_auto_play_escape_keeps_the_seat_in_trustee_to_the_end():
    game = Game.deal(QQ, ["ann", "bob", "cy", "dee"], 33, escape_mode="auto_play")
    events = game.escape(1)
    assert [(event["type"], event.get("reason")) for event in events] == [
        ("escape", None), ("trustee", "escape")]
    assert events[0]["mode"] == "auto_play"
    assert game.status == "playing" and game.trustee[1]
    assert_refused(game, lambda: game.set_trustee(1, False), "escaped")
    assert_refused(game, lambda: game.escape(1), "already left")
    play_out(game)
    # Settled normally (RULES §10): by places, no penalty.
    assert game.result.kou in ("double", "single", "draw")
    assert game.result.escaped is None and game.result.penalty == 0
    check_invariants(game)


def test_an_auto_play_escape_of_a_seat_already_in_trustee_adds_no_trustee_event():
    game = Game.deal(QQ, ["ann", "bob", "cy", "dee"], 33, escape_mode="auto_play")
    game.set_trustee(2, True, "disconnect")
    assert types_of(game.escape(2)) == ["escape"]
    assert_refused(game, lambda: game.set_trustee(2, False), "escaped")


def test_an_end_game_escape_stops_the_game_and_charges_the_escaper():
    game = Game.from_hands(QQ, ["7 7 7 7 7 7 3 4", "5 6 8", "9 T J", "Q K A"], 0)
    game.play(0, "7 7 7 7 7 7")  # a 6-star bomb: +6 for seat 0, −2 for each other
    events = game.escape(3)
    assert types_of(events) == ["escape", "end"]
    result = game.result
    assert (result.kou, result.escaped, result.penalty) == ("escape", 3, 12)
    assert result.base == [0, 0, 0, 0]
    assert result.contributions == [6, -2, -2, -2]
    assert result.scores == [6, -2, -2, -2 - 12]
    assert result.winners == [0, 2]
    assert game.status == "ended"
    check_invariants(game)


def test_an_end_game_escape_penalty_follows_the_tables_stake():
    game = Game.deal(QQ, ["ann", "bob", "cy", "dee"], 2, stake=5)
    game.escape(0)
    assert game.result.penalty == 60
    assert game.result.scores[0] == -60


def test_a_tcy_end_game_escape_pays_twelve_x_plus_the_single_kou_loss():
    game = Game.from_hands(TCY, ["8 8 8 8 8 8 3 4", "5 6 9"], 0)
    game.play(0, "8 8 8 8 8 8")  # 6相: the opponent's b = 4 (points), contribution 2
    events = game.escape(1)
    assert types_of(events) == ["escape", "end"]
    result = game.result
    assert result.penalty == 12 + 2 * 4
    assert result.contributions == [2, -2]
    assert result.scores == [2, -2 - 20]
    assert result.winners == [0] and result.finish == [0, 1]


def test_a_tcy_auto_play_escape_is_settled_by_the_cards_left():
    game = Game.deal(TCY.replace(escape_mode="auto_play"), ["ann", "bob"], 4)
    game.escape(game.turn)
    play_out(game)
    assert game.result.escaped is None
    assert game.result.cards_left == sum(game.counts[game.result.finish[1]])
    check_invariants(game)
