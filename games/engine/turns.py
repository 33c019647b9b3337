"""The turn rules of RULES §3, in one place: when a trick is over, who leads next
(接风), when the game is decided, whose turn follows, and the places at the end.

``holding`` is a sequence with one entry per seat, a number that is 0 (or False)
once that seat holds no cards (card counts, or hands as count tuples passed through
``any``).
:class:`~games.engine.game.Game`, the AI's public position and its playout
simulator all take these rules from here, so they cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence


def next_seat(holding: Sequence, seat: int) -> int | None:
    """The next seat after ``seat`` that still holds cards (out seats are skipped)."""
    for candidate in _seats_after(len(holding))[seat]:
        if holding[candidate]:
            return candidate
    return None


def _seats_after(seats: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, every seat in playing order after it, itself last (worked out
    once per table size: the playouts ask for the next seat at almost every move)."""
    found = _SEATS_AFTER.get(seats)
    if found is None:
        found = _SEATS_AFTER[seats] = tuple(
            tuple((seat + step) % seats for step in range(1, seats + 1))
            for seat in range(seats))
    return found


_SEATS_AFTER: dict[int, tuple[tuple[int, ...], ...]] = {}


def trick_over(passes: int, winner: int, holding: Sequence) -> bool:
    """Every other seat still holding cards has passed since ``winner``'s play."""
    # Counting the zeros is the cheapest count (the playouts ask at every move).
    others = len(holding) - holding.count(0) - (1 if holding[winner] else 0)
    return passes >= others


def trick_leader(winner: int, holding: Sequence) -> int:
    """Who leads after ``winner`` took the trick: the winner, or, when the winner
    went out with that play, the partner opposite (接风)."""
    return winner if holding[winner] else (winner + 2) % 4


def decided(finish: Sequence[int], players: int) -> bool:
    """The game is over: one player out in a two-player game, else both players of
    one team (seats {0, 2} and {1, 3})."""
    if players == 2:
        return len(finish) >= 1
    teams = [seat % 2 for seat in finish]
    return teams.count(0) == 2 or teams.count(1) == 2


def places(finish: Sequence[int], players: int, last: int) -> list[int]:
    """The full finishing order: the seats out so far, then the others in playing
    order after ``last`` (the last seat out, or the seat before the one to act)."""
    rest = [(last + step) % players for step in range(1, players + 1)]
    return list(finish) + [seat for seat in rest if seat not in finish]
