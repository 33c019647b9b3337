from django.urls import path

from . import api, views

urlpatterns = [
    path("friends/", views.friends_page, name="friends"),
    path("friends/list/", views.friend_list, name="friend-list"),
    path("friends/notices/", views.notices, name="friend-notices"),
    path("friends/request/", views.friend_request, name="friend-request"),
    path("friends/seat/", views.choose_seat, name="friend-seat"),
    path("friends/board/", views.friends_board, name="friends-board"),
    path("friends/<int:user_id>/<slug:action>/", views.friend_action, name="friend-action"),
    path("friends/invites/<int:invite_id>/<slug:answer>/", views.invite_answer,
         name="friend-invite-answer"),
    path("games/<int:game_id>/rematch/", views.rematch_view, name="rematch"),
    path("api/friends", api.FriendsView.as_view(), name="api-friends"),
    path("api/friends/blocked", api.BlockedView.as_view(), name="api-friends-blocked"),
    path("api/friends/requests/<int:user_id>/accept", api.AcceptView.as_view(),
         name="api-friend-accept"),
    path("api/friends/<int:user_id>/invite", api.InviteView.as_view(), name="api-friend-invite"),
    path("api/friends/invites/<int:invite_id>/accept", api.InviteAcceptView.as_view(),
         name="api-friend-invite-accept"),
    path("api/games/<int:game_id>/rematch", api.RematchView.as_view(), name="api-rematch"),
]
