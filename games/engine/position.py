"""What one seat knows when it is to act (:class:`Position`), built from a game's
log, from a running game, or from the public actions of RULES §11 ``decide``.

Nothing hidden is in a position, so a bot built on it cannot peek (RULES §10:
托管 sees only its own hand and the public table).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import (
    MAX_COPIES,
    RANK_COUNT,
    CardError,
    Counts,
    check_possible,
    counts_of_codes,
    format_cards,
    parse_cards,
)
from .game import HAND_SIZE, Game
from .patterns import Reading, best_beating
from .records import reading_from_dict
from .rulesets import RuleSet
from .scoring import BombRecord, bomb_record
from .turns import decided, next_seat, trick_leader, trick_over

PASS = "pass"


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

    def opponent_cards(self) -> int:
        """The fewest cards an opponent still holding cards has (0: none left)."""
        seat = self.seat
        sizes = [n for s, n in enumerate(self.hand_counts)
                 if n and (s % 2 != seat % 2 if self.seats == 4 else s != seat)]
        return min(sizes) if sizes else 0

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
            history.append((event["seat"], counts_of_codes(event["cards"])))
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
        current=game.current_reading,
        current_cards=(counts_of_codes(current["cards"])
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
    state = PublicGame(rules, seat, own, leader)
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


class PublicGame:
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
            if decided(self.finish, self.rules.players):
                self.over = True
                return
        self._advance(who)

    def _advance(self, who: int) -> None:
        winner = self.current_seat
        if trick_over(self.passes, winner, self.counts):
            self.leader = self.turn = trick_leader(winner, self.counts)
            self.current = self.current_cards = self.current_seat = None
            self.passes = 0
            return
        self.turn = next_seat(self.counts, who)

    def position(self) -> Position:
        return Position(self.rules, self.viewer, self.rules.players, self.hand,
                        tuple(self.counts), self.current, self.current_cards,
                        self.current_seat, self.passes, self.leader, tuple(self.finish),
                        tuple(self.history), tuple(self.bombs), tuple(self.passes_over))
