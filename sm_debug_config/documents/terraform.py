"""Terraform: the ``aws_sagemaker_training_job`` and ``aws_sagemaker_pipeline`` resources, read from Terraform JSON
(and from HCL, which :mod:`.hcl` reads into the same shape), and the training job written as its blocks.

Reading: the resources in ``.tf.json`` files, in ``.tf`` files, and in what ``terraform show -json`` prints of a
plan or of the state (``values.root_module``, read as a plan's ``planned_values``).

* ``.tf.json``: ``{"resource": {"aws_sagemaker_training_job": {"<name>": {...}}}}`` (``resource`` may also
  be a list of such objects, and a resource a list of bodies). A nested block is an object or a list of
  objects.
* plan output (``format_version``, ``planned_values``, ``resource_changes``): ``resource_changes[].change.after``
  of the resources created or updated, then the resources of ``planned_values.root_module`` and its
  ``child_modules`` not already read (one request an address). A value Terraform knows only after apply is
  missing from ``after`` and ``true`` in ``after_unknown``: it is read as a run-time value, not as missing.
* ``aws_sagemaker_pipeline``: its ``pipeline_definition``, a pipeline definition (read by :mod:`.pipeline`) as a
  JSON string (a heredoc or a quoted string in HCL, a string in JSON; findings inside it) or as the
  object ``jsonencode(...)`` encodes in HCL. A definition that is a ``"${...}"`` expression (``file(...)``,
  ``jsonencode`` in ``.tf.json``) is not read.

The snake_case blocks are mapped back to the request by :func:`from_terraform`, the table
(:data:`~sm_debug_config.documents.shapes.SHAPES`) that ``render --format terraform`` writes with
(:func:`to_terraform`, :func:`to_terraform_json`). ``"${...}"`` strings are run-time values
(``{"Terraform": ...}``), as are the values known after apply.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Set, Tuple

import attrs

from sm_debug_config.configfile.jsonparse import JsonText
from sm_debug_config.documents import pipeline
from sm_debug_config.documents.base import Embedded, Located, Path, interpolated
from sm_debug_config.documents.shapes import SHAPES, Block, Kind, check_fields
from sm_debug_config.errors import ConfigError, shorten
from sm_debug_config.limits import json_loads

RESOURCE, PIPELINE = "aws_sagemaker_training_job", "aws_sagemaker_pipeline"
#: The run-time values of Terraform JSON, as :func:`requests` writes them: references and values known after apply.
RUNTIME: Tuple[Tuple[str, ...], Tuple[str, ...]] = (("Terraform",), ())
_AFTER_APPLY = "(known after apply)"


def is_output(document: Dict[str, Any]) -> bool:
    """``terraform show -json`` output: a plan (planned values or changes), or state (``values`` of a Terraform)."""
    return "format_version" in document and (
        "planned_values" in document or "resource_changes" in document
        or ("values" in document and "terraform_version" in document)
    )


def detect(document: Any) -> bool:
    """Terraform JSON: a ``resource`` block, or ``terraform show -json`` output (of a plan or of state)."""
    if not isinstance(document, dict):
        return False
    return is_output(document) or isinstance(document.get("resource"), (dict, list))


def _references(value: Any) -> Any:
    """``value`` with each ``"${...}"`` string (an interpolation Terraform evaluates) a run-time value (once: a
    run-time value already is kept)."""
    return interpolated(value, "Terraform", RUNTIME[0])


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


def _training_job(values: Dict[str, Any], base: Path, label: str) -> Iterator[Located]:
    values = _references(values)
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
    yield Located(base, request, label, paths)


def _pipeline(values: Dict[str, Any], base: Path, label: str) -> Iterator[Located]:
    written = values.get("pipeline_definition")
    at = base + ("pipeline_definition",)
    embedded: Optional[Embedded] = None
    if isinstance(written, str) and not _is_reference(written):  # JSON text (a reference: read by no one here)
        try:
            written, embedded = json_loads(written), Embedded(at, JsonText(written))
        except ValueError:  # not JSON, or nested too deep (a ConfigError): no request to read in it
            return
    elif not isinstance(written, dict) or (len(written) == 1 and "Terraform" in written):
        return  # known after apply, or no definition
    for found in pipeline.requests(written):
        inside = None if embedded is None else attrs.evolve(embedded, base=found.base)
        yield Located(at + found.base, _references(found.request), f"{label}, {found.label}", embedded=inside)


def _is_reference(text: str) -> bool:
    """A string that is one Terraform expression, ``"${...}"`` (``file(...)``, ``jsonencode(...)``)."""
    return text.startswith("${") and text.endswith("}")


#: The resource types read, each with what reads its arguments into located requests.
RESOURCES: Dict[str, Callable[[Dict[str, Any], Path, str], Iterator[Located]]] = {
    RESOURCE: _training_job, PIPELINE: _pipeline,
}


def _configuration(document: Dict[str, Any]) -> Iterator[Located]:
    blocks = document["resource"]
    listed = blocks if isinstance(blocks, list) else [blocks]
    for index, block in enumerate(listed):
        where: Path = ("resource", index) if isinstance(blocks, list) else ("resource",)
        for kind, read in RESOURCES.items():
            resources = block.get(kind) if isinstance(block, dict) else None
            for name, body in resources.items() if isinstance(resources, dict) else ():
                bodies = body if isinstance(body, list) else [body]
                for number, item in enumerate(bodies):
                    if isinstance(item, dict):
                        base = where + (kind, name) + ((number,) if isinstance(body, list) else ())
                        yield from read(item, base, f"{kind}.{name}")


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
        kind = change.get("type") if isinstance(change, dict) else None
        if not isinstance(kind, str) or kind not in RESOURCES or change.get("mode", "managed") != "managed":
            continue
        body: Dict[str, Any] = change["change"] if isinstance(change.get("change"), dict) else {}
        actions = body.get("actions") or ()
        if not ({"create", "update"} & set(actions)) or not isinstance(body.get("after"), dict):
            continue
        seen.add(str(change.get("address")))
        values = _with_unknown(body["after"], body.get("after_unknown"))
        yield from RESOURCES[kind](values, ("resource_changes", index, "change", "after"), str(change.get("address")))
    for key in ("planned_values", "values"):  # a plan's, or (terraform show -json of state) the state's
        planned = document.get(key)
        root = planned.get("root_module") if isinstance(planned, dict) else None
        for path, resource in _modules(root, (key, "root_module")):
            address = str(resource.get("address"))
            kind = resource.get("type")
            if not isinstance(kind, str) or kind not in RESOURCES or address in seen:
                continue
            if not isinstance(resource.get("values"), dict):
                continue
            seen.add(address)
            yield from RESOURCES[kind](resource["values"], path + ("values",), address)


def requests(document: Any) -> Iterator[Located]:
    """Every training job resource's Debugger fields (and training image), and every training step's request of a
    pipeline resource, labelled by its address.

    >>> tf = {"resource": {"aws_sagemaker_training_job": {"train": {
    ...     "debug_hook_config": {"s3_output_path": "s3://b/${var.run}/"}}}}}
    >>> [(found.label, found.request) for found in requests(tf)]
    [('aws_sagemaker_training_job.train', {'DebugHookConfig': {'S3OutputPath': {'Terraform': 's3://b/${var.run}/'}}})]
    """
    if not isinstance(document, dict):
        return
    if is_output(document):
        yield from _plan(document)
    elif "resource" in document:
        yield from _configuration(document)


# --- the blocks: written from the request's fields, and read back --------------------------------------------


def _terraform_value(value: Any, kind: Kind) -> Any:
    if not isinstance(kind, Block):
        return dict(value) if kind == "map" else value
    items = value if kind.max_items > 1 else [value]
    return [
        {
            kind.members[name][0]: _terraform_value(member, kind.members[name][1])
            for name, member in item.items()
            if not _no_blocks(member, kind.members[name][1])
        }
        for item in items
    ]


def _no_blocks(value: Any, kind: Kind) -> bool:
    """An empty list of blocks: in Terraform that is writing none of them."""
    return isinstance(kind, Block) and value == []


def to_terraform_json(fields: Mapping[str, Any]) -> Dict[str, Any]:
    """The Debugger arguments of ``aws_sagemaker_training_job`` in Terraform's JSON syntax (blocks as lists).

    >>> to_terraform_json({"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb/"}})
    {'tensor_board_output_config': [{'s3_output_path': 's3://b/tb/'}]}
    """
    check_fields(fields, "a Terraform configuration")
    return {
        SHAPES[name][0]: _terraform_value(value, SHAPES[name][1])
        for name, value in fields.items()
        if not _no_blocks(value, SHAPES[name][1])
    }


def _reverse(members: Mapping[str, Tuple[str, Kind]]) -> Dict[str, Tuple[str, Kind]]:
    """Terraform name -> (API name, kind) of ``members``: the same table read the other way."""
    return {terraform_name: (api_name, kind) for api_name, (terraform_name, kind) in members.items()}


_FROM_TERRAFORM = _reverse(SHAPES)


def _api_value(value: Any, kind: Kind, path: Tuple[Any, ...], paths: Dict[Tuple[Any, ...], Tuple[Any, ...]],
               where: Tuple[Any, ...]) -> Any:
    if not isinstance(kind, Block):
        return dict(value) if kind == "map" and isinstance(value, dict) else value
    items = value if isinstance(value, list) else [value]  # plan output writes lists, a .tf.json may write one object
    listed = isinstance(value, list)
    members = _reverse(kind.members)
    out = []
    for index, item in enumerate(items):
        here = path + (index,) if kind.max_items > 1 else path
        there = where + (index,) if listed else where
        paths[here] = there
        if not isinstance(item, dict):
            out.append(item)
            continue
        out.append(_api_object(item, members, here, paths, there))
    return out if kind.max_items > 1 else (out[0] if out else None)


def _api_object(values: Mapping[str, Any], members: Mapping[str, Tuple[str, Kind]], path: Tuple[Any, ...],
                paths: Dict[Tuple[Any, ...], Tuple[Any, ...]], where: Tuple[Any, ...]) -> Dict[str, Any]:
    if not isinstance(values, Mapping):
        problem = f"expected an object of Terraform arguments, got {type(values).__name__}"
        raise ConfigError(problem, path=where) if where else ConfigError(problem, field="values")
    fields = {}
    for name, value in values.items():
        if name not in members or value is None or (isinstance(members[name][1], Block) and value == []):
            continue  # another argument of the resource; an attribute not set (null); no block
        api_name, kind = members[name]
        paths[path + (api_name,)] = where + (name,)
        fields[api_name] = _api_value(value, kind, path + (api_name,), paths, where + (name,))
    return fields


def from_terraform(
    values: Mapping[str, Any], *, paths: Optional[Dict[Tuple[Any, ...], Tuple[Any, ...]]] = None
) -> Dict[str, Any]:
    """The Debugger fields of an ``aws_sagemaker_training_job``'s arguments: :func:`to_terraform_json` read back.

    Blocks may be lists (plan output, ``.tf.json``) or single objects (``.tf.json``); empty blocks and null
    attributes (plan output writes every attribute) are left out, other arguments of the resource ignored.
    ``paths``, when given, is filled with each field's path to the path of the Terraform value it came from.

    >>> from_terraform({"tensor_board_output_config": [{"s3_output_path": "s3://b/tb/", "local_path": None}],
    ...                 "role_arn": "arn:aws:iam::123456789012:role/R"})
    {'TensorBoardOutputConfig': {'S3OutputPath': 's3://b/tb/'}}
    """
    return _api_object(values, _FROM_TERRAFORM, (), {} if paths is None else paths, ())


# --- HCL -----------------------------------------------------------------------------------------------------


def _hcl_string(text: str) -> str:
    # JSON string escapes are HCL's; "${" and "%{" would start a template, so they are doubled.
    return json.dumps(text, ensure_ascii=False).replace("${", "$${").replace("%{", "%%{")


def _hcl_scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return _hcl_string(value)


def _hcl_body(body: Mapping[str, Any], indent: str) -> List[str]:
    """Lines of a block body: attributes (``=`` aligned as ``terraform fmt`` does), maps, blocks."""
    scalars = [(k, v) for k, v in body.items() if not isinstance(v, (dict, list))]
    maps = [(k, v) for k, v in body.items() if isinstance(v, dict)]
    blocks = [(k, v) for k, v in body.items() if isinstance(v, list)]
    width = max((len(k) for k, _ in scalars), default=0)
    lines = [f"{indent}{k.ljust(width)} = {_hcl_scalar(v)}" for k, v in scalars]
    for name, mapping in maps:
        if not mapping:
            lines.append(f"{indent}{name} = {{}}")
            continue
        keys = {key: _hcl_string(key) for key in mapping}
        key_width = max(len(quoted) for quoted in keys.values())
        lines.append(f"{indent}{name} = {{")
        lines += [f"{indent}  {keys[key].ljust(key_width)} = {_hcl_string(item)}" for key, item in mapping.items()]
        lines.append(f"{indent}}}")
    for name, items in blocks:
        for item in items:
            if lines:
                lines.append("")
            inner = _hcl_body(item, indent + "  ")
            lines += [f"{indent}{name} {{"] + inner + [f"{indent}}}"] if inner else [f"{indent}{name} {{}}"]
    return lines


def to_terraform(fields: Mapping[str, Any], *, indent: int = 2) -> str:
    """HCL blocks for the Debugger arguments of an ``aws_sagemaker_training_job`` resource's body.

    >>> print(to_terraform({"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb/"}}, indent=0))
    tensor_board_output_config {
      s3_output_path = "s3://b/tb/"
    }
    <BLANKLINE>
    """
    if not isinstance(indent, int) or isinstance(indent, bool) or not 0 <= indent <= 32:
        raise ConfigError(f"got {shorten(indent)}", field="indent", allowed="0 to 32 spaces")
    lines = _hcl_body(to_terraform_json(fields), " " * indent)
    return "\n".join(line.rstrip() for line in lines) + "\n" if lines else ""



# --- where a request path is written ------------------------------------------------------------------------

_ROOT = Block(1, SHAPES)


def kind_at(path: Path) -> Optional[Kind]:
    """The kind of the request member at ``path`` (its Debugger fields' table), None beyond it."""
    kind: Optional[Kind] = _ROOT
    for part in path:
        if not isinstance(kind, Block):
            return None
        if isinstance(part, int):
            continue  # an item of a block list: the block's own kind
        kind = kind.members[part][1] if part in kind.members else None
    return kind


def written_path(located: Located, path: Path) -> Path:
    """The path below ``located.base`` where request ``path`` is written in Terraform, members the file does not
    have yet included (``LocalPath`` of a ``tensor_board_output_config`` block: ``local_path``); a rule's
    parameters are a map, whose keys are as the request has them.

    >>> tf = {"resource": {RESOURCE: {"t": {"tensor_board_output_config": [{"s3_output_path": "x"}]}}}}
    >>> found = next(requests(tf))
    >>> written_path(found, ("TensorBoardOutputConfig", "LocalPath"))
    ('tensor_board_output_config', 0, 'local_path')
    """
    if RESOURCE not in located.base:  # a pipeline's training step: the API's names, as the definition has them
        return located.relative_path(path)
    for cut in range(len(path), -1, -1):
        head = tuple(path[:cut])
        if head in located.renamed or not head:
            out = list(located.renamed.get(head, ()))
            kind = kind_at(head)
            for part in path[cut:]:
                if isinstance(kind, Block) and isinstance(part, str) and part in kind.members:
                    name, kind = kind.members[part]
                    out.append(name)
                else:
                    out.append(part)
                    kind = kind if isinstance(part, int) and isinstance(kind, Block) else None
            return tuple(out)
    return tuple(path)  # pragma: no cover - the empty head is always there
