"""The rating arithmetic, without Django: openskill's Plackett-Luce model over the two
sides of a game, the damping of repeated groups, and the numbers players are shown.

openskill keeps each player's skill as a normal distribution (``mu`` its mean,
``sigma`` its uncertainty) and updates every member of a team from the team result.
Shown to players: ``rating = round(mu × SCALE)`` (1500 to begin with) and
``deviation = round(sigma × SCALE)`` (500 to begin with); docs/ratings.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

SCALE = 60
MODEL = PlackettLuce()
START_MU = MODEL.mu          # 25.0
START_SIGMA = MODEL.sigma    # 25 / 3


@dataclass(frozen=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def rating(self) -> int:
        return shown(self.mu)

    @property
    def deviation(self) -> int:
        return shown(self.sigma)


def shown(value: float) -> int:
    """A mu or sigma as players read it (rating points)."""
    return round(value * SCALE)


def from_shown(rating: float) -> float:
    return rating / SCALE


def rate_sides(winners: list[Skill], losers: list[Skill]) -> tuple[list[Skill], list[Skill]]:
    """Each member's skill after their side beat (``winners``) or lost to (``losers``)
    the other side: one openskill update of two teams ranked 1 and 2."""
    teams = [[MODEL.create_rating([skill.mu, skill.sigma]) for skill in side]
             for side in (winners, losers)]
    won, lost = MODEL.rate(teams, ranks=[1, 2])
    return ([Skill(rating.mu, rating.sigma) for rating in won],
            [Skill(rating.mu, rating.sigma) for rating in lost])


def damped(before: Skill, after: Skill, weight: float) -> Skill:
    """Only ``weight`` (0…1) of the update from ``before`` to ``after``: a repeated
    group's game moves ratings, and settles them, less."""
    if weight >= 1:
        return after
    return Skill(before.mu + weight * (after.mu - before.mu),
                 before.sigma + weight * (after.sigma - before.sigma))


def repeat_weight(earlier_games: int, free_games: int) -> float:
    """The weight of a game whose same group of people played ``earlier_games`` rated
    games together recently: full for the first ``free_games``, then
    ``free_games / (earlier_games + 1)`` (the 4th of 3 free: 0.75; the 12th: 0.25)."""
    if earlier_games < free_games:
        return 1.0
    return free_games / (earlier_games + 1)


def win_chance(side: list[Skill], other: list[Skill]) -> float:
    """The model's chance that ``side`` beats ``other``."""
    teams = [[MODEL.create_rating([skill.mu, skill.sigma]) for skill in team]
             for team in (side, other)]
    return MODEL.predict_win(teams)[0]
