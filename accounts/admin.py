from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin

from .models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    fieldsets = (*DjangoUserAdmin.fieldsets, ("昵称", {"fields": ("nickname",)}))
    add_fieldsets = (*DjangoUserAdmin.add_fieldsets, ("昵称", {"fields": ("nickname",)}))
    list_display = ("username", "nickname", "email", "is_staff", "is_active")
    search_fields = ("username", "nickname", "email")
