"""The rules engine of 火拼双扣: standard library only, no Django.

Cards and notation (RULES §1) in :mod:`.cards`, rule sets as data (§9) in
:mod:`.rulesets` and :mod:`.presets`, reading and comparing plays (§4, §5) in
:mod:`.patterns`, legal moves in :mod:`.moves`, the JSON-lines protocol (§11) in
:mod:`.protocol`.
"""

from .cards import CardError, Counts, format_cards, pack, parse_cards, unpack
from .moves import has_beating_play, legal_moves
from .patterns import Reading, beats, best_beating, classify, readings
from .presets import PRESETS, get_ruleset
from .rulesets import RuleSet, RuleSetError

__all__ = [
    "CardError", "Counts", "PRESETS", "Reading", "RuleSet", "RuleSetError", "beats",
    "best_beating", "classify", "format_cards", "get_ruleset", "has_beating_play",
    "legal_moves", "pack", "parse_cards", "readings", "unpack",
]
