"""Admin pages that show records and never change them (the games' and the ledger's)."""

from __future__ import annotations

from django.http import HttpRequest


class ReadOnlyMixin:
    """View only: no add, change or delete, for anyone."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
