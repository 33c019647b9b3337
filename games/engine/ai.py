"""Bots that choose a seat's next action from what that seat may see (issue #15).

A :class:`Position` is one seat's knowledge: the rule set, its own hand, how many
cards every seat holds, the play to beat, who leads, who is out and the public
history of plays and passes. Nothing hidden is in it, so a bot built on it cannot
peek (RULES §10: 托管 sees only its own hand and the public table).

``decide`` answers one action with one of three bots:

- ``trustee``: the 托管 move of RULES §10 (:func:`bot.trustee_move`);
- ``table``: :func:`bot.simple_player_move`, the livelier bot of the tables;
- ``strong``: determinized Monte-Carlo search. It deals the unseen cards to the
  other seats consistently with their card counts, plays each candidate action
  out to the end of the game with a quick policy for all seats, and keeps the
  candidate with the best mean final score for its team (real scoring: base by
  place × multiplier + contributions, §6/§9).

The search stops at whichever comes first, ``max_samples`` deals or the time
budget; with a fixed ``max_samples`` and a generous budget the answer depends on
the seed only. The budget is CPU time of the calling thread (``time.thread_time``):
on a core of its own that is wall time, and on a busy machine the bot thinks as
much as it would alone instead of playing worse.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from operator import sub
from time import thread_time

from .bot import _smallest_bomb, simple_player_move, trustee_move
from .cards import (
    BIG_JOKER,
    MAX_COPIES,
    RANK_COUNT,
    SMALL_JOKER,
    TWO,
    CardError,
    Counts,
    check_possible,
    counts_of,
    format_cards,
    parse_cards,
    unpack,
)
from .game import _CARD_BY_CODE, HAND_SIZE, Game
from .moves import has_beating_play, legal_moves
from .patterns import Reading, best_beating
from .records import reading_from_dict
from .rulesets import RuleSet
from .scoring import BombRecord, bomb_record, score_places, score_tcy
from .seat_view import next_seat_holding

BOTS = ("trustee", "table", "strong")
PASS = "pass"
DEFAULT_MAX_SAMPLES = 400
# CPU time of one strong decision. The search stops at the sample that would cross it,
# so the median decision is about this long (issue #15 allows a median of 300 ms and a
# p99 of 1 s): 300 ms gave a median of 300.2, just over. Half leaves room on a busy
# worker and halves a strong table's CPU; docs/engine.md has its match figures.
BUDGET_MS = 150


@dataclass(frozen=True)
class Position:
    """What one seat knows when it is to act. Equal positions give equal answers."""

    rules: RuleSet
    seat: int
    seats: int
    hand: Counts  # this seat's cards now
    hand_counts: tuple[int, ...]  # cards held by each seat now
    current: Reading | None  # the recorded reading of the play to beat, None on lead
    current_cards: Counts | None
    current_seat: int | None  # who made the play to beat
    passes: int  # passes since the play to beat
    leader: int  # who led this trick
    finish: tuple[int, ...]  # seats out so far, in order
    history: tuple[tuple[int, Counts | None], ...]  # (seat, cards) or (seat, None) for a pass
    bombs: tuple[BombRecord, ...] = field(default=())
    # Every pass: (its index in history, the reading passed over, who played that,
    # whether the system passed because nothing in the hand beat it: auto-pass).
    passes_over: tuple[tuple[int, Reading, int, bool], ...] = field(default=())

    @property
    def partner_winning(self) -> bool:
        return (self.current_seat is not None and self.seats == 4
                and self.current_seat % 2 == self.seat % 2 and self.current_seat != self.seat)

    def unseen(self) -> Counts:
        """Cards this seat has not seen: not in its hand, never played."""
        left = list(MAX_COPIES)
        for rank, count in enumerate(self.hand):
            left[rank] -= count
        for _, cards in self.history:
            if cards is not None:
                for rank, count in enumerate(cards):
                    left[rank] -= count
        return tuple(left)


# --- building positions ---------------------------------------------------------------

def position_from_events(events: list[dict], seat: int) -> Position:
    """The position of ``seat`` after a game's event log, if ``seat`` is to act.

    Only ``seat``'s own hand is taken from the deal; everything else comes from
    public events (plays, passes, outs, tricks) and the card counts they imply."""
    if not events or events[0].get("type") != "deal":
        raise ValueError("the event log must start with the deal")
    try:
        game = Game.replay(events)
    except Exception as error:  # a log the engine cannot fold
        raise ValueError(f"the event log does not replay: {error}") from None
    return position_from_game(game, seat)


def position_from_game(game: Game, seat: int) -> Position:
    """The position of ``seat`` in a running game: its own hand and the public state
    only (what :func:`position_from_events` gives, without replaying the log)."""
    if game.status != "playing":
        raise ValueError("the game is not running")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.rules.players:
        raise ValueError(f"no seat {seat!r}")
    if game.turn != seat:
        raise ValueError(f"it is seat {game.turn}'s turn, not seat {seat}'s")
    history = []
    passes_over = []
    over: tuple[Reading, int] | None = None
    for event in game.events:
        if event["type"] == "play":
            history.append((event["seat"], counts_of(_CARD_BY_CODE[c] for c in event["cards"])))
            over = (reading_from_dict(event["reading"], game.rules), event["seat"])
        elif event["type"] == "pass":
            passes_over.append((len(history), *over, event.get("by") == "auto"))
            history.append((event["seat"], None))
        elif event["type"] == "trick":
            over = None
    current = game.current
    return Position(
        rules=game.rules, seat=seat, seats=game.rules.players, hand=game.counts[seat],
        hand_counts=tuple(sum(hand) for hand in game.counts),
        current=game._current_reading,
        current_cards=(counts_of(_CARD_BY_CODE[c] for c in current["cards"])
                       if current else None),
        current_seat=current["seat"] if current else None, passes=game.passes,
        leader=game.leader, finish=tuple(game.finish), history=tuple(history),
        bombs=tuple(game.bombs), passes_over=tuple(passes_over))


def position_from_actions(rules: RuleSet, seat: int, hand, leader: int,
                          actions: list) -> Position:
    """The position of ``seat`` from its hand at the deal and the public actions
    (RULES §11 ``decide``: every seat starts with 27 cards, auto-pass off)."""
    seats = rules.players
    for name, value in (("seat", seat), ("leader", leader)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
            raise ValueError(f"{name!r} must be a seat 0…{seats - 1}")
    try:
        own = parse_cards(hand) if isinstance(hand, (str, list)) else tuple(hand)
        if len(own) != RANK_COUNT or not all(isinstance(n, int) for n in own):
            raise ValueError("the hand must be card text or 15 counts")
        check_possible(own)
    except (CardError, TypeError) as error:
        raise ValueError(f"bad hand: {error}") from None
    if sum(own) != HAND_SIZE:
        raise ValueError(f"the hand must hold {HAND_SIZE} cards, not {sum(own)}")
    if not isinstance(actions, list):
        raise ValueError("'actions' must be a list of [seat, cards or \"pass\"]")
    state = _Public(rules, seat, own, leader)
    for index, action in enumerate(actions):
        try:
            state.act(action)
        except ValueError as error:
            raise ValueError(f"action {index}: {error}") from None
    if state.over:
        raise ValueError("the game is over")
    if state.turn != seat:
        raise ValueError(f"it is seat {state.turn}'s turn, not seat {seat}'s")
    return state.position()


class _Public:
    """The public flow of a game (RULES §3) for one viewer who knows only its own hand."""

    def __init__(self, rules: RuleSet, viewer: int, hand: Counts, leader: int) -> None:
        self.rules = rules
        self.viewer = viewer
        self.hand = hand
        self.seen = list(MAX_COPIES)  # copies not yet accounted for by the viewer
        for rank, count in enumerate(hand):
            self.seen[rank] -= count
        self.counts = [HAND_SIZE] * rules.players
        self.turn = self.leader = leader
        self.current: Reading | None = None
        self.current_cards: Counts | None = None
        self.current_seat: int | None = None
        self.passes = 0
        self.finish: list[int] = []
        self.history: list[tuple[int, Counts | None]] = []
        self.bombs: list[BombRecord] = []
        self.passes_over: list[tuple[int, Reading, int, bool]] = []
        self.over = False

    def act(self, action) -> None:
        if not isinstance(action, (list, tuple)) or len(action) != 2 \
                or not isinstance(action[1], str):
            raise ValueError("an action is [seat, cards or \"pass\"]")
        who, text = action
        if self.over:
            raise ValueError("the game is over")
        if who != self.turn or isinstance(who, bool):
            raise ValueError(f"it is seat {self.turn}'s turn, not seat {who!r}'s")
        if text.strip().lower() == PASS:
            if self.current is None:
                raise ValueError("a pass on lead")
            self.passes_over.append((len(self.history), self.current, self.current_seat, False))
            self.history.append((who, None))
            self.passes += 1
            self._advance(who)
            return
        try:
            cards = parse_cards(text)
        except CardError as error:
            raise ValueError(str(error)) from None
        if not any(cards):
            raise ValueError("an empty play")
        if sum(cards) > self.counts[who]:
            raise ValueError(f"seat {who} holds only {self.counts[who]} cards")
        if who == self.viewer:
            if any(c > h for c, h in zip(cards, self.hand)):
                raise ValueError(f"seat {who} does not hold {format_cards(cards)}")
            self.hand = tuple(h - c for h, c in zip(self.hand, cards))
        else:
            if any(c > s for c, s in zip(cards, self.seen)):
                raise ValueError(f"{format_cards(cards)}: those cards are elsewhere")
            self.seen = [s - c for s, c in zip(self.seen, cards)]
        reading = best_beating(cards, self.current, self.rules)
        if reading is None:
            if best_beating(cards, None, self.rules) is None:
                raise ValueError(f"{format_cards(cards)} is not a pattern")
            raise ValueError(f"{format_cards(cards)} does not beat "
                             f"{format_cards(self.current_cards)}")
        self.history.append((who, cards))
        self.counts[who] -= sum(cards)
        self.current, self.current_cards, self.current_seat = reading, cards, who
        self.passes = 0
        if reading.is_bomb:
            self.bombs.append(bomb_record(who, reading))
        if self.counts[who] == 0:
            self.finish.append(who)
            if _decided(self.finish, self.rules.players):
                self.over = True
                return
        self._advance(who)

    def _advance(self, who: int) -> None:
        winner = self.current_seat
        others = sum(1 for s, n in enumerate(self.counts) if s != winner and n)
        if self.passes >= others:
            self.leader = self.turn = winner if self.counts[winner] else (winner + 2) % 4
            self.current = self.current_cards = self.current_seat = None
            self.passes = 0
            return
        self.turn = next_seat_holding(self.counts, who)

    def position(self) -> Position:
        return Position(self.rules, self.viewer, self.rules.players, self.hand,
                        tuple(self.counts), self.current, self.current_cards,
                        self.current_seat, self.passes, self.leader, tuple(self.finish),
                        tuple(self.history), tuple(self.bombs), tuple(self.passes_over))


def _decided(finish, players: int) -> bool:
    if players == 2:
        return len(finish) >= 1
    teams = [s % 2 for s in finish]
    return teams.count(0) == 2 or teams.count(1) == 2


# --- the rollout simulator --------------------------------------------------------------

class _Sim:
    """A lean copy of the game flow over full hands, for rollouts. ``cache`` is
    shared by the rollouts of one search: readings and the rollout policy's pure
    choices, keyed by cards and ``id`` of the reading to beat (every reading in
    play is kept alive by the cache or the position, so ids are not reused)."""

    __slots__ = ("rules", "cache", "hands", "sizes", "alive", "turn", "current",
                 "current_seat", "passes", "finish", "bombs", "over")

    def __init__(self, rules: RuleSet, hands: list[Counts], position: Position,
                 cache: dict | None = None) -> None:
        self.rules = rules
        self.cache = {} if cache is None else cache
        self.hands = hands
        self.sizes = list(position.hand_counts)
        self.alive = sum(1 for n in self.sizes if n)
        self.turn = position.seat
        self.current = position.current
        self.current_seat = position.current_seat
        self.passes = position.passes
        self.finish = list(position.finish)
        self.bombs = list(position.bombs)
        self.over = False

    def step(self, cards: Counts | None) -> None:
        who = self.turn
        if cards is None:
            self.passes += 1
            self._advance(who)
            return
        key = (cards, id(self.current))
        reading = self.cache.get(key)
        if reading is None:
            reading = self.cache[key] = best_beating(cards, self.current, self.rules)
        self.hands[who] = tuple(map(sub, self.hands[who], cards))
        self.sizes[who] -= reading.size
        self.current, self.current_seat, self.passes = reading, who, 0
        if reading.is_bomb:
            self.bombs.append(bomb_record(who, reading))
        if not self.sizes[who]:
            self.alive -= 1
            self.finish.append(who)
            if _decided(self.finish, self.rules.players):
                self.over = True
                return
        self._advance(who)

    def _advance(self, who: int) -> None:
        winner = self.current_seat
        sizes = self.sizes
        others = self.alive - 1 if sizes[winner] else self.alive
        if self.passes >= others:
            self.turn = winner if sizes[winner] else (winner + 2) % 4
            self.current = self.current_seat = None
            self.passes = 0
            return
        seats = len(sizes)
        seat = who
        for _ in range(seats):
            seat = (seat + 1) % seats
            if sizes[seat]:
                self.turn = seat
                return
        self.turn = None

    def team_value(self, seat: int) -> float:
        """The final score of ``seat``'s team (mean of its members)."""
        players = self.rules.players
        if players == 2:
            winner = self.finish[0]
            result = score_tcy(self.rules, winner, self.sizes[1 - winner], self.bombs, 1, False)
            return float(result.scores[seat])
        last = self.finish[-1]
        rest = [(last + step) % 4 for step in range(1, 5)]
        finish = self.finish + [s for s in rest if s not in self.finish]
        scores = score_places(self.rules, finish, self.bombs).scores
        return (scores[seat] + scores[(seat + 2) % 4]) / 2

    def partner_winning(self, seat: int) -> bool:
        return (self.current_seat is not None and self.rules.players == 4
                and self.current_seat % 2 == seat % 2 and self.current_seat != seat)

    def opponent_cards(self, seat: int) -> int:
        players = self.rules.players
        sizes = [n for s, n in enumerate(self.sizes)
                 if n and (s % 2 != seat % 2 if players == 4 else s != seat)]
        return min(sizes) if sizes else 0


