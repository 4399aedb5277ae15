"""The package imports downward only: every import statement (module level or in a function, relative,
``importlib.import_module("...")`` literals, the package's lazy ``_MODULES`` table) goes to a module of
the same layer or a lower one, and no set of modules imports itself round (no cycle).

An import inside a function is for start-up speed only; it obeys the same layers, so a function-level
import cannot hide a cycle. It is only for an optional or heavy dependency or at one of the package's few
deferral points, each named in ``DEFERRED`` with its reason (issue 31), and at most 40 in the package: a module
that is always loaded is imported at the top of the module that uses it.

``KNOWN`` lists the edges that other work in progress removes, each with its
owner; the test fails when one of them is gone (shrink the list) or a new one appears.
"""

from __future__ import annotations

import ast
import os
from typing import Dict, Iterator, List, Optional, Set, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGES = ("sm_debug_config", "rule_configs")

#: The layers, lowest first; a module belongs to the layer of the longest name that is it or its package.
LAYERS: Tuple[Tuple[str, ...], ...] = (
    # base: errors, the findings registry, data files, limits checked before expensive work, lazily compiled
    # patterns, users' text handed to Python's parsers (pysource), values known only at run time (pipeline variables),
    # fixes and the strings that hold text an edit goes into (stringedit)
    ("sm_debug_config.codes", "sm_debug_config.errors", "sm_debug_config.fixes", "sm_debug_config.findings",
     "sm_debug_config.stringedit", "sm_debug_config.datafiles",
     "sm_debug_config.limits", "sm_debug_config.patterns", "sm_debug_config.pysource", "sm_debug_config.variables"),
    # the API's request shapes (botocore's model, SMD100): the model's constructors check against it
    ("sm_debug_config.apischema",),
    # the model
    ("sm_debug_config.model",),
    # the public rule catalogue, built on the model
    ("rule_configs",),
    # merge and render (no validation), and the source map that follows a render back to where a source wrote it
    ("sm_debug_config.merge", "sm_debug_config.rendering", "sm_debug_config.sourcemap"),
    # validation
    ("sm_debug_config.validation",),
    # checked entry points: render + validate, explain, from_request, render_update
    ("sm_debug_config.checked", "sm_debug_config.explaining", "sm_debug_config.reverse", "sm_debug_config.update"),
    ("sm_debug_config.configfile",),
    # the external formats that launch jobs (Step Functions, Pipelines, CloudFormation, Terraform), one module
    # each that reads and writes it: placed in a file as config files are, below the integrations
    ("sm_debug_config.documents",),
    # the engine: a job rendered as written, every check run once, findings placed through the job's source map
    ("sm_debug_config.engine",),
    # one module per input kind, detecting its documents and yielding their jobs (the table: sources/__init__.py)
    ("sm_debug_config.sources",),
    ("sm_debug_config.integrations",),
    # the reader of Python sources that launch jobs
    ("sm_debug_config.lint",),
    ("sm_debug_config.operations",),
    # a run's report and one formatter per output format, below the commands that print them
    ("sm_debug_config.reports",),
    # the top: the CLI, the package's lazy table, and the Lambda handler's deployed path (events)
    (
        "sm_debug_config.cli",
        # the language server: an editor's documents through the commands' own checks
        "sm_debug_config.server",
        "sm_debug_config.__main__",
        "sm_debug_config",
        "sm_debug_config.events",
    ),
)

#: Edges that break the layers today, removed by work in progress (owner named): ``(importer, imported): owner``.
KNOWN: Dict[Tuple[str, str], str] = {}


