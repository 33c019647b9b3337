"""Illegal actions are refused with GameError and change nothing (RULES §3, §11),
and what each recipient may see (GUIDE: hidden information per recipient)."""

from __future__ import annotations

import pytest

from games.engine.game import Game, GameError, event_for
from games.engine.presets import PRESETS
from games.engine.tests.game_helpers import assert_refused, codes_in, public_codes

QQ = PRESETS["qq"]
HANDS = ["3 3 5 8 K", "4 4 6 9 A", "5 5 7 T 2", "6 6 8 J BJ"]


def new_game(**options) -> Game:
    return Game.from_hands(QQ, HANDS, 0, **options)


def test_playing_out_of_turn_is_refused():
    game = new_game()
    assert_refused(game, lambda: game.play(1, "4"), code="not_your_turn")
    assert_refused(game, lambda: game.pass_turn(2), code="not_your_turn")


def test_a_seat_that_is_not_at_the_table_is_refused():
    game = new_game()
    for seat in (-1, 4, True, "0", None, 0.0):
        assert_refused(game, lambda seat=seat: game.play(seat, "3"), code="no_such_seat")


def test_cards_the_player_does_not_hold_are_refused():
    game = new_game()
    error = assert_refused(game, lambda: game.play(0, "4"), code="rank_not_held")
    assert error.params == {"count": 1, "rank": "4"}
    error = assert_refused(game, lambda: game.play(0, "3 3 3"), code="rank_not_held")
    assert error.params == {"count": 3, "rank": "3"}
    assert_refused(game, lambda: game.play(0, [game.hands[1][0]]), code="cards_not_held")
    assert_refused(game, lambda: game.play(0, [game.hands[0][0]] * 2), code="cards_not_held")


def test_cards_that_are_no_pattern_are_refused():
    game = new_game()
    assert_refused(game, lambda: game.play(0, "3 5"), code="not_a_pattern")
    assert_refused(game, lambda: game.play(0, "3 3 5"), code="not_a_pattern")
    assert_refused(game, lambda: game.play(0, ""), code="empty_play")
    assert_refused(game, lambda: game.play(0, "3 Z"), code="unknown_card")


def test_a_play_that_does_not_beat_the_current_one_is_refused():
    game = new_game(auto_pass=False)
    game.play(0, "8")
    assert_refused(game, lambda: game.play(1, "6"), code="does_not_beat")
    assert_refused(game, lambda: game.play(1, "4 4"), code="does_not_beat")  # another type
    game.play(1, "9")
    assert_refused(game, lambda: game.play(2, "5 5"), code="does_not_beat")


def test_an_equal_play_does_not_beat():
    game = new_game(auto_pass=False)
    game.play(0, "5")
    game.pass_turn(1)
    assert_refused(game, lambda: game.play(2, "5"), code="does_not_beat")


def test_a_pass_on_lead_is_refused():
    game = new_game()
    assert_refused(game, lambda: game.pass_turn(0), code="pass_on_lead")


def test_a_reading_other_than_the_recorded_one_is_refused():
    game = Game.from_hands(QQ, ["5 6 7 8 BJ 3", "4", "4", "4"], 0)
    # RULES §4.1: 5 6 7 8 BJ is the straight to 9, never to 8.
    assert_refused(game, lambda: game.play(0, "5 6 7 8 BJ", {"type": "straight", "rank": "8"}),
                   code="read_otherwise")
    events = game.play(0, "5 6 7 8 BJ", {"type": "straight", "rank": "9"})
    assert events[0]["reading"]["rank"] == "9"
    assert events[0]["reading"]["filled"] == ["9"]


def test_actions_after_the_end_are_refused():
    game = Game.from_hands(QQ, ["A", "3", "A", "4"], 0)
    game.play(0, "A")
    game.play(2, "A")
    assert game.status == "ended"
    for seat in range(4):
        assert_refused(game, lambda seat=seat: game.play(seat, "3"), code="game_over")
        assert_refused(game, lambda seat=seat: game.pass_turn(seat), code="game_over")
        assert_refused(game, lambda seat=seat: game.timeout(seat), code="game_over")
        assert_refused(game, lambda seat=seat: game.set_trustee(seat, True), code="game_over")
        assert_refused(game, lambda seat=seat: game.escape(seat), code="game_over")
    assert_refused(game, game.bot_turn, code="game_over")


@pytest.mark.parametrize("hands, leader, code", [
    (["3 3 3 3 3", "3 3 3 3", "4", "5"], 0, "impossible_cards"),  # two decks hold eight
    (HANDS[:3], 0, "wrong_hands"),
    (HANDS, 4, "bad_leader"),
    (HANDS, -1, "bad_leader"),
    (HANDS, "0", "bad_leader"),
])
def test_from_hands_refuses_impossible_hands_and_leaders(hands, leader, code):
    with pytest.raises(GameError) as caught:
        Game.from_hands(QQ, hands, leader)
    assert caught.value.code == code


# --- views ------------------------------------------------------------------------------------

def test_the_deal_event_shows_only_hand_counts_to_seats_and_spectators():
    game = Game.deal(QQ, ["ann", "bob", "cy", "dee"], 17)
    deal = game.events[0]
    for seat in (None, 0, 1, 2, 3):
        shown = event_for(deal, seat)
        assert "hands" not in shown and "seed" not in shown
        assert shown["hand_counts"] == [27, 27, 27, 27]
        assert codes_in(shown) == set()
    assert "hands" in deal  # the stored log keeps them for replay


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    game = Game.deal(QQ, ["ann", "bob", "cy", "dee"], 17)
    game.bot_turn()
    public = public_codes(game)
    for seat in range(4):
        view = game.view(seat)
        assert view["hand"] == game.hands[seat]
        assert view["hand_counts"] == [len(hand) for hand in game.hands]
        others = {code for other, hand in enumerate(game.hands) if other != seat
                  for code in hand}
        assert codes_in(view) & others <= public
    spectator = game.view(None)
    assert spectator["hand"] is None
    assert codes_in(spectator) <= public
