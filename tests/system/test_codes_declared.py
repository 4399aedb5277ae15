"""A finding code is written once, in its declaration (``findings.declare("SMD124", ...)``); everything that
produces it uses the declared object (``SMD124.at(...)``, ``SMD124.code``, ``v.warn(..., SMD155)``), so
that a code's severity, description and evidence cannot drift from where it is produced.

The scan reads every module of the package (``ast``): a string constant that is a code (``"SMD124"``) is
allowed only as the first argument of ``declare``, a key of the table of codes (``codes.TABLE``) or in
``__all__``; an f-string may not spell a code
either. Docstrings, messages and allowed-value texts that mention codes are prose and are not matched
(they are more than a code). ``KNOWN`` lists the sites that other work in progress removes, with owner;
the test fails when one of them is gone (shrink the list) or a new one appears.
"""

from __future__ import annotations

import ast
import os
import re
from typing import Dict, Iterator, List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGES = ("sm_debug_config", "rule_configs")
CODE = re.compile(r"SMD\d{3}")

#: (directory, code) -> how many times modules under it still produce the code by a string (none left: a new
#: entry needs a reason).
KNOWN: Dict[Tuple[str, str], int] = {}


def _modules() -> Iterator[str]:
    for package in PACKAGES:
        for directory, _dirs, files in os.walk(os.path.join(ROOT, package)):
            for name in sorted(files):
                if name.endswith(".py"):
                    yield os.path.relpath(os.path.join(directory, name), ROOT).replace(os.sep, "/")


def _is_declare(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and (
        node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
    ) == "declare"


def _allowed(node: ast.AST, parents: Dict[ast.AST, ast.AST]) -> bool:
    """The first argument of ``declare(...)`` (its evidence may name other codes), a key of ``TABLE = {...}`` (the
    table of codes), or an entry of ``__all__``."""
    parent = parents.get(node)
    if isinstance(parent, ast.Call) and parent.args and parent.args[0] is node:
        return _is_declare(parent)
    if isinstance(parent, ast.JoinedStr):
        return _is_declare(parents.get(parent))
    if isinstance(parent, ast.Dict) and node in parent.keys:  # a row of the table of codes (codes.py)
        assigned = parents.get(parent)
        return isinstance(assigned, (ast.Assign, ast.AnnAssign)) and any(
            isinstance(t, ast.Name) and t.id == "TABLE"
            for t in (assigned.targets if isinstance(assigned, ast.Assign) else [assigned.target])
        )
    if isinstance(parent, (ast.List, ast.Tuple)):
        assigned = parents.get(parent)
        return isinstance(assigned, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in assigned.targets
        )
    return False


def codes_by_string(source: str) -> List[Tuple[int, str]]:
    """(line, code) of each place ``source`` produces a finding code from a string."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        in_fstring = isinstance(parents.get(node), ast.JoinedStr)
        codes = CODE.findall(node.value) if in_fstring else ([node.value] if CODE.fullmatch(node.value) else [])
        if codes and not _allowed(node, parents):
            found += [(node.lineno, code) for code in codes]
    return found


def _scan() -> Dict[Tuple[str, str], List[int]]:
    out: Dict[Tuple[str, str], List[int]] = {}
    for path in _modules():
        with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
            for line, code in codes_by_string(handle.read()):
                out.setdefault((path, code), []).append(line)
    return out


def test_the_scan_sees_codes_by_string_and_allows_declarations():
    source = '''
__all__ = ["SMD900"]
SMD900 = declare("SMD900", WARNING, "A test.", "None.")
warn(x, a, "m", "SMD900")
Finding("error", "SMD901", "", "m")
text = f"{place}: info SMD902 /: {message}"
SMD904 = declare("SMD904", INFO, "A test.", f"{SOURCE} names SMD900 in its evidence.")
"""A docstring that names SMD903 is prose."""
allowed = "a list of check codes such as ['SMD110']"
TABLE = {"SMD900": Code("a-test")}
other = {"SMD901": 1}
'''
    assert codes_by_string(source) == [(4, "SMD900"), (5, "SMD901"), (6, "SMD902"), (11, "SMD901")]


def _known(path: str, code: str) -> Tuple[str, str]:
    return next(((where, code) for where, known in KNOWN if known == code and path.startswith(where)), ("", ""))


def test_no_module_produces_a_code_by_string():
    found = _scan()
    new = {site: lines for site, lines in found.items() if _known(*site) not in KNOWN}
    assert not new, f"produce these codes from their declared Check (SMDnnn.code, SMDnnn.at(...)): {new}"
    counts = {known: 0 for known in KNOWN}
    for site, lines in found.items():
        if _known(*site) in counts:
            counts[_known(*site)] += len(lines)
    changed = {known: (KNOWN[known], n) for known, n in counts.items() if n != KNOWN[known]}
    assert not changed, f"KNOWN is out of date (expected, found): shrink it {changed}"
