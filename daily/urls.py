from django.urls import path

from . import api, views

urlpatterns = [
    path("daily/", views.daily_page, name="daily"),
    path("daily/checkin/", views.checkin, name="daily-checkin"),
    path("daily/tasks/<slug:task>/claim/", views.claim, name="daily-claim"),
    path("api/daily", api.DailyView.as_view(), name="api-daily"),
    path("api/daily/checkin", api.CheckInView.as_view(), name="api-daily-checkin"),
    path("api/daily/tasks/<slug:task>/claim", api.ClaimView.as_view(), name="api-daily-claim"),
]
