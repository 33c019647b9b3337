from django import template

from fair_play.bans import ban_status

register = template.Library()


@register.inclusion_tag("fair_play/_ban_notice.html")
def ban_notice(user):
    """The player's running ban, or the warning that the next escape bans."""
    if not getattr(user, "is_authenticated", False):
        return {"status": None}
    return {"status": ban_status(user.pk)}
