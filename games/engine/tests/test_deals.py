"""The hidden hands the search samples (games.engine.deals)."""

from __future__ import annotations

import random

import pytest

from games.engine import deals
from games.engine.ai import decide, position_from_game
from games.engine.cards import NATURAL_RANKS, RANK_COUNT, RANK_INDEX
from games.engine.deal_check import run
from games.engine.deals import Dealer
from games.engine.game import Game
from games.engine.position import position_from_actions
from games.engine.presets import PRESETS


def played_until(ruleset: str, seed: str, others_left: int):
    """A seeded expert game played until the seat to act sees at most ``others_left``
    cards in the other hands; that seat's position."""
    rules = PRESETS[ruleset]
    game = Game.deal(rules, list(range(rules.players)), seed)
    while game.status == "playing":
        position = position_from_game(game, game.turn)
        if sum(position.hand_counts) - position.hand_counts[position.seat] <= others_left:
            return position
        action = decide(position, bot="expert")
        if action == "pass":
            game.pass_turn(game.turn, by="bot")
        else:
            game.play(game.turn, action, by="bot")
    raise AssertionError("the game ended first")


def late_position():
    """A late qq position with a rank of four or more cards the seat has not seen."""
    for index in range(40):
        position = played_until("qq", f"deals:{index}", 36)
        if any(position.unseen()[rank] >= 4 for rank in NATURAL_RANKS):
            return position
    raise AssertionError("no seed gives a late position with four unseen of a rank")


def bomb_ranks(position, hands) -> int:
    return sum(hands[seat][rank] >= 4 for seat in range(position.seats)
               if seat != position.seat for rank in NATURAL_RANKS)


@pytest.mark.parametrize("make", [
    lambda: played_until("qq", "deals:opening", 81),
    late_position,
    lambda: played_until("tcy", "deals:tcy", 20),
])
def test_a_deal_gives_every_seat_its_count_and_keeps_the_seats_own_hand(make):
    position = make()
    rng = random.Random(7)
    dealer = Dealer(position)
    for _ in range(50):
        hands = dealer.deal(rng)
        assert hands[position.seat] == position.hand
        assert [sum(hand) for hand in hands] == list(position.hand_counts)
        for rank in range(RANK_COUNT):
            dealt = sum(hands[seat][rank] for seat in range(position.seats)
                        if seat != position.seat)
            # Four seats: every unseen card is in a hand; two: some were never dealt.
            if position.seats == 4:
                assert dealt == position.unseen()[rank]
            else:
                assert dealt <= position.unseen()[rank]


def test_late_in_a_game_the_unseen_cards_of_a_rank_are_dealt_as_bombs_more_often():
    # Sound players play their loose cards and keep their bombs: a plain shuffle of
    # the unseen cards breaks the bombs the other hands really hold.
    position = late_position()

    def bombs_dealt(dealer: Dealer) -> int:
        return sum(bomb_ranks(position, dealer.deal_once(random.Random(f"late:{i}")))
                   for i in range(300))

    # The same seeds both ways; the margin is far beyond what the seeds alone move.
    assert bombs_dealt(Dealer(position)) > 1.3 * bombs_dealt(Dealer(position, bombs=False))


@pytest.mark.parametrize("make", [
    lambda: played_until("qq", "deals:opening", 81),  # nothing played yet
    lambda: played_until("tcy", "deals:tcy", 20),  # cards never dealt are unseen too
])
def test_no_bomb_is_dealt_on_purpose_at_the_opening_or_with_undealt_cards(make, monkeypatch):
    position = make()

    def refuse(*args):
        raise AssertionError("a bomb was dealt on purpose")

    monkeypatch.setattr(deals, "_deal_bomb", refuse)
    rng = random.Random(3)
    dealer = Dealer(position)
    for _ in range(50):
        dealer.deal_once(rng)


def test_the_deal_check_compares_the_search_deals_and_a_plain_shuffle_with_the_truth():
    report = run(["expert"], games=1, deals=2, seed="check")
    row = report["expert"]
    assert row["positions"] > 5
    for name in ("search", "plain"):
        figures = row[name]
        # Both deal the same hidden cards, so they see the same true bombs.
        assert figures["true_bombs"] == row["plain"]["true_bombs"]
        assert 0 <= figures["bombs_found"] <= 1 and 0 < figures["cards_right"] <= 1


# Seat 0's hand: no 9 and no T, so every 9 and T it has not seen played is unseen.
OWN_HAND = "3 3 3 4 4 4 5 5 5 6 6 6 7 7 7 8 8 8 J J J Q Q Q K K K"


def after_a_lead_of(cards: str):
    """Seat 0's position after seat 1 led ``cards`` and seats 2 and 3 passed."""
    return position_from_actions(PRESETS["qq"], 0, OWN_HAND, 1,
                                 [[1, cards], [2, "pass"], [3, "pass"]])


def test_a_seat_that_played_a_rank_outside_a_bomb_has_broken_it():
    assert deals._broken_ranks(after_a_lead_of("9"))[1] == {RANK_INDEX["9"]}
    assert deals._broken_ranks(after_a_lead_of("9 9 9 9"))[1] == set()  # a bomb breaks none
    assert deals._broken_ranks(after_a_lead_of("9"))[2] == set()


def test_no_bomb_of_a_rank_is_dealt_on_purpose_to_a_seat_that_broke_it(monkeypatch):
    # Every rank of seven or eight unseen cards (9, T, A, 2 here) is dealt as a bomb,
    # however early; the others never are.
    monkeypatch.setattr(deals, "_BOMB_FACTOR", {4: 0, 5: 0, 6: 0, 7: 10 ** 6, 8: 10 ** 6})
    nine = RANK_INDEX["9"]

    def nines_bombed_at_seat_1(position) -> int:
        rng = random.Random(11)
        dealer = Dealer(position)
        return sum(dealer.deal_once(rng)[1][nine] >= 4 for _ in range(200))

    # Seat 1 led a single 9: the 7 unseen 9s go as a bomb to seat 2 or 3, leaving it
    # three at most. Had it led a T, it would be dealt the 9s' bomb about a third of
    # the time.
    assert nines_bombed_at_seat_1(after_a_lead_of("9")) == 0
    assert nines_bombed_at_seat_1(after_a_lead_of("T")) > 30
