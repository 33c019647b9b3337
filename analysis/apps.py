from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"
    verbose_name = _("牌局分析")

    def ready(self) -> None:
        # games shows and announces; analysis plugs in (README, "Layout"): its panel on
        # the replay page, its column in the history, and a settled coin game's
        # auto-analysis, queued once the settlement commits.
        from analysis.selectors import history_cells
        from analysis.services import schedule_auto_analysis_of_settled_game
        from analysis.views import panel_context
        from games.archive.panels import HistoryColumn, ReplayPanel, history_columns, replay_panels
        from games.hooks.signals import game_settled

        replay_panels.register("analysis", ReplayPanel(
            template="analysis/_panel.html", context=panel_context))
        history_columns.register("analysis", HistoryColumn(
            title=_("分析"), template="analysis/_history_cell.html", cells=history_cells))
        game_settled.connect(schedule_auto_analysis_of_settled_game,
                             dispatch_uid="analysis.auto_analysis")
