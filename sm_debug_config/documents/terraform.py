"""Terraform JSON: ``aws_sagemaker_training_job`` resources in ``.tf.json`` files and in the plan that
``terraform show -json PLAN`` prints.

* ``.tf.json``: ``{"resource": {"aws_sagemaker_training_job": {"<name>": {...}}}}`` (``resource`` may also
  be a list of such objects, and a resource a list of bodies). A nested block is an object or a list of
  objects.
* plan output (``format_version``, ``planned_values``, ``resource_changes``): ``resource_changes[].change.after``
  of the resources created or updated, then the resources of ``planned_values.root_module`` and its
  ``child_modules`` not already read (one request an address). A value Terraform knows only after apply is
  missing from ``after`` and ``true`` in ``after_unknown``: it is read as a run-time value, not as missing.

The snake_case blocks are mapped back to the request by :func:`~sm_debug_config.integrations.iac.from_terraform`,
the table ``render --format terraform`` writes with. ``"${...}"`` strings are run-time values
(``{"Terraform": ...}``), as are the values known after apply.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Set, Tuple

from sm_debug_config.documents.base import Located, Path, interpolated

RESOURCE = "aws_sagemaker_training_job"
#: The run-time values of Terraform JSON, as :func:`requests` writes them: references and values known after apply.
RUNTIME: Tuple[Tuple[str, ...], Tuple[str, ...]] = (("Terraform",), ())
_AFTER_APPLY = "(known after apply)"


def detect(document: Any) -> bool:
    """Terraform JSON: a ``resource`` block, or plan output (``format_version`` with planned values or changes)."""
    if not isinstance(document, dict):
        return False
    if "format_version" in document and ("planned_values" in document or "resource_changes" in document):
        return True
    return isinstance(document.get("resource"), (dict, list))


def _references(value: Any) -> Any:
    """``value`` with each ``"${...}"`` string (an interpolation Terraform evaluates) a run-time value."""
    return interpolated(value, "Terraform")


def _with_unknown(values: Any, unknown: Any) -> Any:
    """``values`` with each attribute that ``after_unknown`` marks ``true`` set to a run-time value."""
    if isinstance(unknown, dict) and isinstance(values, dict):
        out = dict(values)
        for key, mark in unknown.items():
            if mark is True and not isinstance(values.get(key), (list, dict)):
                out[key] = {"Terraform": _AFTER_APPLY}
            elif key in values:
                out[key] = _with_unknown(values[key], mark)
        return out
    if isinstance(unknown, list) and isinstance(values, list):
        return [_with_unknown(item, mark) for item, mark in zip(values, unknown)] + values[len(unknown):]
    return values


def _located(values: Dict[str, Any], base: Path, label: str) -> Located:
    from sm_debug_config.integrations.iac import from_terraform

    paths: Dict[Path, Path] = {}
    request = from_terraform(values, paths=paths)
    algorithm = values.get("algorithm_specification")
    algorithm = algorithm[0] if isinstance(algorithm, list) and algorithm else algorithm
    if isinstance(algorithm, dict) and algorithm.get("training_image") is not None:  # the image: the hook verdict
        request["AlgorithmSpecification"] = {"TrainingImage": algorithm["training_image"]}
        listed = isinstance(values["algorithm_specification"], list)
        where: Path = ("algorithm_specification", 0) if listed else ("algorithm_specification",)
        paths[("AlgorithmSpecification",)] = where
        paths[("AlgorithmSpecification", "TrainingImage")] = where + ("training_image",)
    return Located(base, request, label, paths)


def _configuration(document: Dict[str, Any]) -> Iterator[Located]:
    blocks = document["resource"]
    listed = blocks if isinstance(blocks, list) else [blocks]
    for index, block in enumerate(listed):
        where: Path = ("resource", index) if isinstance(blocks, list) else ("resource",)
        jobs = block.get(RESOURCE) if isinstance(block, dict) else None
        for name, body in (jobs or {}).items() if isinstance(jobs, dict) else ():
            bodies = body if isinstance(body, list) else [body]
            for number, item in enumerate(bodies):
                if isinstance(item, dict):
                    base = where + (RESOURCE, name) + ((number,) if isinstance(body, list) else ())
                    yield _located(_references(item), base, f"{RESOURCE}.{name}")


def _modules(module: Any, path: Path) -> Iterator[Tuple[Path, Dict[str, Any]]]:
    if not isinstance(module, dict):
        return
    for index, resource in enumerate(module.get("resources") or ()):
        if isinstance(resource, dict):
            yield path + ("resources", index), resource
    for index, child in enumerate(module.get("child_modules") or ()):
        yield from _modules(child, path + ("child_modules", index))


def _plan(document: Dict[str, Any]) -> Iterator[Located]:
    seen: Set[str] = set()
    changes: List[Any] = document.get("resource_changes") or []
    for index, change in enumerate(changes):
        if not isinstance(change, dict) or change.get("type") != RESOURCE or change.get("mode", "managed") != "managed":
            continue
        body: Dict[str, Any] = change["change"] if isinstance(change.get("change"), dict) else {}
        actions = body.get("actions") or ()
        if not ({"create", "update"} & set(actions)) or not isinstance(body.get("after"), dict):
            continue
        seen.add(str(change.get("address")))
        values = _with_unknown(_references(body["after"]), body.get("after_unknown"))
        yield _located(values, ("resource_changes", index, "change", "after"), str(change.get("address")))
    planned = document.get("planned_values")
    root = planned.get("root_module") if isinstance(planned, dict) else None
    for path, resource in _modules(root, ("planned_values", "root_module")):
        address = str(resource.get("address"))
        if resource.get("type") != RESOURCE or address in seen or not isinstance(resource.get("values"), dict):
            continue
        seen.add(address)
        yield _located(_references(resource["values"]), path + ("values",), address)


def requests(document: Any) -> Iterator[Located]:
    """Every training job resource's Debugger fields (and training image), labelled by its address.

    >>> tf = {"resource": {"aws_sagemaker_training_job": {"train": {
    ...     "debug_hook_config": {"s3_output_path": "s3://b/${var.run}/"}}}}}
    >>> [(found.label, found.request) for found in requests(tf)]
    [('aws_sagemaker_training_job.train', {'DebugHookConfig': {'S3OutputPath': {'Terraform': 's3://b/${var.run}/'}}})]
    """
    if not isinstance(document, dict):
        return
    if "format_version" in document and ("planned_values" in document or "resource_changes" in document):
        yield from _plan(document)
    elif "resource" in document:
        yield from _configuration(document)
