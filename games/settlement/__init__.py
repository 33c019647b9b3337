"""The money of finished games: ``settle`` posts a result's points and coins through
the ledger (RULES §7, §8, §10); ``escape_costs`` recomputes what an escape cost, for
the admin. The game's lifecycle (games.live.lifecycle) decides when to settle."""