def _rollout(sim: _Sim, rng: random.Random, limit: int = 400) -> None:
    """Play to the end with :func:`bot.simple_player_move` for every seat (the same
    choices, with its pure parts memoised in the search's cache)."""
    rules = sim.rules
    cache = sim.cache
    for _ in range(limit):
        if sim.over:
            return
        seat = sim.turn
        hand = sim.hands[seat]
        current = sim.current
        if current is None:
            key = (hand, 0)
            cards = cache.get(key, _MISSING)
            if cards is _MISSING:
                cards = cache[key] = simple_player_move(hand, None, False, 0, rules, None)
        elif sim.partner_winning(seat):
            cards = None
        else:
            cards = None
            if not current.is_bomb:
                key = (hand, id(current), 1)
                cards = cache.get(key, _MISSING)
                if cards is _MISSING:
                    cards = cache[key] = trustee_move(hand, current, False, rules)
            if cards is None and (sim.opponent_cards(seat) <= 8 or rng.random() < 0.3):
                key = (hand, id(current), 2)
                cards = cache.get(key, _MISSING)
                if cards is _MISSING:
                    cards = cache[key] = _smallest_bomb(hand, current, rules)
        sim.step(cards)
    raise RuntimeError("a rollout did not end")


_MISSING = object()


# --- choosing candidates ------------------------------------------------------------------

