"""The server's modules import one another without a cycle, imports for types included.

Issue 31: the table manager's parts (presence, timers, the move scheduler, ownership,
the follower, seating, the database gateway...) reach it through the protocols they
declare, never by importing ``tables.TableManager``, not even under ``TYPE_CHECKING``;
import-linter does not see those imports, so this test reads every ``import`` statement.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pyramids.server

SERVER = Path(pyramids.server.__file__).parent
PACKAGE = "pyramids.server"


def server_imports() -> dict[str, set[str]]:
    """Each server module's server modules imported anywhere in it (``from pyramids.server
    import store`` imports ``store``, not the package)."""
    modules = {p.stem: p for p in SERVER.glob("*.py") if p.stem != "__init__"}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module == PACKAGE:
                    graph[name] |= {a.name for a in node.names if a.name in modules}
                elif node.module.startswith(PACKAGE + "."):
                    graph[name].add(node.module.removeprefix(PACKAGE + ".").split(".")[0])
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith(PACKAGE + "."):
                        graph[name].add(alias.name.removeprefix(PACKAGE + ".").split(".")[0])
        graph[name] &= set(modules)
        graph[name].discard(name)
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (its modules in order, the first again at the end), or
    None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return None
        path.append(name)
        for other in sorted(graph[name]):
            if (found := visit(other)) is not None:
                return found
        path.pop()
        done.add(name)
        return None

    for name in sorted(graph):
        if (found := visit(name)) is not None:
            return found
    return None


def test_no_server_module_imports_one_that_imports_it_back() -> None:
    """No cycle among the server's modules, counting imports made only for types."""
    graph = server_imports()
    assert "tables" in graph and "database" in graph["tables"]
    assert cycle_in(graph) is None, " -> ".join(cycle_in(graph) or [])


def test_the_cycle_finder_finds_a_cycle_through_a_type_import() -> None:
    """The checker catches what it forbids: a part that imports the table manager back."""
    graph = server_imports()
    graph["presence"] = graph["presence"] | {"tables"}
    assert cycle_in(graph) is not None
