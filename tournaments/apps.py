from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("比赛场")

    def ready(self) -> None:
        # games asks and announces; tournaments answers (README, "Layout"): its tables
        # are dealt only by the tournament, its players sit only where it seats them,
        # and each settled board moves it on.
        from games.archive.panels import ReplayPanel, replay_panels
        from games.hooks.deals import deal_planners
        from games.hooks.seat_guards import seat_guards
        from games.hooks.signals import game_settled, table_reopened
        from games.hooks.sweeps import periodic_sweeps
        from games.hooks.table_links import table_links
        from games.hooks.visibility import read_guards, watch_guards
        from tournaments import tasks  # noqa: F401 (registers the tasks)
        from tournaments.dealing import refuse_other_deals
        from tournaments.flow import sweep
        from tournaments.registration import check_may_sit
        from tournaments.replay_panel import replay_context
        from tournaments.settled import move_on, record_board
        from tournaments.visibility import may_read_board, may_watch_table, tournament_link

        deal_planners.register("tournaments.duplicate_boards", refuse_other_deals)
        seat_guards.register("tournaments.seated_by_tournament", check_may_sit)
        game_settled.connect(record_board, dispatch_uid="tournaments.record_board")
        table_reopened.connect(move_on, dispatch_uid="tournaments.move_on")
        # the same cards at every table: no peeking at another table's board
        watch_guards.register("tournaments.own_table_only", may_watch_table)
        read_guards.register("tournaments.board_finished_everywhere", may_read_board)
        table_links.register("tournaments.back_to_the_tournament", tournament_link)
        # under make run, where no beat runs (beat: sweep-tournaments)
        periodic_sweeps.register("tournaments.sweep", sweep)
        replay_panels.register("tournaments.same_hand", ReplayPanel(
            template="tournaments/_replay_panel.html", context=replay_context))
