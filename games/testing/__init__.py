"""Support shared by the tests of several domains: socket clients and rooms for live
tests (``live_helpers``, ``room_helpers``) and the browser's page checks
(``browser_checks``); servers in subprocesses are common.testing.server_helpers. Tests
live beside what they test, in each package's ``tests``."""
