"""Kubernetes manifests of the ACK SageMaker controller: ``kind: TrainingJob`` of ``sagemaker.services.k8s.aws``
(what Kubeflow Pipelines' SageMaker components v2 and EKS users apply), one job per manifest.

The controller's ``spec`` is the ``CreateTrainingJob`` request with each member's name starting lower-case
(``debugHookConfig.s3OutputPath``, ``volumeSizeInGB``); the keys of a map member (``hookParameters``,
``ruleParameters``...) are the user's and stay as written. Which is which comes from the API's own shapes
(:func:`~sm_debug_config.apischema.api_schema`), so the request is rebuilt exactly, every finding is placed at
the manifest's key, and a fix's change is made there (:func:`manifest_change`), in the manifest's syntax.

>>> manifest = {"apiVersion": "sagemaker.services.k8s.aws/v1alpha1", "kind": "TrainingJob",
...     "spec": {"debugHookConfig": {"s3OutputPath": "s3://b/o", "hookParameters": {"save_interval": "0"}}}}
>>> detect(manifest), to_request(manifest["spec"])[0]
(True, {'DebugHookConfig': {'S3OutputPath': 's3://b/o', 'HookParameters': {'save_interval': '0'}}})
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from sm_debug_config.apischema import SMD100, api_schema
from sm_debug_config.engine import Job
from sm_debug_config.errors import ERROR, ConfigError, PathT
from sm_debug_config.findings import DEBUG_FIELDS, Finding, error_message
from sm_debug_config.fixes import RENAME, SET, Change, Edit
from sm_debug_config.model.validators import type_name
from sm_debug_config.rendering import Rendered
from sm_debug_config.validation.registry import SMD103

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
             paths: Dict[PathT, PathT], misspelt: List[PathT]) -> Any:
    """``value`` with the member names of the structures ``node`` describes in the API's case; ``paths`` gets each
    request path and the manifest path it was written at, ``misspelt`` the manifest path of each member written in
    the API's case (``S3OutputPath``): the controller's schema has only the lower-case names and drops it."""
    paths[out_path] = here
    node = _node(schema, node) if node is not None else None
    if isinstance(value, dict):
        members = node.get("properties") if node is not None else None
        out = {}
        for key, item in value.items():
            if members is not None:  # a structure: its members' names in the API's case
                if isinstance(key, str) and key[:1].isupper():
                    misspelt.append(here + (key,))
                    continue
                name = _api_name(key)
                child = members.get(name)
            else:  # a map: the user's keys
                name, child = key, (node.get("additionalProperties") if node is not None else None)
            out[name] = _convert(item, child if isinstance(child, dict) else None, schema, here + (key,),
                                 out_path + (name,), paths, misspelt)
        return out
    if isinstance(value, list):
        items = node.get("items") if node is not None else None
        return [_convert(item, items, schema, here + (i,), out_path + (i,), paths, misspelt)
                for i, item in enumerate(value)]
    return value


def to_request(spec: Any) -> Tuple[Dict[str, Any], Dict[PathT, PathT], List[PathT]]:
    """The Debugger fields and the training image of a ``spec`` as the API takes them, the way back (request path ->
    spec path), and the spec paths of members written in the API's case, which the API server prunes (SMD103)."""
    schema = api_schema()
    fields = _node(schema, schema["$defs"]["CreateTrainingJobDebuggerFields"]).get("properties", {})
    request: Dict[str, Any] = {}
    paths: Dict[PathT, PathT] = {}
    misspelt: List[PathT] = []
    for key, value in (spec.items() if isinstance(spec, dict) else ()):
        if isinstance(key, str) and key[:1].isupper():
            misspelt.append((key,))
            continue
        name = _api_name(key)
        if name in DEBUG_FIELDS:
            request[name] = _convert(value, fields.get(name), schema, (key,), (name,), paths, misspelt)
    algorithm = spec.get("algorithmSpecification") if isinstance(spec, dict) else None
    if isinstance(algorithm, dict) and "trainingImage" in algorithm:
        request[IMAGE_MEMBER[0]] = {IMAGE_MEMBER[1]: algorithm["trainingImage"]}
        paths[IMAGE_MEMBER] = ("algorithmSpecification", "trainingImage")
    return request, paths, [m for m in misspelt if _api_name(m[-1]) in fields or len(m) > 1]


def _manifest_path(path: PathT, paths: Dict[PathT, PathT]) -> PathT:
    """The spec path of request ``path``: that of its longest part the manifest wrote, the rest in the manifest's
    case (a member that is missing)."""
    for depth in range(len(path), 0, -1):
        if path[:depth] in paths:
            rest = tuple(_lower(key) for key in path[depth:])
            return paths[path[:depth]] + rest
    return ()


def _shape(path: PathT) -> Optional[Dict[str, Any]]:
    """The API's shape of the request member at ``path`` (``$ref`` followed), None where the API has none."""
    schema = api_schema()
    node: Any = _node(schema, schema["$defs"]["CreateTrainingJobDebuggerFields"])
    for part in path:
        node = _node(schema, node)
        if "properties" in node:
            node = node["properties"].get(part)
        else:
            node = node.get("items" if isinstance(part, int) else "additionalProperties")
        if not isinstance(node, dict):
            return None
    return _node(schema, node)


