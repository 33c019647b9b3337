"""Shared helpers for the game state-machine tests (no Django).

``check_invariants`` is the list of things that must hold after every step of
any game (RULES §2, §3, §6, §9, §11 and the GUIDE's "state = fold(events)" and
"hidden information is filtered per recipient"). ``assert_refused`` runs an
action that must be refused and proves it changed nothing.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable

import pytest

from games.engine.cards import FULL_DECK, Counts, counts_of, format_cards, parse_cards, unpack
from games.engine.game import Game, GameError, event_for
from games.engine.moves import legal_moves
from games.engine.patterns import BOMB_TYPES, classify
from games.engine.presets import PRESETS
from games.engine.scoring import BombRecord, bomb_record

CARD_BY_CODE = {card.code: card for card in FULL_DECK}
ALL_CODES = frozenset(CARD_BY_CODE)


# --- small conveniences ------------------------------------------------------------

def bomb(rules_name: str, seat: int, cards: str) -> BombRecord:
    """The record of a bomb ``cards`` played by ``seat`` under a preset."""
    rules = PRESETS[rules_name]
    reading = classify(parse_cards(cards), rules)
    assert reading is not None and reading.is_bomb, f"{cards} is not a bomb in {rules_name}"
    return bomb_record(seat, reading)


def hand_counts(game: Game, seat: int) -> Counts:
    return counts_of(CARD_BY_CODE[code] for code in game.hands[seat])


def hand_text(game: Game, seat: int) -> str:
    return format_cards(hand_counts(game, seat))


def legal_plays(game: Game) -> list[str]:
    """Every legal play for the seat to act, as canonical rank text, sorted."""
    moves = legal_moves(game.counts[game.turn], game.current_reading, game.rules)
    return sorted(format_cards(unpack(move)) for move in moves)


def codes_for(game: Game, seat: int, text: str) -> list[str]:
    """Physical cards from ``seat``'s hand for the ranks in ``text``."""
    wanted: Counter[int] = Counter()
    counts = parse_cards(text)
    picked = []
    for code in game.hands[seat]:
        rank = CARD_BY_CODE[code].rank
        if wanted[rank] < counts[rank]:
            wanted[rank] += 1
            picked.append(code)
    assert sum(wanted.values()) == sum(counts), f"seat {seat} does not hold {text}"
    return picked


def codes_text(codes: Iterable[str]) -> str:
    """Canonical rank text of physical cards."""
    return format_cards(counts_of(CARD_BY_CODE[code] for code in codes))


def events_of(events: Iterable[dict], kind: str) -> list[dict]:
    return [event for event in events if event["type"] == kind]


def types_of(events: Iterable[dict]) -> list[str]:
    return [event["type"] for event in events]


def snapshot(game: Game) -> tuple[str, int]:
    """The full state as canonical JSON, and the number of events."""
    return json.dumps(game.state(), sort_keys=True, ensure_ascii=False), len(game.events)


def assert_refused(game: Game, action: Callable[[], object], match: str | None = None, *,
                   code: str | None = None) -> GameError:
    """``action`` must raise GameError (with the refusal ``code``, if given; its English
    text matching ``match``) and leave the state and the log untouched."""
    before = snapshot(game)
    with pytest.raises(GameError, match=match) as caught:
        action()
    if code is not None:
        assert caught.value.code == code, caught.value
    assert snapshot(game) == before
    return caught.value


def play_out(game: Game, limit: int = 2000) -> Game:
    """Let the 托管 move play every turn until the game ends."""
    for _ in range(limit):
        if game.status != "playing":
            return game
        game.bot_turn()
    raise AssertionError("the game did not end")


# --- invariants ----------------------------------------------------------------------

def dealt_codes(game: Game) -> list[str]:
    return [code for hand in game.events[0]["hands"] for code in hand]


def played_codes(game: Game) -> list[str]:
    return [code for event in events_of(game.events, "play") for code in event["cards"]]


def public_codes(game: Game) -> set[str]:
    """Cards everyone may see: played cards, the 明牌 and its twin, the random
    first-lead card."""
    public = set(played_codes(game))
    for event in game.events:
        if event["type"] == "reveal":
            public |= {event["card"], event["twin"]}
        elif event["type"] == "first_lead" and "card" in event:
            public.add(event["card"])
    return public


