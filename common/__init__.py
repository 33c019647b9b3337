"""Helpers with no domain of their own, below every app (README, "Layout"): what the
ledger, accounts, games and the features share and the site must not be needed for."""