def _candidates(position: Position) -> list[Counts | None]:
    """Legal actions worth searching, best-looking first (None is a pass).

    Every legal action is scored by :func:`_move_cost`; the search looks at a few
    of each sort so that pruning never hides a whole idea: the pass, the cheapest
    plays of each type and size, and the smallest bombs."""
    rules = position.rules
    hand = position.hand
    current = position.current
    plays = []
    bombs = []
    for move in legal_moves(hand, current, rules):
        cards = unpack(move)
        reading = best_beating(cards, current, rules)
        if reading.is_bomb:
            bombs.append((reading.power, _move_cost(hand, cards, reading, rules),
                          format_cards(cards), cards))
        else:
            plays.append((_move_cost(hand, cards, reading, rules), format_cards(cards), cards,
                          (reading.kind, reading.size)))
    plays.sort()
    bombs.sort()
    options: list[Counts | None] = [] if current is None else [None]
    if current is None:
        per_kind: dict = {}
        for _, _, cards, kind in plays:
            per_kind.setdefault(kind, []).append(cards)
        firsts = [group[0] for group in per_kind.values()]
        seconds = [group[1] for group in per_kind.values() if len(group) > 1]
        order = sorted(firsts, key=lambda c: [p[2] for p in plays].index(c))
        options += order[:_LEAD_WIDTH]
        for cards in seconds:
            if len(options) >= _LEAD_WIDTH:
                break
            options.append(cards)
        for _, _, cards, _ in plays:
            if len(options) >= _LEAD_WIDTH:
                break
            if cards not in options:
                options.append(cards)
        if not options:
            options += [bomb[3] for bomb in bombs[:1]]
        elif bombs and len(plays) <= 3:
            options.append(bombs[0][3])
    else:
        options += [cards for _, _, cards, _ in plays[:_FOLLOW_WIDTH]]
        options += [bomb[3] for bomb in bombs[:_BOMB_WIDTH]]
    return options


