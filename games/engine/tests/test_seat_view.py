"""The one Python fold of public events (games.engine.seat_view), checked in the
manner of Zulip's ``verify_action``: from a seat's snapshot at any step of a game,
folding the public events that followed must give exactly the snapshot at the end.

Seeded sample games of all four presets (games.engine.sample_games: bots, timeouts,
托管 on and off, escapes of both modes, the settled event), for every player and the
spectator, from EVERY step k. Seed 4 deals a 明牌 swap in qq and jinyou.
"""

from __future__ import annotations

import copy
import json

import pytest

from games.engine.game import Game, event_for
from games.engine.presets import PRESETS, get_ruleset
from games.engine.sample_games import sample_log, sample_players
from games.engine.seat_view import SeqGap, apply_event, fold, new_view

SEEDS = (1, 2, 3, 4)


def seat_of(game: Game, player) -> int | None:
    return game.players.index(player) if player in game.players else None


def snapshot(game: Game, player) -> dict:
    """A view as a client holds it: a JSON copy, sharing nothing with the game."""
    return json.loads(json.dumps(game.view(seat_of(game, player))))


def first_difference(got: dict, want: dict) -> str:
    for key in sorted(set(got) | set(want)):
        folded, wanted = got.get(key, "<missing>"), want.get(key, "<missing>")
        if folded != wanted:
            return f"{key}: folded {folded!r} != view {wanted!r}"
    return "none"


def snapshots_along(events: list[dict], viewers: list) -> dict:
    """Each viewer's snapshot after each event, the game advanced one event at a time
    (``Game.apply``; the replay tests prove it equals ``Game.replay`` of the prefix).

    Copying each snapshot's whole history made the test quadratic in copies: the
    snapshots share one JSON copy of each public event instead (the folds are given
    other objects, and ``check_untouched`` proves no fold changed a shared one)."""
    game = Game()
    shared = [json.loads(json.dumps(event_for(event, None))) for event in events]
    views: dict = {player: [] for player in viewers}
    for k, event in enumerate(events, start=1):
        game.apply(event)
        for player in viewers:
            view = game.view(seat_of(game, player))
            del view["history"]
            view = json.loads(json.dumps(view))
            view["history"] = shared[:k]
            views[player].append(view)
    return views


def clone_sharing_history(view: dict) -> dict:
    """A copy of ``view`` to fold into: its own fields, a list of its own for history."""
    fields = {key: value for key, value in view.items() if key != "history"}
    copied = json.loads(json.dumps(fields))
    copied["history"] = list(view["history"])
    return copied


def check_untouched(views_of: dict, events: list[dict]) -> None:
    final = next(iter(views_of.values()))[-1]["history"]
    assert final == [json.loads(json.dumps(event_for(event, None))) for event in events]


def verify_folds(ruleset: str, seed: int) -> tuple[int, int]:
    """For every viewer and every step k: folding the next event gives the view at
    k + 1, and folding all the events after k gives the view at n. Returns (viewers,
    folds to the end)."""
    full = sample_log(ruleset, seed)
    public = [event_for(event, None) for event in full]
    n = len(full)
    viewers = [*sample_players(ruleset), None]
    views_of = snapshots_along(full, viewers)  # views_of[player][k - 1]: after k events
    folds = 0

    def check(got: dict, want: dict, player, k: int, to: int) -> None:
        if got != want:
            pytest.fail(f"{ruleset} seed {seed}, viewer {player!r} (None: spectator), "
                        f"folded from step {k} to {to} of {n}: first difference "
                        f"{first_difference(got, want)}")

    for player in viewers:
        views = views_of[player]
        for k in range(1, n):
            check(fold(clone_sharing_history(views[k - 1]), public[k:k + 1]), views[k],
                  player, k, k + 1)
        for k in range(1, n + 1):
            check(fold(clone_sharing_history(views[k - 1]), public[k:]), views[-1],
                  player, k, n)
            folds += 1
    check_untouched(views_of, full)
    return len(viewers), folds


@pytest.mark.parametrize("ruleset", list(PRESETS))
@pytest.mark.parametrize("seed", SEEDS)
def test_fold_from_every_step_gives_the_final_view(ruleset, seed):
    viewers, folds = verify_folds(ruleset, seed)
    assert folds == viewers * len(sample_log(ruleset, seed))


def test_sample_games_have_every_kind_of_event():
    kinds = {(event["type"], event.get("reason") or event.get("mode"))
             for ruleset in PRESETS for seed in SEEDS for event in sample_log(ruleset, seed)}
    for kind in [("swap", None), ("timeout", None), ("trustee", "player"),
                 ("trustee", "disconnect"), ("trustee", "escape"), ("escape", "auto_play"),
                 ("escape", "end_game"), ("out", None), ("trick", None), ("end", None),
                 ("settled", None)]:
        assert kind in kinds, kind


