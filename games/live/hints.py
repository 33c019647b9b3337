"""Hints for the table page's Hint button: the legal plays of a seat's own hand
against the play to beat, as that seat's own card codes: first what the hand
planner advises (the expert bot's choice, then the plan's other groups), then the
rest smallest first.

Pure reading (no writes): the socket's ``hint`` message (docs/protocol.md) calls
:func:`table_hints`, which reads the table's game and asks :func:`game_hints`.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine.cards import Counts, unpack
from games.engine.expert import expert_move
from games.engine.game import Game
from games.engine.hands import codes_for
from games.engine.moves import legal_moves
from games.engine.patterns import best_beating
from games.engine.planner import plan
from games.engine.records import reading_from_dict
from games.errors import ActionError
from games.live.snapshots import engine_snapshot
from games.live.warm_engines import current_game
from games.models import GameRecord


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
    """Every distinct legal play of ``seat``'s hand on its turn: the planner's advice
    first (:func:`planned_first`), then the others smallest first.

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
    plays = planned_first([counts for _, counts in ranked], game, seat)
    return [codes_for(game.hands[seat], counts) for counts in plays]


def planned_first(plays: list[Counts], game: Game, seat: int) -> list[Counts]:
    """The plays in the hand planner's order: the expert bot's choice first (a good
    plan's lead, or the beat that costs the plan least), then the plan's other groups
    (not its bombs) that are legal here, chains first, then the rest as given."""
    hand = game.counts[seat]
    rules = game.rules
    over = game.current_reading
    hand_plan = plan(hand, rules)
    first = [expert_move(hand, over, game.current["seat"] if game.current else None, seat,
                         [sum(counts) for counts in game.counts], rules)]
    groups = sorted(hand_plan.plain, key=lambda group: (group.control >= 0.75,
                                                        group.length == 1, group.rank))
    first += [group.cards for group in groups]
    legal = set(plays)
    order = []
    for cards in first:
        if cards in legal and cards not in order:
            order.append(cards)
    return order + [cards for cards in plays if cards not in order]
