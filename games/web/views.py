"""Pages of the games app: the lobby and the table page. Thin: parse,
authorise, call one service in games.live.seating, render or redirect. A refused action
(ActionError) comes back as a message on the page, never as a server error."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import Level
from accounts.titles import level_title
from games.errors import ActionError
from games.hooks.table_links import links_for
from games.ladders import ladder_titles, own_ladder
from games.live import seating
from games.live.lobby import rooms_context
from games.live.quick_chat import chat_config
from games.live.snapshots import table_state
from games.live.visibility import watch_refusal
from games.models import Seat, Table
from games.onboarding import beginner_room
from games.rule_set_names import rule_set_name
from games.vocabulary import READING_TEXTS
from games.web.private_panel import panel_context
from ledger.selectors import coin_wallet


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """The rooms, their tables and the games being played, live; a visitor sees them
    too, with the ways in (sign up, log in) where a player has the seats."""
    if not request.user.is_authenticated:
        here = urlencode({"next": reverse("lobby")})
        return render(request, "games/lobby.html", {
            **rooms_context(), "visitor": True,
            "login_url": f"{reverse('login')}?{here}", "signup_url": f"{reverse('signup')}?{here}",
            "starting_coins": settings.LEDGER_STARTING_COINS})
    my_seat = Seat.objects.filter(user=request.user).select_related("table__room").first()
    return render(request, "games/lobby.html", {**rooms_context(), "my_seat": my_seat})


@require_GET
@login_required
def play_now(request: HttpRequest) -> HttpResponse:
    """Where a new player lands after signing up: one button that seats them in the
    beginner room (room_quick_join), and the way to that room's rules."""
    my_seat = Seat.objects.filter(user=request.user).select_related("table__room").first()
    return render(request, "games/play_now.html", {
        "my_seat": my_seat, **play_now_context()})


def play_now_context() -> dict:
    """The beginner room and its rule set's name, for the "play now" block
    (templates/games/_play_now.html), shown here and on the home page."""
    room = beginner_room()
    if room is None:
        return {"beginner_room": None}
    return {"beginner_room": room,
            "beginner_rule_set": room.rule_set.name,
            "beginner_rule_set_name": rule_set_name(room.rule_set.name, room.rule_set.label)}


