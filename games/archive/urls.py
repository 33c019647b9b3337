"""Replays and the game history (games.archive.views). The replay takes over the URL
name ``game-replay`` from the site's placeholder; old links by ledger key
(``/games/game:12/replay/``) redirect to the replay by id."""

from django.urls import path

from games.archive import views

urlpatterns = [
    path("games/history/", views.game_history, name="game-history"),
    path("games/<int:game_id>/replay/", views.game_replay, name="game-replay"),
    path("games/<int:game_id>/events.json", views.game_events_download,
         name="game-events-download"),
    path("games/<path:game_key>/replay/", views.game_replay_by_key,
         name="game-replay-by-key"),
]
