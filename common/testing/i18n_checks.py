"""Checks of translated text that the site's and the apps' tests share (docs/i18n.md):
what gives an untranslated string away, the entries of a .po catalog, and the text a
reader of a page gets."""

from __future__ import annotations

import html as html_module
import json
import re
from pathlib import Path

# Han characters, and the CJK punctuation and full-width forms (、。，：（）) that would
# give away an untranslated string even without a Han character in it.
CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
# Each language's own name in the header's switch is written in that language.
ENDONYMS = ("简体中文", "繁體中文")
# Forms that only Simplified Chinese writes: none may reach a 繁體中文 page.
SIMPLIFIED_ONLY = ("大厅", "积分", "游戏币", "登录", "注册", "牌局记录", "等级", "账", "规则")


def po_entries(path: Path) -> list[dict]:
    """The entries of a .po file: flags, msgctxt, msgid(_plural) and every msgstr."""
    entries, entry, field = [], None, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = line.strip()
        if not line:
            if entry is not None and "msgid" in entry:
                entries.append(entry)
            entry = None
            continue
        entry = entry if entry is not None else {"flags": set(), "msgstr": {}}
        if line.startswith("#,"):
            entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        match = re.fullmatch(r'(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(".*")', line)
        if match:
            keyword, index, text = match[1], match[2], json.loads(match[3])
            field = ("msgstr", int(index or 0)) if keyword == "msgstr" else (keyword, None)
        else:
            text = json.loads(line)  # a continuation line of the last field
        if field[0] == "msgstr":
            entry["msgstr"][field[1]] = entry["msgstr"].get(field[1], "") + text
        else:
            entry[field[0]] = entry.get(field[0], "") + text
    return entries


def visible_text(page: str) -> str:
    """What a reader gets: text and the attributes read out (title, alt, placeholders,
    aria-label), without scripts, styles and comments."""
    page = re.sub(r"(?is)<(script|style)\b.*?</\1\s*>", " ", page)
    page = re.sub(r"(?s)<!--.*?-->", " ", page)
    attributes = re.findall(r'\s(?:title|alt|placeholder|aria-label)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    return html_module.unescape(" ".join([text, *attributes]))


def without(text: str, names: list[str]) -> str:
    for name in names:
        text = text.replace(name, " ")
    return text
