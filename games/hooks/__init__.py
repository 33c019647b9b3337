"""What games offers the apps above it (README, "Layout"): ``signals.game_settled``,
``seat_guards`` and the ``registry`` the archive's panels use too. The apps fill them
in their AppConfig.ready(); games imports none of them."""
