from __future__ import annotations

from typing import Any


class ActionError(ValueError):
    """A table or game action refused with a message for the player; nothing changed.

    ``message`` is a lazy translation (``gettext_lazy``, or games.live.refusals.engine_message
    for the engine's refusals) and ``params`` its parameters: ``str(error)`` renders it
    in the language active at that moment, so the socket answers each player in theirs
    (games.live.table_socket) and a page in the request's. ``code`` names the refusals a client
    acts on rather than shows (``stale``: ask for a snapshot; docs/protocol.md).
    """

    def __init__(self, message: Any, params: dict[str, Any] | None = None, *,
                 code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.params = params or {}
        self.code = code

    def __str__(self) -> str:
        text = str(self.message)
        return text % self.params if self.params else text
