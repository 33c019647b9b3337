"""HTTP API of the ledger: the requesting player's own entries."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import Leg
from .relief import claim_relief, relief_status
from .selectors import user_entries
from .serializers import LedgerEntryFilterSerializer, LedgerEntrySerializer
from .services import LedgerError


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


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()


class ReliefStatusSerializer(serializers.Serializer):
    day = serializers.DateField(help_text="Today, in the site's time zone.")
    claimed = serializers.IntegerField()
    per_day = serializers.IntegerField()
    remaining = serializers.IntegerField()
    threshold = serializers.IntegerField()
    amount = serializers.IntegerField()
    balance = serializers.IntegerField(help_text="Available coins (frozen ones excluded).")
    frozen = serializers.IntegerField(
        help_text="Coins frozen for running games. They count as the player's: relief needs "
                  "balance + frozen below the threshold.")
    played = serializers.BooleanField(help_text="Has finished a game: relief needs one.")
    eligible = serializers.BooleanField()
    next_claim = serializers.IntegerField()


class ReliefClaimSerializer(serializers.Serializer):
    claim = serializers.IntegerField(
        min_value=1, required=False,
        help_text="Which claim of today this is (next_claim of the status). Sending the "
                  "same number again returns the first grant instead of paying twice.")


class ReliefClaimedSerializer(serializers.Serializer):
    transaction_key = serializers.CharField()
    amount = serializers.IntegerField()
    status = ReliefStatusSerializer()


class ReliefView(APIView):
    """The daily relief grant (救济金): today's claims left, and claiming one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=ReliefStatusSerializer, summary="My relief grant today")
    def get(self, request: Request) -> Response:
        return Response(ReliefStatusSerializer(relief_status(request.user)).data)

    @extend_schema(request=ReliefClaimSerializer,
                   responses={200: ReliefClaimedSerializer, 400: ErrorSerializer},
                   summary="Claim the relief grant")
    def post(self, request: Request) -> Response:
        body = ReliefClaimSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            posted = claim_relief(user=request.user, claim=body.validated_data.get("claim"))
        except LedgerError as error:
            return Response({"detail": str(error)}, status=status.HTTP_400_BAD_REQUEST)
        amount = posted.legs.get(account__user=request.user).amount
        return Response(ReliefClaimedSerializer({
            "transaction_key": posted.key, "amount": amount,
            "status": relief_status(request.user)}).data)
