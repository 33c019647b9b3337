"""Ledger models arrive with the ledger's own issue."""
