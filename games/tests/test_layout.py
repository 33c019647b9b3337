"""The shape of games/ (README "Layout"): domains in sub-packages, few plain modules at
the top, and an engine that stands alone (standard library only)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

GAMES = Path(__file__).resolve().parents[1]
# What a Django app keeps at its top (the issue that laid games/ out allows these).
APP_MODULES = {"__init__", "apps", "models", "admin", "urls", "tasks"}
MAX_PLAIN_MODULES = 6
DOMAINS = {"engine", "live", "settlement", "archive", "web", "loadtest"}


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside functions (lazy imports
    count). Relative imports resolve to ``games.engine``: only the engine is read."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add("games.engine" if node.level else node.module)
    return found


def test_games_keeps_at_most_six_plain_modules_at_its_top():
    plain = sorted(path.stem for path in GAMES.glob("*.py") if path.stem not in APP_MODULES)
    assert len(plain) <= MAX_PLAIN_MODULES, plain


def test_each_domain_is_a_package_with_its_own_tests_beside_it():
    packages = {path.parent.name for path in GAMES.glob("*/__init__.py")}
    assert DOMAINS <= packages
    for domain in DOMAINS - {"loadtest"}:
        assert sorted((GAMES / domain / "tests").glob("test_*.py")), domain
    # Tests of a domain sit in its package: none are left in a flat pile.
    assert not sorted((GAMES / "tests").glob("test_engine_*.py"))
    assert not sorted((GAMES / "tests").glob("test_live_*.py"))


def test_the_engine_imports_the_standard_library_and_itself_only():
    engine = GAMES / "engine"
    modules = [path for path in engine.rglob("*.py") if "tests" not in path.parts]
    assert len(modules) > 10
    for path in modules:
        for name in imported_modules(path):
            top = name.split(".")[0]
            assert name.startswith("games.engine") or top in sys.stdlib_module_names, \
                f"{path.relative_to(GAMES)} imports {name}"


# What the engine's tests may use beyond the engine: the examples count of the
# hypothesis profiles, itself the standard library and hypothesis only (checked below).
ENGINE_TEST_SUPPORT = {"games.engine.tests.examples"}


def test_the_engines_tests_need_no_django_either():
    allowed_outside = {"pytest", "hypothesis"}
    for path in (GAMES / "engine" / "tests").rglob("*.py"):
        for name in imported_modules(path):
            top = name.split(".")[0]
            if top == "games":
                assert name.startswith("games.engine") or name in ENGINE_TEST_SUPPORT, \
                    f"{path.name} imports {name}"
            else:
                assert top in sys.stdlib_module_names or top in allowed_outside, \
                    f"{path.name} imports {name}"
