from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import User
from games.engine.presets import PRESETS
from games.models import RuleSetConfig


def run(command: str) -> str:
    out = StringIO()
    call_command(command, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_load_presets_twice_leaves_the_four_presets():
    first = run("load_presets")
    second = run("load_presets")

    assert set(RuleSetConfig.objects.values_list("name", flat=True)) == {
        "qq", "tcy", "jinyou", "classic",
    }
    assert all(RuleSetConfig.objects.values_list("is_preset", flat=True))
    assert first.count("created") == 4
    assert second.count("updated") == 4


@pytest.mark.django_db
def test_load_presets_restores_an_edited_preset():
    run("load_presets")
    RuleSetConfig.objects.filter(name="qq").update(config={"name": "qq"})

    run("load_presets")

    assert RuleSetConfig.objects.get(name="qq").as_rule_set() == PRESETS["qq"]


@pytest.mark.django_db
def test_seed_demo_without_debug_creates_only_the_demo_player(settings):
    settings.DEBUG = False

    first = run("seed_demo")
    second = run("seed_demo")

    assert list(User.objects.values_list("username", flat=True)) == ["demo"]
    assert User.objects.get(username="demo").check_password("demo")
    assert "skipped" in first
    assert "created" in first and "left unchanged" in second


@pytest.mark.django_db
def test_seed_demo_with_debug_also_creates_the_admin_superuser(settings):
    settings.DEBUG = True

    run("seed_demo")
    run("seed_demo")

    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.check_password("admin")
    assert User.objects.count() == 2
