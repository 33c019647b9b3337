"""The coin and point ledger (double-entry, with the 系统回收 fee account).

Empty for now: the ledger arrives with its own issue.
"""
