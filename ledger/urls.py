from django.urls import path

from . import api

urlpatterns = [
    path("entries", api.LedgerEntryListView.as_view(), name="api-ledger-entries"),
]
