"""WebSocket routes, mounted by shuangkou_site.asgi."""

from django.urls import path

from games.live.lobby import LobbyConsumer
from games.live.table_socket import TableConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
]
