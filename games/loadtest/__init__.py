"""Load testing: ``socket_player`` is a player that speaks the table socket protocol
over a real WebSocket (scripts/loadtest.py runs hundreds of them; the scale-out test
plays with it). No Django settings needed."""
