"""Validate step: every finding for a request's Debugger fields, each with a stable code and a path.

The API's own limits (:mod:`~sm_debug_config.validation.api`: SMD001, SMD100), then one module
per family of container-aware checks (hook, rules, profiler, paths, images), each registered in
:mod:`~sm_debug_config.validation.registry` and run by :mod:`~sm_debug_config.validation.run`
(``docs/checks.md`` lists them).

>>> findings = validate({"DebugHookConfig": {"S3OutputPath": "s3://b/o",
...     "CollectionConfigurations": [{"CollectionName": "gradients", "CollectionParameters": {"save_interval": "0"}}]}})
>>> [(f.code, f.pointer) for f in findings]
[('SMD132', '/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval')]
"""

from __future__ import annotations

from sm_debug_config.validation.registry import Context, check
from sm_debug_config.validation.rules import builtin_name, needed_collections, passthrough_of
from sm_debug_config.validation.run import (
    check_codes,
    errors,
    list_checks,
    raise_for_errors,
    raise_or_warn,
    severity_of,
    validate,
    validate_split,
)

__all__ = [
    "Context",
    "builtin_name",
    "check",
    "check_codes",
    "errors",
    "list_checks",
    "needed_collections",
    "passthrough_of",
    "raise_for_errors",
    "raise_or_warn",
    "severity_of",
    "validate",
    "validate_split",
]
