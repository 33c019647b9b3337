"""A bounded memo for the planner's pure functions (see docs/engine.md, "Budget")."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

_SHARDS = 64


class Memo:
    """A memo of at most about ``limit`` entries that forgets its oldest first.

    The entries are spread over shards by key hash, each an ``OrderedDict`` that drops
    its own oldest past ``limit / shards``. One dict of hundreds of thousands of
    entries had to be rebuilt now and then (a resize, or clearing the holes its
    evictions leave), and one insertion then cost a decision up to 135 ms; a shard's
    rebuild is a 64th of that. Clearing the memo at once had cost as much."""

    __slots__ = ("_shards", "_mask", "limit", "shard_limit")

    def __init__(self, limit: int, shards: int = _SHARDS) -> None:
        if shards < 1 or shards & (shards - 1):
            raise ValueError("shards must be a power of two")
        self._shards: list[OrderedDict] = [OrderedDict() for _ in range(shards)]
        self._mask = shards - 1
        self.limit = limit
        self.shard_limit = max(1, limit // shards)

    def get(self, key: Hashable, default=None):
        return self._shards[hash(key) & self._mask].get(key, default)

    def __setitem__(self, key: Hashable, value) -> None:
        shard = self._shards[hash(key) & self._mask]
        shard[key] = value
        if len(shard) > self.shard_limit:
            shard.popitem(last=False)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._shards[hash(key) & self._mask]

    def __len__(self) -> int:
        return sum(map(len, self._shards))

    def clear(self) -> None:
        for shard in self._shards:
            shard.clear()
