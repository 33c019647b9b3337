"""WebSocket routes, mounted by shuangkou_site.asgi beside games'."""

from django.urls import path

from tournaments.live import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournament/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
