"""HTTP API of the ledger: the requesting player's own entries."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework.generics import ListAPIView
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated

from .models import Leg
from .selectors import user_entries
from .serializers import LedgerEntryFilterSerializer, LedgerEntrySerializer


class LedgerEntryPagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


class LedgerEntryListView(ListAPIView):
    """The requesting player's ledger entries (legs), newest first."""

    serializer_class = LedgerEntrySerializer
    permission_classes = [IsAuthenticated]
    pagination_class = LedgerEntryPagination

    @extend_schema(parameters=[LedgerEntryFilterSerializer], summary="My ledger entries")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Leg]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Leg.objects.none()
        filters = LedgerEntryFilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        return user_entries(self.request.user,
                            currency=filters.validated_data.get("currency") or None,
                            kind=filters.validated_data.get("kind") or None)
