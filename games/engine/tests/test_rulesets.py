"""Rule sets as validated data (RULES §9)."""

import dataclasses
import json

import pytest

from games.engine.presets import DEFAULT_RULESET, PRESET_DATA, PRESETS, get_ruleset
from games.engine.rulesets import LATER_FIELDS, RuleSet, RuleSetError

PRESET_NAMES = ["qq", "tcy", "jinyou", "classic"]


def qq_data(**changes) -> dict:
    return {**PRESETS["qq"].to_dict(), **changes}


def refusal(data) -> str:
    with pytest.raises(RuleSetError) as caught:
        RuleSet.from_dict(data)
    return str(caught.value)


def test_the_four_presets_ship_and_qq_is_the_default():
    assert sorted(PRESETS) == sorted(PRESET_NAMES)
    assert DEFAULT_RULESET == "qq"
    assert get_ruleset("tcy") is PRESETS["tcy"]


def test_an_unknown_preset_name_is_refused_listing_the_presets():
    with pytest.raises(KeyError, match="unknown rule set 'poker'.*qq, tcy, jinyou, classic"):
        get_ruleset("poker")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_each_preset_round_trips_through_to_dict_and_from_dict(name):
    preset = PRESETS[name]

    assert RuleSet.from_dict(preset.to_dict()) == preset


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_each_preset_round_trips_through_json_text(name):
    preset = PRESETS[name]
    text = json.dumps(preset.to_dict())

    assert RuleSet.from_dict(json.loads(text)) == preset
    assert json.loads(text) == PRESET_DATA[name]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_each_preset_is_named_after_its_key(name):
    assert PRESETS[name].name == name


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_presets_are_immutable(name):
    with pytest.raises(dataclasses.FrozenInstanceError):
        PRESETS[name].players = 3


def test_a_preset_cannot_grow_new_attributes():
    with pytest.raises((AttributeError, TypeError)):
        PRESETS["qq"].house_rule = True


def test_presets_are_hashable_and_equal_by_value():
    assert hash(PRESETS["qq"]) == hash(RuleSet.from_dict(PRESET_DATA["qq"]))


@pytest.mark.parametrize(("name", "field", "value"), [
    ("qq", "wildcards", ("BJ",)),
    ("tcy", "wildcards", ("SJ", "BJ")),
    ("jinyou", "wildcards", ("BJ",)),
    ("classic", "wildcards", ()),
    ("qq", "players", 4),
    ("tcy", "players", 2),
    ("tcy", "irregular_chain_bombs", True),
    ("jinyou", "chain_bombs_through_two", True),
    ("classic", "chain_bombs", False),
    ("classic", "three_joker_bomb", False),
    ("qq", "heavenly_bomb", "top_of_seven"),
    ("tcy", "heavenly_bomb", "bottom_of_seven"),
    ("jinyou", "heavenly_bomb", "bottom_of_seven"),
    ("classic", "heavenly_bomb", "top_of_all"),
    ("classic", "bomb_order", "cards"),
    ("qq", "bomb_order", "stars"),
    ("qq", "max_stars", 12),
])
def test_presets_hold_the_section_nine_values(name, field, value):
    assert getattr(PRESETS[name], field) == value


def test_wildcards_are_kept_in_rank_order():
    rules = RuleSet.from_dict(qq_data(wildcards=["BJ", "SJ"]))

    assert rules.wildcards == ("SJ", "BJ")


def test_a_rule_set_that_is_not_an_object_is_refused():
    assert "JSON object" in refusal(["qq"])


def test_an_unknown_key_is_refused_naming_it():
    assert "bogus_option" in refusal(qq_data(bogus_option=1))


@pytest.mark.parametrize("field", ["players", "wildcards", "max_stars", "escape_mode"])
def test_a_missing_key_is_refused_naming_it(field):
    data = qq_data()
    del data[field]

    message = refusal(data)

    assert "missing" in message
    assert field in message


