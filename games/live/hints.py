"""Hints for the table page's Hint button: the legal plays of a seat's own hand
against the play to beat, smallest first, as that seat's own card codes.

Pure reading (no writes): the socket's ``hint`` message (docs/protocol.md) calls
:func:`table_hints`, which reads the table's game and asks :func:`game_hints`.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine.cards import FULL_DECK, Counts, unpack
from games.engine.game import Game
from games.engine.moves import legal_moves
from games.engine.patterns import best_beating
from games.engine.records import reading_from_dict
from games.errors import ActionError
from games.live.snapshots import engine_snapshot
from games.live.warm_engines import current_game
from games.models import GameRecord

_RANK_OF = {card.code: card.rank for card in FULL_DECK}


def table_hints(table_id: int, user_id: int) -> dict:
    """The ``hints`` message (docs/protocol.md) for ``user_id``, a player of the table's
    current game."""
    game_id = current_game(table_id)
    record = GameRecord.objects.filter(pk=game_id).first() if game_id is not None else None
    if record is None:
        raise ActionError(_("这张牌桌没有进行中的牌局"))
    if user_id not in record.players:
        raise ActionError(_("你没有参加这局牌"))
    # The committed state as snapshots read it (the reads' own cache, read-only): the
    # warm engines (games.live.warm_engines) may only be touched with the game row
    # locked, and a hint locks nothing.
    game = engine_snapshot(record)
    plays = game_hints(game, record.players.index(user_id))
    return {"type": "hints", "game": record.pk, "seq": record.seq, "plays": plays}


def game_hints(game: Game, seat: int) -> list[list[str]]:
    """Every distinct legal play of ``seat``'s hand on its turn, smallest first.

    Smallest first (RULES §5 order, as players read it): non-bombs before bombs;
    then the recorded reading's power (top rank, or a bomb's stars / fewer cards /
    rank); then plays that spend fewer wildcards (a natural pair of 5s before
    ``5 BJ``); then fewer cards. A play on lead is every valid pattern of the hand.
    """
    if game.status != "playing":
        raise ActionError(_("本局已经结束"))
    if seat in game.escaped:
        raise ActionError(_("你已离开本局：托管将替这个座位打到结束"))
    if game.turn != seat:
        # Seats are numbered from 1 for people, as the table page numbers them.
        raise ActionError(_("现在轮到 %(turn)s 号座位出牌，不是 %(seat)s 号座位"),
                          {"turn": game.turn + 1, "seat": seat + 1})
    rules = game.rules
    over = (reading_from_dict(game.current["reading"], rules)
            if game.current is not None else None)
    ranked = []
    for packed in legal_moves(game.counts[seat], over, rules):
        counts = unpack(packed)
        reading = best_beating(counts, over, rules)
        if reading is None:  # legal_moves only yields beating sets; a guard, not a case
            continue
        ranked.append(((reading.is_bomb, reading.power, len(reading.filled), sum(counts),
                        counts), counts))
    ranked.sort(key=lambda item: item[0])
    return [codes_for(game.hands[seat], counts) for _, counts in ranked]


def codes_for(hand: list[str], counts: Counts) -> list[str]:
    """The seat's own physical cards for a multiset of ranks: for each rank, the
    first cards of that rank in the (sorted) hand, so a hint is stable."""
    wanted = list(counts)
    picked = []
    for code in hand:
        rank = _RANK_OF[code]
        if wanted[rank]:
            wanted[rank] -= 1
            picked.append(code)
    if any(wanted):
        raise ValueError("the play is not in the hand")
    return picked
