"""The language of a socket connection (docs/i18n.md): the table and lobby sockets
answer each player in the language of the page that opened them."""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from django.http.cookie import parse_cookie
from django.utils.translation import get_language_from_request


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