_LEAD_WIDTH = 8
_FOLLOW_WIDTH = 4
_BOMB_WIDTH = 3


def _move_cost(hand: Counts, cards: Counts, reading: Reading, rules: RuleSet) -> tuple:
    """Lower looks better: keep bombs whole, spend wildcards late, leave few lone
    cards, shed low cards and many at once."""
    wild = ((cards[BIG_JOKER] if rules.big_joker_wild else 0)
            + (cards[SMALL_JOKER] if rules.small_joker_wild else 0))
    breaks = 0
    singles = 0
    for rank in range(TWO + 1):
        have = hand[rank]
        used = cards[rank]
        if used:
            if have >= 4 and not reading.is_bomb:
                breaks += 1
            if have - used == 1:
                singles += 1
    return (breaks + wild, singles, reading.rank * 2 - sum(cards))


# --- the bots -----------------------------------------------------------------------------

def decide(position: Position, *, bot: str = "strong", seed: int = 0,
           budget_ms: int = BUDGET_MS,
           max_samples: int | None = None) -> str:
    """The seat's next action as canonical text, or ``"pass"``; always legal."""
    if bot == "trustee":
        cards = trustee_move(position.hand, position.current, position.partner_winning,
                             position.rules)
        return _text(cards)
    if bot == "table":
        cards = simple_player_move(position.hand, position.current, position.partner_winning,
                                   _opponent_cards(position), position.rules,
                                   random.Random(seed))
        return _text(cards)
    if bot != "strong":
        raise ValueError(f"unknown bot {bot!r}: use one of {', '.join(BOTS)}")
    return search(position, seed=seed, budget_ms=budget_ms, max_samples=max_samples)["best"]


