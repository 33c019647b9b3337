"""Support shared by the tests of several domains: socket clients and rooms for live
tests (``live_helpers``, ``room_helpers``), servers in subprocesses
(``server_helpers``, ``asgi_with_static``) and the browser's page checks
(``browser_checks``). Tests live beside what they test, in each package's ``tests``."""
