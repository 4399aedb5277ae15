"""``sm-debug-config lint``: Debugger configuration in Python sources and notebooks, checked without running them.

A file format next to :mod:`~sm_debug_config.configfile`: :mod:`.sources` reads ``.py`` files and
notebook code cells, :mod:`.evaluate` evaluates what is known statically (imports resolved by
:mod:`.names`, values held as :mod:`.values`, computed by :mod:`.compute`, arguments bound by
:mod:`.signatures`, code followed within the bounds of :mod:`.flow`), :mod:`.check` builds our objects
from it and hands them to the same ``render_model`` and ``validate`` as ``validate`` does, so codes and
severities come from the one registry; :mod:`.run` lints a file's cells (loaded with all of that for the
first file that names Debugger). Positions are ``file:line:col`` and, in notebooks, ``cell N`` (N counts
code cells from 1) with the line in the cell.

>>> result = lint_text("from sagemaker.debugger import Rule, rule_configs\\n"
...     "rules = [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={'threshhold': '0.1'})]\\n")
>>> [(f.code, f.line, f.column) for f in result["findings"]]
[('SMD120', 2, 77)]
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from sm_debug_config.errors import ConfigError
from sm_debug_config.lint.sources import (
    PREFILTER,
    Cell,
    SourceError,
    find_files,
    is_binary,
    notebook_cells,
    python_cells,
    read_bytes,
)

__all__ = ["lint_data", "lint_file", "lint_paths", "lint_text", "find_files"]



def lint_paths(
    paths: Sequence[str], *, ignore: Sequence[str] = (), defaults: Optional[Dict[str, Any]] = None
) -> List[Dict[str, Any]]:
    """One result per file under ``paths`` (see :func:`lint_file`); files the text test rules out are ``skipped``."""
    return [lint_file(path, ignore=ignore, defaults=defaults, given=given) for path, given in find_files(list(paths))]


def lint_file(
    path: str, *, ignore: Sequence[str] = (), defaults: Optional[Dict[str, Any]] = None, given: bool = True
) -> Dict[str, Any]:
    """One file's result, shaped as ``validate``'s: ``findings``, ``suppressed``, ``cells`` (each finding's
    code-cell number or None), ``notes`` (``--verbose``: what was not checked), and ``error`` (one line) or
    ``skipped`` (why)."""
    try:
        data = read_bytes(path)
    except SourceError as err:
        return _failed(path, str(err), err.line, err.column) if given else _skipped(path, str(err))
    return lint_data(path, data, ignore=ignore, defaults=defaults, given=given)


def lint_data(
    path: str, data: bytes, *, ignore: Sequence[str] = (), defaults: Optional[Dict[str, Any]] = None,
    given: bool = True
) -> Dict[str, Any]:
    """:func:`lint_file` of the file ``path`` whose bytes are ``data`` (read once; ``--fix`` gives the fixed
    bytes, checked before they are written)."""
    if is_binary(data):
        return _failed(path, f"{path}: a binary file, not Python source") if given else _skipped(path, "a binary file")
    if not PREFILTER.search(data):
        return _skipped(path, "names no Debugger module, class or Estimator keyword")
    notebook = path.endswith(".ipynb")
    try:
        cells = notebook_cells(data) if notebook else python_cells(data)
    except SourceError as err:
        if str(err).startswith("skip: "):
            return _skipped(path, str(err)[6:])
        return _failed(path, f"{path}: {err}", err.line, err.column)
    try:
        return _lint_cells(path, cells, ignore=ignore, defaults=defaults, notebook=notebook)
    except Exception as err:  # noqa: BLE001 - one file's bug in lint must not stop the others, nor show a traceback
        return _failed(path, f"{path}: internal error in lint: {type(err).__name__}: {err} (please report this)")


def lint_text(
    text: str, name: str = "<string>", *, ignore: Sequence[str] = (), defaults: Optional[Dict[str, Any]] = None
) -> Dict[str, Any]:
    """:func:`lint_file` of Python source ``text`` (positions relative to the current directory's files)."""
    for field, value in (("text", text), ("name", name)):
        if not isinstance(value, str):
            raise ConfigError(f"expected a string, got {type(value).__name__}", field=field)
    if not isinstance(ignore, (list, tuple, set, frozenset)):
        raise ConfigError(f"expected a list of finding codes, got {type(ignore).__name__}", field="ignore")
    return _lint_cells(name, [Cell(text)], ignore=ignore, defaults=defaults, notebook=False)


def _failed(path: str, message: str, line: Optional[int] = None, column: Optional[int] = None) -> Dict[str, Any]:
    return {
        "file": path,
        "error": message,
        "line": line,
        "column": column,
        "findings": [],
        "suppressed": [],
        "notes": [],
    }


def _skipped(path: str, why: str) -> Dict[str, Any]:
    return {"file": path, "findings": [], "suppressed": [], "notes": [], "skipped": why}


def _lint_cells(path: str, cells: List[Cell], **options: Any) -> Dict[str, Any]:
    # The evaluator, the checker and validation, loaded for the first file that names Debugger (most do not).
    from sm_debug_config.lint.run import lint_cells

    return lint_cells(path, cells, **options)