def analyse(position: Position, played: str, *, seed: int = 0, budget_ms: int = 500,
            max_samples: int | None = None) -> dict:
    """How much ``played`` lost against the search's best action, in expected final
    score of the seat's team. ``played`` stays in the search even if it looks poor.
    Raises ValueError if ``played`` is not a legal action here."""
    if not isinstance(played, str):
        raise ValueError("'played' must be card text or \"pass\"")
    try:
        played_cards = None if played.strip().lower() == PASS else parse_cards(played)
    except CardError as error:
        raise ValueError(str(error)) from None
    if played_cards is not None and not any(played_cards):
        raise ValueError("an empty play")
    report = search(position, seed=seed, budget_ms=budget_ms, max_samples=max_samples,
                    include=played_cards, must_include=True)
    key = _text(played_cards)
    played_value = report["values"][key]
    best, best_value = report["best"], report["best_value"]
    if played_value >= best_value:
        best, best_value = key, played_value
    return {"best": best, "best_value": best_value, "played_value": played_value,
            "loss": best_value - played_value, "forced": report["forced"]}


def search(position: Position, *, seed: int = 0, budget_ms: int = BUDGET_MS,
           max_samples: int | None = None, include: Counts | None = None,
           must_include: bool = False) -> dict:
    """Determinized Monte-Carlo over the candidate actions, with racing: every
    sample deals the unseen cards once and plays every candidate still in the race
    out to the end on that deal (common random numbers); every few samples a
    candidate clearly behind the leader (paired difference beyond
    :data:`_DROP_Z` standard errors) leaves the race. Stops at ``max_samples``
    samples, when one candidate is left, or at the time budget."""
    deadline = thread_time() + budget_ms / 1000
    samples_cap = DEFAULT_MAX_SAMPLES if max_samples is None else max(1, max_samples)
    candidates = _candidates(position)
    if must_include:
        if include is None and position.current is None:
            raise ValueError("a pass on lead is not legal")
        if include is not None and (
                any(c > h for c, h in zip(include, position.hand))
                or best_beating(include, position.current, position.rules) is None):
            raise ValueError(f"{format_cards(include)} is not a legal play here")
        if include not in candidates:
            candidates.append(include)
    if len(candidates) == 1 and (not must_include or _legal_count(position) == 1):
        only = _text(candidates[0])
        return {"best": only, "best_value": 0.0, "values": {only: 0.0}, "forced": True,
                "samples": 0}
    rng = random.Random(f"ai:{seed}")
    hints = _hints(position)
    cache: dict = {}
    values: list[list[float]] = [[] for _ in candidates]
    active = list(range(len(candidates)))
    keep_index = candidates.index(include) if must_include else None
    done = 0
    # A sample is begun only if one more, at the last one's cost, ends within the
    # budget: checking the clock alone let a decision overrun by up to a sample.
    sample_cost = 0.0
    while done < samples_cap and (done == 0 or thread_time() + sample_cost <= deadline):
        began = thread_time()
        hands = _determinize(position, rng, hints)
        roll_seed = rng.getrandbits(32)
        for index in active:
            sim = _Sim(position.rules, list(hands), position, cache)
            sim.step(candidates[index])
            _rollout(sim, random.Random(roll_seed))
            values[index].append(sim.team_value(position.seat))
        done += 1
        sample_cost = thread_time() - began
        if done >= _RACE_START and done % _RACE_EVERY == 0 and len(active) > 1:
            active = _race(active, values, done, keep_index)
            if len(active) == 1:
                break
    means = {index: sum(values[index]) / len(values[index]) for index in range(len(candidates))
             if values[index]}
    best_index = max(active, key=lambda i: (means[i], -i))
    return {"best": _text(candidates[best_index]), "best_value": means[best_index],
            "values": {_text(candidates[i]): mean for i, mean in means.items()},
            "forced": False, "samples": done}


