"""Short scripted games with their expected events and scores (RULES §3, §6, §9).

Hands are rank text by seat (after any 明牌 swap); teams are {0, 2} and {1, 3}.
Each event is summarised as a tuple of its type and key fields.
"""

from __future__ import annotations

import pytest

from games.engine.game import Game
from games.engine.presets import PRESETS
from games.engine.tests.game_helpers import assert_refused, check_invariants, hand_text


def summary(event: dict) -> tuple:
    kind = event["type"]
    if kind == "play":
        reading = event["reading"]
        return ("play", event["seat"], reading["type"], reading.get("rank"), event["by"])
    if kind == "pass":
        return ("pass", event["seat"], event["by"])
    if kind == "out":
        return ("out", event["seat"], event["place"])
    if kind == "trick":
        return ("trick", event["winner"], event["leader"])
    if kind == "first_lead":
        return ("first_lead", event["seat"], event["reason"])
    if kind == "end":
        return ("end", event["result"]["kou"])
    return (kind,)


def run(game: Game, actions: list[tuple[int, str]]) -> Game:
    for seat, cards in actions:
        if cards == "pass":
            game.pass_turn(seat)
        else:
            game.play(seat, cards)
        check_invariants(game)
    return game


def test_qq_double_kou_with_a_six_star_bomb_by_the_first_out():
    game = Game.from_hands(PRESETS["qq"], ["3 7 7 7 7 7 7", "4 5", "9 9", "6 8"], 0)
    run(game, [(0, "7 7 7 7 7 7"), (0, "3"), (1, "5"), (2, "9"), (2, "9")])
    assert [summary(event) for event in game.events] == [
        ("deal",),
        ("first_lead", 0, "given"),
        ("play", 0, "bomb", "7", "player"),
        ("pass", 1, "auto"), ("pass", 2, "auto"), ("pass", 3, "auto"),
        ("trick", 0, 0),
        ("play", 0, "single", "3", "player"),
        ("out", 0, 1),
        ("play", 1, "single", "5", "player"),
        ("play", 2, "single", "9", "player"),
        ("pass", 3, "auto"), ("pass", 1, "auto"),
        ("trick", 2, 2),
        ("play", 2, "single", "9", "player"),
        ("out", 2, 2),
        ("end", "double"),
    ]
    assert game.events[2]["reading"]["stars"] == 6
    result = game.result
    # 双扣: the other two take places 3 and 4 in playing order after seat 2 (RULES §3).
    assert result.finish == [0, 2, 3, 1]
    assert result.multiplier == 4
    assert result.base == [4, -4, 4, -4]
    assert result.contributions == [6, -2, -2, -2]
    assert result.scores == [22, -18, 14, -18]
    assert result.winners == [0, 2]
    # The game ended at the second out: the losers keep their cards.
    assert (hand_text(game, 1), hand_text(game, 3)) == ("4", "6 8")
    assert game.status == "ended" and game.turn is None


def test_qq_draw_with_two_jiefeng_leads():
    game = Game.from_hands(PRESETS["qq"], ["A", "5 5", "3 4 4", "6 7"], 0)
    run(game, [(0, "A"), (2, "4 4"), (1, "5 5"), (3, "6"), (3, "7")])
    assert [summary(event) for event in game.events] == [
        ("deal",),
        ("first_lead", 0, "given"),
        ("play", 0, "single", "A", "player"),
        ("out", 0, 1),
        ("pass", 1, "auto"), ("pass", 2, "auto"), ("pass", 3, "auto"),
        ("trick", 0, 2),  # 接风: seat 0 went out with the last play, its partner leads
        ("play", 2, "pair", "4", "player"),
        ("pass", 3, "auto"),
        ("play", 1, "pair", "5", "player"),
        ("out", 1, 2),
        ("pass", 2, "auto"), ("pass", 3, "auto"),
        ("trick", 1, 3),  # 接风 again, to seat 1's partner
        ("play", 3, "single", "6", "player"),
        ("pass", 2, "auto"),
        ("trick", 3, 3),
        ("play", 3, "single", "7", "player"),
        ("out", 3, 3),
        ("end", "draw"),
    ]
    result = game.result
    assert result.finish == [0, 1, 3, 2]
    assert result.winners == [0, 2]  # the team of the first out wins a 平扣
    assert result.scores == [1, 0, 1, 0]


