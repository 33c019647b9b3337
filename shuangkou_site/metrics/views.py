"""``GET /metrics``: for Prometheus only, with the bearer token ``METRICS_TOKEN``."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .exposition import scrape


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """404 while no token is set (the endpoint is off); 401 without the right
    ``Authorization: Bearer <METRICS_TOKEN>``."""
    token = settings.METRICS_TOKEN
    if not token:
        raise Http404("metrics are off")
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(),
                                                              token.encode()):
        response = HttpResponse("a bearer token is required\n", status=401,
                                content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    body, content_type = scrape()
    return HttpResponse(body, content_type=content_type)
