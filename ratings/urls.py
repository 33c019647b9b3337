from django.urls import path

from . import views

urlpatterns = [
    path("ratings/", views.leaderboard_page, name="rating-leaderboard"),
    path("players/<str:username>/ratings/", views.player_ratings_page, name="player-ratings"),
]
