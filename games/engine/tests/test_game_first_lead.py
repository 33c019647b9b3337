"""Dealing and the first lead: 明牌 and the seat swap (RULES §2), and the other
rule sets' first-lead rules (RULES §9). Cases are found by searching seeds."""

from __future__ import annotations

import pytest

from games.engine.cards import FULL_DECK
from games.engine.game import Game, GameError
from games.engine.presets import PRESETS
from games.engine.tests.game_helpers import (
    assert_refused,
    check_invariants,
    events_of,
    play_out,
    types_of,
)

PLAYERS = ["ann", "bob", "cy", "dee"]
CARD_BY_CODE = {card.code: card for card in FULL_DECK}


def reveal_case(game: Game) -> str:
    reveal = events_of(game.events, "reveal")[0]
    if reveal["twin_holder"] == reveal["holder"]:
        return "both"
    if reveal["twin_holder"] == (reveal["holder"] + 2) % 4:
        return "opposite"
    return "beside"


def find_qq_deal(case: str) -> Game:
    for seed in range(500):
        game = Game.deal(PRESETS["qq"], PLAYERS, seed)
        if reveal_case(game) == case:
            return game
    raise AssertionError(f"no seed below 500 gives the 明牌 case {case!r}")


def dealt_hands(game: Game) -> list[list[str]]:
    """Hands by seat as dealt, before any swap, sorted like the game's."""
    return [sorted(hand, key=lambda code: (CARD_BY_CODE[code].rank, CARD_BY_CODE[code].suit
                                           or "", CARD_BY_CODE[code].copy))
            for hand in game.events[0]["hands"]]


@pytest.mark.parametrize("case", ["both", "opposite", "beside"])
def test_the_revealed_card_is_held_by_the_leader_and_its_twin_is_the_other_copy(case):
    game = find_qq_deal(case)
    reveal = events_of(game.events, "reveal")[0]
    card, twin = CARD_BY_CODE[reveal["card"]], CARD_BY_CODE[reveal["twin"]]
    assert (twin.rank, twin.suit, twin.copy) == (card.rank, card.suit, 1 - card.copy)
    hands = dealt_hands(game)
    assert reveal["card"] in hands[reveal["holder"]]
    assert reveal["twin"] in hands[reveal["twin_holder"]]
    assert game.turn == game.leader == reveal["holder"]
    assert events_of(game.events, "first_lead")[0]["reason"] == "reveal"
    check_invariants(game)


def test_twin_held_opposite_the_leader_moves_nobody():
    game = find_qq_deal("opposite")
    assert types_of(game.events) == ["deal", "reveal", "first_lead"]
    assert game.players == PLAYERS and game.swapped is None
    assert game.hands == dealt_hands(game)


def test_twin_held_beside_the_leader_swaps_its_holder_with_the_player_opposite():
    game = find_qq_deal("beside")
    reveal = events_of(game.events, "reveal")[0]
    leader, twin_holder = reveal["holder"], reveal["twin_holder"]
    opposite = (leader + 2) % 4
    assert types_of(game.events) == ["deal", "reveal", "swap", "first_lead"]
    assert events_of(game.events, "swap")[0]["seats"] == sorted((twin_holder, opposite))
    assert game.swapped == sorted((twin_holder, opposite))
    # Players and their hands move together; the leader stays put.
    expected_players = list(PLAYERS)
    expected_players[twin_holder], expected_players[opposite] = (PLAYERS[opposite],
                                                                 PLAYERS[twin_holder])
    assert game.players == expected_players
    hands = dealt_hands(game)
    assert game.hands[opposite] == hands[twin_holder]
    assert game.hands[twin_holder] == hands[opposite]
    assert game.hands[leader] == hands[leader]
    # The leader's partner now holds the twin.
    assert reveal["twin"] in game.hands[opposite]
    assert game.turn == leader
    check_invariants(game)


def test_leader_holding_both_copies_moves_nobody():
    game = find_qq_deal("both")
    reveal = events_of(game.events, "reveal")[0]
    assert types_of(game.events) == ["deal", "reveal", "first_lead"]
    assert {reveal["card"], reveal["twin"]} <= set(game.hands[reveal["holder"]])
    assert game.players == PLAYERS and game.hands == dealt_hands(game)


@pytest.mark.parametrize("seed", range(40))
def test_after_every_qq_deal_the_leaders_partner_or_the_leader_holds_the_twin(seed):
    game = Game.deal(PRESETS["qq"], PLAYERS, seed)
    reveal = events_of(game.events, "reveal")[0]
    leader = game.turn
    assert reveal["card"] in game.hands[leader]
    assert reveal["twin"] in game.hands[leader] + game.hands[(leader + 2) % 4]
    assert sorted(game.players) == sorted(PLAYERS)
    assert [len(hand) for hand in game.hands] == [27, 27, 27, 27]


def test_qq_reveals_every_game_whatever_the_previous_game():
    previous = {"first_out": "cy", "kou": "single"}
    game = Game.deal(PRESETS["qq"], PLAYERS, 7, previous)
    assert "reveal" in types_of(game.events)
    assert events_of(game.events, "first_lead")[0]["reason"] == "reveal"


def test_the_same_seed_deals_the_same_game_and_another_seed_another():
    first = Game.deal(PRESETS["qq"], PLAYERS, "table-9/game-3")
    again = Game.deal(PRESETS["qq"], PLAYERS, "table-9/game-3")
    other = Game.deal(PRESETS["qq"], PLAYERS, "table-9/game-4")
    assert first.events == again.events
    assert first.events[0]["hands"] != other.events[0]["hands"]


