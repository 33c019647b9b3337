"""Seeded sample games with every kind of event a live table produces, and the
views each viewer gets along the way: fixtures for checking a fold of public
events (a browser's or a Python client's) against ``Game.view``.

``sample_log(ruleset, seed)`` plays a whole game of a preset with bots and
injects, deterministically by seed, timeouts, 托管 on and off ("player",
"disconnect"), an escape in some games (``auto_play`` or ``end_game``) and the
platform's closing ``settled`` event. ``recorded_logs(seeds)`` adds the public
events and, for every player and the spectator, the views at step 1, every 5th
step and the last.

``python -m games.engine.sample_games --out PATH`` writes ``recorded_logs()`` as
JSON. Standard library only, like the rest of the engine.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from .game import Game, event_for
from .presets import PRESETS, get_ruleset

SNAPSHOT_EVERY = 5
TIMEOUT_CHANCE = 0.06
TRUSTEE_CHANCE = 0.05
MAX_TIMEOUTS = 4
MAX_TRUSTEE_TOGGLES = 4
ESCAPE_MODES = (None, "auto_play", "end_game")


def sample_players(ruleset: str) -> list[int]:
    """Player ids (ints, like user ids on the platform) for the preset's seats."""
    return [101 + seat for seat in range(get_ruleset(ruleset).players)]


def escape_mode_for(ruleset: str, seed: int) -> str | None:
    """Which escape the sample game of ``ruleset`` and ``seed`` has, if any: cycles
    over none, ``auto_play`` and ``end_game`` with the seed, shifted per rule set so
    that seeds 1 and 2 cover both modes and games with no escape."""
    shift = list(PRESETS).index(ruleset)
    return ESCAPE_MODES[(seed + shift) % len(ESCAPE_MODES)]


def sample_log(ruleset: str, seed: int) -> list[dict]:
    """The full event log (hands and seed included) of a seeded sample game, ending
    with a ``settled`` event."""
    rules = get_ruleset(ruleset)
    rng = random.Random(f"sample:{ruleset}:{seed}")
    mode = escape_mode_for(ruleset, seed)
    game = Game.deal(rules, sample_players(ruleset), seed, escape_mode=mode or None)
    escape_at = rng.randrange(10, 40) if mode else None  # after this many moves
    moves = timeouts = toggles = 0
    while game.status == "playing":
        seat = game.turn
        if escape_at is not None and moves >= escape_at:
            escaper = rng.randrange(rules.players)
            game.escape(escaper)
            escape_at = None
            continue
        roll = rng.random()
        if roll < TIMEOUT_CHANCE and timeouts < MAX_TIMEOUTS and not game.trustee[seat]:
            timeouts += 1
            game.timeout(seat)
        elif roll < TIMEOUT_CHANCE + TRUSTEE_CHANCE and toggles < MAX_TRUSTEE_TOGGLES:
            toggles += 1
            who = rng.randrange(rules.players)
            if who in game.escaped:
                continue
            if game.trustee[who]:
                game.set_trustee(who, False, "player")
            else:
                game.set_trustee(who, True, rng.choice(("player", "disconnect")))
            continue
        elif game.trustee[seat]:
            game.bot_turn()  # as the server moves for a seat in 托管
        else:
            game.bot_turn(rng=rng, by="player")
        moves += 1
    result = game.result
    points = result.contributions if result.escaped is not None else result.scores
    settled = {"seq": len(game.events) + 1, "type": "settled",
               "points": list(points), "coins": [0] * rules.players}
    return [*game.events, settled]


def seat_of(game: Game, player: Any) -> int | None:
    return game.players.index(player) if player in game.players else None


def recorded_logs(seeds: tuple[int, ...] = (1, 2)) -> dict:
    """Every preset's sample games for ``seeds``: public events and, for each player
    and the spectator (``player`` null), views without ``history`` at step 1, every
    5th step and the last."""
    games = []
    for ruleset in PRESETS:
        for seed in seeds:
            full = sample_log(ruleset, seed)
            steps = sorted({1, len(full), *range(SNAPSHOT_EVERY, len(full) + 1,
                                                 SNAPSHOT_EVERY)})
            states = {k: Game.replay(full[:k]) for k in steps}
            viewers = []
            for player in [*sample_players(ruleset), None]:
                snapshots = []
                for k in steps:
                    game = states[k]
                    view = game.view(seat_of(game, player) if player is not None else None)
                    view.pop("history")
                    snapshots.append({"k": k, "view": view})
                viewers.append({"player": player, "snapshots": snapshots})
            games.append({"ruleset": ruleset, "seed": seed,
                          "events": [event_for(event, None) for event in full],
                          "viewers": viewers})
    return {"games": games}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.engine.sample_games",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the JSON file to write")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args(argv)
    data = recorded_logs(tuple(args.seeds))
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=None, sort_keys=True, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main()
