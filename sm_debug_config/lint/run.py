"""Linting a file's cells: parse each, evaluate them in order as one namespace, check what they configure, and
place each finding at its source line (``# sm-debug-config: ignore[...]`` comments honoured)."""
from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from sm_debug_config import pysource
from sm_debug_config.lint.check import Checker
from sm_debug_config.lint.evaluate import Evaluator
from sm_debug_config.lint.sources import Cell
from sm_debug_config.findings import DEBUG_FIELDS
from sm_debug_config.validation import check_codes
from sm_debug_config.validation.registry import SMD182

#: The suppression comment: ``# sm-debug-config: ignore`` (every code) or ``ignore[SMD120, SMD121]`` (those named).
IGNORE_COMMENT = re.compile(r"#\s*sm-debug-config:\s*ignore(?:\[([A-Za-z0-9_,\s]*)\])?")
_PY2 = re.compile(r"^\s*(print\s+[^\s(=]|exec\s+[\"']|except\s+[\w.]+\s*,\s*\w+\s*:)", re.M)


def lint_cells(
    path: str,
    cells: List[Cell],
    *,
    ignore: Sequence[str] = (),
    defaults: Optional[Dict[str, Any]] = None,
    notebook: bool = False,
) -> Dict[str, Any]:
    """Evaluate ``cells`` in order as one namespace, then check what they configure."""
    result: Dict[str, Any] = {"file": path, "findings": [], "suppressed": [], "cells": [], "notes": []}
    trees: List[Optional[ast.Module]] = []
    for cell in cells:
        if cell.skipped:
            result["notes"].append((cell.number, None, None, f"skipped: {cell.skipped}"))
            trees.append(None)
            continue
        try:
            # without the warning an invalid escape gives (the source's business, not ours): see pysource
            trees.append(pysource.parse(cell.text, filename=path))
        except (SyntaxError, ValueError) as err:  # ValueError: NUL bytes
            trees.append(None)
            if "error" not in result:
                line = getattr(err, "lineno", None)
                hint = " (Python 2?)" if _PY2.search(cell.text) else ""
                column = getattr(err, "offset", None) if line else None
                # file:line:col as a finding's place (in a notebook, file:cell N:line:col)
                place = ":".join(
                    [path] + ([f"cell {cell.number}"] if cell.number else []) + [str(n) for n in (line, column) if n]
                )
                message = getattr(err, "msg", str(err))
                result.update(
                    error=f"{place}: cannot parse: {message}{hint}",
                    line=line if not cell.number else None,
                    column=column if not cell.number else None,
                )
        except (RecursionError, MemoryError):
            trees.append(None)
            result.setdefault("error", f"{path}: cannot parse: nested too deeply")
            result.setdefault("line", None)
            result.setdefault("column", None)
    ev = Evaluator()
    try:
        ev.trees = [tree for tree in trees if tree is not None]
        for index, tree in enumerate(trees):
            if tree is not None:
                ev.run(tree, index)
        ev.finish()
        checker = Checker(ev, os.path.dirname(os.path.abspath(path)), defaults or {}, cells)
        located = checker.run()
        checker.notes += [(node, REQUEST_CALL_NOTE) for tree in ev.trees for node in _request_calls(tree)]
    except RecursionError:
        result["notes"].append((None, None, None, "not checked: too complex (nested too deeply or too long)"))
        return result
    comments = [_comments(cell.text) if tree is not None else {} for cell, tree in zip(cells, trees)]
    statements = [_statement_lines(tree) if tree is not None and found else {} for tree, found in zip(trees, comments)]
    codes = set(check_codes(list(ignore)))
    bad_codes: List[Tuple[int, int, int, str]] = []
    for index, found in enumerate(comments):
        for comment_at, (named, comment_column) in found.items():
            for code in sorted(named or ()):
                try:
                    check_codes([code])
                except Exception:  # noqa: BLE001 - a ConfigError: not a registered code
                    bad_codes.append((index, comment_at, comment_column, code))
    placed: List[Tuple[Any, Optional[int]]] = []
    for item in located:
        cell_index, line, column = _position(item.node, ev, cells)
        finding = item.finding.__class__(
            item.finding.severity, item.finding.code, item.finding.path, item.finding.message, line=line, column=column,
            fix=item.finding.fix,
        )
        silenced = (
            cell_index is not None
            and line is not None
            and _silenced(finding.code, comments[cell_index], (line, statements[cell_index].get(line, line)))
        )
        if finding.code in codes or silenced:
            result["suppressed"].append(_mark(finding))
            continue
        placed.append((finding, cells[cell_index].number if cell_index is not None else None))
    for index, comment_line, comment_column, code in bad_codes:
        bad = SMD182.at(
            (), f"the ignore comment names {code!r}, which is no check code (`sm-debug-config checks` lists them)"
        ).replace(line=comment_line, column=comment_column)
        if bad.code in codes:  # suppressed as any other code
            result["suppressed"].append(_mark(bad))
            continue
        placed.append((bad, cells[index].number))
    for node, text in checker.notes:
        piece, at_line, at_column = _position(node, ev, cells)
        result["notes"].append((cells[piece].number if piece is not None else None, at_line, at_column, text))
    unique: Dict[Tuple[Any, ...], Tuple[Any, Optional[int]]] = {}
    for finding, number in placed:
        unique.setdefault(
            (finding.code, finding.pointer, finding.message, number, finding.line, finding.column), (finding, number)
        )
    ordered = sorted(unique.values(), key=lambda fc: (fc[1] or 0, fc[0].line or 0, fc[0].column or 0, fc[0].code))
    result["findings"] = [f for f, _ in ordered]
    result["cells"] = [n for _, n in ordered]
    result["notes"] = sorted(set(result["notes"]), key=lambda n: (n[0] or 0, n[1] or 0, n[2] or 0, n[3]))
    result["not_checked"] = sum(1 for note in result["notes"] if note[3].startswith("not checked"))
    if checker.assumed_region:  # a job rendered in a region nobody named: the report says so (cli/defaults.py)
        result["assumed_region"] = checker.assumed_region
    if not notebook:
        result.pop("cells")
    return result


