"""Logins refused while the failed-login limits cannot be checked (Redis down): a 503
page with Retry-After instead of a 500 (accounts.login_limits explains why it fails
closed). Covers every form that checks a password: the login page and the admin's."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .login_limits import LoginUnavailable


class LoginUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest,
                          exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, LoginUnavailable):
            return None
        response = render(request, "registration/login_unavailable.html", status=503)
        response["Retry-After"] = str(LoginUnavailable.RETRY_AFTER_SECONDS)
        return response
