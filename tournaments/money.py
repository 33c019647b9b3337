"""A tournament's money, all through the ledger (docs/ledger.md): each entry fee goes
to the prize pool (比赛奖池) with its 系统回收 share itemised on its own leg; prizes are
paid from the pool by place; a cancelled tournament's entries are refunded in full
(the 系统回收 share comes back too). Every posting has its idempotency key:

- ``tournament:<id>:entry:<user>:<n>``: the n-th registration of a player;
- ``tournament:<id>:refund:<user>:<n>``: that registration's refund (a withdrawal,
  or a cancellation);
- ``tournament:<id>:prize:<place>``: the prize of a place;
- ``tournament:<id>:remainder``: what the prize table leaves in the pool (shares that
  do not add to 100 %, places nobody takes, whole-coin rounding) to 系统回收.

A retried call posts nothing twice: the ledger returns the first transaction for a
key posted with the same contents."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from accounts.models import User
from ledger.models import Currency, Kind, SystemAccount
from ledger.services import LegSpec, ledger_post, system_account, user_account
from tournaments.models import Entry, Tournament
from tournaments.terms import Terms


def _pool() -> object:
    return system_account(SystemAccount.PRIZE_POOL, Currency.COIN)


def _fees() -> object:
    return system_account(SystemAccount.FEES, Currency.COIN)


def entry_key(entry: Entry) -> str:
    return f"{entry.tournament.ledger_prefix}:entry:{entry.user_id}:{entry.number}"


def refund_key(entry: Entry) -> str:
    return f"{entry.tournament.ledger_prefix}:refund:{entry.user_id}:{entry.number}"


def pay_entry(entry: Entry, terms: Terms) -> int:
    """Take the entry fee (refused by the ledger if the player has too few coins:
    LedgerError, nothing written). Returns what was paid."""
    fee = terms.entry_fee
    if not fee:
        return 0
    share = terms.fee_share()
    ledger_post(key=entry_key(entry), kind=Kind.TOURNAMENT_ENTRY, memo=gettext_noop("比赛报名费"),
                legs=[LegSpec(user_account(entry.user, Currency.COIN), -fee),
                      LegSpec(_pool(), fee - share), LegSpec(_fees(), share)])
    return fee


def refund_entry(entry: Entry, terms: Terms) -> None:
    """Give back what the entry paid: the pool's part and the 系统回收 share."""
    if not entry.paid:
        return
    share = entry.paid * terms.fee_percent // 100
    ledger_post(key=refund_key(entry), kind=Kind.TOURNAMENT_REFUND, memo=gettext_noop("比赛退费"),
                legs=[LegSpec(user_account(entry.user, Currency.COIN), entry.paid),
                      LegSpec(_pool(), -(entry.paid - share)), LegSpec(_fees(), -share)])


def pool_of(tournament: Tournament, terms: Terms) -> int:
    """The prize pool: the pool's part of every entry still paid in."""
    paid = [entry.paid for entry in tournament.entries.filter(withdrawn_at__isnull=True)]
    return sum(amount - amount * terms.fee_percent // 100 for amount in paid)


def prize_amounts(pool: int, shares: list[int], places: int) -> list[int]:
    """Each paid place's prize in whole coins (rounded down) for ``places`` places that
    a person holds; the rest stays for the remainder posting."""
    return [pool * share // 100 for share in shares[:places]]


def pay_prizes(tournament: Tournament, terms: Terms, ranked_people: list[int]) -> list[int]:
    """Pay each place of the prize table to the person there (``ranked_people``: user
    ids of the people, best first; bots take no prize) and the remainder to 系统回收.
    Returns the prizes paid by place."""
    pool = pool_of(tournament, terms)
    if not pool:
        return []
    amounts = prize_amounts(pool, terms.prize_table, len(ranked_people))
    users = User.objects.in_bulk(ranked_people[:len(amounts)])
    prefix = tournament.ledger_prefix
    for place, (user_id, amount) in enumerate(zip(ranked_people, amounts), start=1):
        if amount:
            ledger_post(key=f"{prefix}:prize:{place}", kind=Kind.TOURNAMENT_PRIZE,
                        memo=gettext_noop("比赛奖金"),
                        legs=[LegSpec(_pool(), -amount),
                              LegSpec(user_account(users[user_id], Currency.COIN), amount)])
    rest = pool - sum(amounts)
    if rest:
        ledger_post(key=f"{prefix}:remainder", kind=Kind.FEE, memo=gettext_noop("比赛奖金"),
                    legs=[LegSpec(_pool(), -rest), LegSpec(_fees(), rest)])
    return amounts
