"""No two modules of `cardviewer` import each other, however indirectly.

A circle makes the start order matter (a name read before its module has finished
importing fails) and ties modules together that should stand apart. Every import
statement counts: at the top, inside a function, or only for the type checker.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

import pytest

import cardviewer

PACKAGE = "cardviewer"
ROOT = Path(cardviewer.__file__).parent


def module_files(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Each module's dotted name and its file; a package is named by its `__init__.py`."""
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join((package, *parts))] = path
    return found


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def imported_modules(
    tree: ast.Module, module: str, package_file: bool, known: Collection[str]
) -> Iterator[str]:
    """The modules among `known` that an `import` or `from … import` anywhere in `tree`
    names, from the top, a function or an `if TYPE_CHECKING:` block alike.

    `from package import name` imports the submodule `package.name` when there is one,
    and the package's `__init__` otherwise.
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = resolve(node, module, package_file)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in known:
                    yield submodule
                elif base in known:
                    yield base


def resolve(node: ast.ImportFrom, module: str, package_file: bool) -> str:
    """The absolute name of the module a `from` statement imports from."""
    if node.level == 0:
        return node.module or ""
    # A package's own module is its `__init__`; one level up from it is the package.
    anchor = module.split(".") if package_file else module.split(".")[:-1]
    anchor = anchor[: len(anchor) - (node.level - 1)]
    return ".".join([*anchor, node.module] if node.module else anchor)


def import_graph(files: Mapping[str, Path]) -> dict[str, set[str]]:
    """Each module of `files` and the others of them it imports."""
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        imported = imported_modules(tree, module, is_package(path), files)
        graph[module] = set(imported) - {module}
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def describe(component: list[str], graph: Mapping[str, set[str]]) -> str:
    """The modules of a circle and which of them import which."""
    members = set(component)
    edges = [
        f"    {source} -> {target}"
        for source in component
        for target in sorted(graph[source] & members)
    ]
    return "\n".join([" <-> ".join(component), *edges])


def test_no_module_of_cardviewer_is_part_of_an_import_circle() -> None:
    graph = import_graph(module_files())
    found = cycles(graph)
    assert not found, "import circles:\n" + "\n".join(describe(c, graph) for c in found)


# The graph itself


def graph_of(tmp_path: Path, sources: Mapping[str, str]) -> dict[str, set[str]]:
    """The graph of a made-up package `pkg` written from `sources` (path: text)."""
    for name, text in sources.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return import_graph(module_files(tmp_path / "pkg", "pkg"))


def test_every_kind_of_import_is_an_edge(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "import pkg.b\n",
            "b.py": "def f():\n    from pkg import c\n",
            "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import X\n",
            "d.py": "from .sub import thing\n",
            "sub/__init__.py": "from ..a import y\nthing = 1\n",
        },
    )
    assert graph == {
        "pkg": set(),
        "pkg.a": {"pkg.b"},
        "pkg.b": {"pkg.c"},
        "pkg.c": {"pkg.d"},
        "pkg.d": {"pkg.sub"},
        "pkg.sub": {"pkg.a"},
    }
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg.sub"]]


def test_importing_from_a_package_counts_as_importing_it(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        {"__init__.py": "from pkg.a import A\n", "a.py": "from pkg import B\nA = 1\n"},
    )
    assert cycles(graph) == [["pkg", "pkg.a"]]


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}, "c": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [["a", "b"], ["c", "d"]]),
    ],
)
def test_cycles_are_the_circles_and_only_them(
    graph: dict[str, set[str]], expected: list[list[str]]
) -> None:
    assert cycles(graph) == expected