def codes_in(value: object) -> set[str]:
    """Every physical card code anywhere inside a JSON value (keys included).

    A walk with one set, not a set per node: the game machines call this for every
    event of the log after every step, and the recursive version built a set per
    node of every event, 80 % of their time."""
    found: set[str] = set()
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if item in ALL_CODES:
                found.add(item)
        elif isinstance(item, dict):
            pending.extend(item.values())
            pending.extend(item.keys())
        elif isinstance(item, (list, tuple)):
            pending.extend(item)
    return found


def check_cards_accounted_for(game: Game) -> None:
    dealt = dealt_codes(game)
    if game.events[0]["seed"] is not None:  # Game.deal, not from_hands' short hands
        assert len(dealt) == 27 * game.rules.players  # 108 for four players, 54 for tcy
    assert len(set(dealt)) == len(dealt)
    played = played_codes(game)
    in_hands = [code for hand in game.hands for code in hand]
    assert len(set(played)) == len(played), "a card was played twice"
    assert sorted(played + in_hands) == sorted(dealt)
    for seat in range(game.rules.players):
        assert game.counts[seat] == hand_counts(game, seat)
        assert game.state()["hand_counts"][seat] == len(game.hands[seat])


def check_log(game: Game) -> None:
    assert [event["seq"] for event in game.events] == list(range(1, len(game.events) + 1))
    state = game.state()
    assert Game.replay(game.events).state() == state
    encoded = json.loads(json.dumps(game.events, ensure_ascii=False))
    assert Game.replay(encoded).state() == state
    assert json.loads(json.dumps(state)) == state


def check_turn(game: Game) -> None:
    if game.status == "playing":
        assert game.turn is not None and any(game.counts[game.turn])
        assert game.result is None
    else:
        assert game.status == "ended" and game.turn is None


def check_result(game: Game) -> None:
    """At the end exactly one team won and contributions are zero-sum (RULES §3, §6)."""
    if game.status != "ended":
        return
    result = game.result
    players = game.rules.players
    assert sorted(result.finish) == list(range(players))
    assert sum(result.contributions) == 0
    team = (lambda seat: seat % 2) if players == 4 else (lambda seat: seat)
    winning_teams = {team(seat) for seat in result.winners}
    assert len(winning_teams) == 1
    assert sorted(result.winners) == [seat for seat in range(players)
                                      if team(seat) in winning_teams]
    if result.escaped is None:
        assert result.finish[:len(game.finish)] == game.finish
        assert team(result.finish[0]) in winning_teams
        assert result.scores == [result.base[seat] * result.multiplier
                                 + result.contributions[seat] for seat in range(players)]
    else:
        assert team(result.escaped) not in winning_teams
        others = [seat for seat in range(players) if seat != result.escaped]
        assert all(result.scores[seat] == result.contributions[seat] for seat in others)
        assert result.scores[result.escaped] == (result.contributions[result.escaped]
                                                 - result.penalty)
    # The 等级倍率 of the deal is inside the multiplier; coins count it at most the cap
    # (classic, RULES §9).
    assert result.multiplier % result.level_multiplier == 0
    assert result.level_multiplier in (1, game.level_multiplier)
    cap = game.rules.coin_multiplier_cap
    capped = min(result.multiplier, cap) if cap else result.multiplier
    if capped == result.multiplier:
        assert result.coin_scores is None and result.coin_penalty is None
    elif result.escaped is None:
        assert result.coin_scores == [result.base[seat] * capped + result.contributions[seat]
                                      for seat in range(players)]
    else:
        assert result.coin_penalty * result.multiplier == result.penalty * capped


def check_views(game: Game) -> None:
    """Spectators see no hand; a seat sees only its own (GUIDE, RULES §11)."""
    public = public_codes(game)
    spectator = game.view(None)
    assert spectator["hand"] is None
    assert codes_in(spectator) <= public
    for event in game.events:
        shown = event_for(event, None)
        assert "hands" not in shown and "seed" not in shown
        assert codes_in(shown) <= public
    for seat in range(game.rules.players):
        view = game.view(seat)
        own = set(game.hands[seat])
        assert view["hand"] == game.hands[seat]
        assert own <= codes_in(view)  # the check sees cards: the seat's own hand
        assert codes_in(view) <= public | own


def check_invariants(game: Game) -> None:
    check_cards_accounted_for(game)
    check_log(game)
    check_turn(game)
    check_result(game)
    check_views(game)


def is_bomb_play(event: dict) -> bool:
    return event["type"] == "play" and event["reading"]["type"] in BOMB_TYPES
