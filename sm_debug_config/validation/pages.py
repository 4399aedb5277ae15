"""The page of each check code: what it catches, why (its declared evidence), whether and how ``--fix`` mends it, a bad
and a fixed example, how to suppress it.

One function makes a page's Markdown text (:func:`check_page`): ``scripts/generate_checks_doc.py`` writes it to
``docs/checks/<CODE>.md`` (the address of :attr:`~sm_debug_config.findings.Check.url`) and
``sm-debug-config checks CODE`` prints it, so an installed package has the pages too. The examples are the paired
cases the tests run, one per code, kept in ``data/check_examples.json`` (generated from the tests by the same
script, which fails its ``--check`` when they move).

>>> print(check_page("SMD132").splitlines()[0])
# SMD132: save_interval is not a positive integer (the hook divides the step by it).
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Optional, Sequence

from sm_debug_config import datafiles
from sm_debug_config.codes import INPUTS, nearest
from sm_debug_config.errors import ERROR, INFO, WARNING, ConfigError, shorten
from sm_debug_config.findings import CHECKS, Check

__all__ = ["EXAMPLES_FILE", "check_page", "examples", "find_check"]

#: The data file (``sm_debug_config/data/<name>.json``) of the examples: code -> paired case.
EXAMPLES_FILE = "check_examples"

#: What each severity means, as the severity policy says (docs/checks.md).
_SEVERITY_MEANS = {
    ERROR: "An **error**: the API or the service rejects the request, or the training or rule job fails.",
    WARNING: "A **warning**: nothing fails, but what runs is probably not what was meant.",
    INFO: "An **info**: a fact worth knowing; nothing fails because of it.",
}

_UNREADABLE_MEANS = "An **error**: the file is not checked at all."

#: Who reports a code, by the kind of its example.
_REPORTED_BY = {
    "request": "`sm-debug-config validate` reports it in config files, request JSON and orchestration documents, "
    "`lint` in Python sources and notebooks, `plan` in the jobs a launcher starts; in Python, "
    "`validate(request)` returns it and `render(...)` warns it (or raises, for an error).",
    "config": "It is reported where objects are built from a source: config files (`sm-debug-config validate`), "
    "Python sources and notebooks (`lint`), launchers (`plan`).",
    "document": "`sm-debug-config validate` reports it about the document it reads (never in a request).",
    "python": "`sm-debug-config lint` reports it in Python sources and notebooks.",
    "plan": "`sm-debug-config plan` reports it about a launcher's run.",
    "unreadable": "`sm-debug-config validate` and `lint` report it with `--format sarif`; the other formats print "
    "the reason as the file's error. Either way the command exits 2.",
}

#: The ``validate`` options the command line has a flag for.
_FLAGS = {"framework": "--framework", "region": "--region"}

#: The fenced block's language of each kind's inputs, and the file a command checks.
_LANGUAGE = {"request": "json", "config": "yaml", "document": "yaml", "unreadable": "yaml", "python": "python",
             "plan": "console"}
_FILE = {"request": "request.json", "config": "job.yaml", "document": "manifest.yaml", "unreadable": "job.yaml",
         "python": "launch.py"}


def examples() -> Dict[str, Any]:
    """The paired case of every code (``data/check_examples.json``)."""
    loaded: Dict[str, Any] = datafiles.load(EXAMPLES_FILE)
    return loaded


def find_check(code: str) -> Check:
    """The declared check ``code`` (any case) or of that name; a ``ConfigError`` with a did-you-mean for an unknown one
    (:func:`~sm_debug_config.codes.nearest`: ``SMD12O`` is SMD120).

    >>> find_check("smd120").code, find_check("unknown-rule-parameter").code
    ('SMD120', 'SMD120')
    """
    name = code.strip().upper()
    if name in CHECKS:
        return CHECKS[name]
    by_name = {check.name: check for check in CHECKS.values()}
    if code.strip().lower() in by_name:
        return by_name[code.strip().lower()]
    near = nearest(code, CHECKS)
    hint = f"; did you mean {shorten(near)}?" if near else ""
    raise ConfigError(
        f"unknown check code {shorten(code)}{hint}", field="code", allowed="a code listed by `sm-debug-config checks`"
    )


def _options(kind: str, options: Mapping[str, Any]) -> str:
    """How an example is checked: the command line when each option has a flag, else the Python call."""
    if kind == "python":
        return f"`sm-debug-config lint{' --verbose' if options.get('verbose') else ''} {_FILE[kind]}`"
    if kind == "unreadable":
        return f"`sm-debug-config validate --format sarif {_FILE[kind]}`"
    if kind in ("config", "document") or all(name in _FLAGS for name in options):
        flags = "".join(f" {_FLAGS[name]} {value}" for name, value in options.items())
        return f"`sm-debug-config validate {_FILE[kind]}{flags}`"
    given = "".join(f", {name}={json.dumps(value)}" for name, value in options.items())
    return f"`validate(request{given})` in Python"


def _block(kind: str, value: Any) -> List[str]:
    if kind == "request":
        text = json.dumps(value, indent=2)
    elif kind == "plan":  # the command line, from its subcommand on
        text = "$ sm-debug-config " + " ".join(value)
    else:
        text = value.rstrip("\n")
    return [f"```{_LANGUAGE[kind]}", text, "```"]


def _example(check: Check, example: Mapping[str, Any]) -> List[str]:
    kind = example["kind"]
    found = f"`{check.severity} {check.code}`" + (f" at `{example['path']}`" if example.get("path") else "")
    bad_options = example.get("bad_options", {})
    good_options = example.get("good_options", bad_options)
    if example["bad"] == example["good"]:  # a pair that differs in an option: the same input, checked two ways
        return [
            f"Reported ({found}) when checked with {_options(kind, bad_options)}; "
            f"not when checked with {_options(kind, good_options)}:",
            "",
        ] + _block(kind, example["bad"])
    lines = [f"Reported ({found}):", ""] + _block(kind, example["bad"])
    lines += ["", "Fixed:", ""] + _block(kind, example["good"])
    if kind == "plan":
        return lines
    if bad_options == good_options:
        return lines + ["", f"Both are checked with {_options(kind, bad_options)}."]
    return lines + [
        "",
        f"The first is checked with {_options(kind, bad_options)}, the second with {_options(kind, good_options)}.",
    ]


#: The ways to suppress a code, and the ways that apply to each kind of example (a lint-only code is never in a
#: request; a value a constructor refuses while a config file is built is before the file's ``ignore:``).
_SUPPRESS_WAYS = {
    "python": "- Python: `validate(request, ignore=[\"{code}\"])`, `render(..., ignore=[\"{code}\"])`, or "
    "`ignore: [{code}]` in a config file.",
    "flag": "- Command line: `--ignore {code}` (`validate`, `lint`, `plan`, `render`, `explain`).",
    "lint": "- Command line: `sm-debug-config lint --ignore {code}`.",
    "plan": "- Command line: `sm-debug-config plan --ignore {code}`.",
    "inline": "- A line of a Python source or notebook that `lint` checks: `# sm-debug-config: ignore[{code}]` on it "
    "(or on the first line of its statement).",
    "project": "- Project configuration: `ignore = [\"{code}\"]` under `[tool.sm-debug-config]` in `pyproject.toml`.",
}
_SUPPRESS = {
    "request": ("python", "flag", "inline", "project"),
    "config": ("flag", "inline", "project"),
    "document": ("flag", "project"),
    "python": ("lint", "inline", "project"),
    "plan": ("plan", "project"),
}


def _suppress(code: str, kind: str) -> List[str]:
    if kind == "unreadable":
        return ["It cannot be suppressed (`--ignore` does not apply): nothing in the file was checked. Fix the file, "
                "or leave it out of the files given."]
    ways = [_SUPPRESS_WAYS[way].format(code=code) for way in _SUPPRESS.get(kind, ("flag", "project"))]
    return ways + ["", f"`--ignore` and `ignore` take a prefix too (`{code[:5]}`: every {code[:5]}x code), and "
                   "`--select` or `select` of `validate`, `lint` and `plan` suppress every code they do not name. "
                   "Suppressed findings are counted, not reported, and `--strict` does not fail on them."]


def _inputs(names: Sequence[str]) -> str:
    """The inputs a check applies to, as a page says them: every one, or each named with what it is."""
    if set(names) == set(INPUTS):
        return "every input (" + ", ".join(f"`{name}`" for name in INPUTS) + ")"
    return "; ".join(f"`{name}`, {INPUTS[name]}" for name in names)


#: How each applicability of a fix is applied, as a page says it.
_FIX_MEANS = {
    "safe": "Safe (`--fix` applies it: the intended value is certain and the meaning is kept)",
    "unsafe": "Unsafe (only with `--unsafe-fixes`: likely what was meant, but it changes what runs; check the diff)",
}
_NO_FIX = ("No automatic fix: which value was meant is not known, so `--fix` leaves the finding as it is; the "
           "message says what to decide.")
_FIX_IN_PYTHON = ("A finding that can be fixed carries its fix as a value: in Python, `finding.fix.apply(request)` "
                  "returns the request with it made (`finding.fix.changes`: each change at a request pointer); "
                  "`--format json` writes it under `fix`. Where the value is not certain in a given request (no "
                  "single close name, say), the finding has no fix.")


def _fixes(check: Check) -> List[str]:
    """The page's section on how ``check``'s findings are fixed (its row's ``fixes``), or that they are not."""
    if not check.fixes:
        return [_NO_FIX]
    return [f"- {_FIX_MEANS[kind]}: {what}." for kind, what in check.fixes] + ["", _FIX_IN_PYTHON]


def check_page(code: str, cases: Optional[Mapping[str, Any]] = None) -> str:
    """The Markdown page of the declared check ``code``, its example from ``cases`` (default: :func:`examples`)."""
    check = CHECKS[code]
    example = (examples() if cases is None else cases).get(code)
    lines = [
        f"# {check.code}: {check.description}",
        "",
        f"Name: `{check.name}` · Severity: **{check.severity}** · Lifecycle: {check.lifecycle} · "
        "[every check](../checks.md)",
        "",
        "Applies to: " + _inputs(check.applies_to) + ".",
        "",
        "## What it catches",
        "",
        _REPORTED_BY[example["kind"]] if example else check.description,
        "",
        "## Why",
        "",
        check.evidence,
        "",
        _UNREADABLE_MEANS if example and example["kind"] == "unreadable" else _SEVERITY_MEANS[check.severity],
        "",
        "## Fix",
        "",
        *_fixes(check),
        "",
    ]
    if example:
        lines += ["## Example", ""] + _example(check, example) + [""]
    lines += ["## Suppress it", ""] + _suppress(check.code, example["kind"] if example else "") + [""]
    lines += [
        "---",
        "",
        f"Generated by `scripts/generate_checks_doc.py` from {check.code}'s declaration and the paired case the "
        f"tests run; `sm-debug-config checks {check.code}` prints this page.",
    ]
    return "\n".join(lines) + "\n"
