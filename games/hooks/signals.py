"""What games announces to the apps above it (README, "Layout"). They connect in their
AppConfig.ready(); games imports none of them.

``game_settled`` is sent by games.settlement.settle.post_settlement inside the
settlement's transaction, with ``record`` (the ended game, its row locked, not yet
marked settled) and ``events`` (its log, the event dicts in order). Receivers run in
that transaction, in the order the apps are installed: their writes commit with the
money, and one that raises rolls the whole settlement back (Signal.send, never
send_robust), so the game stays unsettled and is settled again later
(games.live.sweeps). A receiver is therefore idempotent per game. Work that must not be
able to fail a settlement (a task to enqueue) goes in ``transaction.on_commit``.

``table_reopened`` is sent by games.live.lifecycle.game_settle at its very end, in the
same transaction, with ``record`` (the settled game): its table is open for the next
game. What a receiver registers with ``transaction.on_commit`` runs after the table
has been told of the settlement (its ``settled`` event), so a next deal started from
there reaches the players after the result of the last one.
"""

from django.dispatch import Signal

game_settled = Signal()
table_reopened = Signal()