_RACE_START = 12
_RACE_EVERY = 4
_DROP_Z = 2.0


def _race(active: list[int], values: list[list[float]], done: int,
          keep: int | None) -> list[int]:
    """Drop the candidates clearly behind the leader on the samples they share."""
    leader = max(active, key=lambda i: (sum(values[i][:done]) / done, -i))
    kept = []
    for index in active:
        if index == leader or index == keep:
            kept.append(index)
            continue
        diffs = [a - b for a, b in zip(values[leader], values[index])]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean <= 0 or mean * mean * n <= _DROP_Z * _DROP_Z * var:
            kept.append(index)
    return kept


def _legal_count(position: Position) -> int:
    count = len(legal_moves(position.hand, position.current, position.rules))
    return count + (position.current is not None)


def _determinize(position: Position, rng: random.Random,
                 hints: list | None = None) -> list[Counts]:
    """Deal the unseen cards to the other seats by their card counts; with
    ``hints`` (see :func:`_hints`), the best of a few deals by how well they agree
    with the passes seen."""
    pool = [rank for rank, count in enumerate(position.unseen()) for _ in range(count)]
    best = None
    for _ in range(_DEAL_TRIES if hints else 1):
        rng.shuffle(pool)
        hands = []
        at = 0
        for seat in range(position.seats):
            if seat == position.seat:
                hands.append(position.hand)
                continue
            counts = [0] * RANK_COUNT
            for rank in pool[at:at + position.hand_counts[seat]]:
                counts[rank] += 1
            at += position.hand_counts[seat]
            hands.append(tuple(counts))
        if not hints:
            return hands
        misfit = _misfit(hands, hints, position.rules)
        if best is None or misfit < best[0]:
            best = (misfit, hands)
            if not misfit:
                break
    return best[1]


