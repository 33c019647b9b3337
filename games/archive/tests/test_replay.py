"""Replays: frames computed from the event log, the replay page, the log download, and
old replay links. A finished game's replay is public (like its log in the API); a
running game's is refused without a card of anyone's hand."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.urls import reverse

from games.archive.frames import build_frames, fold
from games.engine.game import Game
from games.engine.presets import PRESETS
from games.live.lifecycle.act import game_act
from games.live.snapshots import engine_snapshot
from games.models import GameEvent, GameRecord
from games.testing.room_helpers import coin_room, make_player, make_room, start_game_with_bots

CARD_CODE = re.compile(r'"((?:[2-9TJQKA][SHCD]|SJ|BJ)[01])"')
DATA_BLOCK = re.compile(r'<script id="replay-data" type="application/json">(.*?)</script>', re.S)
FRAME_KEYS = ("players", "hands", "turn", "leader", "finish", "trustee", "escaped")


def played_out(rules_name: str, seed: int) -> list[dict]:
    """The log of a whole game the livelier bot plays at every seat."""
    rules = PRESETS[rules_name]
    game = Game.deal(rules, [f"p{seat}" for seat in range(rules.players)], seed)
    rng = random.Random(seed)
    while game.status == "playing":
        game.bot_turn(rng=rng)
    return game.events


def frame_state(frame: dict) -> dict:
    return {key: frame[key] for key in FRAME_KEYS}


def state_of(game: Game) -> dict:
    state = game.state()
    return {key: state[key] for key in FRAME_KEYS}


def replay_data(response) -> dict:
    match = DATA_BLOCK.search(response.content.decode())
    assert match, "the page has no replay-data block"
    return json.loads(match.group(1))


def stored_log(record: GameRecord) -> list[dict]:
    return list(GameEvent.objects.filter(game=record).order_by("seq")
                .values_list("data", flat=True))


def hidden_cards(record: GameRecord) -> set[str]:
    """Every card still in a hand, less the 明牌 and its twin (shown to the table)."""
    game = engine_snapshot(record)
    revealed = game.revealed or {}
    public = {revealed.get("card"), revealed.get("twin")}
    return {code for hand in game.hands for code in hand} - public


@pytest.fixture
def finished_game(transactional_db) -> GameRecord:
    """A real points game: alice and three bots, alice in 托管, played to the end and
    settled (test settings: bots and 托管 move at once, tasks run eagerly)."""
    alice = make_player("alice")
    record = start_game_with_bots(alice, make_room("qq 积分"))
    game_act(user_id=alice.pk, game_id=record.pk, action="trustee", on=True)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.ENDED and record.settlement is not None
    return record


# --- frames (engine only) --------------------------------------------------------------

@pytest.mark.parametrize("rules_name", ["qq", "tcy", "jinyou", "classic"])
@pytest.mark.parametrize("seed", [1, 2])
def test_there_is_one_frame_per_event_and_each_is_the_replay_of_its_prefix(rules_name, seed):
    events = played_out(rules_name, seed)

    replay = build_frames(events)

    frames = replay["frames"]
    assert len(frames) == len(events)
    assert [frame["seq"] for frame in frames] == [event["seq"] for event in events]
    for count, frame in enumerate(frames, start=1):
        assert frame_state(frame) == state_of(Game.replay(events[:count])), f"step {count}"


@pytest.mark.parametrize("rules_name", ["qq", "tcy"])
def test_folding_the_log_step_by_step_gives_every_replayed_state(rules_name):
    events = played_out(rules_name, 3)

    states = [json.dumps(game.state(), sort_keys=True) for game in fold(events)]

    assert states == [json.dumps(Game.replay(events[:count]).state(), sort_keys=True)
                      for count in range(1, len(events) + 1)]


def test_tricks_start_at_their_first_play_and_name_their_winner():
    events = played_out("qq", 4)

    replay = build_frames(events)

    frames, tricks = replay["frames"], replay["tricks"]
    ended = [event for event in events if event["type"] == "trick"]
    assert len(tricks) in (len(ended), len(ended) + 1)  # the last trick may end the game
    for trick, event in zip(tricks, ended):
        first = events[trick["step"]]
        assert first["type"] == "play" and first["seat"] == trick["leader"]
        assert trick["winner"] == event["winner"]
        assert frames[trick["end"]]["type"] == "trick"
    assert [trick["number"] for trick in tricks] == list(range(1, len(tricks) + 1))


def test_each_play_is_on_the_table_with_its_reading_until_the_trick_ends():
    events = played_out("qq", 5)

    frames = build_frames(events)["frames"]

    for event, frame in zip(events, frames):
        if event["type"] == "play":
            entry = frame["table"][event["seat"]]
            assert entry["action"] == "play" and entry["cards"] == event["cards"]
            assert entry["text"] and entry["text"] in frame["caption"]
            assert frame["current"] == event["seat"]
        if event["type"] == "trick":  # the finished trick stays shown under its result
            assert frame["table"][event["winner"]]["action"] == "play"
    dealt = {code for hand in events[0]["hands"] for code in hand}
    assert set(build_frames(events)["cards"]) == dealt


# --- the stored log ---------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_the_frames_of_a_stored_game_follow_its_log(finished_game):
    events = stored_log(finished_game)

    frames = build_frames(events)["frames"]

    assert len(frames) == len(events) == finished_game.seq
    assert events[-1]["type"] == "settled"
    assert frame_state(frames[-1]) == state_of(Game.replay(events))
    for count in (1, len(events) // 2, len(events)):
        assert frames[count - 1]["hands"] == Game.replay(events[:count]).state()["hands"]


# --- the replay page --------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("signed_in", [True, False])
def test_a_finished_game_replays_for_anyone_with_every_hand(client, finished_game, signed_in):
    if signed_in:
        client.force_login(make_player("bob"))
    events = stored_log(finished_game)

    response = client.get(reverse("game-replay", args=[finished_game.pk]))

    assert response.status_code == 200
    data = replay_data(response)
    assert data["game"] == finished_game.pk and data["players"] == finished_game.players
    assert len(data["frames"]) == len(events)
    assert data["frames"][0]["hands"] == Game.replay(events[:1]).state()["hands"]
    assert sum(len(hand) for hand in data["frames"][0]["hands"]) == 108  # all four hands
    assert data["frames"][-1]["hands"] == Game.replay(events).state()["hands"]
    assert (data["step"], data["seat"]) == (1, None)
    page = response.content.decode()
    assert "static/js/replay.js" in page and "static/css/replay.css" in page
    assert 'id="replay-strings"' in page


@pytest.mark.django_db(transaction=True)
def test_the_replay_shows_the_final_settlement(client, finished_game):
    result, settlement = finished_game.result, finished_game.settlement

    page = html.unescape(client.get(reverse("game-replay", args=[finished_game.pk]))
                         .content.decode())

    section = page[page.index('id="replay-settlement"'):]
    kou = {"double": "双扣", "single": "单扣", "draw": "平扣"}[result["kou"]]
    assert kou in section and f"×{result['multiplier']}" in section
    rows = re.findall(r"<tr[^>]*>\s*<td>(\d)</td>.*?</tr>", section, re.S)
    assert rows == ["1", "2", "3", "4"]  # one row per place
    for seat in range(4):
        assert f"{settlement['points'][seat]:+d}" in section


@pytest.mark.django_db(transaction=True)
def test_step_and_seat_in_the_link_restore_position_and_perspective(client, finished_game):
    url = reverse("game-replay", args=[finished_game.pk])
    total = finished_game.seq

    response = client.get(url, {"step": 7, "seat": 2})
    data = replay_data(response)
    assert (data["step"], data["seat"]) == (7, 2)
    page = response.content.decode()
    assert html.escape(data["frames"][6]["caption"], quote=False) in page
    assert re.search(r'<option value="2"\s+selected>', page)
    assert 'value="7"' in page  # the slider starts there

    assert (replay_data(client.get(url, {"step": 10**6}))["step"]) == total
    assert (replay_data(client.get(url, {"step": -3}))["step"]) == 1
    bad = replay_data(client.get(url, {"step": "x", "seat": "9"}))
    assert (bad["step"], bad["seat"]) == (1, None)
    assert replay_data(client.get(url, {"seat": "-1"}))["seat"] is None


@pytest.mark.django_db
def test_a_running_game_has_no_replay_and_shows_no_hand(client):
    alice = make_player("alice")
    record = start_game_with_bots(alice, make_room("qq 积分"))
    hidden = hidden_cards(record)
    assert hidden

    for viewer in (alice, make_player("bob"), None):
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        response = client.get(reverse("game-replay", args=[record.pk]), {"step": 3})
        page = response.content.decode()
        assert response.status_code == 403
        assert "仍在进行中" in page
        assert 'id="replay-data"' not in page
        assert set(CARD_CODE.findall(page)) & hidden == set()
        assert not [code for code in hidden  # nor unquoted, anywhere in the page
                    if re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", page)]


@pytest.mark.django_db
def test_an_unknown_game_has_no_replay(client):
    assert client.get(reverse("game-replay", args=[999999])).status_code == 404
    assert client.get("/games/99999999999999999999/replay/").status_code == 404
    assert client.get(reverse("game-events-download", args=[999999])).status_code == 404


# --- the log download -------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_the_log_download_is_the_stored_log_as_an_attachment(client, finished_game):
    response = client.get(reverse("game-events-download", args=[finished_game.pk]))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment") and f"game-{finished_game.pk}" in disposition
    body = json.loads(response.content)
    assert body["events"] == stored_log(finished_game)
    assert body["game"] == finished_game.pk and body["players"] == finished_game.players
    assert Game.replay(body["events"]).result.to_dict() == finished_game.result


@pytest.mark.django_db
def test_the_log_download_is_refused_while_the_game_runs(client):
    alice = make_player("alice", coins=50000)
    record = start_game_with_bots(alice, coin_room())
    client.force_login(alice)

    response = client.get(reverse("game-events-download", args=[record.pk]))

    assert response.status_code == 403
    assert "仍在进行中" in response.json()["detail"]
    assert "hands" not in response.content.decode()
    assert set(CARD_CODE.findall(response.content.decode())) == set()


# --- old links ---------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_old_links_by_ledger_key_redirect_to_the_replay(client, finished_game):
    old = f"/games/game:{finished_game.pk}/replay/"
    new = reverse("game-replay", args=[finished_game.pk])

    response = client.get(old, {"step": 4})

    assert response.status_code == 301
    assert response["Location"] == f"{new}?step=4"
    assert client.get(old, follow=True).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("path", [
    "/games/game:1001/replay/",           # a ledger key of no game
    "/games/settle:game:12/replay/",      # not a game key at all
    "/games/game:99999999999999999999999/replay/",
    "/games/a/b/replay/",
])
def test_old_links_that_name_no_game_are_not_found(client, path):
    assert client.get(path, follow=True).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_profiles_link_recent_games_to_a_working_replay(client):
    # A coin game: every seat's coins move (the fee at least), so it is on the profile.
    alice = make_player("alice", coins=50000)
    record = start_game_with_bots(alice, coin_room())
    game_act(user_id=alice.pk, game_id=record.pk, action="trustee", on=True)
    client.force_login(make_player("watcher"))

    page = client.get(reverse("player-profile", args=["alice"])).content.decode()

    link = re.search(rf'href="(/games/[^"]*\b{record.pk}/replay/)"', page)
    assert link, "the profile does not link the game"
    assert client.get(link.group(1), follow=True).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_admin_links_finished_games_to_their_replay(admin_client, finished_game):
    page = admin_client.get(reverse("admin:games_gamerecord_change",
                                    args=[finished_game.pk])).content.decode()

    assert f'href="/games/{finished_game.pk}/replay/"' in page


@pytest.mark.django_db(transaction=True)
def test_an_escaped_game_replays_with_the_escape_and_its_settlement(client):
    alice = make_player("alice", coins=50000)
    record = start_game_with_bots(alice, coin_room())
    game_act(user_id=alice.pk, game_id=record.pk, action="leave")
    record.refresh_from_db()
    assert record.status == GameRecord.Status.ENDED and record.result["kou"] == "escape"
    client.force_login(alice)

    response = client.get(reverse("game-replay", args=[record.pk]))

    assert response.status_code == 200
    data = replay_data(response)
    seat = record.players.index(alice.pk)
    captions = [frame["caption"] for frame in data["frames"]]
    assert "alice 逃跑" in captions
    assert data["frames"][-1]["escaped"] == [seat]
    section = html.unescape(response.content.decode())
    section = section[section.index('id="replay-settlement"'):]
    assert "逃跑罚分" in section
    assert f"{record.settlement['coins'][seat]:+d}" in section
    history = client.get(reverse("game-history"), {"kou": "escape", "outcome": "lost"})
    assert f'data-game="{record.pk}"' in history.content.decode()
