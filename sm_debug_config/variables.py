"""Values known only at run time: SageMaker Pipelines variables (``ParameterString``, ``Join``...), duck-typed so
that ``sagemaker.workflow`` stays out of our imports, what they are known to start with, and joins of texts and
variables. The bottom layer: the API's shape engine, the model and every reader use them.
"""
from __future__ import annotations

from typing import Any, Dict, List


def is_pipeline_variable(value: Any) -> bool:
    """True for SageMaker Pipelines values (``ParameterString``, ``Join``...), duck-typed (``expr`` and
    ``to_string()``) to keep ``sagemaker.workflow`` out of our imports."""
    if isinstance(value, (str, bytes, bool, int, float, dict, list, tuple)) or value is None:
        return False
    return hasattr(type(value), "expr") and callable(getattr(value, "to_string", None))


def known_prefix(value: Any) -> str:
    """The text a value is known to start with: all of a string; of a value known only at run time, its literal
    start (a ``Join`` on ``""`` of texts and variables, or a value that says its ``prefix``, as lint's partial
    strings do), else ``""``.

    >>> known_prefix("s3://b/x"), known_prefix(_Join(["s3://", _Join([]), "/tb"])), known_prefix(5)
    ('s3://b/x', 's3://', '')
    """
    if isinstance(value, str):
        return value
    if not is_pipeline_variable(value):
        return ""
    prefix = getattr(value, "prefix", None)
    if isinstance(prefix, str):
        return prefix
    parts = value.parts if isinstance(value, _Join) else getattr(value, "values", None)
    if isinstance(parts, list) and getattr(value, "on", "") == "":
        out = ""
        for part in parts:
            if not isinstance(part, str):
                break
            out += part
        return out
    return ""


def pipeline_expr(value: Any) -> Any:
    """The pipeline expression of a pipeline variable (e.g. ``{"Get": "Parameters.X"}``)."""
    return value.expr


class _Join:
    """A pipeline ``Join`` of texts and pipeline variables, for when the SDK's own is not at hand."""

    def __init__(self, parts: List[Any]) -> None:
        self.parts = parts

    @property
    def expr(self) -> Dict[str, Any]:
        return {
            "Std:Join": {"On": "", "Values": [pipeline_expr(p) if is_pipeline_variable(p) else p for p in self.parts]}
        }

    def to_string(self) -> "_Join":
        return self

    def __repr__(self) -> str:
        return f"Join({self.parts!r})"


def pipeline_join(parts: List[Any]) -> Any:
    """``parts`` (strings and pipeline variables) as one pipeline value: the SDK's ``Join`` where the
    variables are the SDK's, else an object with the same ``expr``."""
    variables = [p for p in parts if is_pipeline_variable(p)]
    if not all(type(p).__module__.startswith("sagemaker.") for p in variables):
        return _Join(list(parts))  # not the SDK's variables: no need to import it
    try:
        from sagemaker.workflow.entities import PipelineVariable
        from sagemaker.workflow.functions import Join
    except ImportError:  # the SDK is not installed
        return _Join(list(parts))
    if all(isinstance(p, PipelineVariable) for p in variables):
        return Join(on="", values=list(parts))
    return _Join(list(parts))


def concat(parts: List[Any]) -> Any:
    """``parts`` joined: a ``str`` when they are all texts, else one :func:`pipeline_join` (nested joins flattened)."""
    flat: List[Any] = []
    for part in parts:
        if isinstance(part, _Join):
            flat.extend(part.parts)
        elif (
            type(part).__name__ == "Join"
            and getattr(part, "on", None) == ""
            and isinstance(getattr(part, "values", None), list)
        ):
            flat.extend(part.values)  # the SDK's Join with on=""
        else:
            flat.append(part)
    if not any(is_pipeline_variable(p) for p in flat):
        return "".join(flat)
    merged: List[Any] = []
    for part in flat:  # adjacent texts as one
        if merged and isinstance(part, str) and isinstance(merged[-1], str):
            merged[-1] += part
        elif part != "":
            merged.append(part)
    return pipeline_join(merged)
