"""WebSocket routes, mounted by shuangkou_site.asgi."""

from django.urls import path

from .consumers import TableConsumer
from .lobby import LobbyConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
]