#: What lint says of a boto3 call that sends Debugger fields as a request dict: it is counted, never "0 errors".
REQUEST_CALL_NOTE = ("not checked: a CreateTrainingJob request passed to boto3 (lint reads the SDK's objects, not "
                     "request dicts; `sm-debug-config plan` runs the launcher and checks it)")


def _request_calls(tree: ast.AST) -> List[ast.Call]:
    """The ``client.create_training_job(...)`` calls of ``tree`` that may send Debugger fields (one named, or
    ``**request``)."""
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "create_training_job"
            and any(k.arg is None or k.arg in DEBUG_FIELDS for k in node.keywords)]


def _mark(finding: Any) -> Any:
    return finding.replace(suppressed=True)


_LINE_END = re.compile(r"\r\n|\r|\n")


def _position(
    node: Optional[ast.AST], ev: Any, cells: List[Cell]
) -> Tuple[Optional[int], Optional[int], Optional[int]]:
    """``(piece index, line, column)`` of ``node``, the column 1-based in characters."""
    if node is None or not hasattr(node, "lineno"):
        return None, None, None
    index = ev.cells_of.get(id(node), 0)
    line = int(getattr(node, "lineno"))  # noqa: B009 - every node with a position has it
    lines = _LINE_END.split(cells[index].text)  # Python's line ends: not splitlines' (form feed, U+2028...)
    text = lines[line - 1] if line <= len(lines) else ""
    column = len(text.encode("utf-8")[: int(getattr(node, "col_offset", 0))].decode("utf-8", "replace")) + 1
    return index, line, column


def _comments(text: str) -> Dict[int, Tuple[Optional[Set[str]], int]]:
    """``{line: (codes or None for all, column)}`` of the ``# sm-debug-config: ignore[...]`` comments in ``text``."""
    if "sm-debug-config" not in text:
        return {}
    out: Dict[int, Tuple[Optional[Set[str]], int]] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                match = IGNORE_COMMENT.search(token.string)
                if match:
                    codes = (
                        {c.strip().upper() for c in match.group(1).split(",") if c.strip()}
                        if match.group(1) is not None
                        else None
                    )
                    out[token.start[0]] = (codes, token.start[1] + 1)
    except (tokenize.TokenError, SyntaxError):
        pass
    return out


def _statement_lines(tree: ast.Module) -> Dict[int, int]:
    """Each line of a multi-line statement -> the statement's first line (a comment there covers the whole call)."""
    out: Dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.While, ast.With, ast.Try)
        ):
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                out.setdefault(line, node.lineno)
    return out


def _silenced(code: str, comments: Dict[int, Tuple[Optional[Set[str]], int]], lines: Tuple[int, int]) -> bool:
    for line in lines:
        if line in comments:
            codes = comments[line][0]
            if codes is None or code in codes:
                return True
    return False
