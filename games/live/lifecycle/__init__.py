"""A game's lifecycle, one module per step (RULES §2, §6, §8, §10):

- ``deal``: a full, ready table deals (:func:`deal.game_start`), with its seed;
- ``act``: a seated player's action (:func:`act.game_act`, :func:`act.game_act_on_loop`);
- ``automatic``: the moves nobody at the seat makes (server bots, 托管) and the time each
  turn gets;
- ``deadlines``: a turn's deadline passed (:func:`deadlines.game_deadline`), a player gone
  away (:func:`deadlines.game_disconnected`);
- ``strong_moves``: a strong bot's thought-out move, off the live path;
- ``end``: the settlement of an ended game and the table's reopening
  (:func:`end.game_settle`);
- ``steps``: how each of them writes: one step, then what follows it.

Each step is one short transaction (GUIDE): check it with the engine, append its
events and update the row (seq, turn, deadline) in one statement that lands only if the
row is still at the step's seq (games.live.append), then notify the table. A player's
action needs no lock; the deal, the sweeper and a disconnect lock the row first.
Refusals reach only the sender and change nothing. The game's end enqueues its
settlement (games.tasks, by the task's stable name); :func:`end.game_settle` posts the
money (games.settlement) and opens the table for the next game.
"""
