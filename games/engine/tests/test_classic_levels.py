"""Classic's 等级倍率 through a whole game and the protocol (RULES §9, §11): the seats'
point balances at the deal are written into the deal with the multiplier they give,
and the game's end and an escape score by them."""

from __future__ import annotations

import json

from games.engine.game import Game
from games.engine.presets import PRESETS
from games.engine.protocol import handle
from games.engine.tests.game_helpers import check_invariants, play_out

CLASSIC = PRESETS["classic"]
PLAYERS = ["ann", "bob", "cy", "dee"]


def test_the_deal_writes_the_point_balances_and_the_level_multiplier_they_give():
    game = Game.deal(CLASSIC, PLAYERS, 3, points=[90000, 4500, 2600, 800000])

    deal = game.events[0]
    assert deal["points"] == [90000, 4500, 2600, 800000]
    assert deal["level_multiplier"] == 3  # the fewest, 2600: 猎人 ×3
    assert game.level_multiplier == 3
    check_invariants(game)


def test_a_classic_game_scores_by_the_deals_level_multiplier_and_replays_the_same():
    game = play_out(Game.deal(CLASSIC, PLAYERS, 3, points=[90000, 4500, 2600, 800000]))
    result = game.result

    assert result.level_multiplier == 3
    assert result.multiplier % 3 == 0
    assert result.scores == [base * result.multiplier for base in result.base]
    replayed = Game.replay(json.loads(json.dumps(game.events)))
    assert replayed.result == result
    assert replayed.state() == game.state()


def test_a_classic_escape_pays_at_the_deals_level_multiplier():
    game = Game.deal(CLASSIC, PLAYERS, 3, points=[150000, 160000, 170000, 180000])
    game.escape(2)

    result = game.result
    assert result.kou == "escape" and result.escaped == 2
    assert (result.level_multiplier, result.multiplier, result.penalty) == (7, 7, 28)
    assert result.coin_penalty == 20  # coins: ×5 at most
    assert result.scores == [0, 0, -28, 0]


def test_without_balances_a_classic_deal_multiplies_by_one_and_says_nothing():
    game = Game.deal(CLASSIC, PLAYERS, 3)
    assert "points" not in game.events[0] and game.level_multiplier == 1


def test_other_rule_sets_ignore_point_balances():
    game = Game.deal(PRESETS["qq"], PLAYERS, 3, points=[5000, 5000, 5000, 5000])
    assert "points" not in game.events[0] and "level_multiplier" not in game.events[0]
    assert play_out(game).result.level_multiplier == 1


def test_the_score_op_takes_point_balances_and_says_the_level_multiplier():
    reply = handle({"op": "score", "ruleset": "classic", "finish": [0, 2, 1, 3],
                    "bombs": [{"seat": 1, "cards": "9 9 9 9 9 9"}],
                    "points": [300, 250, 9000, 12000]})

    # 双扣 × 3 (six cards, the losers') × 2 (250: 长工).
    assert reply == {"kou": "double", "multiplier": 6, "level_multiplier": 2,
                     "scores": [24, -24, 24, -24], "contributions": [0, 0, 0, 0]}


def test_bad_point_balances_get_an_error():
    for points in ([1, 2, 3], "100", [1, 2, 3, "4"], [1, 2, 3, True]):
        reply = handle({"op": "score", "ruleset": "classic", "finish": [0, 1, 2, 3],
                        "bombs": [], "points": points})
        assert set(reply) == {"error"} and "points" in reply["error"], reply
