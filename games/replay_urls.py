"""Replays and the game history (games.views_replay). The replay takes over the URL
name ``game-replay`` from the site's placeholder; old links by ledger key
(``/games/game:12/replay/``) redirect to the replay by id."""

from django.urls import path

from . import views_replay

urlpatterns = [
    path("games/history/", views_replay.game_history, name="game-history"),
    path("games/<int:game_id>/replay/", views_replay.game_replay, name="game-replay"),
    path("games/<int:game_id>/events.json", views_replay.game_events_download,
         name="game-events-download"),
    path("games/<path:game_key>/replay/", views_replay.game_replay_by_key,
         name="game-replay-by-key"),
]