def test_a_deal_needs_the_rule_sets_number_of_different_players():
    with pytest.raises(GameError):
        Game.deal(PRESETS["qq"], PLAYERS[:3], 1)
    with pytest.raises(GameError):
        Game.deal(PRESETS["qq"], ["ann", "bob", "ann", "dee"], 1)
    with pytest.raises(GameError):
        Game.deal(PRESETS["tcy"], PLAYERS, 1)


# --- tcy: the holder of a random card leads ------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_tcy_deals_27_each_and_the_random_cards_holder_leads(seed):
    game = Game.deal(PRESETS["tcy"], ["ann", "bob"], seed)
    assert types_of(game.events) == ["deal", "first_lead"]
    first = game.events[1]
    assert first["reason"] == "random_card"
    assert first["card"] in game.hands[first["seat"]]
    assert game.turn == first["seat"]
    assert [len(hand) for hand in game.hands] == [27, 27]
    assert game.players == ["ann", "bob"]


def test_tcy_first_leads_fall_to_both_seats():
    leaders = {Game.deal(PRESETS["tcy"], ["ann", "bob"], seed).turn for seed in range(30)}
    assert leaders == {0, 1}


# --- jinyou: previous first out leads, seats kept, unless the last game was 双扣 ---------

@pytest.mark.parametrize("kou", ["single", "draw"])
def test_jinyou_previous_first_out_leads_with_seats_kept(kou):
    game = Game.deal(PRESETS["jinyou"], PLAYERS, 11, {"first_out": "cy", "kou": kou})
    assert types_of(game.events) == ["deal", "first_lead"]
    assert game.events[1]["reason"] == "previous_first_out"
    assert game.turn == 2
    assert game.players == PLAYERS and game.hands == dealt_hands(game)


def test_jinyou_reveals_after_a_double_kou():
    game = Game.deal(PRESETS["jinyou"], PLAYERS, 11, {"first_out": "cy", "kou": "double"})
    assert types_of(game.events)[:2] == ["deal", "reveal"]
    assert events_of(game.events, "first_lead")[0]["reason"] == "reveal"


def test_jinyou_reveals_in_the_first_game():
    game = Game.deal(PRESETS["jinyou"], PLAYERS, 11)
    assert types_of(game.events)[:2] == ["deal", "reveal"]


def test_jinyou_reveals_when_the_previous_first_out_has_left_the_table():
    game = Game.deal(PRESETS["jinyou"], PLAYERS, 11, {"first_out": "eve", "kou": "single"})
    assert types_of(game.events)[:2] == ["deal", "reveal"]


@pytest.mark.parametrize("seed, kou", [(3, "single"), (1, "draw"), (2, "double")])
def test_jinyou_next_game_follows_a_finished_game(seed, kou):
    first = play_out(Game.deal(PRESETS["jinyou"], PLAYERS, seed))
    assert first.result.kou == kou
    winner = first.players[first.result.finish[0]]
    second = Game.deal(PRESETS["jinyou"], first.players, 100 + seed,
                       {"first_out": winner, "kou": kou})
    if kou == "double":
        assert "reveal" in types_of(second.events)
    else:
        assert types_of(second.events) == ["deal", "first_lead"]
        assert second.players[second.turn] == winner
        assert second.players == first.players


# --- classic: a random player in the first game, after a 双扣 and after an escape; else
# the previous first out; seats fixed (RULES §9) -------------------------------------------

def test_classic_first_game_is_led_by_a_random_cards_holder_without_reveal():
    game = Game.deal(PRESETS["classic"], PLAYERS, 5)
    assert types_of(game.events) == ["deal", "first_lead"]
    first = game.events[1]
    assert first["reason"] == "random_card" and first["card"] in game.hands[first["seat"]]
    assert game.players == PLAYERS


@pytest.mark.parametrize("kou", ["single", "draw"])
def test_classic_games_after_a_single_or_draw_are_led_by_the_previous_first_out(kou):
    game = Game.deal(PRESETS["classic"], PLAYERS, 5, {"first_out": "dee", "kou": kou})
    assert types_of(game.events) == ["deal", "first_lead"]
    assert game.events[1]["reason"] == "previous_first_out"
    assert game.turn == 3
    assert game.players == PLAYERS and game.hands == dealt_hands(game)


@pytest.mark.parametrize("previous", [
    {"first_out": "dee", "kou": "double"},
    {"first_out": "dee", "kou": "escape"},
    # An escape in an auto_play room: the game ended by places, but someone escaped.
    {"first_out": "dee", "kou": "single", "escaped": True},
])
def test_classic_games_after_a_double_kou_or_an_escape_are_led_by_a_random_player(previous):
    leaders = set()
    for seed in range(40):
        game = Game.deal(PRESETS["classic"], PLAYERS, seed, previous)
        assert types_of(game.events) == ["deal", "first_lead"]
        first = game.events[1]
        assert first["reason"] == "random_card"
        assert first["card"] in game.hands[first["seat"]]
        assert game.players == PLAYERS
        leaders.add(first["seat"])
    assert leaders == {0, 1, 2, 3}  # not the previous first out every time


def test_random_then_winner_still_follows_the_previous_first_out_after_a_double_kou():
    # An operator's rule set saved with the older rule keeps its meaning.
    rules = PRESETS["classic"].replace(first_lead="random_then_winner")
    game = Game.deal(rules, PLAYERS, 5, {"first_out": "dee", "kou": "double"})
    assert game.events[1]["reason"] == "previous_first_out" and game.turn == 3


def test_the_first_lead_cannot_pass():
    game = Game.deal(PRESETS["classic"], PLAYERS, 5)
    assert_refused(game, lambda: game.pass_turn(game.turn), "on lead")
