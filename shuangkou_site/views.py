"""Site-wide pages: the home page and the health check."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.engine.presets import PRESETS
from games.onboarding import has_played
from games.rule_set_names import rule_set_name
from games.web.views import play_now_context

from .health import check_health


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The home page; a signed-in player who has not played yet is offered the
    "play now" path (games.web.views.play_now)."""
    context = {"rule_sets": shipped_rule_sets()}
    if request.user.is_authenticated and not has_played(request.user.pk):
        context.update(play_now_context())
        context["offer_play_now"] = True
    return render(request, "home.html", context)


def shipped_rule_sets() -> list[dict]:
    """The shipped rule sets by the names players know, linked to their rules pages."""
    return [{"code": code, "name": rule_set_name(code)} for code in PRESETS]


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 only when games can be served: the database and Redis answer, and the sweeper
    and settlement keep up (shuangkou_site.health); else 503, naming what failed."""
    health = check_health()
    return JsonResponse(health.as_json(), status=200 if health.ok else 503)
