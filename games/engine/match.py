"""``python -m games.engine match``: two bots play duplicate deals.

Every deal is played twice with the same cards: once with bot A's team in seats
{0, 2} (tcy: seat 0) and once in seats {1, 3} (seat 1), so card luck cancels.
The figure of merit is A's team score per game (the mean of its members' scores,
in score units), averaged over the two games of a deal; the 95 % confidence
interval is over deals. Also reported: the 双扣/单扣/平扣 split, bombs by stars
(all seats, and A's team), and decision times of the searching bot.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import closing
from time import perf_counter, thread_time

from .ai import BOTS, BUDGET_MS, decide, position_from_game
from .game import Game
from .presets import PRESETS
from .scoring import team_of
from .simulate import _progress


def play_game(ruleset: str, deal_seed: str, bots: list[str], *, seed: int,
              budget_ms: int, max_samples: int | None = None) -> dict:
    """One game of a deal with a bot per seat (after any 明牌 swap)."""
    rules = PRESETS[ruleset]
    game = Game.deal(rules, list(range(rules.players)), deal_seed)
    times: list[float] = []  # CPU ms of the searching bot's decisions
    wall: list[float] = []
    step = 0
    while game.status == "playing":
        seat = game.turn
        bot = bots[seat]
        # The clock runs from the rebuild of the seat's position: the decision's cost.
        started, cpu = perf_counter(), thread_time()
        position = position_from_game(game, seat)
        action = decide(position, bot=bot, seed=seed * 7919 + step, budget_ms=budget_ms,
                        max_samples=max_samples, started=cpu)
        if bot == "strong":
            times.append((thread_time() - cpu) * 1000)
            wall.append((perf_counter() - started) * 1000)
        step += 1
        if action == "pass":
            game.pass_turn(seat, by="bot")
        else:
            game.play(seat, action, by="bot")
    result = game.result
    return {"scores": result.scores, "kou": result.kou, "finish": result.finish,
            "bombs": [(bomb.seat, bomb.stars) for bomb in game.bombs], "times": times,
            "wall": wall}


def play_deal(args: tuple) -> dict:
    """Both games of deal ``index``; A's team value per game."""
    ruleset, a, b, seed, index, budget_ms, max_samples = args
    rules = PRESETS[ruleset]
    players = rules.players
    games = []
    for half in (0, 1):
        a_team = half  # team 0 = seats {0, 2} (tcy: seat 0), team 1 = {1, 3} (seat 1)
        bots = [a if team_of(seat, players) == a_team else b for seat in range(players)]
        record = play_game(ruleset, f"{seed}:{index}", bots,
                           seed=seed * 1_000_003 + index * 2 + half, budget_ms=budget_ms,
                           max_samples=max_samples)
        members = [seat for seat in range(players) if team_of(seat, players) == a_team]
        record["a_value"] = sum(record["scores"][seat] for seat in members) / len(members)
        record["a_team"] = a_team
        record["a_won"] = team_of(record["finish"][0], players) == a_team
        # The game's result is its scores (coins follow them, RULES §7–§8): A's team won
        # it by score when its members' mean beats the other team's; a tie is half each.
        others = [seat for seat in range(players) if seat not in members]
        b_value = sum(record["scores"][seat] for seat in others) / len(others)
        record["a_outscored"] = 1.0 if record["a_value"] > b_value else (
            0.5 if record["a_value"] == b_value else 0.0)
        games.append(record)
    return {"index": index, "a": a, "b": b, "games": games,
            "value": sum(game["a_value"] for game in games) / 2}


def play_deals(tasks: list[tuple], jobs: int = 1) -> Iterator[dict]:
    """:func:`play_deal` of every task: in order with one job; with more, in that many
    worker processes, as they finish. Closing the iterator early (a time limit) stops
    the workers and drops the deals they were playing."""
    if jobs <= 1:
        for task in tasks:
            yield play_deal(task)
        return
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap_unordered(play_deal, tasks)


def run_match(a: str, b: str, ruleset: str = "qq", deals: int = 100, seed: int = 1, *,
              budget_ms: int = BUDGET_MS, jobs: int = 1, max_samples: int | None = None,
              progress: bool = False, time_limit: float | None = None) -> dict:
    """Play ``deals`` duplicate deals; with ``time_limit`` (seconds), stop taking new
    deals after that long and report the deals finished (``stopped_early``)."""
    if a not in BOTS or b not in BOTS:
        raise ValueError(f"bots are {', '.join(BOTS)}")
    if ruleset not in PRESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    tasks = [(ruleset, a, b, seed, index, budget_ms, max_samples) for index in range(deals)]
    started = perf_counter()
    results = []
    stopped = False
    with closing(play_deals(tasks, jobs)) as played:
        for done, result in enumerate(played, 1):
            results.append(result)
            if progress:
                _progress(done, deals)
            if time_limit is not None and perf_counter() - started > time_limit \
                    and done < deals:
                stopped = True
                break
    if stopped and progress:
        sys.stderr.write(f"\ntime limit: stopped after {len(results)} of {deals} deals\n")
    results.sort(key=lambda result: result["index"])
    return summarise(results, a=a, b=b, ruleset=ruleset, seed=seed, budget_ms=budget_ms,
                     requested_deals=deals, stopped_early=stopped,
                     seconds=perf_counter() - started)


