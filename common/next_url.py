"""Where a form's ``next`` may send a player back to."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def local_next(request: HttpRequest, target: str | None) -> str | None:
    """``target`` when it is a path of this site ("/…"), else None. A bare word is not
    one: Django's ``redirect`` takes it for a view's name, and a ``next`` of "abc" made
    a sign-up a server error after the player had been created."""
    if target and target.startswith("/") and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return None
