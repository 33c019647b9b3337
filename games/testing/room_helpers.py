"""Set-up shared by the rooms, lobby and games API tests."""

from __future__ import annotations

import re
import uuid

from accounts.models import User
from games.live.seating import room_quick_join, table_ready
from games.models import GameRecord, Room, RuleSetConfig, Seat
from games.presets import rule_set_presets_load
from ledger.services import grant_coins


def presets() -> dict[str, RuleSetConfig]:
    rule_set_presets_load()
    return {config.name: config for config in RuleSetConfig.objects.all()}


def make_room(name: str, rule_set: str = "qq", **fields) -> Room:
    """A room checked like the admin form checks it."""
    config = RuleSetConfig.objects.filter(name=rule_set).first() or presets()[rule_set]
    room = Room(name=name, rule_set=config, **fields)
    room.full_clean()
    room.save()
    return room


def coin_room(name: str = "qq 金币", rule_set: str = "qq", **fields) -> Room:
    settings = {"kind": Room.Kind.COINS, "coefficient": 100, "fee": 10, "min_coins": 1000,
                "max_loss": 20000, **fields}
    return make_room(name, rule_set, **settings)


def make_player(username: str, *, coins: int = 0) -> User:
    user = User.objects.create_user(username=username, password="pw", nickname=username)
    if coins:
        grant_coins(user=user, amount=coins, key=f"test:{uuid.uuid4().hex}")
    return user


def start_game_with_bots(user: User, room: Room) -> GameRecord:
    """Sit ``user`` down and get ready: in test settings bots fill the table at once,
    the game starts and the bots play up to the person's turn."""
    room_quick_join(user=user, room_id=room.pk)
    table_ready(user=user)
    table = Seat.objects.select_related("table").get(user=user).table
    assert table.current_game_id is not None, "the game did not start"
    return GameRecord.objects.get(pk=table.current_game_id)


ROW = re.compile(r'<tr id="room-(?P<room>\d+)".*?data-seats-taken="(?P<taken>\d+)"'
                 r'.*?data-playing="(?P<playing>\d+)"', re.S)


def rooms_in(html: str) -> dict[int, dict[str, int]]:
    """Room id → seats taken and tables playing, as the lobby's rooms list shows them."""
    return {int(match["room"]): {"taken": int(match["taken"]), "playing": int(match["playing"])}
            for match in ROW.finditer(html)}
