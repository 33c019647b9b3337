"""No import cycles among the project's modules.

The import contracts (pyproject.toml, checked by import-linter in `make lint` and `make
test`) say which app and which part of games may import which; this test adds what
they cannot say: no cycle among the modules at all, within a package too (import-linter's
acyclic_siblings contract is about packages, and would refuse one-way module imports
that merely make two packages lean on each other, as tests and their support do).

``import_cycles`` reads the source (ast, no import is executed) of every module of the
packages it is given and follows every import statement, those inside functions
included: an import made lazy to dodge a cycle is still a cycle. Imports of modules
outside those packages (Django, the standard library, other apps) are not followed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest
from django.conf import settings

# Every package of the project.
CHECKED_PACKAGES = ["common", "accounts", "ledger", "games", "stats", "fair_play",
                    "shuangkou_site", "analysis", "ratings"]


def package_modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Dotted module name -> source file, for every .py file under the packages."""
    modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _imported_modules(module: str, is_package: bool, tree: ast.AST,
                      modules: dict[str, Path]) -> set[str]:
    """The modules among ``modules`` that ``module`` imports, anywhere in its body.

    ``import X.y`` imports ``X.y``; ``from X import y`` imports the module ``X.y`` when
    there is one, else ``X``. Relative names are made absolute. Importing ``X.y`` also
    runs the package ``X/__init__.py``: that edge is not drawn, as it would put every
    module of a package whose __init__ imports one of them in a cycle."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                # The longest prefix that is one of ours (an outside name has none).
                name = alias.name
                while name and name not in modules:
                    name = name.rpartition(".")[0]
                if name:
                    found.add(name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                # A package's own __init__ is the base of its relative imports.
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module
            for alias in node.names:
                if f"{origin}.{alias.name}" in modules:
                    found.add(f"{origin}.{alias.name}")
                elif origin in modules:
                    found.add(origin)
    return found


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    """module -> the modules of these packages it imports (itself excluded)."""
    modules = package_modules(root, packages)
    graph = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        imported = _imported_modules(module, path.name == "__init__.py", tree, modules)
        graph[module] = imported - {module}
    return graph


def import_cycles(root: Path, packages: Iterable[str]) -> list[list[str]]:
    """The import cycles among the modules of these packages: each strongly connected
    group of modules with more than one member, as one cycle through it (sorted)."""
    graph = import_graph(root, packages)
    cycles = []
    for group in _strongly_connected(graph):
        if len(group) > 1:
            cycles.append(_cycle_within(graph, group))
    return sorted(cycles)


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative (no recursion limit on long import chains)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                groups.append(group)
    return groups


def _cycle_within(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """One cycle through the group's first module, by breadth-first search, as
    [a, b, ..., a] so the message reads as the chain of imports."""
    start = min(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & group):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if child not in came_from:
                    came_from[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no cycle in the strongly connected group {sorted(group)}")


# --- the project --------------------------------------------------------------------------

def test_the_projects_modules_import_each_other_in_no_cycle():
    cycles = import_cycles(Path(settings.BASE_DIR), CHECKED_PACKAGES)

    assert cycles == [], "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


# --- the checker itself, on made-up packages ------------------------------------------------

def write_package(root: Path, files: dict[str, str]) -> None:
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path):
    write_package(tmp_path, {
        "alpha/__init__.py": "",
        "alpha/models.py": "",
        "alpha/services.py": "def grant():\n    from beta.services import post\n",
        "beta/__init__.py": "",
        "beta/services.py": "from alpha.models import User\nfrom alpha import services\n",
    })

    assert import_cycles(tmp_path, ["alpha", "beta"]) == [
        ["alpha.services", "beta.services", "alpha.services"]]


def test_relative_imports_and_longer_cycles_are_followed(tmp_path):
    write_package(tmp_path, {
        "alpha/__init__.py": "",
        "alpha/a.py": "from .b import thing\n",
        "alpha/b.py": "from . import c\n",
        "alpha/c.py": "import alpha.sub.d\n",
        "alpha/sub/__init__.py": "",
        "alpha/sub/d.py": "from ..a import other\n",
    })

    assert import_cycles(tmp_path, ["alpha"]) == [
        ["alpha.a", "alpha.b", "alpha.c", "alpha.sub.d", "alpha.a"]]


def test_one_way_imports_and_outside_modules_are_no_cycle(tmp_path):
    write_package(tmp_path, {
        "alpha/__init__.py": "from alpha.models import User\n",
        "alpha/models.py": "from django.db import models\nimport json\n",
        "alpha/selectors.py": "from beta.models import Account\nfrom .models import User\n",
        "beta/__init__.py": "",
        "beta/models.py": "from alpha.models import User\n",
    })

    assert import_graph(tmp_path, ["alpha", "beta"])["alpha.selectors"] == {
        "beta.models", "alpha.models"}
    assert import_cycles(tmp_path, ["alpha", "beta"]) == []


@pytest.mark.parametrize("packages", [["alpha"], ["alpha", "beta"]])
def test_only_the_packages_given_are_checked(tmp_path, packages):
    write_package(tmp_path, {
        "alpha/__init__.py": "",
        "alpha/one.py": "from beta.two import x\n",
        "beta/__init__.py": "",
        "beta/two.py": "from alpha.one import y\n",
    })

    found = import_cycles(tmp_path, packages)

    assert found == ([] if packages == ["alpha"] else [["alpha.one", "beta.two", "alpha.one"]])
