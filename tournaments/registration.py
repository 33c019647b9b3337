"""Opening a tournament from a template, registering and withdrawing (docs/tournaments.md).
Every refusal is an ActionError with the reason and changes nothing."""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import current_app as celery_app
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.errors import ActionError
from games.models import BotPlayer, Room
from ledger.services import LedgerError
from tournaments import live
from tournaments.boards import tournament_seed
from tournaments.models import Entry, StartMode, Tournament, TournamentTemplate
from tournaments.money import pay_entry, refund_entry
from tournaments.terms import Terms, terms_errors

START_TASK = "tournaments.tasks.start_tournament_task"


def open_tournament(template: TournamentTemplate, *, starts_at: datetime | None = None,
                    name: str = "") -> Tournament:
    """A tournament from ``template``, open for registration: now if it starts when
    full, ``registration_minutes`` before ``starts_at`` if it is scheduled."""
    errors = terms_errors(template)
    if errors:
        raise ActionError(_("比赛模板有误：%(errors)s"),
                          {"errors": "；".join(str(error) for error in errors.values())})
    terms = Terms.of_template(template)
    now = timezone.now()
    if terms.start_mode == StartMode.SCHEDULED:
        if starts_at is None or starts_at <= now:
            raise ActionError(_("定时开赛的比赛要有一个将来的开赛时间"))
        opens = starts_at - timedelta(minutes=template.registration_minutes)
    else:
        starts_at, opens = None, now
    with transaction.atomic():
        tournament = Tournament.objects.create(
            template=template, name=name or template.name, terms=terms.as_dict(),
            room=_room(template), registration_opens_at=opens, starts_at=starts_at,
            seed="")
        tournament.seed = tournament_seed(f"{tournament.pk}")
        tournament.save(update_fields=["seed"])
    return tournament


def _room(template: TournamentTemplate) -> Room:
    """The tournament's own room: closed (neither the lobby nor quick join nor a sit
    reaches it), no bot fill (the tournament seats its bots), escapes played out by
    托管 (RULES §10 auto_play) so that every board has a result."""
    coins = template.kind == Room.Kind.COINS
    return Room.objects.create(
        name=f"比赛 {timezone.now():%m%d%H%M%S%f} {template.name}"[:60],
        rule_set=template.rule_set, kind=template.kind,
        stake_unit=1 if coins else template.stake, coefficient=template.stake if coins else 0,
        max_loss=50 * template.stake if coins else 0, turn_seconds=template.turn_seconds,
        first_turn_seconds=template.turn_seconds + 10, escape_mode=Room.EscapeMode.AUTO_PLAY,
        bots_allowed=False, bot_level=template.bot_level, is_open=False)


def register(*, user: User, tournament_id: int) -> Entry:
    with transaction.atomic():
        tournament = _locked(tournament_id)
        terms = Terms.of(tournament)
        _check_registration_open(tournament)
        if BotPlayer.objects.filter(user=user).exists():
            raise ActionError(_("机器人不能报名"))
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is not None and entry.active:
            raise ActionError(_("你已经报名了"))
        count = Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()
        if count >= terms.size:
            raise ActionError(_("名额已满"))
        if entry is None:
            entry = Entry(tournament=tournament, user=user)
        else:
            entry.number += 1
            entry.withdrawn_at = None
        entry.save()
        try:
            entry.paid = pay_entry(entry, terms)
        except LedgerError as error:
            raise ActionError(_("无法报名：%(error)s"), {"error": error}) from None
        entry.save(update_fields=["paid"])
        full = count + 1 == terms.size and terms.start_mode == StartMode.WHEN_FULL
        live.announce(tournament.pk)
        if full:
            transaction.on_commit(lambda: enqueue_start(tournament.pk))
    return entry


def withdraw(*, user: User, tournament_id: int) -> Entry:
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.REGISTERING:
            raise ActionError(_("比赛已经开始，不能退出报名"))
        entry = Entry.objects.filter(tournament=tournament, user=user,
                                     withdrawn_at__isnull=True).first()
        if entry is None:
            raise ActionError(_("你没有报名这场比赛"))
        refund_entry(entry, Terms.of(tournament))
        entry.withdrawn_at = timezone.now()
        entry.paid = 0
        entry.save(update_fields=["withdrawn_at", "paid"])
        live.announce(tournament.pk)
    return entry


def enqueue_start(tournament_id: int) -> None:
    celery_app.signature(START_TASK, args=(tournament_id,)).delay()


def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise ActionError(_("没有这场比赛"))
    return tournament


def _check_registration_open(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.REGISTERING:
        raise ActionError(_("这场比赛不在报名中"))
    now = timezone.now()
    if now < tournament.registration_opens_at:
        raise ActionError(_("报名还没有开始"))
    if tournament.starts_at is not None and now >= tournament.starts_at:
        raise ActionError(_("报名已经截止"))


def check_may_sit(user) -> None:
    """The seat guard (games.hooks.seat_guards): a player of a running tournament sits
    only where the tournament seats them."""
    if Entry.objects.filter(user_id=user.pk, withdrawn_at__isnull=True,
                            tournament__status=Tournament.Status.RUNNING).exists():
        raise ActionError(_("你正在参加比赛，比赛结束后才能在别处入座"))
