import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from games.engine.presets import PRESETS
from games.models import Room, RuleSetConfig


def config_error(config: object, name: str = "x") -> str:
    """The message full_clean() attaches to the config field."""
    candidate = RuleSetConfig(name=name, label=name, config=config)
    with pytest.raises(ValidationError) as caught:
        candidate.full_clean()
    return " ".join(caught.value.message_dict["config"])


def preset_config(**changes: object) -> dict:
    return {**PRESETS["qq"].to_dict(), "name": "x", **changes}


@pytest.mark.django_db
@pytest.mark.parametrize("preset_name", ["qq", "tcy", "jinyou", "classic"])
def test_each_preset_round_trips_through_the_database(preset_name):
    preset = PRESETS[preset_name]
    stored = RuleSetConfig(name=preset.name, label=preset.name, config=preset.to_dict())
    stored.full_clean()
    stored.save()

    assert RuleSetConfig.objects.get(name=preset_name).as_rule_set() == preset


@pytest.mark.django_db
def test_three_players_is_refused_naming_the_players_field():
    assert "players" in config_error({"name": "x", "players": 3})


@pytest.mark.django_db
def test_an_unknown_key_is_refused_naming_that_key():
    assert "bogus_option" in config_error(preset_config(bogus_option=1))


@pytest.mark.django_db
def test_a_wrong_type_is_refused_naming_the_field():
    assert "chain_bombs" in config_error(preset_config(chain_bombs="yes"))


@pytest.mark.django_db
def test_a_config_that_is_not_an_object_is_refused():
    assert config_error(["qq"])


@pytest.mark.django_db
def test_the_config_name_must_match_the_row_name():
    assert "“x”" in config_error(preset_config(), name="y")


@pytest.mark.django_db
def test_admin_refuses_a_bad_config_with_the_engine_message(admin_client):
    response = admin_client.post(
        reverse("admin:games_rulesetconfig_add"),
        {"name": "x", "label": "x", "config": '{"name": "x", "players": 3}'},
    )

    assert response.status_code == 200
    assert "players must be 2 or 4" in response.content.decode()
    assert not RuleSetConfig.objects.exists()


@pytest.mark.django_db
def test_admin_saves_a_valid_config(admin_client):
    response = admin_client.post(
        reverse("admin:games_rulesetconfig_add"),
        {"name": "x", "label": "快速", "config": json.dumps(preset_config(max_stars=10))},
    )

    assert response.status_code == 302
    assert RuleSetConfig.objects.get(name="x").as_rule_set().max_stars == 10


@pytest.mark.django_db
def test_admin_refuses_a_classic_ladder_out_of_order_saying_which_rung(admin_client):
    config = PRESETS["classic"].to_dict()
    config.update(name="mine", level_ladder=[["流浪汉", 0, 1], ["短工", 100, 2],
                                             ["长工", 50, 2]])
    response = admin_client.post(
        reverse("admin:games_rulesetconfig_add"),
        {"name": "mine", "label": "我的", "config": json.dumps(config, ensure_ascii=False)})

    assert response.status_code == 200
    assert "level_ladder row 3: 长工 must need more points than 短工 (100)" in \
        response.content.decode()
    assert not RuleSetConfig.objects.exists()


@pytest.mark.django_db
def test_admin_saves_an_operators_classic_with_its_own_fee_and_ladder(admin_client):
    config = PRESETS["classic"].to_dict()
    config.update(name="mine", winner_fee_percent=5, coin_multiplier_cap=8,
                  level_ladder=[["新手", 0, 1], ["高手", 5000, 4]])
    response = admin_client.post(
        reverse("admin:games_rulesetconfig_add"),
        {"name": "mine", "label": "我的", "config": json.dumps(config, ensure_ascii=False)})

    assert response.status_code == 302
    rules = RuleSetConfig.objects.get(name="mine").as_rule_set()
    assert (rules.winner_fee_percent, rules.coin_multiplier_cap) == (5, 8)
    assert rules.level_ladder == (("新手", 0, 1), ("高手", 5000, 4))


@pytest.mark.django_db
def test_a_percent_fee_is_refused_while_its_coin_rooms_charge_a_flat_fee():
    config = RuleSetConfig.objects.create(name="mine", label="我的",
                                          config={**PRESETS["qq"].to_dict(), "name": "mine"})
    Room.objects.create(name="我的金币场", rule_set=config, kind=Room.Kind.COINS,
                        coefficient=100, fee=10, min_coins=1000, max_loss=20000)
    config.config = {**config.config, "winner_fee_percent": 10}

    with translation.override("zh-hans"), pytest.raises(ValidationError) as caught:
        config.full_clean()

    message = " ".join(caught.value.message_dict["config"])
    assert "我的金币场" in message and "A 改为 0" in message
    Room.objects.filter(name="我的金币场").update(fee=0)
    config.full_clean()
