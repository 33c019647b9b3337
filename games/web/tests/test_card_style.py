"""One card style for the table and the replay (static/css/cards.css): both pages link
it, both scripts build their faces with static/js/cards.js, the pages' own
stylesheets no longer draw faces, and every text colour of a face keeps 4.5:1 (WCAG AA)
against every background it sits on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from games.live.lifecycle.act import game_act
from games.testing.room_helpers import make_player, make_room, start_game_with_bots

STATIC = Path(settings.BASE_DIR) / "static"
CARDS_CSS = (STATIC / "css" / "cards.css").read_text()
MIN_CONTRAST = 4.5


def rule(css: str, selector: str) -> str:
    """The body of the rule whose selector list is exactly ``selector``."""
    match = re.search(r"^" + re.escape(selector) + r"\s*\{([^}]*)\}", css, re.M)
    assert match, f"no rule {selector!r}"
    return match.group(1)


def background(body: str) -> str:
    return re.search(r"\bbackground:\s*([^;]+);", body).group(1)


def hex_colours(text: str) -> list[str]:
    return re.findall(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b", text)


def luminance(colour: str) -> float:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(digit * 2 for digit in digits)
    channels = [int(digits[index:index + 2], 16) / 255 for index in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_face_text_colour_reads_at_4_5_to_1_on_each_of_its_backgrounds():
    face = rule(CARDS_CSS, ".card")
    red = re.search(r"--card-red:\s*(#\w+)", face).group(1)
    black = re.search(r"--card-black:\s*(#\w+)", face).group(1)
    white = hex_colours(background(face))
    small = hex_colours(background(rule(CARDS_CSS, ".card.joker")))
    big = hex_colours(background(rule(CARDS_CSS, ".card.joker.big")))
    back = rule(CARDS_CSS, ".card.back")
    back_stops = hex_colours(background(back))
    back_text = re.search(r"\bcolor:\s*(#\w+)", back).group(1)

    pairs = [(red, colour) for colour in white + big] + \
            [(black, colour) for colour in white + small] + \
            [(back_text, colour) for colour in back_stops]
    assert len(pairs) >= 8 and small and big and back_stops  # every gradient stop found
    for text, ground in pairs:
        assert contrast(text, ground) >= MIN_CONTRAST, (text, ground)


def test_the_page_stylesheets_no_longer_draw_card_faces():
    for name in ("table.css", "replay.css"):
        css = (STATIC / "css" / name).read_text()
        # No rule of its own for a face or a row (a page may place and size them).
        assert not re.search(r"^\.card", css, re.M), name
        for selector in (".card.red", ".card.joker", ".card-corner", ".card-pip", "card--"):
            assert selector not in css, (name, selector)
    assert ".card.red" in CARDS_CSS and ".card.joker.big" in CARDS_CSS


def test_one_script_builds_the_card_faces_of_both_pages():
    cards = (STATIC / "js" / "cards.js").read_text()

    for name in ('"card-corner"', '"card-rank"', '"card-suit"', '"card-pip"', '"mini"',
                 '"big" : "small"', '"JOKER"'):
        assert name in cards, name
    table = "".join(path.read_text() for path in sorted((STATIC / "js" / "table").glob("*.js")))
    replay = (STATIC / "js" / "replay.js").read_text()
    for page, script in (("table/", table), ("replay.js", replay)):
        assert "window.Cards.cardFace(" in script, page
        # No face of its own: no markup of a face's parts, no suit symbols.
        assert '"card-corner"' not in script and "\\u2660" not in script, page


def linked_stylesheets(html: str) -> list[str]:
    return re.findall(r'<link rel="stylesheet" href="/static/css/([\w-]+\.css)"', html)


@pytest.mark.django_db
def test_the_table_and_replay_pages_link_the_card_style_and_script_before_their_own(client):
    alice = make_player("alice")
    record = start_game_with_bots(alice, make_room("qq 积分"))
    client.force_login(alice)

    table = client.get(reverse("table", args=[record.table_id])).content.decode()
    game_act(user_id=alice.pk, game_id=record.pk, action="trustee", on=True)
    replay = client.get(reverse("game-replay", args=[record.pk])).content.decode()

    for html, own, script in ((table, "table.css", "table/main.js"),
                              (replay, "replay.css", "replay.js")):
        sheets = linked_stylesheets(html)
        assert "cards.css" in sheets and own in sheets, sheets
        assert sheets.index("cards.css") < sheets.index(own)  # the page's sizes win
        # Deferred scripts and module scripts (deferred too) run in this order.
        scripts = re.findall(r'<script (?:src="/static/js/([\w-]+\.js)" defer'
                             r'|type="module" src="/static/js/([\w/-]+\.js)")>', html)
        assert ["".join(found) for found in scripts] == ["cards.js", script]
