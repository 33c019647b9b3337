"""Forms of the accounts pages and of the accounts admin."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledger.models import Currency

from .login_limits import LoginBlocked, authenticate_limited
from .models import User

TOO_MANY_ATTEMPTS = _("登录失败次数过多，请 %(minutes)d 分钟后再试。")


class SignUpForm(UserCreationForm):
    """Username, nickname and the password twice; Django's checks for the rest (a
    username taken in any case, password strength, the two passwords equal)."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "nickname")
        labels = {"username": _("用户名"), "nickname": _("昵称")}
        help_texts = {"nickname": _("牌桌上显示的名字，最多 32 个字符。")}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["nickname"].required = True
        self.fields["password1"].label = _("密码")
        self.fields["password2"].label = _("确认密码")


class LimitedAuthenticationMixin:
    """Check the password through the failed-login limits (accounts.login_limits)."""

    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            try:
                self.user_cache = authenticate_limited(self.request, username=username,
                                                       password=password)
            except LoginBlocked as blocked:
                raise ValidationError(TOO_MANY_ATTEMPTS, code="too_many_attempts",
                                      params={"minutes": blocked.minutes}) from None
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


class LoginForm(LimitedAuthenticationMixin, AuthenticationForm):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("用户名")
        self.fields["password"].label = _("密码")


class AdminLoginForm(LimitedAuthenticationMixin, AdminAuthenticationForm):
    pass


class BalanceAdjustForm(forms.Form):
    """An operator's adjustment of one player's balance. The hidden key is made when the
    form is shown, so submitting the same page twice posts once."""

    MAX_AMOUNT = 10**12

    currency = forms.ChoiceField(label=_("币种"), choices=Currency.choices)
    amount = forms.IntegerField(
        label=_("数额"), min_value=-MAX_AMOUNT, max_value=MAX_AMOUNT,
        help_text=_("正数增加，负数扣减；整数，不能为 0。"))
    reason = forms.CharField(label=_("原因"), max_length=300,
                             widget=forms.Textarea(attrs={"rows": 3}))
    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise ValidationError(_("数额不能为 0。"), code="zero")
        return amount
