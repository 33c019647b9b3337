"""Quick chat at a table: a fixed list of phrases and emotes (no free text, so nothing
to moderate), and how often a player may send one (docs/protocol.md, "chat").

The limit is a sliding window per player kept in the Django cache: Redis in
production and tests, so a player's sockets on different server processes share one
count (a count in process memory would let a player with tabs on N processes send N
times as many). The read-then-write is not atomic: two phrases sent at the same
instant from two processes may both pass, one over the limit at worst, which is
harmless for a chat limit and costs no lock.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

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
    has sent ``GAMES_CHAT_BURST`` in the last ``GAMES_CHAT_WINDOW_SECONDS``."""
    window = float(settings.GAMES_CHAT_WINDOW_SECONDS)
    burst = int(settings.GAMES_CHAT_BURST)
    key = f"games:chat:{user_id}"
    now = clock()
    recent = [sent for sent in cache.get(key, []) if now - sent < window]
    if len(recent) >= burst:
        raise ActionError(_("发言太频繁了：%(seconds)s 秒内最多 %(burst)s 条"),
                          {"seconds": f"{window:g}", "burst": burst}, code="chat_rate")
    recent.append(now)
    cache.set(key, recent, timeout=max(1, int(window) + 1))
