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
    rebuild is a 64th of that. Clearing the memo at once had cost as much.

    Hot callers look up in place, with no call of a Python method:
    ``shard = memo.shards[hash(key) & memo.mask]``, ``shard.get(key)``, and on a miss
    ``memo.put(shard, key, value)``."""

    __slots__ = ("shards", "mask", "limit", "shard_limit")

    def __init__(self, limit: int, shards: int = _SHARDS) -> None:
        if shards < 1 or shards & (shards - 1):
            raise ValueError("shards must be a power of two")
        self.shards: list[OrderedDict] = [OrderedDict() for _ in range(shards)]
        self.mask = shards - 1
        self.limit = limit
        self.shard_limit = max(1, limit // shards)

    def put(self, shard: OrderedDict, key: Hashable, value):
        """Store ``value`` in ``key``'s shard, forgetting the shard's oldest past its
        limit; answer ``value``."""
        shard[key] = value
        if len(shard) > self.shard_limit:
            shard.popitem(last=False)
        return value

    def get(self, key: Hashable, default=None):
        return self.shards[hash(key) & self.mask].get(key, default)

    def __setitem__(self, key: Hashable, value) -> None:
        self.put(self.shards[hash(key) & self.mask], key, value)

    def __contains__(self, key: Hashable) -> bool:
        return key in self.shards[hash(key) & self.mask]

    def __len__(self) -> int:
        return sum(map(len, self.shards))
