"""``python -m games.engine simulate``: whole games with bots, checked.

Plays seeded games with 托管 bots (or the livelier simple bot), shows a
progress bar on stderr and prints games/s, the share of 双扣 / 单扣 / 平扣,
bombs per game by stars, mean plays per game and the score spread. After every
game it checks that every dealt card is accounted for and none was played
twice, that exactly one team won and that contributions sum to zero; a broken
invariant stops the run with the seed and the event log.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter
from time import perf_counter

from .game import Game
from .presets import PRESETS
from .scoring import ESCAPE


class InvariantBroken(AssertionError):
    pass


def check_game(game: Game) -> None:
    """The invariants every finished game must hold."""
    deal = game.events[0]
    dealt = [code for hand in deal["hands"] for code in hand]
    played = [code for event in game.events if event["type"] == "play" for code in event["cards"]]
    left = [code for hand in game.hands for code in hand]
    if len(set(played)) != len(played):
        raise InvariantBroken("a card was played twice")
    if sorted(played + left) != sorted(dealt) or len(set(dealt)) != len(dealt):
        raise InvariantBroken("the cards played and held are not the cards dealt")
    result = game.result
    if game.status != "ended" or result is None:
        raise InvariantBroken("the game did not end")
    players = game.rules.players
    teams = {seat % 2 if players == 4 else seat for seat in result.winners}
    if len(teams) != 1 or (result.kou != ESCAPE and result.finish[0] not in result.winners):
        raise InvariantBroken(f"not exactly one winning team: {result.winners}")
    if sum(result.contributions) != 0:
        raise InvariantBroken(f"contributions do not sum to zero: {result.contributions}")
    if Game.replay(game.events).state() != game.state():
        raise InvariantBroken("replaying the event log gives another state")


def simulate(ruleset: str, games: int, seed: int, bot: str, progress: bool) -> dict:
    rules = PRESETS[ruleset]
    players = [f"bot{seat}" for seat in range(rules.players)]
    kou: Counter[str] = Counter()
    bombs: Counter[int] = Counter()
    plays: list[int] = []
    scores: list[int] = []
    previous = None
    started = perf_counter()
    for index in range(games):
        game_seed = f"{seed}:{index}"
        rng = random.Random(game_seed) if bot == "simple" else None
        game = Game.deal(rules, players, game_seed, previous)
        while game.status == "playing":
            game.bot_turn(rng=rng)
        try:
            check_game(game)
        except InvariantBroken as broken:
            print(f"\ninvariant broken in game seed {game_seed!r}: {broken}", file=sys.stderr)
            print(json.dumps(game.events, ensure_ascii=False), file=sys.stderr)
            raise SystemExit(1) from None
        result = game.result
        kou[result.kou] += 1
        bombs.update(bomb.stars for bomb in game.bombs)
        plays.append(game.plays)
        scores.extend(result.scores)
        previous = {"first_out": game.players[result.finish[0]], "kou": result.kou}
        if progress:
            _progress(index + 1, games)
    seconds = perf_counter() - started
    return {
        "ruleset": ruleset, "bot": bot, "seed": seed, "games": games,
        "seconds": round(seconds, 3), "games_per_second": round(games / seconds, 1),
        "kou": {name: round(kou[name] / games, 4) for name in ("double", "single", "draw")},
        "bombs_by_stars": {str(stars): round(count / games, 4)
                           for stars, count in sorted(bombs.items())},
        "plays_per_game": round(statistics.mean(plays), 2),
        "scores": {"min": min(scores), "max": max(scores),
                   "mean_abs": round(statistics.mean(abs(score) for score in scores), 3),
                   "stdev": round(statistics.pstdev(scores), 3)},
    }


def _progress(done: int, total: int, width: int = 40) -> None:
    if done == total or done % max(1, total // 100) == 0:
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.engine simulate",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="qq", choices=list(PRESETS))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", choices=("trustee", "simple"), default="trustee",
                        help="trustee: the 托管 move of RULES §10; simple: also leads runs and "
                             "bombs opponents")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    report = simulate(args.ruleset, args.games, args.seed, args.bot, not args.no_progress)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return
    print(f"{report['games']} {report['ruleset']} games with {report['bot']} bots, seed "
          f"{report['seed']}: {report['seconds']} s, {report['games_per_second']} games/s")
    shares = report["kou"]
    print(f"双扣 {shares['double']:.1%}  单扣 {shares['single']:.1%}  平扣 {shares['draw']:.1%}")
    bombs = ", ".join(f"{stars}★ {per:.3f}" for stars, per in report["bombs_by_stars"].items())
    print(f"bombs per game by stars: {bombs or 'none'}")
    print(f"plays per game: {report['plays_per_game']}")
    spread = report["scores"]
    print(f"scores per seat: min {spread['min']}, max {spread['max']}, "
          f"mean |score| {spread['mean_abs']}, stdev {spread['stdev']}")