def test_qq_single_kou_ends_at_the_third_out():
    game = Game.from_hands(PRESETS["qq"], ["A", "5 5", "3 4 4 K", "6 7 8"], 0)
    run(game, [(0, "A"), (2, "4 4"), (1, "5 5"), (3, "6"), (2, "K"), (2, "3")])
    assert [summary(event) for event in game.events][14:] == [
        ("trick", 1, 3),
        ("play", 3, "single", "6", "player"),
        ("play", 2, "single", "K", "player"),
        ("pass", 3, "auto"),
        ("trick", 2, 2),
        ("play", 2, "single", "3", "player"),
        ("out", 2, 3),
        ("end", "single"),
    ]
    result = game.result
    assert (result.kou, result.finish, result.multiplier) == ("single", [0, 1, 2, 3], 1)
    assert result.scores == [2, -2, 2, -2]
    assert hand_text(game, 3) == "7 8"


def test_jinyou_draw_is_plus_minus_one_times_its_six_star_multiplier():
    game = Game.from_hands(PRESETS["jinyou"], ["A 9 9 9 9 9 9", "5 5", "3 4 4", "6 7"], 0)
    run(game, [(0, "9 9 9 9 9 9"), (0, "A"), (2, "4 4"), (1, "5 5"), (3, "6"), (3, "7")])
    result = game.result
    assert (result.kou, result.finish) == ("draw", [0, 1, 3, 2])
    assert result.base == [1, -1, 1, -1]
    assert result.multiplier == 2  # jinyou: 6★ ×2
    assert result.contributions == [6, -2, -2, -2]
    assert result.scores == [8, -4, 0, -4]


def test_classic_double_kou_with_the_heavenly_bomb_multiplies_by_five():
    game = Game.from_hands(PRESETS["classic"], ["3 SJ SJ BJ BJ", "4 5", "9 9", "6 8"], 0)
    run(game, [(0, "SJ SJ BJ BJ"), (0, "3"), (1, "5"), (2, "9"), (2, "9")])
    assert summary(game.events[2]) == ("play", 0, "joker_bomb", None, "player")
    result = game.result
    assert (result.kou, result.finish, result.multiplier) == ("double", [0, 2, 3, 1], 5)
    assert result.contributions == [0, 0, 0, 0]
    assert result.scores == [20, -20, 20, -20]


def test_tcy_ends_at_the_first_out_and_scores_by_the_cards_left():
    game = Game.from_hands(PRESETS["tcy"], ["3 8 8 8 8 8 8", "4 4 5 5 6 6 7 9 J Q K A"], 0)
    run(game, [(0, "8 8 8 8 8 8"), (0, "3")])
    assert [summary(event) for event in game.events] == [
        ("deal",),
        ("first_lead", 0, "given"),
        ("play", 0, "bomb", "8", "player"),
        ("pass", 1, "auto"),
        ("trick", 0, 0),
        ("play", 0, "single", "3", "player"),
        ("out", 0, 1),
        ("end", "double"),
    ]
    result = game.result
    # 12 cards left: 双扣, a = 4; the winner's 6相: b = 4 (points), contribution 2.
    assert (result.kou, result.cards_left, result.finish) == ("double", 12, [0, 1])
    assert result.multiplier == 4
    assert result.contributions == [2, -2]
    assert result.scores == [4 * 4 + 2, -(4 * 4 + 2)]


LOSER_HAND = "3 3 3 4 4 4 5 5 5 6 6 6 7 7 7 8 8 8 9 9 9 T T T J J J"


@pytest.mark.parametrize("cards_left, kou, score", [
    (1, "draw", 1), (6, "draw", 1), (7, "single", 2), (11, "single", 2),
    (12, "double", 4), (27, "double", 4),
])
def test_tcy_result_is_draw_single_or_double_by_cards_left(cards_left, kou, score):
    loser = " ".join(LOSER_HAND.split()[:cards_left])
    game = Game.from_hands(PRESETS["tcy"], [loser, "2"], 1)
    events = game.play(1, "2")
    assert [summary(event) for event in events] == [
        ("play", 1, "single", "2", "player"), ("out", 1, 1), ("end", kou)]
    assert game.result.cards_left == cards_left
    assert game.result.scores == [-score, score]


# --- auto-pass (过牌功能, RULES §3) ------------------------------------------------------------