@pytest.mark.parametrize(("field", "value"), [
    ("players", "4"),
    ("players", True),
    ("players", 4.0),
    ("auto_pass", 1),
    ("auto_pass", "true"),
    ("chain_bombs", None),
    ("max_stars", "12"),
    ("max_stars", 12.0),
    ("max_stars", True),
    ("wildcards", "BJ"),
    ("base_double", [4, 4, -4, "-4"]),
    ("multipliers", [[5, 2], [6, "4"]]),
    ("multipliers", {"5": 2}),
    ("bomb_contributions", [[6, 6]]),
    ("name", 7),
    ("heavenly_bomb", ["top_of_seven"]),
])
def test_a_wrong_type_is_refused_naming_the_field(field, value):
    assert field in refusal(qq_data(**{field: value}))


@pytest.mark.parametrize(("field", "value"), [
    ("players", 3),
    ("max_stars", 7),
    ("max_stars", 13),
    ("base_single", [2, -2, 2, -200]),
    ("base_draw", [1, 0, 1]),
    ("cards_left_single", 0),
    ("escape_compensation_percent", 101),
    ("multipliers", [[5, -2]]),
    ("name", ""),
    ("name", "x" * 41),
    ("name", "q q"),
    ("name", "双扣"),
])
def test_an_out_of_range_value_is_refused_naming_the_field(field, value):
    assert field in refusal(qq_data(**{field: value}))


@pytest.mark.parametrize(("field", "value"), [
    ("heavenly_bomb", "top"),
    ("bomb_order", "rank"),
    ("first_lead", "dealer"),
    ("result_by", "points"),
    ("contributions", "some"),
    ("escape_mode", "forfeit"),
    ("multiplier_by", "rank"),
    ("wildcards", ["RJ"]),
    ("wildcards", ["BJ", "BJ"]),
])
def test_a_bad_choice_is_refused_naming_the_field(field, value):
    message = refusal(qq_data(**{field: value}))

    assert field in message


def test_a_bad_choice_lists_the_allowed_values():
    message = refusal(qq_data(heavenly_bomb="top"))

    assert "top_of_seven" in message
    assert "bottom_of_seven" in message
    assert "top_of_all" in message


@pytest.mark.parametrize("field", ["multipliers", "doubling_points", "stakes_coins",
                                   "bomb_contributions"])
def test_steps_that_do_not_increase_are_refused_naming_the_field(field):
    rows = PRESETS["qq"].to_dict()[field]
    assert len(rows) >= 2
    swapped = [rows[1], rows[0], *rows[2:]]
    repeated = [rows[0], rows[0], *rows[2:]]

    for value in (swapped, repeated):
        message = refusal(qq_data(**{field: value}))
        assert field in message
        assert "increasing" in message


@pytest.mark.parametrize(("changes", "named"), [
    ({"chain_bombs": False, "irregular_chain_bombs": True}, "irregular_chain_bombs"),
    ({"chain_bombs": False, "chain_bombs_through_two": True}, "chain_bombs_through_two"),
    ({"players": 2}, "result_by"),
    ({"result_by": "cards_left", "players": 4}, "result_by"),
    ({**PRESET_DATA["tcy"], "cards_left_single": 12, "cards_left_double": 12},
     "cards_left_double"),
])
def test_inconsistent_combinations_are_refused_naming_a_field(changes, named):
    assert named in refusal(qq_data(**changes))


def test_replace_returns_a_changed_validated_copy():
    changed = PRESETS["qq"].replace(auto_pass=False, wildcards=("SJ", "BJ"))

    assert changed.auto_pass is False
    assert changed.wildcards == ("SJ", "BJ")
    assert PRESETS["qq"].auto_pass is True


@pytest.mark.parametrize(("changes", "named"), [
    ({"players": 3}, "players"),
    ({"auto_pass": 1}, "auto_pass"),
    ({"bogus": 1}, "bogus"),
    ({"chain_bombs": False}, "chain_bombs_through_two"),
])
def test_replace_validates(changes, named):
    base = PRESETS["jinyou"] if "chain_bombs" in changes else PRESETS["qq"]
    with pytest.raises(RuleSetError) as caught:
        base.replace(**changes)

    assert named in str(caught.value)


def test_the_joker_wildness_properties_follow_the_wildcards():
    assert PRESETS["qq"].big_joker_wild and not PRESETS["qq"].small_joker_wild
    assert PRESETS["tcy"].big_joker_wild and PRESETS["tcy"].small_joker_wild
    assert not PRESETS["classic"].big_joker_wild and not PRESETS["classic"].small_joker_wild


