"""SARIF logs of ``--format sarif`` checked against the OASIS SARIF 2.1.0 schema (``tests/data/sarif``), and the pages
their rules link to (``docs/checks/<CODE>.md``, from :func:`sm_debug_config.findings.page_url`)."""
from __future__ import annotations

import functools
import json
import os
from typing import Any, Dict, List, Optional

import jsonschema

from sm_debug_config.findings import page_url

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = os.path.join(ROOT, "tests", "data", "sarif", "sarif-schema-2.1.0.json")
PAGES = os.path.join(ROOT, "docs", "checks")


@functools.lru_cache(maxsize=None)
def _validator() -> Any:
    with open(SCHEMA, encoding="utf-8") as handle:
        schema = json.load(handle)
    jsonschema.Draft4Validator.check_schema(schema)  # the schema says draft-04 ("$schema")
    return jsonschema.Draft4Validator(schema)


def schema_errors(log: Any) -> List[str]:
    """Every place where ``log`` breaks the SARIF 2.1.0 schema (empty: it is a valid log)."""
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in _validator().iter_errors(log)]


def load(text: str) -> Dict[str, Any]:
    """A log as the CLI wrote it, checked against the schema."""
    log = json.loads(text)
    errors = schema_errors(log)
    if errors:
        raise AssertionError("not a valid SARIF 2.1.0 log:\n" + "\n".join(errors[:20]))
    return log


def page_of(url: str) -> Optional[str]:
    """The file of this repository that a check's page address names (:func:`page_url` of a code: GitHub's
    ``.../blob/<branch>/<path>``), or None for an address of another shape."""
    head, tail = page_url("{code}").split("{code}")
    if not (url.startswith(head) and url.endswith(tail)) or "/blob/" not in head:
        return None
    path = url.split("/blob/", 1)[1].split("/", 1)[1]  # past the branch
    return os.path.join(ROOT, *path.split("/"))


def rules_of(log: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    """The driver's rules by id."""
    return {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}
