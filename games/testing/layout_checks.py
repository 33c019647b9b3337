"""Layout checks for the browser tests at the three sizes the site is held to: desktop,
a phone upright (390×844) and sideways (844×390). Each reads boxes from the page as
Chromium laid it out: nothing wider than the screen, two elements not over each other,
an element wholly on screen, a table that needs no sideways scroll."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PHONE_SIDEWAYS = {"width": 844, "height": 390}
SIZES = (("desktop", DESKTOP), ("phone-portrait", PHONE), ("phone-landscape", PHONE_SIDEWAYS))

BOX = """(selector) => {
  const el = document.querySelector(selector);
  if (!el || !el.checkVisibility()) return null;
  const r = el.getBoundingClientRect();
  return {x: r.x, y: r.y, right: r.right, bottom: r.bottom, width: r.width, height: r.height};
}"""


def box(page: Page, selector: str) -> dict | None:
    """The element's box on screen (viewport coordinates); None when not shown."""
    return page.evaluate(BOX, selector)


def fits_across(page: Page, where: str) -> None:
    """The page needs no sideways scroll."""
    width = page.evaluate("() => window.innerWidth")
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width, f"{where}: the page is {scroll}px wide on a {width}px screen"


def apart(page: Page, first: str, second: str, where: str) -> None:
    """Neither element covers any of the other (both shown)."""
    a, b = box(page, first), box(page, second)
    assert a is not None and b is not None, (where, first, a, second, b)
    across = min(a["right"], b["right"]) - max(a["x"], b["x"])
    down = min(a["bottom"], b["bottom"]) - max(a["y"], b["y"])
    assert across <= 0.5 or down <= 0.5, f"{where}: {first} {a} and {second} {b} overlap"


def on_screen(page: Page, selector: str, where: str) -> None:
    """The element is shown and wholly within the screen."""
    found = box(page, selector)
    size = page.viewport_size
    assert found is not None, f"{where}: {selector} not shown"
    assert found["x"] >= -0.5 and found["right"] <= size["width"] + 0.5, (where, selector, found)
    assert found["y"] >= -0.5 and found["bottom"] <= size["height"] + 0.5, (where, selector, found)


def unclipped_table(page: Page, selector: str, where: str) -> None:
    """The table is as wide as its box or narrower (no column cut off or scrolled to),
    no cell wraps its words one character a line (none under 1.9em wide) and every
    column's heading is on one line."""
    report = page.evaluate("""(selector) => {
      const table = document.querySelector(selector);
      if (!table) return null;
      const holder = table.parentElement;
      const cells = Array.from(table.querySelectorAll('th, td')).filter(
        (cell) => cell.checkVisibility() && cell.textContent.trim()
          && cell.closest('thead, tbody, table').getBoundingClientRect().width > 2);
      const narrow = cells.filter((cell) => {
        const style = getComputedStyle(cell);
        const em = parseFloat(style.fontSize);
        const text = cell.textContent.trim();
        const inner = cell.clientWidth - parseFloat(style.paddingLeft)
          - parseFloat(style.paddingRight);
        return text.length > 1 && inner < 1.9 * em;
      }).map((cell) => cell.textContent.trim().slice(0, 12));
      // A column's heading on one line: a word broken over lines reads as letters.
      const broken = Array.from(table.querySelectorAll('thead th')).filter((th) => {
        if (th.getBoundingClientRect().width <= 2 || !th.textContent.trim()) return false;
        const range = document.createRange();
        range.selectNodeContents(th);
        const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
        return tops.size > 1;
      }).map((th) => th.textContent.trim());
      narrow.push(...broken);
      const right = table.getBoundingClientRect().right;
      return {table: table.scrollWidth, holder: holder.clientWidth,
              holderScroll: holder.scrollWidth, right, screen: window.innerWidth, narrow};
    }""", selector)
    assert report is not None, f"{where}: no {selector}"
    assert report["holderScroll"] <= report["holder"] + 1, \
        f"{where}: {selector} scrolls sideways {report}"
    assert report["right"] <= report["screen"] + 0.5, \
        f"{where}: {selector} runs off the screen {report}"
    assert report["narrow"] == [], f"{where}: cells too narrow for their words {report['narrow']}"


def shoot(page: Page, folder: Path, name: str, *, full_page: bool = False) -> Path:
    path = folder / f"{name}.png"
    page.screenshot(path=path, full_page=full_page)
    return path
