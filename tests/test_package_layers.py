"""The floors of the reference, package by package (issue: the house before the new spec texts).

`ORDER` lists the packages (and top-level modules) of `spec_impl` from the ground up: a package
imports only packages below it. The generator (`vectors`) sits on top, over the case contract
(`ops`), which the suite and the reference engine use; table validation (`validate`) sits over
everything it checks. The package `spec_impl` itself (its `__init__`, the public facade) is not a
floor. A new package must be given its floor here.
"""

from __future__ import annotations

from test_layers import import_graph

ORDER = (
    "resources",
    "revisions",
    "rules",
    "errors",
    "digits",
    "temporal",
    "types",
    "promotion",
    "values",
    "hashing",
    "serde",
    "transforms",
    "strategies",
    "bulk",
    "metadata",
    "deletes",
    "manifests",
    "expressions",
    "scan",
    "metrics",
    "v4",
    "datafiles",
    "pruning",
    "validate",
    "ops",
    "obligations",
    "requirements",
    "vectors",
)
FAMILIES = "spec_impl.vectors.families"


def _floor(module: str) -> str | None:
    """The package of a module of the reference (`spec_impl.metadata.schema` -> `metadata`)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "spec_impl" and len(parts) > 1 else None


def imports_against(graph: dict[str, set[str]], order: tuple[str, ...]) -> list[str]:
    """Every import of a module from a package on its own floor's level or above, as `a -> b`."""
    rank = {name: i for i, name in enumerate(order)}
    found = []
    for module, targets in graph.items():
        here = _floor(module)
        for target in targets:
            there = _floor(target)
            if here and there and here != there and rank[there] > rank[here]:
                found.append(f"{module} ({here}) -> {target} ({there})")
    return sorted(found)


def reached(graph: dict[str, set[str]], start: list[str]) -> dict[str, str]:
    """Every module reached from `start` -> the module that imports it on the way."""
    via: dict[str, str] = {}
    todo = list(start)
    while todo:
        module = todo.pop()
        for target in sorted(graph.get(module, ())):
            if target not in via and target not in start:
                via[target] = module
                todo.append(target)
    return via


def test_every_package_has_a_floor():
    floors = {_floor(m) for m in import_graph()} - {None}
    assert floors - set(ORDER) == set(), "packages without a floor in ORDER"
    assert set(ORDER) - floors == set(), "floors in ORDER without a package"


def test_no_import_runs_up_between_packages():
    against = imports_against(import_graph(), ORDER)
    assert against == [], f"{len(against)} import(s) against the floors:\n" + "\n".join(against)


def test_the_suite_never_reaches_the_generators_families():
    graph = import_graph()
    via = reached(graph, [m for m in graph if m.split(".")[0] == "conformance"])
    families = sorted(m for m in via if m == FAMILIES or m.startswith(FAMILIES + "."))
    chain = families[:1]
    while chain and chain[-1] in via:
        chain.append(via[chain[-1]])
    assert families == [], "conformance reaches the families: " + " <- ".join(chain)


def test_an_import_against_the_floors_is_found():
    graph = {"spec_impl.types.x": {"spec_impl.metadata.y"}, "spec_impl.metadata.y": {"spec_impl.types.x"}}
    assert imports_against(graph, ("types", "metadata")) == [
        "spec_impl.types.x (types) -> spec_impl.metadata.y (metadata)"
    ]


def test_a_reach_through_another_module_is_found():
    graph = {"conformance.a": {"spec_impl.b"}, "spec_impl.b": {FAMILIES + ".json"}}
    assert reached(graph, ["conformance.a"])[FAMILIES + ".json"] == "spec_impl.b"
