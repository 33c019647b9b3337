"""Quick chat at a table: a fixed list of phrases and emotes (no free text, so nothing
to moderate), and how often a player may send one (docs/protocol.md, "chat").

The limit is a sliding window per player, so a player's sockets on different server
processes share one count (a count in process memory would let a player with tabs on N
processes send N times as many). With Redis as the cache (production and tests) the
window is a sorted set of send times, and a turn is ONE Lua script (redis-py's
``register_script``): drop the times that left the window, count, add this one if
there is room. Redis runs a script alone, so phrases sent at the same instant from
any number of processes never let more than the burst through (a read of the count
and a write after it, as before, let 6 of 16 simultaneous phrases through a burst of
3). ``make run`` has no Redis and one process: there a lock of the process makes the
same read-and-write one step.
"""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.redis import RedisCache
from django.utils.translation import gettext_lazy as _
from redis.commands.core import Script

from games.errors import ActionError

# The window's clock: a module attribute so tests can move time themselves.
clock = time.time


@dataclass(frozen=True)
class Phrase:
    id: str  # stable: clients remember it, it crosses the socket
    text: object  # lazy translation
    emote: bool = False


PHRASES: tuple[Phrase, ...] = (
    Phrase("hurry", _("快点吧，等得花都谢了")),
    Phrase("nice_play", _("好牌！")),
    Phrase("well_played", _("打得漂亮！")),
    Phrase("sorry", _("不好意思，失误了")),
    Phrase("thanks", _("谢谢搭档")),
    Phrase("good_luck", _("祝大家好运")),
    Phrase("again", _("再来一局！")),
    Phrase("emote_smile", _("微笑"), emote=True),
    Phrase("emote_cry", _("哭泣"), emote=True),
    Phrase("emote_angry", _("生气"), emote=True),
    Phrase("emote_thumbs", _("点赞"), emote=True),
    Phrase("emote_flower", _("送花"), emote=True),
)
PHRASE_IDS = frozenset(phrase.id for phrase in PHRASES)


def chat_config() -> list[dict]:
    """The phrases as the table page's ``config.chat`` lists them, in the active
    language."""
    return [{"id": phrase.id, "text": str(phrase.text), "emote": phrase.emote}
            for phrase in PHRASES]


def check_phrase(phrase: object) -> str:
    if not isinstance(phrase, str) or phrase not in PHRASE_IDS:
        raise ActionError(_("没有这条快捷短语"), code="chat_unknown")
    return phrase


def check_seated(seat: int | None) -> int:
    if seat is None:
        raise ActionError(_("旁观者不能发言，请先入座"), code="chat_not_seated")
    return seat


def take_chat_turn(user_id: int) -> None:
    """Count one phrase of ``user_id``; refuse it (counting nothing) when the player
    has sent ``GAMES_CHAT_BURST`` in the last ``GAMES_CHAT_WINDOW_SECONDS``. Touches no
    database: one round trip to Redis."""
    window = float(settings.GAMES_CHAT_WINDOW_SECONDS)
    burst = int(settings.GAMES_CHAT_BURST)
    backend = caches["default"]
    take = _take_in_redis if isinstance(backend, RedisCache) else _take_here
    if not take(backend, f"games:chat:{user_id}", clock(), window, burst):
        raise ActionError(_("发言太频繁了：%(seconds)s 秒内最多 %(burst)s 条"),
                          {"seconds": f"{window:g}", "burst": burst}, code="chat_rate")


# KEYS[1]: the player's window, a sorted set of send times (each member unique).
# ARGV: now, the last time that is out of the window (now - window), the burst, and
# how long the set outlives its newest member (ms), the new member.
_TAKE_TURN = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
    return 0
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
"""
_take_turn_script: Script | None = None


def _take_in_redis(backend: RedisCache, name: str, now: float, window: float,
                   burst: int) -> bool:
    global _take_turn_script
    key = backend.make_and_validate_key(name)  # with the cache's prefix, as its keys
    # The cache's own client and connection pool (Django's RedisCache keeps its client
    # as ``_cache``; there is no public way to it).
    client = backend._cache.get_client(key, write=True)
    if _take_turn_script is None:
        _take_turn_script = client.register_script(_TAKE_TURN)
    # repr: the shortest text that reads back as the same float.
    return bool(_take_turn_script(keys=[key], client=client, args=[
        repr(now), repr(now - window), burst, max(1, int(window * 1000)),
        uuid.uuid4().hex]))


_here = threading.Lock()


def _take_here(backend: BaseCache, name: str, now: float, window: float,
               burst: int) -> bool:
    """The same window in a cache of this process (``make run``: one process)."""
    with _here:
        recent = [sent for sent in backend.get(name, []) if now - sent < window]
        if len(recent) >= burst:
            return False
        backend.set(name, [*recent, now], timeout=max(1, int(window) + 1))
        return True
