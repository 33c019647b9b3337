from django.core.exceptions import ValidationError
from django.db import models

from games.engine.rulesets import RuleSet, RuleSetError


class RuleSetConfig(models.Model):
    """A rule set as operators edit it in admin (RULES §9); the engine validates it."""

    name = models.SlugField("名称", max_length=40, unique=True)
    label = models.CharField("显示名", max_length=80)
    config = models.JSONField(
        "配置",
        default=dict,
        help_text="The rule set as JSON; every field of the engine's RuleSet is required.",
    )
    is_preset = models.BooleanField("预设", default=False)
    updated_at = models.DateTimeField("更新时间", auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name = "规则配置"
        verbose_name_plural = "规则配置"

    def __str__(self) -> str:
        return self.label or self.name

    def clean(self) -> None:
        super().clean()
        try:
            rule_set = self.as_rule_set()
        except RuleSetError as error:
            raise ValidationError({"config": str(error)}) from error
        # One name for both, so a room's rule set reads the same in admin and in the engine.
        if self.name and rule_set.name != self.name:
            raise ValidationError(
                {"config": f"name {rule_set.name!r} must equal the rule set's name {self.name!r}"}
            )

    def as_rule_set(self) -> RuleSet:
        """The engine's immutable rule set; raises RuleSetError when the config is bad."""
        return RuleSet.from_dict(self.config)
