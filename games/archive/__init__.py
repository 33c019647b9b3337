"""Finished games: replays step by step (``frames``, ``captions``), a player's history
(``history``) and their pages (``views``, ``urls``). Only finished games are shown:
a running game's log holds every hand."""
