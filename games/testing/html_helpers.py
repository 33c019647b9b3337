"""Reading the site's pages in tests: the JSON blocks a page hands its scripts."""

from __future__ import annotations

import json
import re


def json_block(html: str, element_id: str) -> dict:
    match = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>',
                      html, re.S)
    assert match, f"no JSON block #{element_id}"
    return json.loads(match.group(1))
