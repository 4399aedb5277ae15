"""The package leaves the process it is imported into as it found it (issue 36): it is imported into notebooks,
launchers and their threads, so it neither swaps the process's warning filters nor sets another module's
attributes.

* ``warnings.catch_warnings`` swaps the process-wide filter list and puts back the one it saved: not
  thread-safe (two threads that overlap can leave "ignore everything" behind, or drop a filter the user added
  meanwhile). At most two in the package, each where it is the point: the Python API's edge (which warns the
  user's findings) and ``plan`` capturing a launcher's own output in a process of its own. Python's notes on a
  user's text are avoided instead (:mod:`sm_debug_config.pysource`).
* No ``<imported module or name>.<attr> = ...`` (nor ``setattr``/``delattr`` on one, nor item assignment into
  one's attribute) outside the CLI's own process (``cli/``) and ``plan``'s sandbox, which runs a launcher in a
  process of its own.

Both are read from the syntax tree (so a docstring's example does not count). ``KNOWN`` lists the uses that
other work in progress removes, each with its owner; the test fails when one is gone (shrink the list) or a
new one appears.
"""
from __future__ import annotations

import ast
import os
from typing import Dict, Iterator, List, Set, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: Where ``catch_warnings`` is the point, and why (at most two uses in all).
CATCHING: Dict[str, str] = {
    "sm_debug_config/validation/run.py": "the Python API's edge: the user's findings warned at their line",
    "sm_debug_config/operations/plan/launcher.py": "plan: a launcher's own warnings, in a process of its own",
}
MOST_CATCHING = 2

#: Uses that work in progress removes: path -> owner.
KNOWN_CATCHING: Dict[str, str] = {
}

#: Where another module's attributes may be set: the CLI's own process, and plan's sandbox, a process of its own
#: that runs a launcher (launcher.py, and capture.py's botocore hook, which only the sandbox enters).
OWN_PROCESS = (
    "sm_debug_config/cli/",
    "sm_debug_config/operations/plan/launcher.py",
    "sm_debug_config/operations/plan/capture.py",
)


def _library() -> Iterator[Tuple[str, ast.Module]]:
    for folder, _, files in sorted(os.walk(os.path.join(ROOT, "sm_debug_config"))):
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    yield os.path.relpath(path, ROOT).replace(os.sep, "/"), ast.parse(handle.read(), path)


def _catch_warnings() -> List[Tuple[str, int]]:
    found = []
    for path, tree in _library():
        for node in ast.walk(tree):
            name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
            if name == "catch_warnings":
                found.append((path, node.lineno))
    return found


def _imported_names(tree: ast.Module) -> Set[str]:
    """The names an import statement binds anywhere in the module (modules, and what was taken from them)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.update(alias.asname or alias.name for alias in node.names if alias.name != "*")
    return names


def _dotted(node: ast.AST) -> str:
    """``a.b[...].c`` (``ast.unparse`` is 3.9's)."""
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Subscript):
        return f"{_dotted(node.value)}[...]"
    return getattr(node, "id", "?")


def _root(node: ast.AST) -> str:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _foreign_assignments() -> List[str]:
    return [
        found for path, tree in _library() if not path.startswith(OWN_PROCESS) for found in _assignments(path, tree)
    ]


def _assignments(path: str, tree: ast.Module) -> List[str]:
    """``path:line: target`` of each assignment to an attribute of a name an import bound."""
    found = []
    imported = _imported_names(tree)
    for node in ast.walk(tree):
        targets: List[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = list(node.targets)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) in ("setattr", "delattr")
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in imported
        ):
            found.append(f"{path}:{node.lineno}: {node.func.id}({node.args[0].id}, ...)")  # type: ignore[attr-defined]
        for target in targets:
            for part in ast.walk(target):  # a, b.c = ... too
                if isinstance(part, (ast.Attribute, ast.Subscript)) and _root(part) in imported and (
                    isinstance(part, ast.Attribute) or isinstance(part.value, ast.Attribute)
                ):
                    found.append(f"{path}:{node.lineno}: {_dotted(part)} = ...")
                    break
    return found


def test_the_scans_find_what_they_look_for():
    tree = ast.parse("import re, sys\nfrom a import b as c\nre.compile = None\nsys.modules['x'] = 1\nc.d.e += 1\n"
                     "setattr(re, 'x', 1)\nx = re.compile\nlocal = {}\nlocal['a'] = 1\n")
    assert _imported_names(tree) == {"re", "sys", "c"}
    assert [line.split(": ", 1)[1] for line in _assignments("m.py", tree)] == [
        "re.compile = ...", "sys.modules[...] = ...", "c.d.e = ...", "setattr(re, ...)"]
    assert {path for path, _line in _catch_warnings()} >= set(KNOWN_CATCHING)


def test_catch_warnings_only_where_it_is_the_point():
    found = _catch_warnings()
    stray = [f"{path}:{line}" for path, line in found if path not in CATCHING and path not in KNOWN_CATCHING]
    assert not stray, "catch_warnings is not thread-safe; see this module's docstring:\n" + "\n".join(stray)
    allowed = [place for place in found if place[0] in CATCHING]
    assert len(allowed) <= MOST_CATCHING, allowed
    gone = sorted(set(KNOWN_CATCHING) - {path for path, _line in found})
    assert not gone, f"no longer catching warnings; remove from KNOWN_CATCHING: {gone}"


def test_no_module_sets_another_modules_attributes():
    found = _foreign_assignments()
    assert not found, "the library sets another module's attributes:\n" + "\n".join(found)
