"""The money of a finished game: its points and coins posted through the ledger
(RULES §7, §8, §10), then ``game_settled`` sent to the apps that count it (stats'
facts, fair play's escapes, analysis's queue). Called by games.live.lifecycle, which
owns the game's end and the table's reopening."""

from __future__ import annotations

from accounts.models import User
from games.engine.game import Game
from games.engine.rulesets import RuleSet
from games.hooks.signals import game_settled
from games.models import GameEvent, GameRecord
from games.settlement.money import game_money
from games.settlement.posting import grant_starting_coins_after_game, settle_game
from games.settlement.report import seat_fees, settlement_report
from ledger.models import Currency, Hold, Leg


def post_settlement(record: GameRecord) -> dict:
    """Post the points and coins of the ended game ``record`` and return what each
    seat received (``{"points": [...], "coins": [...]}``, the ``settled`` event's body).
    Call with the game row locked, the game ended and not yet settled; the ledger's
    idempotency key (``game:<id>``) makes a second posting impossible anyway."""
    result, terms = record.result, record.terms
    # The log, read once: its deal has the rules the game was dealt with, and the
    # report and the stats read its plays.
    events = list(GameEvent.objects.filter(game=record).order_by("seq")
                  .values_list("data", flat=True))
    rules = RuleSet.from_dict(events[0]["rules"])
    users = User.objects.in_bulk(record.players)
    players = [users[user_id] for user_id in record.players]
    escaped = result.get("escaped")
    # The terms and rules the game was dealt with, whatever the room says now.
    money = game_money(result=result, terms=terms, rules=rules)
    posted = settle_game(game_key=record.ledger_key, players=players, scores=money.scores,
                         stake_unit=terms["stake_unit"], coins=terms["coins"],
                         coefficient=terms["coefficient"], escape=money.escape,
                         coin_scores=money.coin_scores, coin_rules=money.coin_rules)
    summary = _summary(posted, record.players)
    summary["report"] = _report(record, summary, events, rules)
    # New coins enter the economy here, after a player's first settled game, not at
    # sign-up (farmed sign-ups). In this transaction: settled means granted.
    # An escaper did not finish the game, or sitting down and leaving would pay.
    grant_starting_coins_after_game(
        user_id for seat, user_id in enumerate(record.players) if seat != escaped)
    # In this transaction too: the stats' facts and the escape records are written
    # with the money or not at all; the auto-analysis is queued once it commits
    # (games.hooks.signals).
    game_settled.send(sender=GameRecord, record=record, events=events)
    return summary


def _report(record: GameRecord, summary: dict, events: list[dict], rules: RuleSet) -> dict:
    """The result panel's report (games.settlement.report), from the game's log (its
    bombs, the hands left at the end) and this settlement's postings."""
    game = Game.replay(events)
    holds = dict(Hold.objects.filter(game_key=record.ledger_key)
                 .values_list("user_id", "amount"))
    fees = seat_fees(result=record.result, terms=record.terms, rules=rules,
                     holds=[holds.get(user_id, 0) for user_id in record.players])
    return settlement_report(result=record.result, terms=record.terms, rules=rules,
                             room_kind=record.room.kind, events=events,
                             players=record.players, hands=game.hands,
                             points=summary["points"], coins=summary["coins"], fees=fees)


def _summary(posted, players: list[int]) -> dict:
    """Points and coins each seat received (what the result panel shows)."""
    points = [0] * len(players)
    coins = [0] * len(players)
    if posted is not None:
        for user_id, currency, amount in Leg.objects.filter(
                transaction=posted, account__user_id__in=players, hold__isnull=True) \
                .values_list("account__user_id", "account__currency", "amount"):
            target = points if currency == Currency.POINT else coins
            target[players.index(user_id)] += amount
        # Coins came back out of escrow: a player's change is the return less the hold.
        for user_id, amount in Leg.objects.filter(transaction=posted, hold__isnull=False) \
                .values_list("hold__user_id", "amount"):
            coins[players.index(user_id)] += amount
    return {"points": points, "coins": coins}


