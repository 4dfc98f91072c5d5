"""The package's shape (issue 33 item 2): no import circle, no module over ~1,000 lines, no private name
imported from another module, and every module importable on its own in a fresh interpreter.

The import graph is read from the source (every ``import`` statement, those inside functions too:
a function-level import that dodges a circle is still a circle; ``if TYPE_CHECKING:`` blocks aside,
they run only under a type checker).
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bombbuster_core"
MAX_LINES = 1000

def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_modules(package: Path = PACKAGE) -> dict[str, Path]:
    return {module_name(p, package.parent): p for p in sorted(package.rglob("*.py"))}


def imports(path: Path, name: str) -> list[tuple[str, list[str]]]:
    """(the imported module as an absolute name, the names taken from it) of every import statement
    of the file at ``path`` (module ``name``), but those under ``if TYPE_CHECKING:``."""
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[str, list[str]]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                continue
            if isinstance(child, ast.ImportFrom):
                base = here
                for _ in range(child.level - 1):
                    base = base.rpartition(".")[0]
                target = (base + ("." + child.module if child.module else "")) if child.level else child.module or ""
                out.append((target, [a.name for a in child.names]))
            elif isinstance(child, ast.Import):
                out.extend((a.name, []) for a in child.names)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return out


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of the package -> the package's modules it imports (``from pkg import module`` names the
    module; ``from pkg import name`` the package's ``__init__``)."""
    modules = package_modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = set()
        for target, names in imports(path, name):
            for n in names or [""]:
                if f"{target}.{n}" in modules:
                    edges.add(f"{target}.{n}")
                elif target in modules:
                    edges.add(target)
        graph[name] = edges - {name}
    return graph


def circles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan), each as its sorted names."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: set[tuple[str, ...]] = set()

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.add(tuple(sorted(component)))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_the_circle_finder_finds_a_circle_through_a_function_level_import(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import x\n")
    (pkg / "b.py").write_text("TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from .c import y\n\n"
                              "def f():\n    from .a import z\n")
    (pkg / "c.py").write_text("from . import a\n")
    graph = import_graph(pkg)
    assert graph["pkg.b"] == {"pkg.a"} and graph["pkg.c"] == {"pkg.a"}
    assert circles(graph) == {("pkg.a", "pkg.b")}


def test_no_import_circle() -> None:
    assert circles(import_graph()) == set()


def test_no_module_is_over_a_thousand_lines() -> None:
    lengths = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
               for p in package_modules().values()}
    assert {p: n for p, n in lengths.items() if n > MAX_LINES} == {}


def private_imports(paths: list[Path]) -> set[tuple[str, str, str]]:
    """(file, module, name) of every ``_private`` name a file imports from a module of the project's package
    outside the file's own package (the modules of one package may share their private names)."""
    modules = package_modules()
    out = set()
    for path in paths:
        name = module_name(path) if PACKAGE in path.parents else path.stem
        home = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for target, names in imports(path, name):
            if not target.startswith("bombbuster_core") or target.rpartition(".")[0] == home or target == home:
                continue
            for n in names:
                if n.startswith("_") and not n.startswith("__") and f"{target}.{n}" not in modules:
                    out.add((str(path.relative_to(ROOT)), target, n))
    return out


def test_no_private_name_is_imported_from_another_module() -> None:
    files = [p for top in ("bombbuster_core", "bench", "tests") for p in sorted((ROOT / top).rglob("*.py"))]
    assert private_imports(files) == set()


@pytest.mark.parametrize("module", sorted(package_modules()))
def test_each_module_imports_alone_in_a_fresh_interpreter(module: str) -> None:
    """Whichever module a process imports first, it loads: no order-dependent circle."""
    if module == "bombbuster_core.__main__":
        pytest.skip("runs the CLI when imported")
    done = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
