"""The strong bot's budget: bounded memos, playouts that give up at the deadline, and
samples that the deadline overtakes dropped whole. The clock is a fake one, so nothing
here depends on the machine's speed."""

from __future__ import annotations

import random

import pytest

from games.engine import playout, search, search_bench
from games.engine.ai import position_from_game
from games.engine.deals import Dealer
from games.engine.game import Game
from games.engine.memo import Memo
from games.engine.presets import PRESETS


class FakeClock:
    """``thread_time`` for the search and its playouts: every playout read moves it
    on by ``step``; the ``jump_at``-th playout read moves it on by ``jump`` as well."""

    def __init__(self, step: float = 0.0001, jump_at: int | None = None,
                 jump: float = 1000.0) -> None:
        self.now = 0.0
        self.step, self.jump_at, self.jump = step, jump_at, jump
        self.playout_reads = 0

    def read(self) -> float:
        return self.now

    def playout_read(self) -> float:
        self.playout_reads += 1
        self.now += self.step
        if self.playout_reads == self.jump_at:
            self.now += self.jump
        return self.now


@pytest.fixture
def clock(monkeypatch):
    def install(**kwargs) -> FakeClock:
        fake = FakeClock(**kwargs)
        monkeypatch.setattr(search, "thread_time", fake.read)
        monkeypatch.setattr(playout, "thread_time", fake.playout_read)
        return fake
    return install


def opening(seed: str = "budget:2"):
    game = Game.deal(PRESETS["qq"], [0, 1, 2, 3], seed)
    return position_from_game(game, game.turn)


def full_hands(position) -> list:
    """Any deal that fits the position (the search's own dealer, seeded)."""
    return Dealer(position).deal(random.Random(0))


# --- memos ------------------------------------------------------------------------------------

def test_a_memo_keeps_at_most_its_limit():
    memo = Memo(64, shards=4)
    for key in range(1000):
        memo[key] = key
    assert len(memo) <= 64
    assert memo.get(999) == 999  # the newest stays
    assert memo.get(0) is None and memo.get(0, "gone") == "gone"


def test_a_memo_forgets_its_oldest_entries_first():
    memo = Memo(5, shards=1)
    for key in range(10):
        memo[key] = str(key)
    assert len(memo) == 5
    assert [key for key in range(10) if key in memo] == [5, 6, 7, 8, 9]


def test_a_memo_needs_a_power_of_two_of_shards():
    with pytest.raises(ValueError, match="power of two"):
        Memo(10, shards=3)


# --- playouts and samples ---------------------------------------------------------------------

def test_a_playout_past_its_deadline_gives_up_unfinished(clock):
    fake = clock(jump_at=3)  # the 3rd reading, before move 8, is past the deadline
    position = opening()
    sim = playout.Sim(position.rules, full_hands(position), position)
    assert playout.rollout(sim, deadline=1.0) is False
    assert not sim.over
    assert fake.playout_reads == 3  # read every 4th move: moves 0, 4 and 8
    finished = playout.Sim(position.rules, full_hands(position), position)
    assert playout.rollout(finished, deadline=None) is True and finished.over


def test_a_sample_the_deadline_overtakes_is_dropped_whole(clock):
    fake = clock()
    position = opening()
    candidates = search._candidates(position)
    assert len(candidates) > 2
    hands = full_hands(position)
    values = search._sample(position, hands, candidates, {}, deadline=fake.now + 1)
    assert values is not None and len(values) == len(candidates)
    before = fake.playout_reads
    search._sample(position, hands, candidates[:1], {}, deadline=fake.now + 1)
    first = fake.playout_reads - before  # the first candidate's readings of the clock
    # Past the deadline in the second candidate's playout: no candidate gets a value.
    fake.jump_at = fake.playout_reads + first + 1
    assert search._sample(position, hands, candidates, {}, deadline=fake.now + 1) is None
    assert fake.playout_reads == fake.jump_at  # it stopped at that reading


def test_a_search_overtaken_mid_sample_counts_only_whole_samples(clock, monkeypatch):
    clock(jump_at=1500)  # far past the budget, in the middle of some playout
    played = []

    def recorded(position, hands, candidates, cache, deadline):
        values = original(position, hands, candidates, cache, deadline)
        played.append((candidates, values))
        return values

    original = search._sample
    monkeypatch.setattr(search, "_sample", recorded)
    report = search.search(opening(), seed=1, budget_ms=10_000)
    assert played[-1][1] is None  # the last sample was overtaken and dropped
    whole = played[:-1]
    assert whole and report["samples"] == len(whole)
    # Each candidate's mean is over the whole samples it was in, and nothing else.
    seen: dict[str, list[float]] = {}
    for candidates, values in whole:
        for cards, value in zip(candidates, values):
            seen.setdefault(search.text_of(cards), []).append(value)
    assert report["values"] == pytest.approx(
        {text: sum(values) / len(values) for text, values in seen.items()})


def test_analysis_waits_for_its_first_sample_whatever_the_clock(clock):
    clock(jump_at=1)
    position = opening()
    played = search._candidates(position)[-1]
    report = search.search(position, seed=1, budget_ms=0, include=played, must_include=True)
    assert report["samples"] == 1
    assert search.text_of(played) in report["values"]


def test_the_search_bench_gives_the_same_values_every_run():
    first = search_bench.run("qq", games=1, samples=2, seed="bench-test")
    again = search_bench.run("qq", games=1, samples=2, seed="bench-test")
    assert first["positions"] > 10
    # Forced positions take no sample; every other takes exactly two.
    assert 0 < first["samples"] <= 2 * first["positions"]
    assert first["fingerprint"] == again["fingerprint"]
    assert first["samples"] == again["samples"]
    other = search_bench.run("qq", games=1, samples=3, seed="bench-test")
    assert other["fingerprint"] != first["fingerprint"]
