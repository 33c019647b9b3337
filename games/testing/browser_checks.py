"""Playwright helpers for the browser test: launching Debian's Chromium, collecting
console errors, and the accessibility checks (accessible names as Chromium computes
them, text contrast from computed colours, keyboard reach by Tab)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connections
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking"]
# WCAG 2 AA for body text; the brief holds every text to it, headings included.
MIN_CONTRAST = 4.5
# Roles whose element a person fills in or operates: each needs a name.
NAMED_ROLES = {"textbox", "searchbox", "combobox", "listbox", "checkbox", "radio", "slider",
               "spinbutton", "switch", "button", "link"}
FORM_ROLES = {"textbox", "searchbox", "combobox", "listbox", "checkbox", "radio", "slider",
              "spinbutton", "switch"}


def launch_chromium(playwright: Playwright) -> Browser:
    assert CHROMIUM.exists(), (f"{CHROMIUM} is missing: `make test` installs it "
                               "(scripts/ensure_chromium.sh), or apt-get install chromium")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                      args=CHROMIUM_ARGS)


@contextmanager
def chromium_browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, for a test that makes its own contexts and pages;
    meanwhile the ORM may run beside Playwright's loop in this thread
    (DJANGO_ALLOW_ASYNC_UNSAFE)."""
    allowed = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                yield browser
            finally:
                browser.close()
                # Django keys connections by async context: the queries made here had
                # their own, which would keep the test database from being dropped.
                connections.close_all()
    finally:
        if allowed is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = allowed


class PageErrors:
    """Console errors and uncaught exceptions of a page, to be asserted empty."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))

    def _console(self, message) -> None:
        if message.type != "error":
            return
        self.errors.append(f"console error at {message.location}: {message.text}")


def step_checker(page: Page, folder: Path) -> Callable[[str, str], None]:
    """``check(where, shot)`` for each step of a browser test: a full-page screenshot
    ``shot``.png in ``folder``, no console error or uncaught exception so far, and the
    page accessible (:func:`assert_accessible`)."""
    errors = PageErrors(page)

    def check(where: str, shot: str) -> None:
        page.screenshot(path=folder / f"{shot}.png", full_page=True)
        assert errors.errors == [], f"{where}: {errors.errors}"
        assert_accessible(page, where)

    return check


class SocketLog:
    """The JSON messages a page receives on its table socket (docs/protocol.md)."""

    def __init__(self, page: Page, path: str = "/ws/table/") -> None:
        self.messages: list[dict] = []
        self.path = path
        page.on("websocket", self._opened)

    def _opened(self, socket) -> None:
        if self.path in socket.url:
            socket.on("framereceived", self._received)

    def _received(self, payload) -> None:
        self.messages.append(json.loads(payload))

    def of_type(self, kind: str) -> list[dict]:
        return [message for message in self.messages if message.get("type") == kind]

    def events(self) -> list[dict]:
        return [event for message in self.of_type("events") for event in message["events"]]


def wait_until(page: Page, condition: Callable[[], object], what: str,
               timeout: float = 30) -> None:
    """Let the page run (and its events arrive) until ``condition()`` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(50)


# --- accessible names ------------------------------------------------------------------

def unnamed_controls(page: Page) -> tuple[list[str], int]:
    """Controls without an accessible name, from Chromium's own accessibility tree
    (the name a screen reader announces: labels, aria-label(ledby), text), and how
    many form controls (inputs, selects, textareas) the page exposes."""
    session = page.context.new_cdp_session(page)
    try:
        session.send("Accessibility.enable")
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
        problems = []
        form_controls = 0
        for node in nodes:
            if node.get("ignored"):
                continue
            role = node.get("role", {}).get("value")
            if role not in NAMED_ROLES:
                continue
            form_controls += role in FORM_ROLES
            name = (node.get("name") or {}).get("value") or ""
            if name.strip():
                continue
            described = "?"
            if "backendDOMNodeId" in node:
                dom = session.send("DOM.describeNode",
                                   {"backendNodeId": node["backendDOMNodeId"]})["node"]
                attributes = dom.get("attributes", [])
                described = dom["nodeName"].lower() + "".join(
                    f' {attributes[i]}="{attributes[i + 1]}"'
                    for i in range(0, len(attributes), 2))
            problems.append(f"{role} without a name: <{described}>")
        return problems, form_controls
    finally:
        session.detach()


def dom_form_controls(page: Page) -> int:
    """Visible inputs, selects and textareas in the DOM (hidden inputs aside)."""
    return page.evaluate("""() => Array.from(document.querySelectorAll(
        'input:not([type=hidden]), select, textarea')).filter(
        (el) => el.checkVisibility()).length""")


def assert_controls_named(page: Page, where: str) -> None:
    problems, exposed = unnamed_controls(page)
    assert problems == [], f"{where}: controls without an accessible name: {problems}"
    # Every visible form control is in the tree (so none escaped the check above).
    assert exposed >= dom_form_controls(page), f"{where}: form controls missing from the tree"


# --- contrast ----------------------------------------------------------------------------