@require_POST
def room_quick_join(request: HttpRequest, room_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        # The visitor's lobby offers the same button: it leads to the login, and back.
        return _go(request, f"{reverse('login')}?{urlencode({'next': reverse('lobby')})}")
    try:
        seat = seating.room_quick_join(user=request.user, room_id=room_id)
    except ActionError as error:
        messages.error(request, _("无法加入：%(reason)s") % {"reason": error})
        return _go(request, reverse("lobby"))
    return _go(request, reverse("table", args=[seat.table_id]))


@require_GET
@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The playing table. The page renders the seats as they are now; its script
    (static/js/table/main.js) then talks to the table socket (docs/protocol.md) for
    everything else."""
    table = get_object_or_404(Table.objects.select_related("room__rule_set", "current_game"),
                              pk=table_id)
    refused = watch_refusal(request.user, table.pk)
    if refused is not None:
        messages.error(request, refused)
        return _go(request, reverse("lobby"))
    state = table_state(table)
    my_seat = next((seat for seat in state["seats"] if seat["user"] == request.user.pk), None)
    room = table.room
    # A rule set with a ladder of its own (classic, RULES §9) shows its titles; the
    # levels of table_state are on it.
    ladder = own_ladder(room.rule_set.config)
    titles = ladder_titles(ladder) if ladder else {
        number: level_title(title) for number, title in Level.objects.values_list("number",
                                                                                  "title")}
    view_seat = my_seat["index"] if my_seat else 0
    count = len(state["seats"])
    seats = [{**seat, "title": titles.get(seat["level"], ""), "mine": seat is my_seat,
              "position": _seat_position((seat["index"] - view_seat) % count, count)}
             for seat in state["seats"]]
    game = table.current_game
    config = {
        "table": table.pk, "user": request.user.pk, "socket": f"/ws/table/{table.pk}/",
        "lobby": reverse("lobby"), "titles": {str(number): title for number, title
                                              in titles.items()},
        "room": room_config(room),
        # The viewer's coins (a coin room freezes `room.stake` of them for each game);
        # the socket sends `wallet` messages when they change (docs/protocol.md).
        "wallet": coin_wallet(request.user.pk),
        # The quick-chat phrases (games.live.quick_chat), in the page's language.
        "chat": chat_config(),
        # For the readings' wildcards before a game's deal has said them (static/js/table/).
        "wildcards": list(room.rule_set.as_rule_set().wildcards),
        "table_state": state,
        # The countdown from the first paint, before the socket's snapshot arrives.
        "deadline": game.deadline.isoformat() if game is not None and game.deadline else None,
    }
    panel = panel_context(table, request.user)
    if panel["private"] is not None:
        # Where the page's script reloads the private-table panel (static/js/table/private.js).
        config["private_panel"] = reverse("private-panel", args=[table.pk])
    return render(request, "games/table.html", {
        "table": table, "state": state, "my_seat": my_seat, "seats": seats,
        "links": links_for(table),
        "config": config, "strings": table_strings(), **panel})


def room_config(room) -> dict:
    """The room as the table page shows it (docs/protocol.md, "The table page's
    config"): ``base_unit`` is N, what one point of score is worth (coins in a coin
    room, RULES §8; points in a points room, §7); ``fee`` the 系统回收 A each player
    pays per game (coin rooms), or ``fee_percent`` of each winner's gain instead
    (classic, §9), where ``coin_cap`` is the most the multiplier counts for coins;
    ``stake`` the coins frozen per player for a game; ``level_ladder`` whether the
    rule set's own ladder sets a 等级倍率 (the table state then says it)."""
    rules = room.rule_set.as_rule_set()
    percent = rules.winner_fee_percent if room.is_coins else 0
    return {"kind": room.kind, "coins": room.is_coins, "turn_seconds": room.turn_seconds,
            "escape_mode": room.escape_mode,
            "base_unit": room.coefficient if room.is_coins else room.stake_unit,
            "fee": 0 if percent or not room.is_coins else room.fee,
            "fee_percent": percent,
            "coin_cap": rules.coin_multiplier_cap if room.is_coins else 0,
            "level_ladder": rules.has_level_multiplier,
            "stake": room.max_loss if room.is_coins else 0,
            # The name players know (QQ游戏 火拼双扣…), in the page's language, as the lobby
            # shows it; not the rule set's code.
            "ruleset": room.rule_set.name,
            "ruleset_name": rule_set_name(room.rule_set.name, room.rule_set.label)}


def _seat_position(offset: int, count: int) -> str:
    """Where a seat sits on screen, counted from the viewer's seat in playing order
    (counter-clockwise, RULES §2): the viewer at the bottom, the next seat on the right."""
    if count == 2:
        return ("bottom", "top")[offset]
    return ("bottom", "right", "top", "left")[offset]


def table_strings() -> dict[str, str]:
    """Every text the table page's script (static/js/table/) shows, translated here so
    that makemessages sees them; the template renders them into a JSON block
    (``#table-strings``). The script has no texts of its own: readings, too, are put
    together from these (the words of games.vocabulary.reading_text, READING_TEXTS)."""
    return {
        "connecting": _("连接中…"),
        "connected": _("已连接"),
        "reconnecting": _("连接已断开，正在重连…"),
        "login_needed": _("请先登录。"),
        "no_table": _("这张牌桌不存在。"),
        "empty_seat": _("空位"),
        # Each seat's rating (ratings, docs/ratings.md); "?" while it is provisional.
        "seat_rating": _("等级分 %(rating)s"),
        "bot": _("机器人"),
        "ready": _("已准备"),
        "not_ready": _("未准备"),
        "offline": _("离线"),
        "trustee": _("托管"),
        "escaped": _("逃跑"),
        "turn": _("出牌中"),
        "cards": _("%(count)s 张"),
        "cards_label": _("剩余 %(count)s 张牌"),
        "place": _("第 %(place)s 名"),
        "timeouts": _("超时 %(count)s 次"),
        "pass": _("过"),
        "seconds": _("%(seconds)s 秒"),
        "small_joker": _("小王"),
        "big_joker": _("大王"),
        "suit_S": _("黑桃"),
        "suit_H": _("红桃"),
        "suit_C": _("梅花"),
        "suit_D": _("方块"),
        "card_label": _("%(suit)s %(rank)s"),
        "reveal": _("明牌 %(card)s：%(holder)s 先出，另一张在 %(twin_holder)s 手中，二人为搭档。"),
        "reveal_same": _("明牌 %(card)s：%(holder)s 先出，两张都在其手中。"),
        "swap": _("座位交换：%(a)s ↔ %(b)s。"),
        "your_turn": _("轮到你出牌。"),
        "your_lead": _("轮到你首出：可出任意牌型。"),
        "waiting_for": _("等待 %(name)s 出牌。"),
        "to_beat": _("要大过：%(text)s（%(name)s）"),
        "no_hints": _("没有能大过的牌。"),
        "hint": _("提示 %(index)s/%(count)s"),
        "selected": _("已选 %(count)s 张"),
        "none_selected": _("先选择要出的牌。"),
        "kou_double": _("双扣"),
        "kou_single": _("单扣"),
        "kou_draw": _("平扣"),
        "kou_escape": _("逃跑结束"),
        "multiplier": _("倍数 ×%(multiplier)s"),
        "winners": _("胜方：%(names)s"),
        "penalty": _("逃跑罚分：%(name)s %(penalty)s 分"),
        "cards_left": _("剩余手牌：%(count)s 张"),
        "settling": _("结算中…"),
        "ready_button": _("准备"),
        "unready_button": _("取消准备"),
        "trustee_off_button": _("托管"),
        "trustee_on_button": _("取消托管"),
        "trustee_on_notice": _("你已进入托管，系统将替你出牌。"),
        "escape_notice": _("%(name)s 离开了对局。"),
        "game_over": _("本局结束。"),
        "waiting": _("等待玩家准备。"),
        "spectating": _("你在旁观这张牌桌。"),
        "new_game": _("新的一局开始了。"),
        "you": _("你"),
        "status_waiting": _("等待中"),
        "status_playing": _("对局中"),
        "list_separator": _("、"),
        "timeout_warning": _("请注意，你已经超时 %(count)s 次了，超时三次，系统将自动托管游戏"),
        "joker": _("王"),
        # Why a seat is in 托管 (the trustee event's `reason`, docs/protocol.md).
        "trustee_reason_player": _("主动托管"),
        "trustee_reason_timeouts": _("超时托管"),
        "trustee_reason_escape": _("逃跑托管"),
        "trustee_reason_disconnect": _("断线托管"),
        # Quick chat (config.chat has the phrases themselves).
        "chat_button": _("快捷聊天"),
        "chat_mute": _("屏蔽 %(name)s"),
        "chat_unmute": _("取消屏蔽 %(name)s"),
        # The result panel (the settled event's `report`).
        "result_title": _("本局结算"),
        "result_base_unit": _("底注 %(unit)s"),
        "result_base": _("基础分"),
        "result_contribution": _("贡献分"),
        "result_total": _("总分"),
        "result_points": _("积分"),
        "result_coins": _("游戏币"),
        "result_fee": _("系统回收"),
        "result_left": _("剩余手牌"),
        "result_bombs": _("炸弹"),
        "result_stars": _("%(stars)s 相"),
        "wallet_balance": _("游戏币：%(balance)s"),
        "wallet_frozen": _("冻结中：%(frozen)s"),
        **{f"reading_{key}": _(text) for key, text in READING_TEXTS.items()},
    }


@require_POST
@login_required
def table_ready(request: HttpRequest, table_id: int) -> HttpResponse:
    if _refuse_unless_seated(request, table_id):
        return redirect("table", table_id)
    ready = request.POST.get("ready", "1") != "0"
    try:
        seating.table_ready(user=request.user, ready=ready)
    except ActionError as error:
        messages.error(request, str(error))
    return redirect("table", table_id)


@require_POST
@login_required
def table_stand(request: HttpRequest, table_id: int) -> HttpResponse:
    if _refuse_unless_seated(request, table_id):
        return redirect("table", table_id)
    try:
        seating.table_stand(user=request.user)
    except ActionError as error:
        messages.error(request, str(error))
        return redirect("table", table_id)
    messages.success(request, _("你已离座。"))
    return redirect("lobby")


def _refuse_unless_seated(request: HttpRequest, table_id: int) -> bool:
    """The services act on the player's own seat: make sure it is at this table."""
    if Seat.objects.filter(user=request.user, table_id=table_id).exists():
        return False
    messages.error(request, _("你没有在这张牌桌就座。"))
    return True


def _go(request: HttpRequest, url: str) -> HttpResponse:
    """Redirect; a button posted by htmx (from a fragment the lobby socket sent)
    is told to load the page instead of swapping the response in."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)
