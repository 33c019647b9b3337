"""One rooms-list render per language per refresh window per process, shared by the lobby
sockets (games.live.lobby).

Every seat change at any table tells every lobby socket (``lobby.changed``). Rendered
per socket, that was hundreds of renders per change in a process with hundreds of lobby
pages open, each a trip onto the process's one database thread, which also serves every
game action of the process (docs/architecture.md). Here the
sockets of one event loop share one pending refresh: the first notification opens the
window, the others fall into it; after it the fragment is rendered once per language that
has sockets, and every socket of that language is sent the same text.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from channels.db import database_sync_to_async

from common.per_loop import PerLoop

logger = logging.getLogger(__name__)


class RoomsListener(Protocol):
    """A lobby socket, as the shared refresh sees it."""

    async def show_rooms(self, fragment: str) -> None: ...


class SharedRefresh:
    """The pending refresh of one event loop's lobby sockets.

    ``window`` is awaited before each render (it gathers a burst of changes); ``render``
    (sync, run on the database thread) returns the fragment for a language.
    """

    def __init__(self, *, loop: asyncio.AbstractEventLoop,
                 window: Callable[[], Awaitable[None]],
                 render: Callable[[str], str]) -> None:
        self.loop = loop
        self.window = window
        self.render = render
        self.listeners: dict[str, set[RoomsListener]] = {}
        self.requested = False  # a change not yet covered by a render that started
        self.task: asyncio.Task | None = None
        # Each socket is sent only the newest fragment it has not had, by a task of its
        # own: a slow client neither delays the next render nor receives stale lists.
        self.unsent: dict[RoomsListener, str] = {}
        self.senders: dict[RoomsListener, asyncio.Task] = {}

    def join(self, listener: RoomsListener, language: str) -> None:
        self.listeners.setdefault(language, set()).add(listener)

    def leave(self, listener: RoomsListener, language: str) -> None:
        sockets = self.listeners.get(language)
        if sockets is not None:
            sockets.discard(listener)
            if not sockets:
                del self.listeners[language]
        self.unsent.pop(listener, None)
        sender = self.senders.pop(listener, None)
        if sender is not None:
            sender.cancel()
        if not self.listeners and self.task is not None:
            self.task.cancel()  # nobody left to show it to
            self.task = None
        self._forget_if_idle()

    def changed(self) -> None:
        """Something the rooms list shows has changed (a ``lobby.changed`` notification)."""
        self.requested = True
        if self.task is None:
            self.task = self.loop.create_task(self._refresh_while_requested())

    async def _refresh_while_requested(self) -> None:
        try:
            while self.requested and self.listeners:
                await self.window()
                # From here on a change asks for another round: this render may read too
                # early for it. So the last render always follows the last notification.
                self.requested = False
                for language in list(self.listeners):
                    await self._refresh(language)
        finally:
            if self.task is asyncio.current_task():
                self.task = None
            self._forget_if_idle()

    async def _refresh(self, language: str) -> None:
        try:
            fragment = await database_sync_to_async(self.render)(language)
        except Exception:
            # A database hiccup: the sockets keep the list they have, and the next
            # notification renders again.
            logger.exception("The lobby's rooms list (%s) could not be rendered", language)
            return
        for listener in self.listeners.get(language, ()):
            self.unsent[listener] = fragment
            if listener not in self.senders:
                self.senders[listener] = self.loop.create_task(self._send_unsent(listener))

    async def _send_unsent(self, listener: RoomsListener) -> None:
        try:
            while listener in self.unsent:
                fragment = self.unsent.pop(listener)
                try:
                    await listener.show_rooms(fragment)
                except Exception:
                    logger.exception("The lobby's rooms list could not be sent to a socket")
        finally:
            if self.senders.get(listener) is asyncio.current_task():
                del self.senders[listener]

    def _forget_if_idle(self) -> None:
        if not self.listeners and self.task is None:
            _refreshes.forget(self, self.loop)


_refreshes: PerLoop[SharedRefresh] = PerLoop()


def loop_refresh(*, window: Callable[[], Awaitable[None]],
                 render: Callable[[str], str]) -> SharedRefresh:
    """The shared refresh of the running event loop's lobby sockets, made on first use."""
    loop = asyncio.get_running_loop()
    return _refreshes.get_or_make(
        lambda: SharedRefresh(loop=loop, window=window, render=render))
