"""Refuse requests whose path or query string holds a NUL character.

PostgreSQL cannot store or compare text with NUL in it: ``GET /players/%00/`` reached
the profile's user lookup and answered 500. No URL of the site has a use
for NUL, so it is refused with 400 before any view runs.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest


class RefuseNulMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path or any(
                "\x00" in key or any("\x00" in value for value in values)
                for key, values in request.GET.lists()):
            return HttpResponseBadRequest("NUL characters are not allowed in URLs",
                                          content_type="text/plain")
        return self.get_response(request)
