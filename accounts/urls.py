from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("accounts/signup/", views.sign_up, name="signup"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
    path("accounts/me/", views.my_profile, name="my-profile"),
    path("players/<str:username>/", views.player_profile, name="player-profile"),
    path("levels/", views.levels, name="levels"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