def test_every_intermediate_step_matches_too():
    """Folding one event at a time passes through every snapshot, not only the last."""
    full = sample_log("qq", 4)
    public = [event_for(event, None) for event in full]
    viewers = [*sample_players("qq"), None]
    views_of = snapshots_along(full, viewers)
    for player in viewers:
        view = clone_sharing_history(views_of[player][0])
        for k in range(2, len(full) + 1):
            apply_event(view, public[k - 1])
            want = views_of[player][k - 1]
            assert view == want, (player, k, first_difference(view, want))


def test_a_swap_moves_the_viewers_seat_and_hand():
    full = sample_log("qq", 4)
    public = [event_for(event, None) for event in full]
    swap = next(event for event in full if event["type"] == "swap")
    a, b = swap["seats"]
    before = Game.replay(full[:swap["seq"] - 1])
    mover = before.players[a]
    view = snapshot(before, mover)
    assert view["seat"] == a
    hand = list(view["hand"])
    apply_event(view, public[swap["seq"] - 1])
    assert view["seat"] == b and view["hand"] == hand
    assert view["players"][b] == mover and view["swapped"] == [a, b]
    assert view == snapshot(Game.replay(full[:swap["seq"]]), mover)


def test_a_spectator_never_gets_a_hand():
    for ruleset in PRESETS:
        full = sample_log(ruleset, 4)
        view = snapshot(Game.replay(full[:1]), None)
        for event in full[1:]:
            apply_event(view, event_for(event, None))
            assert view["hand"] is None and view["seat"] is None


@pytest.mark.parametrize("mode", ["auto_play", "end_game"])
def test_an_escape(mode):
    rules = get_ruleset("qq")
    game = Game.deal(rules, sample_players("qq"), 7, escape_mode=mode)
    start = len(game.events)
    viewer = game.players[1]
    view = snapshot(game, viewer)
    for _ in range(5):
        game.bot_turn()
    game.escape(1)
    fold(view, [event_for(event, None) for event in game.events[start:]])
    assert view == snapshot(game, viewer)
    assert view["escaped"] == [1]
    if mode == "auto_play":
        assert view["trustee"][1] and view["status"] == "playing"
    else:
        assert view["status"] == "ended" and view["turn"] is None
        assert view["result"]["escaped"] == 1


def test_jiefeng_the_lead_passes_to_the_partner_of_the_seat_that_went_out():
    rules = get_ruleset("qq")
    game = Game.from_hands(rules, ["5", "3 4", "3 4", "3 4"], leader=0)
    views = {seat: snapshot(game, seat) for seat in (0, 1, 2, None)}
    start = len(game.events)
    game.play(0, "5")  # out at once; nobody can beat a single 5 with 3 and 4: auto-passes
    trick = game.events[-1]
    assert trick["type"] == "trick" and trick["winner"] == 0 and trick["leader"] == 2
    for seat, view in views.items():
        fold(view, game.events[start:])
        assert view == snapshot(game, seat)
        assert view["turn"] == view["leader"] == 2 and view["current"] is None
        assert view["finish"] == [0] and view["trick"] == []


def test_the_turn_skips_seats_without_cards():
    rules = get_ruleset("qq")
    game = Game.from_hands(rules, ["5", "3 4", "3 4", "3 4"], leader=0)
    game.play(0, "5")
    view = snapshot(game, 3)
    start = len(game.events)
    game.play(2, "3")  # seat 3 follows; seat 0 holds nothing: skipped for ever after
    game.play(3, "4")
    fold(view, game.events[start:])
    assert view == snapshot(game, 3)
    assert view["turn"] == game.turn != 0


def test_a_gap_raises_and_old_events_are_skipped():
    full = sample_log("tcy", 1)
    public = [event_for(event, None) for event in full]
    view = snapshot(Game.replay(full[:5]), None)
    with pytest.raises(SeqGap):
        apply_event(view, public[6])
    assert view == snapshot(Game.replay(full[:5]), None)
    fold(view, public)  # 1..5 are held already: skipped
    assert view == snapshot(Game.replay(full), None)


def test_a_new_view_from_the_public_deal():
    full = sample_log("qq", 2)
    public = [event_for(event, None) for event in full]
    spectator = fold(new_view(public[0]), public[1:])
    assert spectator == snapshot(Game.replay(full), None)
    player = sample_players("qq")[0]
    seated = new_view(public[0], player)
    assert seated["seat"] == 0 and seated["hand"] is None  # the hand comes by snapshot
    with pytest.raises(ValueError):
        apply_event(copy.deepcopy(seated), {**public[0], "seq": 2})


def test_settled_fills_a_socket_snapshots_settlement():
    full = sample_log("classic", 2)
    public = [event_for(event, None) for event in full]
    view = {**snapshot(Game.replay(full[:-1]), None), "settlement": None, "id": 9}
    fold(view, public)
    assert view["settlement"] == {"points": full[-1]["points"], "coins": full[-1]["coins"]}
    assert view["id"] == 9
