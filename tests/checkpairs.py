"""Every declared code's paired case (a bad input that gets the code, a near-identical good one that does not),
gathered from where the tests that run them keep them: the request checks' ``CASES`` of each family
(tests/validation/test_<family>.py), and tests/pairhelpers.py's for lint, plan and config files. The registry
drift test wants one for every code, and ``scripts/generate_checks_doc.py`` writes one per code into
``sm_debug_config/data/check_examples.json``, the examples of the pages under docs/checks/: a page shows a pair
the tests run.

The fixable checks' pairs are gathered here too (:func:`fix_cases`): per fix, a bad request and the request its
fix makes of it, exactly: what the fixers of each format (config files, documents, Python) derive their bad and good
fixtures from.

>>> examples()["SMD132"]["kind"]
'request'
>>> sorted({case["code"] for case in fix_cases()})[:3]
['SMD100', 'SMD101', 'SMD114']
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Tuple

from tests.pairhelpers import CONFIG_CASES, DOCUMENT_CASES, LINT_CASES, PLAN_CASES, UNREADABLE_CASES
from tests.validation import test_api, test_hook, test_images, test_paths, test_profiler, test_rules
from tests.validation.valhelpers import good_options

#: The test module of each request check family (validation/<family>.py), each with its paired cases.
FAMILIES = (test_api, test_hook, test_rules, test_profiler, test_paths, test_images)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _size(*parts: Any) -> int:
    return sum(len(json.dumps(p)) for p in parts)


def _request_examples() -> Dict[str, Dict[str, Any]]:
    """Per code, the request pair the page shows: one checked with the same options on both sides if there is one,
    then the shortest (the first of equals)."""
    chosen: Dict[str, Tuple[Tuple[bool, int], Dict[str, Any]]] = {}
    for family in FAMILIES:
        for code, path, bad, good, kwargs in family.CASES:
            options = good_options(code, kwargs)
            key = (options != kwargs, _size(bad, good))
            if code not in chosen or key < chosen[code][0]:
                example = {"kind": "request", "path": path, "bad": bad, "good": good}
                example.update(bad_options=kwargs, good_options=options)
                chosen[code] = (key, example)
    return {code: example for code, (_, example) in chosen.items()}


def _plan_argv(argv: List[str]) -> List[str]:
    """A plan case's command line as a user types it: the launcher relative to the repository, text output (the
    test reads ``--format json``)."""
    out = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg == "--format":
            skip = True
            continue
        out.append(os.path.relpath(arg, ROOT).replace(os.sep, "/") if os.path.isabs(arg) else arg)
    return out


def examples() -> Dict[str, Dict[str, Any]]:
    """One paired case per code, by code: ``kind`` (``request``: ``bad`` and ``good`` are request dicts checked with
    ``bad_options`` and ``good_options``, the code at ``path``; ``python``: sources for lint; ``config``: config
    files, the code at ``path``; ``document``: a document's source's own code, at ``path``;
    ``unreadable``: a file that cannot be read and its fix; ``plan``: plan's command
    lines)."""
    found = _request_examples()
    for code, bad, good in LINT_CASES:
        # SMD181 says what lint did not check: its test reads lint's notes, which --verbose prints
        options = {"verbose": True} if code == "SMD181" else {}
        found.setdefault(code, {"kind": "python", "bad": bad, "good": good, "bad_options": options})
    for code, bad, good in PLAN_CASES:
        found.setdefault(code, {"kind": "plan", "bad": _plan_argv(bad), "good": _plan_argv(good)})
    for code, path, bad, good in CONFIG_CASES:
        found.setdefault(code, {"kind": "config", "path": path, "bad": bad, "good": good})
    for code, path, bad, good in DOCUMENT_CASES:
        found.setdefault(code, {"kind": "document", "path": path, "bad": bad, "good": good})
    for code, bad, good in UNREADABLE_CASES:
        found.setdefault(code, {"kind": "unreadable", "bad": bad, "good": good})
    return {code: found[code] for code in sorted(found)}


def fix_cases() -> List[Dict[str, Any]]:
    """Every fixable check's request pairs, from each family's ``FIX_CASES`` (tests/validation/test_<family>.py):
    ``code``, ``applicability`` (safe: ``--fix``; unsafe: ``--unsafe-fixes``), ``bad`` (a request with one mistake
    of ``code``), ``good`` (``bad`` with the fixes of ``code`` applied until none is left: exactly this) and
    ``options`` (``validate``'s keywords). ``good`` gets no finding of ``code``."""
    return [
        {"code": code, "applicability": applicability, "bad": bad, "good": good, "options": options}
        for family in FAMILIES
        for code, applicability, bad, good, options in getattr(family, "FIX_CASES", ())
    ]
