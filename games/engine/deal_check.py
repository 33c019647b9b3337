"""``python -m games.engine.deal_check``: how close the search's deals of the hidden
hands come to the true ones.

Plays seeded qq games with one bot in every seat (each of ``--bots`` in turn), keeps
every 4th position, deals the seat's unseen cards ``--deals`` times with the search's
dealer (:class:`deals.Dealer`) and with a plain shuffle, and prints, beside the true
hands: the bombs of four or more natural cards in the other hands (a mean per
position), the share of those bomb ranks a deal gave to the seat that really holds
them, and the share of the hidden cards dealt to the right seat (docs/engine.md,
"Bombs in the deals").
"""

from __future__ import annotations

import argparse
import random

from .cards import NATURAL_RANKS, Counts
from .deals import Dealer
from .position import Position
from .search_bench import positions_and_hands


def _bomb_ranks(hand: Counts) -> set[int]:
    return {rank for rank in NATURAL_RANKS if hand[rank] >= 4}


def compare(found: list[tuple[Position, list[Counts]]], deals: int, dealer) -> dict:
    true_bombs = dealt_bombs = bombs_found = cards_right = cards = 0
    for index, (position, truth) in enumerate(found):
        rng = random.Random(f"check:{index}")
        deal = dealer(position)
        for _ in range(deals):
            hands = deal(rng)
            for seat in range(position.seats):
                if seat == position.seat:
                    continue
                true_ranks = _bomb_ranks(truth[seat])
                true_bombs += len(true_ranks)
                dealt_bombs += len(_bomb_ranks(hands[seat]))
                bombs_found += len(true_ranks & _bomb_ranks(hands[seat]))
                cards_right += sum(map(min, truth[seat], hands[seat]))
                cards += sum(truth[seat])
    dealt = len(found) * deals
    return {"true_bombs": round(true_bombs / dealt, 3),
            "dealt_bombs": round(dealt_bombs / dealt, 3),
            "bombs_found": round(bombs_found / max(true_bombs, 1), 3),
            "cards_right": round(cards_right / max(cards, 1), 3)}


def run(bots: list[str], games: int = 12, deals: int = 8, seed: str = "dc") -> dict:
    report = {}
    for bot in bots:
        found = positions_and_hands("qq", games, seed, bot)
        report[bot] = {
            "positions": len(found),
            "search": compare(found, deals, lambda position: Dealer(position).deal),
            "plain": compare(found, deals,
                             lambda position: Dealer(position, bombs=False).deal_once),
        }
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.engine.deal_check",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="expert,table,trustee")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--deals", type=int, default=8, help="deals per position")
    parser.add_argument("--seed", default="dc")
    args = parser.parse_args(argv)
    if args.games < 1 or args.deals < 1:
        parser.error("--games and --deals must be at least 1")
    bots = args.bots.split(",")
    if any(bot not in ("trustee", "table", "expert") for bot in bots):
        parser.error("--bots are of trustee, table, expert (rule-based: quick to play)")
    for bot, row in run(bots, args.games, args.deals, args.seed).items():
        print(f"{bot}: {row['positions']} positions")
        for name in ("search", "plain"):
            figures = row[name]
            print(f"  {name:<6} bombs in the other hands {figures['dealt_bombs']:.2f} "
                  f"(true {figures['true_bombs']:.2f}), true bomb ranks found "
                  f"{figures['bombs_found']:.1%}, cards on the right seat "
                  f"{figures['cards_right']:.1%}")


if __name__ == "__main__":
    main()
