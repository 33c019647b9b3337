"""Settings for the server of the card table's browser test (test_browser_table.py):
the test settings, with the disconnect grace that production has (docs/protocol.md,
"Disconnect, reconnect, 托管, timeouts"), so that a reload or a closed duplicate tab
is seen as the player sees it. The other tests keep their grace of 0."""

from shuangkou_site.settings.test import *  # noqa: F403

GAMES_DISCONNECT_GRACE_SECONDS = 15
