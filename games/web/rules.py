"""The rules pages: one per rule set (``/rules/<code>/``) and their index (``/rules/``).

Each page is written from the rule set's own values (the engine's RuleSet, as operators
edited it; RULES §9), so a changed preset or an operator's rule set reads true. Public:
a visitor may read the rules before signing up.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.engine.cards import MAX_COPIES
from games.engine.presets import PRESETS
from games.engine.rulesets import RuleSet, RuleSetError
from games.ladders import ladder_titles
from games.models import Room, RuleSetConfig
from games.rule_set_names import rule_set_name, rule_set_summary

DECK_CARDS = sum(MAX_COPIES)  # two full decks, 108 cards (RULES §1)
HAND_CARDS = 27  # each player's hand (RULES §2, §9)


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    """The shipped rule sets, then those operators saved under names of their own."""
    labels = dict(RuleSetConfig.objects.order_by("pk").values_list("name", "label"))
    codes = [*PRESETS, *(code for code in labels if code not in PRESETS)]
    return render(request, "games/rules_index.html", {"rule_sets": [
        {"code": code, "name": rule_set_name(code, labels.get(code, "")),
         "summary": rule_set_summary(code)} for code in codes]})


@require_GET
def rules_page(request: HttpRequest, code: str) -> HttpResponse:
    config = RuleSetConfig.objects.filter(name=code).first()
    if config is not None:
        try:
            rule_set = config.as_rule_set()
        except RuleSetError as error:  # an operator's broken edit: no page, not a wrong one
            raise Http404(str(error)) from error
    elif code in PRESETS:  # shipped, not loaded into this database (yet)
        rule_set = PRESETS[code]
    else:
        raise Http404(code)
    rooms = Room.objects.filter(rule_set__name=code, is_open=True).order_by("position", "pk")
    return render(request, "games/rules.html", {
        "code": code, "rule_set": rule_set,
        "name": rule_set_name(code, config.label if config else ""),
        "summary": rule_set_summary(code),
        "unused_cards": DECK_CARDS - HAND_CARDS * rule_set.players,
        "deck_cards": DECK_CARDS, "hand_cards": HAND_CARDS,
        # Cards left in the loser's hand (two-player results, RULES §9): the ranges' tops.
        "draw_most": rule_set.cards_left_single - 1, "single_most": rule_set.cards_left_double - 1,
        # classic's own ladder and its 等级倍率 (RULES §9), titles in the reader's language.
        "ladder": _ladder_rows(rule_set),
        "rooms": list(rooms)})


def _ladder_rows(rule_set: RuleSet) -> list[dict]:
    """The rungs of a rule set's own ladder (classic, RULES §9): number, title in the
    reader's language, points needed and 等级倍率. Empty without one."""
    titles = ladder_titles(rule_set)
    return [{"number": number, "title": titles[number], "needed": needed, "factor": factor}
            for number, (_title, needed, factor) in enumerate(rule_set.level_ladder, start=1)]
