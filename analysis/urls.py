from django.urls import path

from analysis import api, views

urlpatterns = [
    path("games/<int:game_id>/analysis/", views.analysis_panel, name="game-analysis-panel"),
    path("games/<int:game_id>/analysis/ask/", views.analysis_ask, name="game-analysis-ask"),
    path("api/games/<int:game_id>/analysis", api.GameAnalysisView.as_view(),
         name="api-game-analysis"),
]
