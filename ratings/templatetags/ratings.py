"""The ratings shown on other apps' pages (the lobby, the profile, the stats page):
``{% load ratings %}{% ratings_panel player %}``."""

from django import template

from ledger.charts import points_chart
from ratings.matchmaking import Terms
from ratings.selectors import history_series, may_see_history, player_ratings, rating_history

register = template.Library()


@register.inclusion_tag("ratings/_ratings_panel.html", takes_context=True)
def ratings_panel(context, player, matching: bool = False, chart: bool = False):
    """``player``'s rating in each family with a link to their history and the boards;
    ``matching``: also how rated rooms match players (the lobby); ``chart``: the history
    chart of the family they played most, where the viewer may see it (the stats page)."""
    terms = Terms.now() if matching else None
    if not getattr(player, "is_authenticated", False):
        return {"player": None, "terms": terms}
    ratings = player_ratings(player)
    panel = {"player": player, "ratings": ratings, "terms": terms}
    request = context.get("request")
    viewer = getattr(request, "user", None)
    if chart and viewer is not None and may_see_history(viewer, player):
        most = max(ratings, key=lambda rating: rating.games)
        if most.games:
            panel["item"] = {"rating": most}
            panel["chart"] = points_chart(history_series(rating_history(player, most.family)))
    return panel


@register.inclusion_tag("ratings/_rated_room_note.html")
def rated_room_note(room):
    """On a rated room's table page: the game is rated, and how its tables are matched."""
    return {"rated": room.rated, "terms": Terms.now() if room.rated else None}
