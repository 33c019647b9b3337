from django.urls import path

from tournaments import api, views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("tournaments/<int:tournament_id>/register/", views.tournament_register,
         name="tournament-register"),
    path("tournaments/<int:tournament_id>/withdraw/", views.tournament_withdraw,
         name="tournament-withdraw"),
    path("tournaments/<int:tournament_id>/boards/<int:round_number>/<int:board>/",
         views.board_page, name="tournament-board"),
    path("api/tournaments", api.TournamentListView.as_view(), name="api-tournaments"),
    path("api/tournaments/<int:tournament_id>", api.TournamentView.as_view(),
         name="api-tournament"),
    path("api/tournaments/<int:tournament_id>/register", api.RegisterView.as_view(),
         name="api-tournament-register"),
    path("api/tournaments/<int:tournament_id>/withdraw", api.WithdrawView.as_view(),
         name="api-tournament-withdraw"),
    path("api/tournaments/<int:tournament_id>/boards/<int:round_number>/<int:board>",
         api.BoardView.as_view(), name="api-tournament-board"),
]
