"""Kubernetes manifests of the ACK SageMaker controller: ``kind: TrainingJob`` of ``sagemaker.services.k8s.aws``
(what Kubeflow Pipelines' SageMaker components v2 and EKS users apply), one job per manifest.

The controller's ``spec`` is the ``CreateTrainingJob`` request with each member's name starting lower-case
(``debugHookConfig.s3OutputPath``, ``volumeSizeInGB``); the keys of a map member (``hookParameters``,
``ruleParameters``...) are the user's and stay as written. Which is which comes from the API's own shapes
(:func:`~sm_debug_config.apischema.api_schema`), so the request is rebuilt exactly and every finding is placed at
the manifest's key.

>>> manifest = {"apiVersion": "sagemaker.services.k8s.aws/v1alpha1", "kind": "TrainingJob",
...     "spec": {"debugHookConfig": {"s3OutputPath": "s3://b/o", "hookParameters": {"save_interval": "0"}}}}
>>> detect(manifest), to_request(manifest["spec"])[0]
(True, {'DebugHookConfig': {'S3OutputPath': 's3://b/o', 'HookParameters': {'save_interval': '0'}}})
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, Optional, Tuple

from sm_debug_config.apischema import api_schema
from sm_debug_config.engine import Job
from sm_debug_config.errors import PathT
from sm_debug_config.findings import DEBUG_FIELDS, Finding
from sm_debug_config.rendering import Rendered

#: The controller's API group: ``apiVersion`` is this, a slash and a version (``v1alpha1``).
API_GROUP = "sagemaker.services.k8s.aws"
#: Besides the Debugger fields, the member of the spec the checks read: the training image (SMD170...).
IMAGE_MEMBER = ("AlgorithmSpecification", "TrainingImage")


def detect(document: Any) -> bool:
    """Whether ``document`` is an ACK ``TrainingJob`` manifest."""
    return (
        isinstance(document, dict)
        and document.get("kind") == "TrainingJob"
        and str(document.get("apiVersion", "")).split("/")[0] == API_GROUP
    )


def _api_name(key: Any) -> Any:
    return key[:1].upper() + key[1:] if isinstance(key, str) else key


def _node(schema: Dict[str, Any], node: Dict[str, Any]) -> Dict[str, Any]:
    """``node`` with its ``$ref`` followed."""
    while "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _convert(value: Any, node: Optional[Dict[str, Any]], schema: Dict[str, Any], here: PathT, out_path: PathT,
             paths: Dict[PathT, PathT]) -> Any:
    """``value`` with the member names of the structures ``node`` describes in the API's case; ``paths`` gets each
    request path and the manifest path it was written at."""
    paths[out_path] = here
    node = _node(schema, node) if node is not None else None
    if isinstance(value, dict):
        members = node.get("properties") if node is not None else None
        out = {}
        for key, item in value.items():
            if members is not None:  # a structure: its members' names in the API's case
                name = _api_name(key)
                child = members.get(name)
            else:  # a map: the user's keys
                name, child = key, (node.get("additionalProperties") if node is not None else None)
            out[name] = _convert(item, child if isinstance(child, dict) else None, schema, here + (key,),
                                 out_path + (name,), paths)
        return out
    if isinstance(value, list):
        items = node.get("items") if node is not None else None
        return [_convert(item, items, schema, here + (i,), out_path + (i,), paths) for i, item in enumerate(value)]
    return value


def to_request(spec: Any) -> Tuple[Dict[str, Any], Dict[PathT, PathT]]:
    """The Debugger fields and the training image of a ``spec`` as the API takes them, and the way back: request
    path -> spec path."""
    schema = api_schema()
    fields = _node(schema, schema["$defs"]["CreateTrainingJobDebuggerFields"]).get("properties", {})
    request: Dict[str, Any] = {}
    paths: Dict[PathT, PathT] = {}
    for key, value in (spec.items() if isinstance(spec, dict) else ()):
        name = _api_name(key)
        if name in DEBUG_FIELDS:
            request[name] = _convert(value, fields.get(name), schema, (key,), (name,), paths)
    algorithm = spec.get("algorithmSpecification") if isinstance(spec, dict) else None
    if isinstance(algorithm, dict) and "trainingImage" in algorithm:
        request[IMAGE_MEMBER[0]] = {IMAGE_MEMBER[1]: algorithm["trainingImage"]}
        paths[IMAGE_MEMBER] = ("algorithmSpecification", "trainingImage")
    return request, paths


def _manifest_path(path: PathT, paths: Dict[PathT, PathT]) -> PathT:
    """The spec path of request ``path``: that of its longest part the manifest wrote, the rest in the manifest's
    case (a member that is missing)."""
    for depth in range(len(path), 0, -1):
        if path[:depth] in paths:
            rest = tuple(key[:1].lower() + key[1:] if isinstance(key, str) else key for key in path[depth:])
            return paths[path[:depth]] + rest
    return ()


def jobs(found: Any, settings: Dict[str, Any]) -> Iterator[Job]:
    """The job of a manifest: its spec as a request, each finding at the manifest's key (``/spec/...``)."""
    request, paths = to_request(found.document.get("spec"))
    name = (found.document.get("metadata") or {}).get("name") if isinstance(found.document.get("metadata"),
                                                                             dict) else None

    def place(finding: Finding, rendered: Optional[Rendered]) -> Finding:
        where = ("spec",) + _manifest_path(finding.path, paths)
        line, column = found.locate(where) or (None, None)
        label = f" (TrainingJob {name})" if isinstance(name, str) else ""
        return finding.replace(path=where, line=line, column=column, message=finding.message + label)

    yield Job(request=request, place=place, label=f"TrainingJob {name}" if isinstance(name, str) else None)
