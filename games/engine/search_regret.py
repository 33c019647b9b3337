"""``python -m games.engine.search_regret``: how far the strong bot's choices are from
what many more samples would choose.

Plays seeded games with the expert in every seat (as ``search_bench``), keeps every 4th
position that has two candidates or more, and values every candidate of each on
``--reference-samples`` deals, none dropped (:func:`search.candidate_values`). Then
runs the search as built on every position, on other deals, and prints its regret: the
reference value of the reference's best action less that of the search's answer, in
points of the seat's team, averaged over the positions; beside it the regret of always
playing the expert's choice. It measures the search's sampling noise and candidates
within its own model of the game (the unseen cards dealt at random, the expert's
playouts), not what that model misses about the hidden hands (docs/engine.md).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
from pathlib import Path

from .position import Position
from .presets import PRESETS
from .search import BUDGET_MS, candidate_actions, candidate_values, search
from .search_bench import positions


def searched_positions(ruleset: str, games: int, seed: str) -> list[Position]:
    """Every 4th position of the seeded expert games with a choice to make."""
    return [position for position in positions(ruleset, games, seed)
            if len(candidate_actions(position)) > 1]


def _reference_of(job: tuple[Position, int, str]) -> dict:
    position, samples, seed = job
    return candidate_values(position, samples, seed=seed)


def reference(found: list[Position], samples: int, seed: str, jobs: int = 1) -> list[dict]:
    jobs_list = [(position, samples, f"{seed}:{index}") for index, position in enumerate(found)]
    if jobs <= 1:
        return [_reference_of(job) for job in jobs_list]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        return pool.map(_reference_of, jobs_list, chunksize=1)


def run(ruleset: str = "qq", games: int = 14, reference_samples: int = 800,
        seed: str = "px", budget_ms: int = BUDGET_MS, samples: int | None = None,
        jobs: int = 1, reference_path: Path | None = None, search_seed: int = 0) -> dict:
    found = searched_positions(ruleset, games, seed)
    asked = {"ruleset": ruleset, "games": games, "reference_samples": reference_samples,
             "seed": seed}
    values = None
    if reference_path is not None and reference_path.exists():
        try:
            saved = json.loads(reference_path.read_text())
        except json.JSONDecodeError as error:
            raise ValueError(f"{reference_path} is not a saved reference: {error}") from None
        if not isinstance(saved, dict) or saved.get("asked") != asked:
            raise ValueError(f"{reference_path} holds another reference than {asked}: "
                             "give another file, or delete it to compute this one")
        values = saved["values"]
    if values is None:
        values = reference(found, reference_samples, seed, jobs)
        if reference_path is not None:
            reference_path.write_text(json.dumps({"asked": asked, "values": values}))
    regrets, expert_regrets, taken, switched = [], [], [], 0
    for index, (position, valued) in enumerate(zip(found, values)):
        report = search(position, seed=1_000_000 * (1 + search_seed) + index, budget_ms=budget_ms,
                        max_samples=samples)
        best = max(valued.values())
        expert_choice = next(iter(valued))
        regrets.append(best - valued[report["best"]])
        expert_regrets.append(best - valued[expert_choice])
        taken.append(report["samples"])
        switched += report["best"] != expert_choice
    return {"positions": len(found), "regret": statistics.mean(regrets),
            "regret_se": statistics.stdev(regrets) / len(regrets) ** 0.5,
            "expert_regret": statistics.mean(expert_regrets),
            "switched": switched, "samples_median": statistics.median(taken)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.engine.search_regret",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="qq", choices=list(PRESETS))
    parser.add_argument("--games", type=int, default=14)
    parser.add_argument("--reference-samples", type=int, default=800)
    parser.add_argument("--seed", default="px")
    parser.add_argument("--budget-ms", type=int, default=BUDGET_MS)
    parser.add_argument("--samples", type=int, default=None,
                        help="a fixed number of samples for the search (the clock never binds)")
    parser.add_argument("--search-seed", type=int, default=0,
                        help="another seed gives the search under test other deals")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the reference")
    parser.add_argument("--reference", type=Path, default=None,
                        help="a file to keep the reference in, and to read it from next time")
    args = parser.parse_args(argv)
    if args.games < 1 or args.reference_samples < 1 or args.jobs < 1 \
            or (args.samples is not None and args.samples < 1):
        parser.error("--games, --reference-samples, --samples and --jobs must be at least 1")
    budget = 10 ** 9 if args.samples is not None else args.budget_ms
    try:
        report = run(args.ruleset, args.games, args.reference_samples, args.seed, budget,
                     args.samples, args.jobs, args.reference, args.search_seed)
    except ValueError as error:
        parser.error(str(error))
    print(f"{report['positions']} positions of {args.games} {args.ruleset} expert games, "
          f"reference {args.reference_samples} samples: search regret "
          f"{report['regret']:.3f} ± {report['regret_se']:.3f} a decision (the expert's "
          f"choice {report['expert_regret']:.3f}), expert's choice changed "
          f"{report['switched']} times, median {report['samples_median']} samples")


if __name__ == "__main__":
    main()
