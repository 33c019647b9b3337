"""``manage.py tournament_bench_prepare --players 64 --out plan.json``: a tournament of
``--players`` people (no bots, free entry, one round of ``--boards`` boards),
registered, with a session each, for scripts/bench_tournament.py."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from accounts.models import User
from games.management.commands.loadtest_prepare import _session_for
from games.models import RuleSetConfig
from games.presets import rule_set_presets_load
from tournaments.models import StartMode, Tournament, TournamentTemplate
from tournaments.registration import open_tournament, register


class Command(BaseCommand):
    help = __doc__.splitlines()[0]

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, default=64)
        parser.add_argument("--boards", type=int, default=1)
        parser.add_argument("--out", default="tournament-plan.json")

    def handle(self, *args, players: int, boards: int, out: str, **options) -> None:
        if not RuleSetConfig.objects.filter(name="qq").exists():
            rule_set_presets_load()
        template = TournamentTemplate.objects.create(
            name=f"bench {uuid.uuid4().hex[:6]}", rule_set=RuleSetConfig.objects.get(name="qq"),
            size=players, rounds=1, boards_per_round=boards, entry_fee=0, prize_table=[],
            turn_seconds=60, start_mode=StartMode.SCHEDULED, bots_for_no_shows=False)
        tournament = open_tournament(template, starts_at=timezone.now() + timedelta(days=1))
        Tournament.objects.filter(pk=tournament.pk).update(
            registration_opens_at=timezone.now() - timedelta(minutes=1))
        run = uuid.uuid4().hex[:6]
        people = []
        for number in range(players):
            user = User.objects.create_user(username=f"tb-{run}-{number}")
            register(user=user, tournament_id=tournament.pk)
            people.append({"user": user.pk, "session": _session_for(user)})
        with open(out, "w") as handle:
            json.dump({"tournament": tournament.pk, "people": people}, handle)
        self.stdout.write(f"tournament {tournament.pk}: {players} registered; plan in {out}")
