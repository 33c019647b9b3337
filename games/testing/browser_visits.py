"""One person's visit of the site in a browser test (:class:`Visit`: its page, its
checks and screenshots), and the steps the browser tests share: logging in, opening a
table, playing a turn by the Hint button."""

from __future__ import annotations

import re
from pathlib import Path

from django.urls import reverse
from playwright.sync_api import Page, expect

from accounts.models import User
from games.testing.browser_checks import PageErrors, SocketLog, assert_accessible, wait_until

PASSWORD = "pw"  # make_player's


def signed(value: int) -> str:
    return f"{value:+d}"


class Visit:
    """The browser session of one person, with its checks and screenshots."""

    def __init__(self, page: Page, base_url: str, artifacts: Path) -> None:
        self.page = page
        self.base_url = base_url
        self.artifacts = artifacts
        self.errors = PageErrors(page)
        self.socket = SocketLog(page)
        self.shots: list[Path] = []

    def goto(self, path: str) -> None:
        self.page.goto(self.base_url + path)

    def shot(self, name: str, *, full_page: bool = True) -> None:
        path = self.artifacts / f"{len(self.shots) + 1:02d}-{name}.png"
        self.page.screenshot(path=path, full_page=full_page)
        self.shots.append(path)

    def check(self, where: str) -> None:
        """The page so far raised no error, and passes the accessibility checks."""
        assert self.errors.errors == [], f"{where}: {self.errors.errors}"
        assert_accessible(self.page, where)

    def strings(self) -> dict[str, str]:
        return self.page.evaluate(
            "() => JSON.parse(document.getElementById('table-strings').textContent)")

    def text(self, key: str, **params) -> str:
        return re.sub(r"%\((\w+)\)s", lambda match: str(params[match[1]]), self.strings()[key])


def hint_turn(visit: Visit) -> None:
    """Hint, then Play what it selected; Pass when nothing beats the table."""
    page = visit.page
    hints = ask_hint(visit, lambda: page.locator("#hint-button").click())
    if hints:
        play_and_check(visit, lambda: page.locator("#play-button").click())
    else:
        expect(page.locator("#notice")).to_have_text(visit.text("no_hints"))
        pass_and_check(visit, lambda: page.locator("#pass-button").click())


def ask_hint(visit: Visit, press) -> list[str]:
    """Press Hint; the server's first suggestion is then the selection."""
    page = visit.page
    asked = len(visit.socket.of_type("hints"))
    press()
    wait_until(page, lambda: len(visit.socket.of_type("hints")) > asked, "the hints")
    plays = visit.socket.of_type("hints")[-1]["plays"]
    if plays:
        expect(page.locator('#hand button[aria-pressed="true"]')).to_have_count(len(plays[0]))
        selected = page.locator('#hand button[aria-pressed="true"]').evaluate_all(
            "(cards) => cards.map((card) => card.dataset.card)")
        assert sorted(selected) == sorted(plays[0])
    return plays


def play_and_check(visit: Visit, press) -> None:
    """Play the selection; those cards leave the hand and lie on my seat."""
    page = visit.page
    selected = page.locator('#hand button[aria-pressed="true"]').evaluate_all(
        "(cards) => cards.map((card) => card.dataset.card)")
    before = page.locator("#hand button[data-card]").count()
    seq = int(page.locator("#table-page").get_attribute("data-seq"))
    press()
    wait_for_seq_after(page, seq)
    plays = [event for event in visit.socket.events()
             if event["type"] == "play" and event["seq"] > seq and event["by"] == "player"]
    assert plays and sorted(plays[0]["cards"]) == sorted(selected), "the server took my play"
    if not page.locator("#result-panel").is_visible() and page.locator("#hand").is_visible():
        expect(page.locator("#hand button[data-card]")).to_have_count(before - len(selected))
        for code in selected:
            expect(page.locator(f'#hand button[data-card="{code}"]')).to_have_count(0)


def pass_and_check(visit: Visit, press) -> None:
    page = visit.page
    seq = int(page.locator("#table-page").get_attribute("data-seq"))
    press()
    wait_for_seq_after(page, seq)
    passes = [event for event in visit.socket.events()
              if event["type"] == "pass" and event["seq"] > seq]
    assert passes and passes[0]["by"] == "player"


def wait_for_seq_after(page: Page, seq: int) -> None:
    page.wait_for_function(
        "(seq) => Number(document.getElementById('table-page').dataset.seq) > seq", arg=seq)


def log_in(visit: Visit, user: User) -> None:
    page = visit.page
    visit.goto(reverse("login"))
    page.get_by_label(re.compile(r"^用户名")).fill(user.username)
    page.get_by_label(re.compile(r"^密码")).fill(PASSWORD)
    page.get_by_role("main").get_by_role("button", name="登录").click()
    expect(page.get_by_role("navigation").get_by_role("link", name=user.nickname)).to_be_visible()


def open_table(visit: Visit, table_id: int) -> None:
    visit.goto(reverse("table", args=[table_id]))
    expect(visit.page.locator("#table-page")).to_have_attribute("data-connection", "open")


def new_visit(site, folder: Path, viewport: dict | None = None) -> Visit:
    """A visit on a page of its own of ``site`` (games.testing.fixtures.BrowserSite),
    its screenshots in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    return Visit(site.new_page(viewport), site.base, folder)
