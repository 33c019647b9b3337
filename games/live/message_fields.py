"""The types of the fields a client's message carries (docs/protocol.md, "Messages").

JSON's ``true`` and ``false`` arrive as Python's ``True`` and ``False``, which are ints
(``bool`` subclasses ``int``): ``isinstance(True, int)`` holds, and ``{"seat": true}``
sat its sender at seat 1. So a whole number is an int that is not a bool, and a flag
is a bool and nothing else (``bool("false")`` is True). Every field of the protocol
that is a number or a flag is read here.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.errors import ActionError


def is_whole_number(value: object) -> bool:
    """An int, not a bool (nor a float such as 1.0, nor a string such as "1")."""
    return isinstance(value, int) and not isinstance(value, bool)


def flag(content: dict, name: str, *, default: bool) -> bool:
    """The boolean field ``name`` of a message, ``default`` when it is left out;
    anything else (``"false"``, ``0``, ``null``) is refused."""
    value = content.get(name, default)
    if not isinstance(value, bool):
        raise ActionError(_("“%(field)s” 必须是 true 或 false"), {"field": name})
    return value
