"""Games whose events the channel layer failed to send: tell their tables
again once the layer answers, and give the turn its time afresh.

games.live.broadcast marks a game (``GameRecord.undelivered_since``) when a send about
it fails. While marked, a person's turn does not time out
(games.live.lifecycle.deadlines.game_deadline): the table may never have heard that the
turn began. The sweep here, run every second by beat (or the in-process sweeper),
re-announces each marked game with a
``game.snapshot`` nudge (every socket of the table sends its client a snapshot, which
brings whatever events it missed) and then clears the mark.
"""

from __future__ import annotations

import logging

from django.db import transaction

from games.live import warm_engines
from games.live.broadcast import send_confirmed, table_group
from games.live.lifecycle.automatic import turn_deadline
from games.models import GameRecord

BATCH = 200
PROBE_GROUP = "delivery.probe"  # nobody listens: a send there only asks the layer

logger = logging.getLogger(__name__)


def sweep_undelivered() -> int:
    """Re-announce the marked games, oldest mark first, while the layer answers.
    Returns how many were re-announced; stops at the first failure (the layer is
    still down: the next sweep tries again)."""
    marked = list(GameRecord.objects.filter(undelivered_since__isnull=False)
                  .order_by("undelivered_since").values_list("pk", flat=True)[:BATCH])
    if not marked:
        return 0
    try:
        # Ask the layer before touching any game: while it is down, the deadlines of
        # marked games are left alone rather than renewed every second.
        send_confirmed(PROBE_GROUP, {"type": "delivery.probe"})
    except Exception:
        logger.warning("channel layer still failing; %d games wait to be re-announced",
                       len(marked))
        return 0
    done = 0
    for game_id in marked:
        try:
            done += game_reannounce(game_id=game_id)
        except Exception:
            logger.exception("re-announcing game %s failed", game_id)
            break
    return done


def game_reannounce(*, game_id: int) -> bool:
    """Tell the table of a marked game to resync, after giving the turn its full time
    again (it cannot have been used: the table did not know). Clears the mark only if
    the layer took the message and no send failed since the mark was read. Raises
    if the layer refuses the message (the mark stays)."""
    with transaction.atomic():
        record = (GameRecord.objects.select_for_update(of=("self",))
                  .select_related("room")
                  .filter(pk=game_id, undelivered_since__isnull=False).first())
        if record is None:
            return False
        marked = record.undelivered_since
        if record.status == GameRecord.Status.PLAYING:
            game = warm_engines.engine_for(record)
            facts = warm_engines.GameFacts.of(record)
            record.deadline = turn_deadline(facts, game)
            record.save(update_fields=["deadline"])
            warm_engines.remember(warm_engines.WarmGame(facts, game))
    # After the commit: the snapshots the sockets read carry the new deadline.
    send_confirmed(table_group(record.table_id), {"type": "game.snapshot", "game": game_id})
    GameRecord.objects.filter(pk=game_id, undelivered_since=marked) \
        .update(undelivered_since=None)
    return True