def test_with_auto_pass_off_every_pass_is_an_explicit_action():
    game = Game.from_hands(PRESETS["qq"], ["3 7 7 7 7 7 7", "4 5", "9 9", "6 8"], 0,
                           auto_pass=False)
    game.play(0, "7 7 7 7 7 7")
    assert game.turn == 1
    run(game, [(1, "pass"), (2, "pass"), (3, "pass"), (0, "3"), (1, "5"), (2, "9"),
               (3, "pass"), (1, "pass"), (2, "9")])
    passes = [summary(event) for event in game.events if event["type"] == "pass"]
    assert passes == [("pass", seat, "player") for seat in (1, 2, 3, 3, 1)]
    assert game.result.scores == [22, -18, 14, -18]


def test_auto_pass_skips_only_players_who_cannot_beat_the_play():
    game = Game.from_hands(PRESETS["qq"], ["3 K", "4 4 4 4", "5 8", "6 A"], 0)
    events = game.play(0, "3")
    # Seat 1 holds no single above 3 but a bomb beats anything: it must choose.
    assert [summary(event) for event in events] == [("play", 0, "single", "3", "player")]
    assert game.turn == 1
    assert [summary(event) for event in game.pass_turn(1)] == [("pass", 1, "player")]
    events = game.play(2, "5")
    assert [summary(event) for event in events] == [("play", 2, "single", "5", "player")]
    events = game.play(3, "A")
    # Seat 0 (K) cannot beat the ace and is passed for; seat 1's bomb can.
    assert [summary(event) for event in events] == [
        ("play", 3, "single", "A", "player"), ("pass", 0, "auto")]
    assert game.turn == 1
    events = game.pass_turn(1)
    assert [summary(event) for event in events] == [
        ("pass", 1, "player"), ("pass", 2, "auto"), ("trick", 3, 3)]


def test_a_pass_does_not_stop_a_player_from_playing_later_in_the_trick():
    game = Game.from_hands(PRESETS["qq"], ["3 9 K", "4 T K", "5 J K", "6 Q K"], 0,
                           auto_pass=False)
    run(game, [(0, "3"), (1, "pass"), (2, "5"), (3, "6"), (0, "9"), (1, "T")])
    assert (game.current["seat"], game.current["reading"]["rank"]) == (1, "T")
    assert game.turn == 2


def test_the_trick_ends_when_everyone_else_has_passed_since_the_last_play():
    game = Game.from_hands(PRESETS["qq"], ["3 9 9", "4 T T", "5 J J", "6 Q Q"], 0,
                           auto_pass=False)
    run(game, [(0, "3"), (1, "4"), (2, "pass"), (3, "pass")])
    assert game.current is not None and game.turn == 0
    events = game.pass_turn(0)
    assert [summary(event) for event in events] == [("pass", 0, "player"), ("trick", 1, 1)]
    assert game.current is None and game.turn == 1


# --- 接风 (RULES §3) ----------------------------------------------------------------------------

def test_jiefeng_gives_the_lead_to_the_partner_with_explicit_passes():
    game = Game.from_hands(PRESETS["qq"], ["K", "3 4", "6 7", "8 9"], 0, auto_pass=False)
    run(game, [(0, "K"), (1, "pass"), (2, "pass")])
    events = game.pass_turn(3)
    assert [summary(event) for event in events] == [("pass", 3, "player"), ("trick", 0, 2)]
    assert (game.turn, game.leader, game.finish) == (2, 2, [0])
    assert_refused(game, lambda: game.pass_turn(2), "on lead")


def test_no_jiefeng_when_the_player_who_went_out_was_beaten():
    game = Game.from_hands(PRESETS["qq"], ["K", "A 3", "4 5", "6 7"], 0)
    run(game, [(0, "K"), (1, "A")])
    assert summary(game.events[-1]) == ("trick", 1, 1)
    assert game.turn == 1


def test_players_who_are_out_are_skipped():
    game = Game.from_hands(PRESETS["qq"], ["K", "3 9 A", "4 5 6", "7 8"], 0,
                           auto_pass=False)
    run(game, [(0, "K"), (1, "A"), (2, "pass"), (3, "pass")])
    assert summary(game.events[-1]) == ("trick", 1, 1)
    run(game, [(1, "3"), (2, "4"), (3, "7")])
    assert game.turn == 1  # seat 0 is out: the turn goes from seat 3 to seat 1
    assert_refused(game, lambda: game.pass_turn(0), "turn")
