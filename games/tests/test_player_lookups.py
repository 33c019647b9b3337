"""Finding a player's games by ``GameRecord.players`` (user ids by seat, JSON): the home
page asks on every signed-in visit whether the player has played yet
(games.onboarding), the history lists their games (games.archive.history). Both use
the containment lookup ``players @> [id]``, which the players index serves: without it
each was a scan of every game ever played."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.archive.history import player_games
from games.models import GameRecord, Table
from games.onboarding import has_played
from games.testing.room_helpers import make_room

pytestmark = pytest.mark.django_db

PLAYER = 12345


@pytest.fixture
def many_games():
    """Thousands of ended games of other players, a few of PLAYER's, the index as
    autovacuum leaves it and the table's statistics: the planner then weighs the
    indexes as it would on a live site."""
    room = make_room("lookups")
    table = Table.objects.create(room=room, number=1)
    GameRecord.objects.bulk_create(
        GameRecord(table=table, room=room, rule_set_name="qq", status=GameRecord.Status.ENDED,
                   players=[PLAYER if number % 1000 == 0 else 100_000 + 4 * number + seat
                            for seat in range(4)])
        for number in range(3000))
    with connection.cursor() as cursor:
        # New entries wait in the index's pending list until autovacuum merges them.
        cursor.execute("SELECT gin_clean_pending_list('game_players_idx')")
        cursor.execute(f"ANALYZE {GameRecord._meta.db_table}")


def _plan(read: Callable[[], object]) -> str:
    """PostgreSQL's plan of the one query ``read`` makes, with sequential scans priced
    out: a few thousand rows still fit a scan, millions do not."""
    with CaptureQueriesContext(connection) as queries:
        read()
    [query] = queries.captured_queries
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + query["sql"])
        return "\n".join(row[0] for row in cursor.fetchall())


def test_whether_a_player_has_played_is_read_through_the_players_index(many_games):
    assert has_played(PLAYER) and not has_played(PLAYER + 1)  # a neighbour id: no game
    assert "game_players_idx" in _plan(lambda: has_played(PLAYER))


def test_a_players_history_is_read_through_the_players_index(many_games):
    assert player_games(PLAYER).count() == 3
    assert "game_players_idx" in _plan(lambda: list(player_games(PLAYER, kind="points")))
