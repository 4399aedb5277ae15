"""Validate step: findings for a request's Debugger fields, each with a stable code and a path.

Two layers, both reported in full (never just the first problem):

* the API's own limits, from the JSON Schema generated from botocore's SageMaker model
  (:mod:`~sm_debug_config.validation.api`), codes ``SMD001`` and ``SMD100``;
* container-aware checks, one small function per problem, one module per family:
  :mod:`~sm_debug_config.validation.hook`, :mod:`~sm_debug_config.validation.rules`,
  :mod:`~sm_debug_config.validation.profiler`, :mod:`~sm_debug_config.validation.paths`,
  :mod:`~sm_debug_config.validation.images` (the training image).

Every code is registered once in :mod:`~sm_debug_config.validation.registry` with its severity,
a one-line description and the evidence for the severity (see :func:`list_checks`,
``sm-debug-config checks``, ``docs/checks.md``); ``validate(..., ignore=[codes])`` suppresses codes.

>>> findings = validate({"DebugHookConfig": {"S3OutputPath": "s3://b/o",
...     "CollectionConfigurations": [{"CollectionName": "gradients", "CollectionParameters": {"save_interval": "0"}}]}})
>>> [(f.code, f.path) for f in findings]
[('SMD132', '/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval')]
"""
from __future__ import annotations

from sm_debug_config.errors import ERROR, INFO, SEVERITIES, WARNING
from sm_debug_config.validation.registry import (CHECKS, DEBUG_FIELDS, Check, Context, Finding, check, check_codes, errors, list_checks, raise_for_errors,
                                                 severity_of, validate, validate_split)
from sm_debug_config.validation import api, hook, images, paths, profiler, rules  # noqa: F401  (each registers its checks)
from sm_debug_config.validation.api import is_pipeline_expression
from sm_debug_config.validation.rules import builtin_name, needed_collections, passthrough_of

__all__ = ["CHECKS", "DEBUG_FIELDS", "ERROR", "INFO", "SEVERITIES", "WARNING", "Check", "Context", "Finding", "builtin_name", "check",
           "check_codes", "errors", "is_pipeline_expression", "list_checks", "needed_collections", "passthrough_of", "raise_for_errors",
           "severity_of", "validate", "validate_split"]