def _structure(path: PathT) -> bool:
    """Whether the request member at ``path`` is a structure (its members' names are the manifest's lower-camel ones),
    not a map of the user's keys."""
    shape = _shape(path)
    return shape is not None and "properties" in shape


def _in_manifest(value: Any, path: PathT) -> Any:
    """A request value at ``path`` as the manifest writes it (the names of structures' members lower-camel)."""
    if isinstance(value, dict):
        structure = _structure(path)
        return {(_lower(key) if structure else key): _in_manifest(item, path + (key,)) for key, item in value.items()}
    if isinstance(value, list):
        return [_in_manifest(item, path + (index,)) for index, item in enumerate(value)]
    return value


def manifest_change(change: Change, paths: Dict[PathT, PathT]) -> Optional[Change]:
    """``change`` (to the request :func:`to_request` gave, or already at a manifest path ``/spec/...``: SMD103's) as a
    change to the manifest; None where the manifest has no place for it (a member added below one it lacks).

    >>> request, paths, _ = to_request({"tensorBoardOutputConfig": {"s3OutputPath": "b/tb"}})
    >>> manifest_change(Change("set", ("TensorBoardOutputConfig", "LocalPath"), "/opt/ml/tb"), paths).path
    ('spec', 'tensorBoardOutputConfig', 'localPath')
    """
    path = tuple(change.path)
    if path[:1] == ("spec",):
        return change
    value = _in_manifest(change.value, path) if change.kind == SET else change.value
    at = paths.get(path)
    if at is None:
        parent = paths.get(path[:-1]) if len(path) > 1 else ()
        if change.kind != SET or parent is None:
            return None
        key = _lower(path[-1]) if len(path) == 1 or _structure(path[:-1]) else path[-1]
        return Change(SET, ("spec",) + parent + (key,), value)
    if change.kind == RENAME and at[-1] != path[-1]:  # a structure's member: its new name lower-camel too
        value = _lower(value)
    return Change(change.kind, ("spec",) + at, value)


def jobs(found: Any, settings: Dict[str, Any]) -> Iterator[Job]:
    """The job of a manifest: its spec as a request, each finding at the manifest's key (``/spec/...``); a spec that
    is no object, and a member written in the API's case, are errors at their key (the controller refuses the first
    and drops the second). A document that is no manifest (``--kind kubernetes`` of something else) is a
    ``ConfigError``: nothing in it is checked."""
    document = found.document
    if not detect(document):
        raise ConfigError("not an ACK TrainingJob manifest: it needs apiVersion: sagemaker.services.k8s.aws/<version> "
                          "and kind: TrainingJob", field="--kind kubernetes")
    spec = document.get("spec")
    request, paths, misspelt = to_request(spec)
    metadata = document.get("metadata")
    name = metadata.get("name") if isinstance(metadata, dict) else None
    label = f" (TrainingJob {name})" if isinstance(name, str) else ""

    def at(path: PathT) -> Tuple[Optional[int], Optional[int]]:
        return found.locate(path) or (None, None)

    def place(finding: Finding, rendered: Optional[Rendered]) -> Finding:
        where = ("spec",) + _manifest_path(finding.path, paths)
        line, column = at(where)
        return finding.replace(path=where, line=line, column=column, message=finding.message + label)

    def refusal(err: ConfigError, rendered: Optional[Rendered]) -> Finding:
        line, column = at(err.path)
        return Finding(ERROR, err.code or SMD100.code, err.path, error_message(err) + label, line=line,
                       column=column)

    refused: Tuple[ConfigError, ...] = ()
    if not isinstance(spec, dict):
        refused += (ConfigError(f"got {type_name(spec)}", path=("spec",), code=SMD100.code,
                                allowed="an object: the TrainingJob's request, members in lower case"),)
    dropped = [SMD103.at(("spec",) + path, f"the controller's spec spells it {_lower(path[-1])}: {path[-1]} is pruned "
                         "before the controller reads the spec") for path in misspelt]

    def place_all(finding: Finding, rendered: Optional[Rendered]) -> Finding:
        if finding.code == SMD103.code:  # already a manifest path
            line, column = at(finding.path)
            return finding.replace(line=line, column=column, message=finding.message + label)
        return place(finding, rendered)

    def edit(change: Change, rendered: Optional[Rendered]) -> Optional[Sequence[Edit]]:
        in_manifest = manifest_change(change, paths)
        return found.edits(in_manifest) if in_manifest is not None else None

    yield Job(request=request, refused=refused, place=place_all, refusal=refusal, found=tuple(dropped), edit=edit,
              label=f"TrainingJob {name}" if isinstance(name, str) else None)


def _lower(key: Any) -> Any:
    return key[:1].lower() + key[1:] if isinstance(key, str) else key
