from django.contrib import admin
from django.contrib.staticfiles.urls import staticfiles_urlpatterns
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts import api as accounts_api
from fair_play import api as fair_play_api
from ratings import api as ratings_api
from stats import api as stats_api

from . import views
from .metrics import views as metrics_views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("metrics", metrics_views.metrics, name="metrics"),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("ledger.page_urls")),
    path("", include("games.archive.urls")),
    path("", include("stats.urls")),
    path("", include("analysis.urls")),
    path("", include("friends.urls")),
    path("", include("daily.urls")),
    path("", include("ratings.urls")),
    path("", include("tournaments.urls")),
    path("admin/", admin.site.urls),
    # The header's language switch posts to set_language (django.views.i18n).
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/me", accounts_api.MeView.as_view(), name="api-me"),
    path("api/me/ban", fair_play_api.MyBanView.as_view(), name="api-my-ban"),
    path("api/levels", accounts_api.LevelListView.as_view(), name="api-levels"),
    path("api/token", accounts_api.TokenView.as_view(), name="api-token"),
    path("api/ledger/", include("ledger.urls")),
    path("api/players/<str:username>/stats", stats_api.PlayerStatsView.as_view(),
         name="api-player-stats"),
    path("api/players/<str:username>/ratings", ratings_api.PlayerRatingsView.as_view(),
         name="api-player-ratings"),
    path("api/ratings/leaderboard", ratings_api.LeaderboardView.as_view(),
         name="api-rating-leaderboard"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]

# uvicorn serves no static files: while DEBUG is on Django does (this adds nothing
# otherwise); in production WhiteNoise serves the output of collectstatic (settings/prod.py).
urlpatterns += staticfiles_urlpatterns()
