"""Friend requests, friendships and blocks. Every function checks before it writes and
runs in one transaction: a refusal (games.errors.ActionError, with the reason the
player reads) changes nothing, and the same request twice does what it did once."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.errors import ActionError

from .models import Block, FriendRequest, Friendship, TableInvite

# Requests a player may have waiting for an answer at once: enough for anyone, not a
# way to ask the whole site.
MAX_PENDING_REQUESTS = 50


def friend_ids(user_id: int) -> list[int]:
    """The ids of ``user_id``'s friends."""
    pairs = Friendship.objects.filter(Q(low_id=user_id) | Q(high_id=user_id)) \
        .values_list("low_id", "high_id")
    return [high if low == user_id else low for low, high in pairs]


def are_friends(a: int, b: int) -> bool:
    low, high = sorted((a, b))
    return Friendship.objects.filter(low_id=low, high_id=high).exists()


def blocks_between(a: int, b: int) -> bool:
    """Whether either of the two blocked the other."""
    return Block.objects.filter(Q(blocker_id=a, blocked_id=b) | Q(blocker_id=b, blocked_id=a)) \
        .exists()


def blocked_ids(user_id: int) -> list[int]:
    """Whom ``user_id`` blocked (their chat is hidden from them)."""
    return list(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def person(username: object) -> User:
    """The player called ``username`` (a person: no bot, no inactive account)."""
    if not isinstance(username, str) or not username.strip():
        raise ActionError(_("请输入玩家的用户名"), code="bad_user")
    user = User.objects.filter(username=username.strip(), is_active=True,
                               bot_player__isnull=True).first()
    if user is None:
        raise ActionError(_("没有这位玩家"), code="unknown_user")
    return user


def friend_request(*, sender: User, recipient: User) -> str:
    """Ask ``recipient`` to be friends. Returns ``sent`` (waiting for them), or
    ``friends`` when they had asked too (both asked: friends now) or already were."""
    if sender.pk == recipient.pk:
        raise ActionError(_("不能加自己为好友"), code="self")
    with transaction.atomic():
        _lock_pair(sender.pk, recipient.pk)
        if are_friends(sender.pk, recipient.pk):
            return "friends"
        if blocks_between(sender.pk, recipient.pk):
            # Neither side is told who blocked whom.
            raise ActionError(_("无法向这位玩家发送好友申请"), code="blocked")
        if FriendRequest.objects.filter(sender=recipient, recipient=sender).exists():
            _make_friends(sender.pk, recipient.pk)
            return "friends"
        if FriendRequest.objects.filter(sender=sender, recipient=recipient).exists():
            return "sent"
        if FriendRequest.objects.filter(sender=sender).count() >= MAX_PENDING_REQUESTS:
            raise ActionError(_("你的好友申请太多了（最多 %(count)d 个等待回复）"),
                              {"count": MAX_PENDING_REQUESTS}, code="too_many")
        FriendRequest.objects.create(sender=sender, recipient=recipient)
    return "sent"


def friend_accept(*, user: User, sender_id: int) -> None:
    """Accept ``sender_id``'s request. Accepting it again (a double click) is a no-op."""
    with transaction.atomic():
        _lock_pair(user.pk, sender_id)
        if are_friends(user.pk, sender_id):
            return
        if not FriendRequest.objects.filter(sender_id=sender_id, recipient=user).exists():
            raise ActionError(_("没有这条好友申请"), code="no_request")
        _make_friends(user.pk, sender_id)


def friend_decline(*, user: User, sender_id: int) -> None:
    FriendRequest.objects.filter(sender_id=sender_id, recipient=user).delete()


def friend_remove(*, user: User, other_id: int) -> None:
    low, high = sorted((user.pk, other_id))
    with transaction.atomic():
        Friendship.objects.filter(low_id=low, high_id=high).delete()
        _forget_invites(user.pk, other_id)


def block(*, user: User, other: User) -> None:
    """Block ``other``: no friendship, requests or open invitations between the two
    remain, and none can come from them."""
    if other.pk == user.pk:
        raise ActionError(_("不能屏蔽自己"), code="self")
    with transaction.atomic():
        _lock_pair(user.pk, other.pk)
        low, high = sorted((user.pk, other.pk))
        Friendship.objects.filter(low_id=low, high_id=high).delete()
        FriendRequest.objects.filter(Q(sender=user, recipient=other)
                                     | Q(sender=other, recipient=user)).delete()
        _forget_invites(user.pk, other.pk)
        Block.objects.get_or_create(blocker=user, blocked=other)


def unblock(*, user: User, other_id: int) -> None:
    Block.objects.filter(blocker=user, blocked_id=other_id).delete()


# --- internals --------------------------------------------------------------------------

def _lock_pair(a: int, b: int) -> None:
    """Serialise what two players do to each other (the rows of both, in id order):
    two accepts, or a request crossing the other's, decide one after the other."""
    list(User.objects.select_for_update(no_key=True).filter(pk__in=(a, b)).order_by("pk")
         .values_list("pk", flat=True))


def _make_friends(a: int, b: int) -> None:
    low, high = sorted((a, b))
    try:
        with transaction.atomic():
            Friendship.objects.create(low_id=low, high_id=high)
    except IntegrityError:
        pass  # friends already
    FriendRequest.objects.filter(Q(sender_id=a, recipient_id=b)
                                 | Q(sender_id=b, recipient_id=a)).delete()


def _forget_invites(a: int, b: int) -> None:
    TableInvite.objects.filter(Q(sender_id=a, recipient_id=b) | Q(sender_id=b, recipient_id=a),
                               answer="").delete()
