"""Site-wide pages: the home page and the health check."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .health import check_health


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 only when games can be served: the database and Redis answer, and the sweeper
    and settlement keep up (shuangkou_site.health); else 503, naming what failed."""
    health = check_health()
    return JsonResponse(health.as_json(), status=200 if health.ok else 503)
