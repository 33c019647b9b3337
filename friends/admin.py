"""Admin of friendships, requests, blocks and table invitations: read-only (players
make them on their pages)."""

from django.contrib import admin

from common.admin_readonly import ReadOnlyMixin

from .models import Block, FriendRequest, Friendship, TableInvite


@admin.register(Friendship)
class FriendshipAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("low", "high", "created_at")
    search_fields = ("low__username", "high__username")
    list_select_related = ("low", "high")


@admin.register(FriendRequest)
class FriendRequestAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("sender", "recipient", "created_at")
    search_fields = ("sender__username", "recipient__username")
    list_select_related = ("sender", "recipient")


@admin.register(Block)
class BlockAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")


@admin.register(TableInvite)
class TableInviteAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("sender", "recipient", "table", "seat", "rematch", "created_at", "answer")
    list_filter = ("answer", "rematch")
    search_fields = ("sender__username", "recipient__username")
    list_select_related = ("sender", "recipient", "table")
