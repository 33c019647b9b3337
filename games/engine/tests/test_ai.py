"""The bots of games.engine.ai: they see only their own seat, they always
answer a legal action, they repeat themselves for a seed, and the protocol and the
match runner drive them end to end. Work is fixed by ``max_samples`` with a huge
time budget, so nothing here depends on the clock."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.engine import match
from games.engine.ai import (
    Position,
    analyse,
    decide,
    position_from_actions,
    position_from_events,
    position_from_game,
)
from games.engine.cards import FULL_DECK, counts_of, format_cards, parse_cards
from games.engine.game import Game
from games.engine.presets import PRESETS
from games.engine.protocol import handle

CARD = {card.code: card for card in FULL_DECK}
BIG = 10**7  # a time budget that never binds: max_samples does
FEW = 3
HAND = "3 3 4 4 5 5 6 6 7 7 8 8 9 9 T T J J Q Q K K A A 2 2 BJ"


def random_game(ruleset: str, seed: int, stop_after: int) -> Game:
    """A dealt game played by the simple bot for ``stop_after`` actions (or to
    the last action before its end)."""
    rules = PRESETS[ruleset]
    game = Game.deal(rules, list(range(rules.players)), f"ai-test:{seed}")
    rng = random.Random(seed)
    for _ in range(stop_after):
        before = game.events[:]
        game.bot_turn(rng=rng)
        if game.status != "playing":
            return Game.replay(before)
    return game


def legal(game: Game, seat: int, action: str) -> bool:
    trial = Game.replay(copy.deepcopy(game.events))
    try:
        if action == "pass":
            trial.pass_turn(seat)
        else:
            trial.play(seat, action)
    except Exception:
        return False
    return True


# --- hidden information ------------------------------------------------------------------

def _reshuffle_others(events: list[dict], seat: int, seed: int) -> list[dict]:
    """The same public log with the cards the other seats still hold dealt among
    them anew (each keeps its count and the cards it has played; the 明牌 and its
    twin stay put)."""
    events = copy.deepcopy(events)
    deal = events[0]
    origin = list(range(len(deal["hands"])))  # seat now -> index in the deal
    for event in events:
        if event["type"] == "swap":
            a, b = event["seats"]
            origin[a], origin[b] = origin[b], origin[a]
    played = {code for event in events if event["type"] == "play" for code in event["cards"]}
    fixed = set()
    for event in events:
        if event["type"] == "reveal":
            fixed |= {event["card"], event["twin"]}
        if event["type"] == "first_lead" and "card" in event:
            fixed.add(event["card"])
    others = [s for s in range(len(origin)) if s != seat]
    pool = [code for s in others for code in deal["hands"][origin[s]]
            if code not in played and code not in fixed]
    random.Random(seed).shuffle(pool)
    for s in others:
        hand = deal["hands"][origin[s]]
        movable = [code for code in hand if code not in played and code not in fixed]
        kept = [code for code in hand if code in played or code in fixed]
        deal["hands"][origin[s]] = kept + [pool.pop() for _ in movable]
    assert not pool
    return events


@pytest.mark.parametrize("ruleset", ["qq", "tcy", "jinyou", "classic"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_bot_never_sees_other_hands(ruleset, seed):
    game = random_game(ruleset, seed, stop_after=7 * seed)
    seat = game.turn
    other = _reshuffle_others(game.events, seat, seed)
    assert other[0]["hands"] != game.events[0]["hands"] or ruleset == "tcy"
    mine = position_from_events(game.events, seat)
    theirs = position_from_events(other, seat)
    assert mine == theirs
    for bot in ("strong", "table", "trustee"):
        assert decide(mine, bot=bot, seed=5, budget_ms=BIG, max_samples=FEW) == \
            decide(theirs, bot=bot, seed=5, budget_ms=BIG, max_samples=FEW)


def test_the_position_holds_no_other_hand():
    game = random_game("qq", 4, stop_after=5)
    position = position_from_events(game.events, game.turn)
    assert isinstance(position, Position)
    for value in vars(position).values():
        assert "hands" not in repr(type(value))
    assert position.hand == tuple(
        sum(1 for code in game.hands[game.turn] if CARD[code].rank == rank) for rank in range(15))
    assert position.hand_counts == tuple(len(hand) for hand in game.hands)


def test_positions_from_events_and_from_actions_agree():
    rules = PRESETS["qq"]
    dealt = Game.deal(rules, [0, 1, 2, 3], "agree")
    hands = [format_cards(counts) for counts in dealt.counts]
    game = Game.from_hands(rules, hands, dealt.turn, auto_pass=False)
    actions = []
    rng = random.Random(9)
    for _ in range(30):
        seat = game.turn
        events = game.bot_turn(rng=rng)
        play = next(event for event in events if event["type"] in ("play", "pass"))
        actions.append([seat, "pass" if play["type"] == "pass" else
                        format_cards(counts_of(CARD[code] for code in play["cards"]))])
    seat = game.turn
    from_actions = position_from_actions(rules, seat, hands[seat], dealt.turn, actions)
    assert from_actions == position_from_events(game.events, seat)


# --- legal answers ------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["qq", "tcy", "jinyou", "classic"])
def test_decide_answers_a_legal_action(ruleset):
    rng = random.Random(ruleset)
    for trial in range(6):
        game = random_game(ruleset, 100 + trial, stop_after=rng.randrange(0, 80))
        seat = game.turn
        position = position_from_events(game.events, seat)
        for bot in ("strong", "table", "trustee"):
            action = decide(position, bot=bot, seed=trial, budget_ms=BIG, max_samples=FEW)
            assert action == "pass" or action == format_cards(parse_cards(action))
            assert legal(game, seat, action), (ruleset, trial, bot, action)


def test_strong_plays_whole_games_legally():
    for ruleset in ("qq", "tcy"):
        rules = PRESETS[ruleset]
        game = Game.deal(rules, list(range(rules.players)), f"whole:{ruleset}")
        while game.status == "playing":
            seat = game.turn
            action = decide(position_from_game(game, seat), seed=1, budget_ms=BIG,
                            max_samples=2)
            if action == "pass":
                game.pass_turn(seat)
            else:
                game.play(seat, action)
        assert game.result is not None


def test_decide_is_repeatable_for_a_seed():
    game = random_game("qq", 8, stop_after=0)
    position = position_from_events(game.events, game.turn)
    answers = {decide(position, seed=3, budget_ms=BIG, max_samples=6) for _ in range(3)}
    assert len(answers) == 1


def test_one_legal_action_is_answered_without_search():
    # HAND holds no bomb (one BJ, no rank four times): over 三王炸弹 it can only pass.
    position = position_from_actions(PRESETS["qq"], 2, HAND, 1, [[1, "SJ SJ BJ"]])
    assert decide(position, budget_ms=BIG) == "pass"
    result = analyse(position, "pass", budget_ms=BIG)
    assert result["forced"] is True and result["loss"] == 0


def test_analyse_evaluates_the_played_action():
    game = random_game("qq", 12, stop_after=3)
    position = position_from_events(game.events, game.turn)
    best = decide(position, seed=2, budget_ms=BIG, max_samples=8)
    # The worst-looking legal action: the trustee move when leading is the lowest single.
    played = decide(position, bot="trustee")
    result = analyse(position, played, seed=2, budget_ms=BIG, max_samples=8)
    assert set(result) >= {"best", "best_value", "played_value", "loss", "forced"}
    assert result["loss"] >= 0
    assert result["loss"] == pytest.approx(result["best_value"] - result["played_value"])
    assert legal(game, game.turn, result["best"])
    same = analyse(position, best, seed=2, budget_ms=BIG, max_samples=8)
    assert same["played_value"] <= same["best_value"]
    with pytest.raises(ValueError):
        analyse(position, "BJ BJ BJ", budget_ms=BIG, max_samples=2)


# --- building positions from actions -------------------------------------------------------

@pytest.mark.parametrize("actions, seat, why", [
    ([], 1, "turn"),
    ([[0, "5 5"]], 2, "turn"),
    ([[0, "pass"]], 1, "pass on lead"),
    ([[0, "5 6"]], 1, "not a pattern"),
    ([[0, "5 5"], [1, "4 4"]], 2, "does not beat"),
    ([[0, "5 5"], [1, "SJ SJ BJ BJ"]], 2, "elsewhere"),
    ([[0, "5 5 5"]], 0, "hold"),
    ([[0, "5 5"], [1, "pass"], [2, "pass"], [3, "pass"], [0, "7 7"], [1, "2 2 2"]], 2, "beat"),
    ([[0, "5 5"], [1, "pass"], [2, "pass"], [3, "pass"], [1, "7 7"]], 0, "turn"),
])
def test_position_from_actions_refuses(actions, seat, why):
    with pytest.raises(ValueError, match=why):
        position_from_actions(PRESETS["qq"], seat, HAND, 0, actions)


# --- the protocol -------------------------------------------------------------------------

def test_protocol_decide():
    request = {"op": "decide", "ruleset": "qq", "seat": 1, "hand": HAND, "leader": 0,
               "actions": [[0, "5 5"]], "seed": 7, "budget_ms": 50}
    for bot in ("strong", "trustee", "table", "expert"):
        reply = handle({**request, "bot": bot})
        assert set(reply) == {"play"}
        play = reply["play"]
        assert play == "pass" or (parse_cards(play) and all(
            a <= b for a, b in zip(parse_cards(play), parse_cards(HAND))))
    assert handle({**request, "bot": "trustee"}) == {"play": "6 6"}
    # With a sample cap and a budget that never binds, the answer is the seed's alone.
    fixed = {**request, "budget_ms": 100_000, "max_samples": 6}
    assert handle(fixed)["play"] == handle(fixed)["play"]


@pytest.mark.parametrize("change", [
    {"seat": 2}, {"seat": 9}, {"bot": "oracle"}, {"hand": "3 3 4"}, {"hand": 5},
    {"actions": [[0, "pass"]]}, {"actions": "5 5"}, {"leader": "zero"}, {"budget_ms": 0},
    {"ruleset": "nope"}, {"seed": "x"},
])
def test_protocol_decide_errors(change):
    request = {"op": "decide", "ruleset": "qq", "bot": "strong", "seat": 1, "hand": HAND,
               "leader": 0, "actions": [[0, "5 5"]], **change}
    reply = handle(request)
    assert set(reply) == {"error"} and reply["error"]


# --- matches ------------------------------------------------------------------------------

def test_a_match_runs_end_to_end(capsys):
    match.main(["--a", "strong", "--b", "trustee", "--ruleset", "qq", "--deals", "2",
                "--seed", "4", "--json", "--no-progress", "--max-samples", "2"])
    report = json.loads(capsys.readouterr().out)
    assert report["deals"] == 2 and report["games"] == 4
    assert sum(report["kou"].values()) == 4
    assert sum(report["kou_won_by_a"].values()) == report["a_wins"]
    low, high = report["ci95"]
    assert low <= report["mean"] <= high
    assert len(report["values"]) == 2
    assert report["mean"] == pytest.approx(sum(report["values"]) / 2, abs=1e-3)
    assert report["decision_ms"]["count"] > 0
    assert report["decision_ms"]["median"] <= report["decision_ms"]["p99"]
    assert all(int(stars) >= 4 for stars in report["bombs_by_stars"])
    for stars, count in report["bombs_by_stars_a"].items():
        assert count <= report["bombs_by_stars"][stars]


def test_a_two_player_match_and_the_text_report():
    report = match.run_match("table", "trustee", "tcy", deals=2, seed=1)
    assert sum(report["kou"].values()) == 4
    assert report["decision_ms"] == {"median": None, "p99": None, "max": None, "count": 0}
    text = match.format_report(report)
    assert "A's team score per game" in text and "95% CI" in text


def test_a_time_limit_reports_the_deals_finished():
    report = match.run_match("table", "trustee", "qq", deals=5, seed=2, time_limit=0)
    assert report["stopped_early"] is True
    assert report["deals"] == 1 and report["requested_deals"] == 5
    assert sum(report["kou"].values()) == 2


def test_position_from_actions_takes_counts_and_refuses_impossible_ones():
    counts = parse_cards(HAND)
    assert position_from_actions(PRESETS["qq"], 1, counts, 0, [[0, "5 5"]]) == \
        position_from_actions(PRESETS["qq"], 1, HAND, 0, [[0, "5 5"]])
    with pytest.raises(ValueError, match="bad hand"):
        position_from_actions(PRESETS["qq"], 0, (27,) + (0,) * 14, 0, [])
    with pytest.raises(ValueError, match="15 counts"):
        position_from_actions(PRESETS["qq"], 0, (1, 2), 0, [])
