#!/usr/bin/env bash
# Make sure Debian's Chromium is at /usr/bin/chromium for the browser test
# (games/web/tests/test_browser_e2e.py). Playwright drives that binary: it never downloads
# a browser of its own. Installs the package only when the binary is missing, with a
# small Chinese font (fonts-wqy-microhei) so the test's screenshots show the pages' text.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
FONT_PACKAGE=fonts-wqy-microhei

has_chinese_font() {
    dpkg -s "$FONT_PACKAGE" >/dev/null 2>&1 || [ -n "$(fc-list :lang=zh 2>/dev/null)" ]
}

packages=()
[ -x "$CHROMIUM" ] || packages+=(chromium)
has_chinese_font || packages+=("$FONT_PACKAGE")
if [ ${#packages[@]} -eq 0 ]; then
    exit 0
fi
command -v apt-get >/dev/null || {
    echo "ensure_chromium: missing ${packages[*]} and there is no apt-get; install them there" >&2
    exit 1
}
if [ "$(id -u)" != "0" ]; then
    echo "ensure_chromium: missing ${packages[*]}; run as root or: sudo apt-get install ${packages[*]}" >&2
    exit 1
fi
echo "ensure_chromium: installing ${packages[*]}"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet (or stale ones that 404).
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
[ -x "$CHROMIUM" ] || { echo "ensure_chromium: $CHROMIUM still missing after the install" >&2; exit 1; }
echo "ensure_chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium installed)"
