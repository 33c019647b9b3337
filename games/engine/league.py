"""``python -m games.engine league``: every pairing of bots on the same duplicate deals.

Deal ``i`` of the league is deal ``"<seed>:<i>"`` for every pairing (each played
twice, seats swapped, as in ``match``). The pairings of rule-based bots go first, then
the searching bot's; within each, deals go round the pairings one at a time, so a
league stopped by its time limit has played about as many deals in each slow pairing.
The table gives each pairing's mean (A's team score per game) and 95 % interval, and
per bot its mean against all others and an Elo-style rating fitted to the games won
by score (Bradley–Terry, 1500 on average, 400 points = ten times the odds).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from contextlib import closing
from itertools import combinations
from time import perf_counter

from .ai import BOTS, BUDGET_MS
from .match import play_deals, spread, summarise
from .presets import PRESETS

SEARCHING = "strong"


def run_league(bots: list[str], ruleset: str = "qq", deals: int = 100, seed: int = 1, *,
               budget_ms: int = BUDGET_MS, jobs: int = 1, time_limit: float | None = None,
               out: str | None = None, progress: bool = False) -> dict:
    unknown = [bot for bot in bots if bot not in BOTS]
    if unknown or len(set(bots)) != len(bots) or len(bots) < 2:
        raise ValueError(f"--bots must name at least two different bots of {', '.join(BOTS)}")
    if ruleset not in PRESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    pairings = list(combinations(bots, 2))
    results: dict = {pairing: [] for pairing in pairings}
    # The rule-based pairings first (seconds a deal), then the searching bot's, each
    # round-robin by deal: a league cut short by its time limit has every quick pairing
    # whole and the slow ones at about the same number of deals.
    quick = [pairing for pairing in pairings if SEARCHING not in pairing]
    slow = [pairing for pairing in pairings if SEARCHING in pairing]
    tasks = [(ruleset, a, b, seed, index, budget_ms, None)
             for batch in (quick, slow) for index in range(deals) for a, b in batch]
    started = perf_counter()
    stopped = False
    report: dict = {}
    with closing(play_deals(tasks, jobs)) as played:
        for done, deal in enumerate(played, 1):
            results[(deal["a"], deal["b"])].append(deal)
            report = league_table(bots, results, ruleset=ruleset, seed=seed,
                                  budget_ms=budget_ms, requested_deals=deals,
                                  seconds=perf_counter() - started)
            if out:
                with open(out, "w") as handle:
                    json.dump(report, handle, ensure_ascii=False)
            if progress:
                sys.stderr.write(f"\rdeal {done} of {len(tasks)} (all pairings)")
            if time_limit is not None and perf_counter() - started > time_limit \
                    and done < len(tasks):
                stopped = True
                break
    report["stopped_early"] = stopped
    return report


def league_table(bots: list[str], results: dict, **info) -> dict:
    pairings = []
    wins: dict = {}
    games: dict = {}
    per_bot: dict = {bot: [] for bot in bots}
    strong_times: list[float] = []
    for (a, b), deals in results.items():
        if not deals:
            continue
        summary = summarise(deals, a=a, b=b, seconds=0.0)
        pairings.append({key: summary[key] for key in (
            "a", "b", "deals", "games", "mean", "ci95", "a_wins", "a_score_wins", "kou",
            "bombs_by_stars", "bombs_by_stars_a", "decision_ms")})
        # A game is won by the team that scores more (coins follow the score), not by
        # the team out first: a side can go out first and lose the game to bombs.
        wins[(a, b)] = summary["a_score_wins"]
        wins[(b, a)] = summary["games"] - summary["a_score_wins"]
        games[frozenset((a, b))] = summary["games"]
        for deal in deals:
            per_bot[a].append(deal["value"])
            per_bot[b].append(-deal["value"])
            for game in deal["games"]:
                strong_times.extend(game["times"])
    ratings = _ratings(bots, wins, games)
    table = []
    for bot in bots:
        values = per_bot[bot]
        mean = sum(values) / len(values) if values else 0.0
        half = (1.96 * math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
                / math.sqrt(len(values))) if len(values) > 1 else math.inf
        table.append({"bot": bot, "mean": round(mean, 3),
                      "ci95": [round(mean - half, 3), round(mean + half, 3)],
                      "deals": len(values), "elo": round(ratings[bot])})
    table.sort(key=lambda row: -row["elo"])
    return {**info, "seconds": round(info.get("seconds", 0.0), 1), "bots": table,
            "pairings": pairings, "decision_ms": spread(strong_times)}


def _ratings(bots: list[str], wins: dict, games: dict) -> dict:
    """Bradley–Terry strengths by minorisation–maximisation, half a win of prior
    each way; as Elo points around 1500."""
    strength = {bot: 1.0 for bot in bots}
    for _ in range(200):
        new = {}
        for bot in bots:
            won = sum(wins.get((bot, other), 0) + 0.5 for other in bots if other != bot
                      and frozenset((bot, other)) in games)
            denominator = sum((games[frozenset((bot, other))] + 1)
                              / (strength[bot] + strength[other])
                              for other in bots if other != bot
                              and frozenset((bot, other)) in games)
            new[bot] = won / denominator if denominator else strength[bot]
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        strength = {bot: value / math.exp(mean_log) for bot, value in new.items()}
    return {bot: 1500 + 400 * math.log10(value) for bot, value in strength.items()}


def format_table(report: dict) -> str:
    lines = [f"league, {report['ruleset']}, seed {report['seed']}, budget "
             f"{report['budget_ms']} ms, {report['seconds']} s",
             "bot        Elo   mean/game  95% CI            deals"]
    for row in report["bots"]:
        low, high = row["ci95"]
        lines.append(f"{row['bot']:<9} {row['elo']:>5}  {row['mean']:+8.2f}  "
                     f"[{low:+.2f}, {high:+.2f}]  {row['deals']:>6}")
    lines.append("pairing (A vs B): A's team per game, 95% CI, games A won by score, "
                 "games A's team went out first")
    for row in report["pairings"]:
        low, high = row["ci95"]
        lines.append(f"  {row['a']} vs {row['b']}: {row['mean']:+.2f} [{low:+.2f}, {high:+.2f}]"
                     f"  {row['a_score_wins']:g}/{row['games']}  {row['a_wins']}/{row['games']}"
                     f" ({row['deals']} deals)")
    times = report["decision_ms"]
    if times["count"]:
        lines.append(f"strong decisions: {times['count']}, CPU median {times['median']} ms, "
                     f"p99 {times['p99']} ms, max {times.get('max')} ms")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.engine league",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default=",".join(BOTS),
                        help=f"comma-separated, of {', '.join(BOTS)}")
    parser.add_argument("--ruleset", default="qq", choices=list(PRESETS))
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=int, default=BUDGET_MS)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS")
    parser.add_argument("--out", default=None, help="write the table so far after every deal")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    try:
        report = run_league(args.bots.split(","), args.ruleset, args.deals, args.seed,
                            budget_ms=args.budget_ms, jobs=args.jobs,
                            time_limit=args.time_limit,
                            out=args.out, progress=not args.no_progress)
    except ValueError as error:
        parser.error(str(error))
    print(json.dumps(report, ensure_ascii=False) if args.json else format_table(report))
