"""The project's import graph has no circle, function-level imports counted.

import-linter's contracts (pyproject.toml) keep the layers pointing one way; this test
asks grimp, the graph import-linter builds, for any strongly connected component left
among the project's modules, so that a circle dodged with an import inside a function
(or at the end of a module) is still caught.
"""

from __future__ import annotations

import grimp

PACKAGES = ("scoring", "tournaments", "referees", "api", "config")


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan), or of
    one module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(root: str) -> None:
        nonlocal counter
        # Iterative, so a long chain of imports cannot exhaust Python's recursion limit.
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph.find_modules_directly_imported_by(node):
                    found.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle_among_the_projects_modules():
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False, cache_dir=None)
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_circle():
    # The finder itself can fail: a graph with a circle of three and a lone module.
    graph = grimp.ImportGraph()
    for module in ("a", "b", "c", "d"):
        graph.add_module(module)
    graph.add_import(importer="a", imported="b")
    graph.add_import(importer="b", imported="c")
    graph.add_import(importer="c", imported="a")
    graph.add_import(importer="d", imported="a")
    assert _cycles(graph) == [["a", "b", "c"]]
