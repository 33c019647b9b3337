"""The player's statement pages (the API lives in ledger/urls.py under /api/ledger/)."""

from django.urls import path

from . import relief_views, views

urlpatterns = [
    path("me/coins/", views.my_coins, name="my-coins"),
    path("me/points/", views.my_points, name="my-points"),
    path("me/coins/relief/", relief_views.claim, name="relief-claim"),
]