def summarise(results: list[dict], **info) -> dict:
    values = [result["value"] for result in results]
    deals = len(values)
    mean = statistics.fmean(values)
    half_width = 1.96 * statistics.stdev(values) / math.sqrt(deals) if deals > 1 else math.inf
    kou: Counter[str] = Counter()
    kou_a: Counter[str] = Counter()
    bombs: Counter[int] = Counter()
    bombs_a: Counter[int] = Counter()
    times: list[float] = []
    wall: list[float] = []
    wins = 0
    score_wins = 0.0
    for result in results:
        for game in result["games"]:
            score_wins += game["a_outscored"]
            kou[game["kou"]] += 1
            if game["a_won"]:
                kou_a[game["kou"]] += 1
                wins += 1
            players = len(game["scores"])
            for seat, stars in game["bombs"]:
                bombs[stars] += 1
                if team_of(seat, players) == game["a_team"]:
                    bombs_a[stars] += 1
            times.extend(game["times"])
            wall.extend(game["wall"])
    decision_ms = spread(times)
    names = ("double", "single", "draw")
    return {
        **info, "deals": deals, "games": 2 * deals,
        "seconds": round(info.pop("seconds", 0.0), 1),
        "mean": round(mean, 4),
        "ci95": [round(mean - half_width, 4), round(mean + half_width, 4)],
        "a_wins": wins,
        "a_score_wins": score_wins,
        # Per deal in index order: two matches on the same deals compare deal by deal.
        "values": [round(value, 4) for value in values],
        "kou": {name: kou[name] for name in names},
        "kou_won_by_a": {name: kou_a[name] for name in names},
        "bombs_by_stars": {str(stars): bombs[stars] for stars in sorted(bombs)},
        "bombs_by_stars_a": {str(stars): bombs_a[stars] for stars in sorted(bombs_a)},
        "decision_ms": decision_ms,
        "decision_wall_ms": spread(wall),
    }


def spread(times: list[float]) -> dict:
    """Median and p99 (nearest rank) of decision times in ms."""
    if not times:
        return {"median": None, "p99": None, "max": None, "count": 0}
    times = sorted(times)
    p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
    return {"median": round(statistics.median(times), 1), "p99": round(p99, 1),
            "max": round(times[-1], 1), "count": len(times)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.engine match",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="strong", choices=BOTS)
    parser.add_argument("--b", default="trustee", choices=BOTS)
    parser.add_argument("--ruleset", default="qq", choices=list(PRESETS))
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=int, default=BUDGET_MS)
    parser.add_argument("--max-samples", type=int, default=None,
                        help="cap the searching bot's samples (fixed work instead of time)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="stop taking new deals after this long; report the deals done")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    report = run_match(args.a, args.b, args.ruleset, args.deals, args.seed,
                       budget_ms=args.budget_ms, jobs=args.jobs, max_samples=args.max_samples,
                       progress=not args.no_progress, time_limit=args.time_limit)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return
    print(format_report(report))


def format_report(report: dict) -> str:
    low, high = report["ci95"]
    lines = [
        f"{report['a']} (A) vs {report['b']} (B), {report['ruleset']}, {report['deals']} "
        f"duplicate deals ({report['games']} games), seed {report['seed']}, "
        f"budget {report['budget_ms']} ms: {report['seconds']} s"
        + (f" (time limit: {report['deals']} of {report['requested_deals']} deals played)"
           if report["stopped_early"] else ""),
        f"A's team score per game: {report['mean']:+.3f}  (95% CI {low:+.3f} … {high:+.3f})",
        f"A's team won {report['a_wins']} of {report['games']} games",
    ]
    kou, won = report["kou"], report["kou_won_by_a"]
    lines.append("双扣 {d} (A {da})  单扣 {s} (A {sa})  平扣 {r} (A {ra})".format(
        d=kou["double"], da=won["double"], s=kou["single"], sa=won["single"],
        r=kou["draw"], ra=won["draw"]))
    bombs = ", ".join(f"{stars}★ {count} (A {report['bombs_by_stars_a'].get(stars, 0)})"
                      for stars, count in report["bombs_by_stars"].items())
    lines.append(f"bombs by stars: {bombs or 'none'}")
    times = report["decision_ms"]
    if times["count"]:
        wall = report["decision_wall_ms"]
        lines.append(f"strong decisions: {times['count']}, CPU median {times['median']} ms, "
                     f"p99 {times['p99']} ms (wall median {wall['median']} ms, "
                     f"p99 {wall['p99']} ms)")
    return "\n".join(lines)
