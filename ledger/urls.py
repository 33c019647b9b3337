from django.urls import path

from . import api

urlpatterns = [
    path("relief", api.ReliefView.as_view(), name="api-relief"),
    path("entries", api.LedgerEntryListView.as_view(), name="api-ledger-entries"),
]
