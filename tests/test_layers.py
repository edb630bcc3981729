"""Imports run one way, and no module imports itself back through others.

The floors of ``src/gpupool`` (docs/DEVELOPING.md, "Floors and what each room may import"), lowest first:

    base       errors, findings, rules, ruledocs, docblocks, yamlio (+ _yamlgeneral, _yamlfast), shell,
               atomicfile, gcpolicy, catalog, config
    semantics  spec <- k8s <- cluster            (Kubernetes and Azure semantics)
    engines    design, report, render, lint, simulate, diff, doctor, preflight, nap
    faces      cli, htmlpage, __main__

A room may import any room of a lower floor. Within the semantics, engines and faces floors a room imports
only the rooms ``SAME_FLOOR`` names (the engines' table is the decision written down; base rooms may import
each other, the cycle check keeps them honest). Every import counts: at the top of a module, inside a
function, or under ``if TYPE_CHECKING:`` (a type is a dependency too).

A small AST walk, not import-linter: it sees imports inside functions (gpupool imports lazily for start-up
time, so most of its edges are there), it is one test with no tool or configuration file to keep, and the
floors live next to the check that enforces them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "gpupool"

FLOORS: dict[str, int] = {
    # base: facts, findings, the rule registry and the utilities every floor uses
    **dict.fromkeys(
        ["__init__", "errors", "findings", "rules", "ruledocs", "docblocks", "yamlio", "_yamlgeneral",
         "_yamlfast", "_cyaml", "shell", "atomicfile", "gcpolicy", "catalog", "config"],
        0,
    ),
    # Kubernetes and Azure semantics
    **dict.fromkeys(["spec", "k8s", "cluster"], 1),
    # engines
    **dict.fromkeys(
        ["design", "report", "render", "lint", "simulate", "diff", "doctor", "preflight", "nap"], 2
    ),
    # faces
    **dict.fromkeys(["cli", "htmlpage", "__main__"], 3),
}

# Imports between rooms of the same floor (above the base): room -> the rooms it may import.
SAME_FLOOR: dict[str, set[str]] = {
    "spec": set(),
    "k8s": {"spec"},  # a node's taints and pool label are the spec's
    "cluster": {"spec", "k8s"},
    # Engines. design is the first: what a pool is and what its nodes offer (check, node, nodeshape); every
    # engine may ask it. report is output formats and needs no engine.
    "design": set(),
    "report": set(),
    # renders only specs the check passes; labels and taints from design.node; nap: the enable step and the
    # NodePool manifests (render/nap.py)
    "render": {"design", "nap"},
    # vets pools with design's check; its result's JSON uses report.jsonout; nap: Karpenter NodePools are
    # landing places like pools (nap/placement.py, nap/lintinputs.py)
    "lint": {"design", "report", "nap"},
    # lint's GPU rules name the fix of a Pending workload (simulate.fixes); nap: Karpenter provisions the
    # pods the pools leave Pending
    "simulate": {"design", "lint", "nap"},
    "diff": {"design", "lint", "render"},  # the runbook runs lint's placement and renders the new pool
    # Pending pods placed with simulate's Cluster on the real nodes; nap: the NodePools a GPU pod could use
    "doctor": {"design", "simulate", "nap"},
    # the flags of the az command render writes; design's version rules; nap: the cluster's NAP mode
    "preflight": {"design", "render", "nap"},
    "nap": set(),  # Karpenter's NodePools judged on the catalog and k8s semantics alone
    "cli": {"htmlpage"},  # `gpupool report` builds the page
    "htmlpage": set(),
    "__main__": {"cli"},
}


def module_name(path: Path, root: Path) -> tuple[str, bool]:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    is_pkg = parts[-1] == "__init__"
    return ".".join(parts[:-1] if is_pkg else parts), is_pkg


def import_graph(root: Path) -> dict[str, dict[str, int]]:
    """module -> {imported gpupool module: first line}; every import statement anywhere in the module.
    ``from pkg import name`` counts as importing ``pkg.name`` where that is a module, else ``pkg``."""
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    modules = {name for name, _ in files}
    top = root.name

    def known(name: str) -> str | None:
        while name not in modules and "." in name:
            name = name.rpartition(".")[0]
        return name if name in modules else None

    graph: dict[str, dict[str, int]] = {}
    for (name, is_pkg), path in files.items():
        package = name if is_pkg else name.rpartition(".")[0]
        found: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod for a in node.names]
            for t in targets:
                if t != top and not t.startswith(top + "."):
                    continue
                m = known(t)
                if m is not None and m != name:
                    found.setdefault(m, node.lineno)
        graph[name] = found
    return graph


def room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def wrong_way(
    graph: Mapping[str, Mapping[str, int]], floors: Mapping[str, int], same_floor: Mapping[str, Iterable[str]]
) -> list[str]:
    """Every import of a higher floor, of a room the table does not allow, or of a room with no floor."""
    out = []
    for a, targets in sorted(graph.items()):
        for b, line in sorted(targets.items()):
            ra, rb = room(a), room(b)
            if ra == rb:
                continue
            if ra not in floors or rb not in floors:
                out.append(f"{a}:{line} imports {b}: give {ra if ra not in floors else rb} a floor")
            elif floors[ra] < floors[rb]:
                out.append(f"{a}:{line} imports {b}: {ra} (floor {floors[ra]}) is below {rb} ({floors[rb]})")
            elif floors[ra] == floors[rb] and floors[ra] > 0 and rb not in same_floor.get(ra, ()):
                out.append(f"{a}:{line} imports {b}: {ra} may not import {rb} (SAME_FLOOR)")
    return out


def cycles(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, {}))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, {})))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return sorted(out)


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, int]]:
    return import_graph(SRC)


def test_every_room_has_a_floor(graph: dict[str, dict[str, int]]) -> None:
    assert sorted({room(m) for m in graph} - set(FLOORS)) == []
    assert sorted(set(SAME_FLOOR) - set(FLOORS)) == []


def test_imports_run_one_way(graph: dict[str, dict[str, int]]) -> None:
    assert wrong_way(graph, FLOORS, SAME_FLOOR) == []


def test_no_module_imports_itself_back(graph: dict[str, dict[str, int]]) -> None:
    assert cycles(graph) == []


def test_the_graph_sees_imports_inside_functions_and_type_checking(graph: dict[str, dict[str, int]]) -> None:
    # cli.main imports gcpolicy inside main(); the check would be blind without such edges
    assert "gpupool.gcpolicy" in graph["gpupool.cli.main"]
    assert "gpupool.k8s.facts" in graph["gpupool.lint.places"]  # inside a method


# ---- the check itself fails where it should ----------------------------------------------------------------


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "gpupool"
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    for d in [root, *[p for p in root.rglob("*") if p.is_dir()]]:
        (d / "__init__.py").touch()
    return root


def test_a_back_arrow_fails(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "catalog/facts.py": "def f():\n    from gpupool.preflight.inputs import load_skus\n",
        "preflight/inputs.py": "from gpupool.catalog import facts\nload_skus = 1\n",
        "lint/gpu.py": "from gpupool.simulate import facts\n",
        "simulate/facts.py": "",
        "cli/main.py": "import gpupool.htmlpage.model\n",
        "htmlpage/model.py": "from ..cli import main\n",
    })
    got = wrong_way(import_graph(root), FLOORS, SAME_FLOOR)
    assert got == [
        "gpupool.catalog.facts:2 imports gpupool.preflight.inputs: catalog (floor 0) is below preflight (2)",
        "gpupool.htmlpage.model:1 imports gpupool.cli.main: htmlpage may not import cli (SAME_FLOOR)",
        "gpupool.lint.gpu:1 imports gpupool.simulate.facts: lint may not import simulate (SAME_FLOOR)",
    ]


def test_a_room_without_a_floor_fails(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"attic/junk.py": "from gpupool import errors\n", "errors.py": ""})
    assert wrong_way(import_graph(root), FLOORS, SAME_FLOOR) == [
        "gpupool.attic.junk:1 imports gpupool.errors: give attic a floor"
    ]


def test_a_cycle_fails_even_through_functions_and_type_checking(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "simulate/engine.py": "def run():\n    from gpupool.simulate import result\n",
        "simulate/result.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from gpupool.simulate.engine import Run\n",
        "yamlio.py": "from gpupool import _yamlfast\n",
        "_yamlfast.py": "import gpupool.yamlio\n",
        "errors.py": "",
    })
    assert cycles(import_graph(root)) == [
        ["gpupool._yamlfast", "gpupool.yamlio"],
        ["gpupool.simulate.engine", "gpupool.simulate.result"],
    ]
