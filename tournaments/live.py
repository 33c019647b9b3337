"""The tournament's socket (``/ws/tournament/<id>/``): its public state, on connect
and after every change (a registration, a withdrawal, a round's start, each settled
board, the end): the waiting page's live count, the live standings and each player's
table. The state is built once per change, after commit, and sent to the group."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import transaction

from games.live.broadcast import send_now
from tournaments.models import Entry, Pairing, Tournament
from tournaments.standings import current_standings
from tournaments.terms import Terms


def group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def state(tournament_id: int) -> dict | None:
    """What every page of the tournament shows live (docs/tournaments.md, "socket")."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    terms = Terms.of(tournament)
    entries = list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
                   .select_related("user").order_by("pk"))
    names = {entry.user_id: entry.user.nickname or entry.user.username for entry in entries}
    bots = {entry.user_id for entry in entries if entry.is_bot}
    rows = []
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        rows = [{"place": standing.place, "user": standing.user,
                 "name": names.get(standing.user, "?"), "bot": standing.user in bots,
                 "matchpoints": standing.matchpoints, "score": standing.score,
                 "boards": standing.boards}
                for standing in current_standings(tournament)]
    tables = {}
    if tournament.status == Tournament.Status.RUNNING:
        tables = {str(user): table for user, table in Pairing.objects.filter(
            tournament=tournament, round=tournament.current_round)
            .values_list("user_id", "table_id")}
    return {"type": "state", "tournament": tournament.pk, "status": tournament.status,
            "count": len([entry for entry in entries if not entry.is_bot]),
            "size": terms.size, "round": tournament.current_round, "rounds": terms.rounds,
            "boards_per_round": terms.boards_per_round, "standings": rows, "tables": tables}


def announce(tournament_id: int) -> None:
    """After commit, the tournament's state to its sockets (never fails the caller)."""
    def send() -> None:
        message = state(tournament_id)
        if message is not None:
            send_now(group(tournament_id), {"type": "tournament.state", "state": message})
    transaction.on_commit(send, robust=True)


class TournamentConsumer(AsyncJsonWebsocketConsumer):
    """Public: anyone may watch a tournament's count and standings."""

    async def connect(self) -> None:
        self.tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        current = await database_sync_to_async(state)(self.tournament_id)
        if current is None:
            await self.close(code=4404)
            return
        await self.accept()
        await self.channel_layer.group_add(group(self.tournament_id), self.channel_name)
        await self.send_json(current)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "tournament_id"):
            await self.channel_layer.group_discard(group(self.tournament_id),
                                                   self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        pass  # nothing to say to it: the pages post their forms

    async def tournament_state(self, message: dict) -> None:
        await self.send_json(message["state"])
