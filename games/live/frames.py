"""Reading a client's text frame into a message, refusing what a browser's JSON could
not carry back (docs/protocol.md, "Messages").

``json.loads`` recurses once per nesting level, so a 4 KB frame of 2,000 ``[`` raised
RecursionError inside the consumer and dropped the socket without its disconnect
handling: the depth is checked first, on the text, without recursion.
Python also reads ``NaN`` and ``Infinity``, which are not JSON: echoed back in ``ref``
they made a frame the browser's ``JSON.parse`` rejects.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext_lazy as _

from games.errors import ActionError

MAX_DEPTH = 32  # no message of the protocol nests deeper than 4


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text``, ignoring brackets in strings."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _refuse_constant(name: str):
    raise ActionError(_("JSON 不允许 %(constant)s"), {"constant": name})


def parse_frame(text: str) -> object:
    """The JSON value of ``text``; ActionError for malformed, too deep or non-standard JSON."""
    if nesting_depth(text) > MAX_DEPTH:
        raise ActionError(_("JSON 嵌套太深（最多 %(depth)s 层）"), {"depth": MAX_DEPTH})
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except (json.JSONDecodeError, RecursionError):
        raise ActionError(_("JSON 格式错误")) from None
