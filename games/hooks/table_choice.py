"""Which waiting tables a quick join may seat a player at, asked of the apps that know
(ratings' rated matchmaking): games.live.seating lists a room's waiting public tables
with a free seat, in table order, and each registered chooser returns those it
accepts, in the order to try them. With none registered every table is accepted."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.base_user import AbstractBaseUser

from games.hooks.registry import Registry
from games.models import Room, Table

TableChooser = Callable[[AbstractBaseUser, Room, list[Table]], list[Table]]

table_choosers: Registry[TableChooser] = Registry()


def choose_tables(user: AbstractBaseUser, room: Room, tables: list[Table]) -> list[Table]:
    for chooser in table_choosers:
        tables = chooser(user, room, tables)
    return tables
