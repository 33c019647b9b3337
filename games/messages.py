"""The table socket's texts in the player's language: the engine's refusals, and the
language of a connection.

games/engine/ is pure Python without Django: it refuses with a stable code and plain-JSON
params (``GameError(code, **params)``, games/engine/errors.py), and games/refusals.py
gives each code a translatable text filled from the params; cards and readings are shown
with translated words (``cards_text``, ``kind_label`` here, games.replay.reading_text).

``engine_message`` is lazy: the text is rendered when ``str()`` is called, in the
language active then. games.consumers renders socket errors with the connection's
language active; a page renders them in the request's (docs/i18n.md).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from django.http.cookie import parse_cookie
from django.utils.functional import lazy
from django.utils.translation import get_language_from_request
from django.utils.translation import gettext as _

from .engine.errors import EngineError
from .replay import rank_label


def cards_text(text: str) -> str:
    """Rank tokens (``"5 5 T BJ"``) as a player reads them (``5 5 10 大王``)."""
    return " ".join(rank_label(token) for token in text.split())


def kind_label(kind: str) -> str:
    """A reading type (RULES §4's protocol names) in words."""
    labels = {
        "single": _("单张"), "pair": _("对子"), "triple": _("三张"), "straight": _("顺子"),
        "pairs": _("连对"), "triples": _("连三张"), "bomb": _("炸弹"),
        "chain_bomb": _("连环炸弹"), "joker_bomb": _("王炸"),
    }
    return labels.get(kind, kind)


def _refusal_text(code: str, params: dict[str, Any]) -> str:
    from .refusals import refusal_text  # games.refusals builds on cards_text and kind_label
    return refusal_text(code, params)


_lazy_refusal_text = lazy(_refusal_text, str)


def engine_message(error: EngineError):
    """The engine's refusal ``error`` (a ``GameError`` or ``CardError``: its code and
    params) as a text translated when used as a string (see the module). The params are
    copied now: the game may move on before the text is shown."""
    return _lazy_refusal_text(error.code, copy.deepcopy(error.params))


def connection_language(scope: Mapping[str, Any]) -> str:
    """The language of a socket connection, chosen as LocaleMiddleware chooses a page's:
    the ``django_language`` cookie (set by the header's switch), then the browser's
    Accept-Language, then settings.LANGUAGE_CODE. Read once, when the socket connects."""
    cookies = scope.get("cookies")
    headers = {name.lower(): value for name, value in scope.get("headers") or ()}
    if cookies is None:  # no CookieMiddleware in front: read the header ourselves
        cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    request = SimpleNamespace(COOKIES=cookies, META={"HTTP_ACCEPT_LANGUAGE": accept})
    return get_language_from_request(request)