CONTRAST_SCRIPT = """(minimum) => {
  const problems = [];
  let checked = 0;
  const parse = (text) => {
    const match = /^rgba?\\(([^)]*)\\)$/.exec(text.trim());
    if (!match) return null;
    const parts = match[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    if (parts.length < 3 || parts.some(Number.isNaN)) return null;
    return { r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1 };
  };
  const over = (top, below) => {  // top over an opaque colour
    const a = top.a;
    return { r: top.r * a + below.r * (1 - a), g: top.g * a + below.g * (1 - a),
             b: top.b * a + below.b * (1 - a), a: 1 };
  };
  const mix = (below, above, amount) => ({ r: below.r + (above.r - below.r) * amount,
    g: below.g + (above.g - below.g) * amount, b: below.b + (above.b - below.b) * amount, a: 1 });
  const luminance = (c) => {
    const channel = (v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  };
  const ratio = (x, y) => {
    const [a, b] = [luminance(x), luminance(y)].sort((p, q) => q - p);
    return (a + 0.05) / (b + 0.05);
  };
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.className && typeof el.className === "string"
      ? "." + el.className.trim().split(/\\s+/).join(".") : "");
  // Backgrounds of each ancestor layer: its colour, plus the stops of any gradient
  // (each stop tried in turn: the text must be readable on all of them).
  const layers = (el) => {
    const chain = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const style = getComputedStyle(node);
      const colour = parse(style.backgroundColor);
      if (!colour) {
        return { error: "unparsed background " + style.backgroundColor + " on " + describe(node) };
      }
      const stops = [];
      if (style.backgroundImage && style.backgroundImage !== "none") {
        const found = style.backgroundImage.match(/rgba?\\([^)]*\\)/g) || [];
        if (!/gradient/.test(style.backgroundImage) || !found.length) {
          return { skip: true };  // an image: its colours cannot be read
        }
        for (const text of found) stops.push(parse(text));
      }
      chain.push({ colour, stops, opacity: Number(style.opacity) });
    }
    return { chain };
  };
  // The colour on screen, composited from the root down; an element's opacity mixes
  // its whole rendered content with what lies behind it.
  const render = (chain, choice, text) => {
    const at = (index, behind) => {
      const layer = chain[index];
      let colour = over(layer.colour, behind);
      const stop = choice[index];
      if (stop) colour = over(stop, colour);
      colour = index > 0 ? at(index - 1, colour) : (text ? over(text, colour) : colour);
      return mix(behind, colour, layer.opacity);
    };
    return at(chain.length - 1, { r: 255, g: 255, b: 255, a: 1 });
  };
  const choices = (chain) => {  // every combination of gradient stops (usually one or two)
    let result = [[]];
    chain.forEach((layer, index) => {
      if (!layer.stops.length) return;
      result = result.flatMap((choice) => layer.stops.map((stop) => {
        const next = choice.slice(); next[index] = stop; return next;
      }));
    });
    return result;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || seen.has(el)) continue;
    seen.add(el);
    const skipped = "script, style, noscript, option, template, [disabled], [aria-disabled=true]";
    if (el.closest(skipped)) continue;
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // visually hidden text for screen readers
    const style = getComputedStyle(el);
    const text = parse(style.color);
    if (!text) {
      problems.push("unparsed colour " + style.color + " on " + describe(el));
      continue;
    }
    const found = layers(el);
    if (found.error) { problems.push(found.error); continue; }
    if (found.skip) continue;
    let worst = Infinity;
    for (const choice of choices(found.chain)) {
      const background = render(found.chain, choice, null);
      const foreground = render(found.chain, choice, text);
      worst = Math.min(worst, ratio(foreground, background));
    }
    checked += 1;
    if (worst < minimum) {
      problems.push(describe(el) + " " + JSON.stringify(node.textContent.trim().slice(0, 30)) +
        " contrast " + worst.toFixed(2) + ":1 (" + style.color + ")");
    }
  }
  return { problems, checked };
}"""


def assert_readable_contrast(page: Page, where: str) -> None:
    """Every visible text on the page has contrast ≥ MIN_CONTRAST against the
    backgrounds it sits on (computed colours, ancestors' backgrounds and opacity)."""
    report = page.evaluate(CONTRAST_SCRIPT, MIN_CONTRAST)
    assert report["checked"] > 0, f"{where}: no text was checked"
    assert report["problems"] == [], f"{where}: text below {MIN_CONTRAST}:1: {report['problems']}"


def assert_accessible(page: Page, where: str) -> None:
    assert_controls_named(page, where)
    assert_readable_contrast(page, where)


# --- keyboard ------------------------------------------------------------------------------

FOCUSED_SCRIPT = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return "";
  if (el.dataset && el.dataset.card) return "card:" + el.dataset.card;
  if (el.id) return "#" + el.id;
  const label = el.getAttribute("aria-label") || el.textContent || "";
  return el.tagName.toLowerCase() + ":" + label.trim().slice(0, 20);
}"""


def focused(page: Page) -> str:
    return page.evaluate(FOCUSED_SCRIPT)


def tab_stops(page: Page, limit: int = 200) -> list[str]:
    """The elements Tab visits, from the top of the page round to the first again."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    stops: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        stop = focused(page)
        if stops and stop == stops[0]:
            break
        if stop:  # past the last stop focus leaves the page for a press
            stops.append(stop)
    return stops


def tab_to(page: Page, selector: str, limit: int = 200) -> int:
    """Press Tab until the focused element matches ``selector``; the presses taken."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => Boolean(document.activeElement && "
                         "document.activeElement.matches(s))", selector):
            return presses
    raise AssertionError(f"Tab never reached {selector} (last focus {focused(page)!r})")
