"""The strong bot's budget: bounded memos."""

from __future__ import annotations

import pytest

from games.engine.memo import Memo

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