_DEAL_TRIES = 6
_HINTS_PER_SEAT = 6


def _hints(position: Position) -> list:
    """What the other seats' passes say about their hands: an auto-pass means nothing
    in the hand beat the play (hard, weight 4); a pass over an opponent's non-bomb
    suggests nothing of the same type beat it (soft, weight 1). Each hint is
    (seat, cards played since, reading, weight); the latest few per seat."""
    later: list[list[int]] = [[0] * RANK_COUNT for _ in range(position.seats)]
    hints = []
    taken = [0] * position.seats
    by_index = {index: (reading, over_seat, auto)
                for index, reading, over_seat, auto in position.passes_over}
    for index in range(len(position.history) - 1, -1, -1):
        seat, cards = position.history[index]
        if cards is not None:
            row = later[seat]
            for rank, count in enumerate(cards):
                row[rank] += count
            continue
        if seat == position.seat or not position.hand_counts[seat] \
                or taken[seat] >= _HINTS_PER_SEAT or index not in by_index:
            continue
        reading, over_seat, auto = by_index[index]
        if auto:
            hints.append((seat, tuple(later[seat]), reading, 4))
        elif not reading.is_bomb and (position.seats == 2 or over_seat % 2 != seat % 2):
            hints.append((seat, tuple(later[seat]), reading, 1))
        else:
            continue
        taken[seat] += 1
    return hints


def _misfit(hands: list[Counts], hints: list, rules: RuleSet) -> int:
    total = 0
    for seat, played_since, reading, weight in hints:
        then = tuple(a + b for a, b in zip(hands[seat], played_since))
        if weight > 1:
            if has_beating_play(then, reading, rules):
                total += weight
        elif trustee_move(then, reading, False, rules) is not None:
            total += weight
    return total


def _opponent_cards(position: Position) -> int:
    seat = position.seat
    sizes = [n for s, n in enumerate(position.hand_counts)
             if n and (s % 2 != seat % 2 if position.seats == 4 else s != seat)]
    return min(sizes) if sizes else 0


def _text(cards: Counts | None) -> str:
    return PASS if cards is None else format_cards(cards)


__all__ = ["BOTS", "Position", "analyse", "decide", "position_from_actions",
           "position_from_events", "search"]