# --- classic's details (RULES §9): fields added later -------------------------------------

def classic_data(**changes) -> dict:
    return {**PRESETS["classic"].to_dict(), **changes}


def test_classic_holds_its_section_nine_details():
    classic = PRESETS["classic"]
    assert classic.base_draw == (1, 0, 0, 1)
    assert classic.heavenly_multiplier == 5
    assert classic.multiplier_from == "anyone"
    assert classic.first_lead == "random_after_double"
    assert classic.level_ladder[0] == ("流浪汉", 0, 1)
    assert classic.level_ladder[-1] == ("皇帝", 1000000, 8)
    assert len(classic.level_ladder) == 20
    assert (classic.coin_multiplier_cap, classic.coin_split, classic.winner_fee_percent) \
        == (5, "winners_share", 10)
    assert (classic.escape_penalty_units, classic.escape_penalty_multiplied) == (4, True)


@pytest.mark.parametrize("name", ["qq", "tcy", "jinyou"])
def test_the_other_presets_keep_the_behaviour_from_before_the_classic_fields(name):
    preset = PRESETS[name]
    assert (preset.multiplier_from, preset.level_ladder, preset.coin_multiplier_cap,
            preset.coin_split, preset.winner_fee_percent, preset.escape_penalty_multiplied) \
        == ("winners", (), 0, "by_score", 0, False)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_stored_rule_set_without_the_later_fields_reads_as_before_them(name):
    # Rule sets saved in admin, and the rules in old games' deals, lack them.
    data = PRESETS[name].to_dict()
    for field in LATER_FIELDS:
        del data[field]

    rules = RuleSet.from_dict(data)

    assert rules.level_ladder == () and rules.multiplier_from == "winners"
    assert rules.coin_split == "by_score" and rules.winner_fee_percent == 0


@pytest.mark.parametrize(("field", "value", "words"), [
    ("level_ladder", "流浪汉", ["level_ladder", "rows"]),
    ("level_ladder", [["流浪汉", 0]], ["level_ladder", "row 1"]),
    ("level_ladder", [["流浪汉", 0, 1], ["短工", 100, 0]], ["row 2", "multiplier"]),
    ("level_ladder", [["流浪汉", 0, 1], ["短工", 100, 1.5]], ["row 2", "multiplier"]),
    ("level_ladder", [["流浪汉", 0, 1], ["短工", "100", 2]], ["row 2", "points"]),
    ("level_ladder", [["流浪汉", 0, 1], ["", 100, 2]], ["row 2", "title"]),
    ("level_ladder", [["流浪汉", 0, 1], ["短工", 0, 2]], ["row 2", "短工", "more points"]),
    ("level_ladder", [["流浪汉", 0, 1], ["流浪汉", 100, 2]], ["流浪汉", "twice"]),
    ("multiplier_from", "losers", ["multiplier_from", "anyone"]),
    ("coin_multiplier_cap", -1, ["coin_multiplier_cap", "0 to 1024"]),
    ("coin_split", "even", ["coin_split", "winners_share"]),
    ("winner_fee_percent", 101, ["winner_fee_percent", "0 to 100"]),
    ("winner_fee_percent", 10.5, ["winner_fee_percent"]),
    ("escape_penalty_multiplied", "yes", ["escape_penalty_multiplied", "true or false"]),
    ("first_lead", "winner", ["first_lead", "random_after_double"]),
])
def test_a_bad_classic_value_is_refused_saying_what_is_wrong(field, value, words):
    message = refusal(classic_data(**{field: value}))

    assert all(word in message for word in words), message


@pytest.mark.parametrize(("changes", "named"), [
    ({"level_ladder": [["流浪汉", 0, 1]]}, "level_ladder"),
    ({"coin_split": "winners_share"}, "coin_split"),
])
def test_classic_money_rules_need_four_players(changes, named):
    assert named in refusal({**PRESETS["tcy"].to_dict(), **changes})


def test_an_operators_ladder_round_trips():
    ladder = [["新手", -100, 1], ["老手", 1000, 3]]
    rules = RuleSet.from_dict(classic_data(level_ladder=ladder))

    assert rules.level_ladder == (("新手", -100, 1), ("老手", 1000, 3))
    assert rules.to_dict()["level_ladder"] == ladder
