"""The games' pages and API: the lobby and table pages (``views``) and the DRF API of
rooms and games (``api``). Thin: they call games.live's services and selectors."""