def _modules() -> Dict[str, str]:
    out = {}
    for package in PACKAGES:
        for folder, _, files in os.walk(os.path.join(ROOT, package)):
            for name in files:
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    dotted = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                    out[dotted[: -len(".__init__")] if dotted.endswith(".__init__") else dotted] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> Optional[str]:
    """The module a dotted name is in (``a.b.C`` -> ``a.b``), if it is one of ours."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in MODULES:
            return ".".join(parts)
        parts.pop()
    return None


def _imported(module: str, path: str) -> Iterator[Tuple[str, int]]:
    """``(name, line)`` of each name ``module`` imports, wherever the statement is."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    package = module.split(".") if path.endswith("__init__.py") else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = (
                ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
                if node.level
                else node.module
            )
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield (full if full in MODULES else base or ""), node.lineno
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if (
                called == "import_module"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                yield node.args[0].value, node.lineno
        elif (
            module == "sm_debug_config"
            and isinstance(node, ast.Assign)
            and getattr(node.targets[0], "id", "") == "_MODULES"
        ):
            assert isinstance(node.value, ast.Dict)
            for key in node.value.keys:
                assert isinstance(key, ast.Constant)
                yield f"sm_debug_config.{key.value}", node.lineno


def _edges() -> Dict[Tuple[str, str], int]:
    out: Dict[Tuple[str, str], int] = {}
    for module, path in MODULES.items():
        for name, line in _imported(module, path):
            target = _resolve(name)
            if target and target != module:
                out.setdefault((module, target), line)
    return out


EDGES = _edges()


def layer(module: str) -> int:
    best: Tuple[int, int] = (-1, -1)
    for index, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best[0]:
                best = (len(name), index)
    assert best[1] >= 0, f"{module} is in no layer: add it to LAYERS"
    return best[1]


def _cycles(edges: Set[Tuple[str, str]]) -> List[List[str]]:
    """The strongly connected components of more than one module (iterative Tarjan)."""
    graph: Dict[str, List[str]] = {m: [] for m in MODULES}
    for source, target in sorted(edges):
        graph[source].append(target)
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
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
    return found


def test_the_scan_sees_imports_inside_functions_and_relative_ones():
    assert ("sm_debug_config.checked", "sm_debug_config.validation") in EDGES  # module level
    assert ("sm_debug_config.explaining", "sm_debug_config.rendering") in EDGES  # inside a function
    assert ("sm_debug_config", "sm_debug_config.checked") in EDGES  # the lazy _MODULES table


def test_every_module_has_a_layer():
    for module in MODULES:
        layer(module)


def test_every_import_goes_to_the_same_layer_or_below():
    upward = {(source, target): line for (source, target), line in EDGES.items() if layer(target) > layer(source)}
    unexpected = [f"{MODULES[s]}:{line}: {s} -> {t}" for (s, t), line in sorted(upward.items()) if (s, t) not in KNOWN]
    assert not unexpected, "imports that go up a layer:\n" + "\n".join(unexpected)


def test_no_import_cycle():
    edges = {edge for edge in EDGES if edge not in KNOWN}
    assert _cycles(edges) == []


def test_the_known_exceptions_still_exist():
    # when one is fixed, take it off KNOWN so that it cannot come back
    gone = [f"{s} -> {t} ({owner})" for (s, t), owner in KNOWN.items() if (s, t) not in EDGES]
    assert not gone, "fixed; remove from KNOWN: " + ", ".join(gone)


def test_the_bottom_layer_imports_nothing_of_ours_above_it():
    for source, target in EDGES:
        if layer(source) == 0:
            assert layer(target) == 0, f"{source} -> {target}"


def test_no_test_module_imports_another():
    """Helpers live in helper modules (tests/README.md): importing a test module from another runs its module
    level twice under two names and hides what a test depends on."""
    found = []
    for folder, _dirs, files in os.walk(os.path.join(ROOT, "tests")):
        for name in files:
            if not name.endswith(".py") or "data" in os.path.relpath(folder, ROOT).split(os.sep):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as handle:
                tree = ast.parse(handle.read(), path)
            for node in ast.walk(tree):
                modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else [
                    alias.name for alias in node.names] if isinstance(node, ast.Import) else []
                found += [(os.path.relpath(path, ROOT), m) for m in modules
                          if m.startswith("tests.") and m.rsplit(".", 1)[-1].startswith("test_")]
    assert not found


# --- imports inside functions ------------------------------------------------------------------------

#: The most function-level import statements the package may hold.
MOST = 40

#: What may be imported inside a function (the top-level name for a third-party or standard module, the whole
#: dotted name for ours), and why.
DEFERRED: Dict[str, str] = {
    # optional or heavy dependencies
    "boto3": "AWS calls only (status, events, plan, the boto3 client); its import costs more than our whole start",
    "botocore": "the service model and AWS errors, only on paths that call AWS or read the installed model",
    "sagemaker": "the SageMaker Python SDK: optional (extra 'sagemaker'); seconds to import",
    "moto": "plan's in-process AWS: optional (extra 'plan')",
    "hcl2": "python-hcl2, Terraform HCL (.tf files) only: optional (extra 'terraform'); it loads Lark's grammar",
    "yaml": "PyYAML, imported in one place (configfile.parse.pyyaml): JSON, --help and lint never need it",
    "multiprocessing": "workers for many files only",
    "concurrent": "workers for many files only",
    "signal": "in a worker process only",
    "difflib": "a did-you-mean only, after a refusal",
    "importlib": "importlib.metadata (errors.installed_metadata): an install hint or a page address only",
    "numbers": "a value that is no builtin number only (Decimal, numpy scalars)",
    "hashlib": "loads OpenSSL (a few ms): --format sarif's fingerprints only",
    "tomllib": "a pyproject.toml that names [tool.sm-debug-config] only (most runs read none)",
    "tomli": "tomllib's stand-in below Python 3.11: the same",
    # our deferral points: the heavy part of a feature, loaded when it is used
    "sm_debug_config.integrations.sdk_wrappers": "the SDK v2 wrappers: loaded at the first call, once the SDK is whole",
    "sm_debug_config.lint.run": "the evaluator, checker and validation: loaded for the first file that names Debugger",
    "sm_debug_config.model.images": "the training-image tables: loaded for a job whose image is known",
}


def _function_level_imports() -> List[Tuple[str, int, str]]:
    found = set()
    for path in MODULES.values():
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), path)
        for function in ast.walk(tree):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(function):
                    if isinstance(node, ast.Import):
                        names = [alias.name for alias in node.names]
                    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                        # ``from a.b import c``: the module ``a.b.c`` when c is one, else ``a.b``
                        names = [
                            f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in MODULES else node.module
                            for alias in node.names
                        ]
                    elif isinstance(node, ast.ImportFrom):
                        names = ["(relative)"]
                    else:
                        continue
                    for name in names:
                        found.add((os.path.relpath(path, ROOT), node.lineno, name))
    return sorted(found)


def _allowed(name: str) -> bool:
    return name in DEFERRED or (not name.startswith("sm_debug_config") and name.split(".")[0] in DEFERRED)


def test_the_scan_finds_function_level_imports():
    names = {name for _path, _line, name in _function_level_imports()}
    assert "sm_debug_config.lint.run" in names and "boto3" in names


def test_at_most_40_function_level_imports():
    statements = {(path, line) for path, line, _name in _function_level_imports()}
    assert len(statements) <= MOST, f"{len(statements)} imports inside functions (at most {MOST})"


def test_every_function_level_import_is_a_deferred_dependency_or_point():
    stray = [f"{path}:{line}: {name}" for path, line, name in _function_level_imports() if not _allowed(name)]
    assert not stray, "import these at the top of the module (or add them to DEFERRED with a reason):\n" + "\n".join(
        stray
    )


def test_every_deferral_is_still_used():
    names = {name for _path, _line, name in _function_level_imports()}
    unused = [key for key in DEFERRED if not any(n == key or n.split(".")[0] == key for n in names)]
    assert not unused, f"no longer imported inside a function; remove from DEFERRED: {unused}"
