from django.contrib import admin

from .models import RuleSetConfig


@admin.register(RuleSetConfig)
class RuleSetConfigAdmin(admin.ModelAdmin):
    # The model form runs RuleSetConfig.clean(), so a bad config comes back as a form error.
    list_display = ("name", "label", "is_preset", "updated_at")
    list_filter = ("is_preset",)
    search_fields = ("name", "label")
    readonly_fields = ("updated_at",)
