"""``manage.py loadtest_prepare``: the seated tables and the plan the load test reads."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.live.bot_accounts import bot_user_ids
from games.models import Room, Seat, Table

pytestmark = pytest.mark.django_db


def test_bot_seats_are_ready_bots_of_the_rooms_level_and_the_plan_lists_only_people(
        tmp_path):
    out = tmp_path / "plan.json"
    call_command("loadtest_prepare", tables=2, bot_seats=3, bot_level="strong", out=str(out),
                 stdout=StringIO())

    plan = json.loads(out.read_text())
    assert Room.objects.get(pk=plan["room"]).bot_level == "strong"
    assert [len(table["seats"]) for table in plan["tables"]] == [1, 1]
    for table in plan["tables"]:
        seats = list(Seat.objects.filter(table_id=table["table"]).order_by("index"))
        bots = bot_user_ids([seat.user_id for seat in seats])
        assert [seat.user_id in bots for seat in seats] == [False, True, True, True]
        assert seats[0].user_id == table["seats"][0]["user"]
        assert all(seat.is_ready for seat in seats[1:]) and not seats[0].is_ready
        # Waiting for the person's ready: the load test's client deals the game.
        assert Table.objects.get(pk=table["table"]).current_game_id is None
