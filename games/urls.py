from django.urls import path

from games.web import api, api_seating, rules, views

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/rooms/<int:room_id>/join/", views.room_quick_join, name="room-quick-join"),
    path("play/", views.play_now, name="play-now"),
    path("rules/", rules.rules_index, name="rules-index"),
    path("rules/<slug:code>/", rules.rules_page, name="rules"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/ready/", views.table_ready, name="table-ready"),
    path("tables/<int:table_id>/stand/", views.table_stand, name="table-stand"),
    path("api/rooms", api.RoomListView.as_view(), name="api-rooms"),
    path("api/rooms/<int:room_id>/join", api_seating.RoomJoinView.as_view(),
         name="api-room-join"),
    path("api/games/<int:game_id>", api.GameView.as_view(), name="api-game"),
    path("api/games/<int:game_id>/events", api.GameEventsView.as_view(),
         name="api-game-events"),
]
