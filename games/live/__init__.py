"""Live tables: the runtime between the players' sockets and the database.

- ``table_socket``, ``lobby``: the two WebSocket consumers (thin: parse, authorise,
  call one service, reply); ``routing`` mounts them; ``dispatch`` is their handler
  dispatch without Channels' per-message thread hop; ``language`` picks a socket's
  language; ``lobby_refresh`` renders the rooms list once per language for all of a
  process's lobby sockets.
- ``seating``: sit, stand, get ready, bots filling empty seats (RULES §10).
- ``lifecycle``: a game from deal to reopening, one transaction per step (RULES §2,
  §6, §8, §10); ``warm_engines`` keeps each game's engine in memory between steps;
  ``append`` writes a step in one statement; ``step_io`` is how a step reaches the
  database (the event loop's ``action_pool``, or Django's connection in the caller's
  transaction).
- ``snapshots``: what a seat or a spectator may see; ``hints``: a seat's legal plays.
- ``broadcast``: notifications after commit; ``refusals``: the engine's refusals in
  the reader's language.
- ``sweeps``: turn deadlines, ready timeouts, bot seating and lost settlements
  (Celery beat); ``inprocess_sweeps`` runs them in the web process under ``make run``;
  ``sweep_clock`` records when the deadline sweep last ran (/healthz).
- ``bot_accounts``: the accounts the server's bots play as.
"""
