"""Writes for the games app."""

from django.db import transaction

from games.engine.presets import PRESETS
from games.models import RuleSetConfig


@transaction.atomic
def rule_set_presets_load() -> list[tuple[str, bool]]:
    """Insert or overwrite the shipped presets; returns (name, created) for each.

    Presets are the shipped definitions: this restores them. Operators vary a rule set
    by saving it under another name.
    """
    results = []
    for rule_set in PRESETS.values():
        _, created = RuleSetConfig.objects.update_or_create(
            name=rule_set.name,
            defaults={"label": rule_set.name, "config": rule_set.to_dict(), "is_preset": True},
        )
        results.append((rule_set.name, created))
    return results
