"""The moves nobody at the seat makes: a server bot's at its room's level, a 托管
seat's (RULES §10), and the time each turn gets before the sweeper acts
(games.live.lifecycle.deadlines)."""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.engine.game import Game
from games.live.strong_bots import is_strong_turn
from games.live.warm_engines import GameFacts
from games.models import BotLevel

MAX_AUTOMATIC_MOVES = 400  # a whole game is far fewer; a guard against a loop


def automatic_move(facts: GameFacts, game: Game) -> bool:
    """Move for the seat to act if nobody is there to: a server bot plays its room's
    level's move (issue #15: ``easy`` the §10 托管 move, ``table`` its livelier own; a
    ``strong`` bot reaches here only when its deadline passed without its thought-out
    move, and plays the table move), a seat in 托管 the §10 move. False: a person's
    turn, nothing done."""
    seat = game.turn
    if seat in facts.bot_seats:
        if facts.bot_level == BotLevel.EASY:
            game.bot_turn()
        else:
            bot_move(game)
    elif game.trustee[seat]:
        game.bot_turn()
    else:
        return False
    return True


def bot_move(game: Game) -> None:
    # Seeded by the deal's seed and the step, not the row's id: the log alone then says
    # how each bot chose, and a test's games (dealt from its seed) play out the same on
    # every run, whatever ids the database hands out.
    game.bot_turn(rng=random.Random(f"{game.events[0]['seed']}:{len(game.events)}"))


def run_automatic(facts: GameFacts, game: Game) -> None:
    """With no think time, bots and 托管 seats move at once, in the same step; never a
    strong bot, whose move is thought out off the live path (games.live.strong_bots)."""
    if settings.GAMES_BOT_THINK_SECONDS > 0:
        return
    for _move in range(MAX_AUTOMATIC_MOVES):
        if game.status != "playing" or is_strong_turn(facts, game) \
                or not automatic_move(facts, game):
            return


def turn_deadline(facts: GameFacts, game: Game):
    """The deadline of the turn to play now, given its full time: after each step, and
    again after an outage (games.live.delivery)."""
    if game.status != "playing":
        return None
    seat = game.turn
    if is_strong_turn(facts, game):
        # The backstop of a strong bot's move thought out off the live path
        # (games.live.strong_bots): its think time, then the sweeper moves the seat.
        seconds = settings.GAMES_BOT_THINK_SECONDS + settings.GAMES_STRONG_BOT_BACKSTOP_SECONDS
    elif seat in facts.bot_seats or game.trustee[seat]:
        seconds = settings.GAMES_BOT_THINK_SECONDS
    elif game.plays == 0:
        seconds = facts.first_turn_seconds
    else:
        seconds = facts.turn_seconds
    return timezone.now() + timedelta(seconds=seconds)
