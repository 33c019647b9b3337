from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from .models import Currency, Kind, Leg


class LedgerEntrySerializer(serializers.ModelSerializer):
    """One leg of the requesting player's account, with its transaction."""

    transaction_key = serializers.CharField(source="transaction.key", read_only=True)
    kind = serializers.ChoiceField(source="transaction.kind", choices=Kind.choices,
                                   read_only=True)
    currency = serializers.ChoiceField(source="account.currency", choices=Currency.choices,
                                       read_only=True)
    game_key = serializers.CharField(source="transaction.game_key", read_only=True)
    created_at = serializers.DateTimeField(source="transaction.created_at", read_only=True)
    memo = serializers.CharField(source="transaction.memo", read_only=True)

    class Meta:
        model = Leg
        fields = ["id", "transaction_key", "kind", "currency", "amount", "balance_after",
                  "game_key", "created_at", "memo"]
        read_only_fields = fields


def _invalid_choice(what: str, values: list[str]):
    # DRF fills in {input}; the doubled braces survive this first formatting.
    return format_lazy(_("“{{input}}” 不是有效的{what}，可选值：{values}。"),
                       what=what, values=", ".join(values))


class LedgerEntryFilterSerializer(serializers.Serializer):
    """Query parameters of GET /api/ledger/entries; an empty value means no filter."""

    currency = serializers.ChoiceField(
        choices=Currency.choices, required=False, allow_blank=True,
        help_text="Only entries in this currency.",
        error_messages={"invalid_choice": _invalid_choice(_("币种"), Currency.values)})
    kind = serializers.ChoiceField(
        choices=Kind.choices, required=False, allow_blank=True,
        help_text="Only entries of transactions of this kind.",
        error_messages={"invalid_choice": _invalid_choice(_("交易类型"), Kind.values)})
