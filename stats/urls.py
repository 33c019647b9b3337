from django.urls import path

from . import views

urlpatterns = [
    path("players/<str:username>/stats/", views.player_stats_page, name="player-stats"),
    path("accounts/me/stats-visibility/", views.stats_visibility, name="stats-visibility"),
    path("boards/weekly/", views.weekly_board, name="weekly-board"),
]
