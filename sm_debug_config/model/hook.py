"""What the training-side hook saves: ``CollectionConfig``, ``DebuggerHookConfig``, ``TensorBoardOutputConfig``.

Same names, parameters and defaults as ``sagemaker.debugger``; values are checked when set, so a mistake
surfaces at the line that made it.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

import attrs

from sm_debug_config.errors import shorten
from sm_debug_config.findings import ERROR, built_here, declare
from sm_debug_config.model import hookparams
from sm_debug_config.model import validators as v
from sm_debug_config.model.catalogue import raise_errors, warn

SMD154 = declare(
    "SMD154", ERROR,
    "TensorBoardOutputConfig.LocalPath under a path the service reserves (/opt/ml, /tmp, /usr/local/nvidia).",
    "CreateTrainingJob's ValidationException '\"LocalPath\" of \"TensorBoardOutputConfig\" cannot start with the "
    "following reserved path: [/opt/ml, /tmp, /usr/local/nvidia]', reported by users of SDK 2.111-2.173 "
    "(data/hook_parameters.json).")


def _param_checker(scope: str, max_entries: int) -> v.Validator:
    """A hook or collection parameter map: the API's map limits, then smdebug's meaning of each key."""
    base = v.string_map(max_entries)

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if value is None:
            return
        base(instance, attribute, value)
        name = getattr(instance, "name", None)
        where = (
            f"CollectionConfig({shorten(name)}).{attribute.name}"
            if isinstance(name, str)
            else v.field_name(instance, attribute)
        )
        problems = hookparams.check(value, scope)
        raise_errors(problems, where, (attribute.name,))
        warn(problems, (attribute.name,), instance)

    return check


def _map_key(value: Any) -> Any:
    """Equality and hash key of a parameter map: its items, whatever their order."""
    return None if value is None else tuple(sorted(value.items(), key=lambda item: item[0]))


@attrs.define(unsafe_hash=True, field_transformer=v.as_written_fields)
class CollectionConfig:
    """A tensor collection for the hook to save, with its ``CollectionParameters``.

    >>> CollectionConfig("gradients", {"save_interval": "100"})._to_request_dict()
    {'CollectionName': 'gradients', 'CollectionParameters': {'save_interval': '100'}}
    """

    name: str = attrs.field(validator=v.string(1, 256))
    parameters: Optional[Dict[str, str]] = attrs.field(
        default=None, converter=v.string_map_converter, validator=_param_checker("collection", 20), eq=_map_key
    )

    def __attrs_post_init__(self) -> None:
        built_here(self)  # where the user built it: the edge warns its findings there

    def _to_request_dict(self) -> Dict[str, Any]:
        request: Dict[str, Any] = {"CollectionName": self.name}
        if self.parameters is not None:
            request["CollectionParameters"] = dict(self.parameters)
        return request


@attrs.define(field_transformer=v.as_written_fields)
class DebuggerHookConfig:
    """Where and what the training-side hook saves (the ``DebugHookConfig`` request field).

    ``s3_output_path`` defaults to the job's ``output_path`` when rendered.

    >>> hook = DebuggerHookConfig(hook_parameters={"save_interval": "100"},
    ...                           collection_configs=[CollectionConfig("gradients")])
    >>> hook._to_request_dict()["HookParameters"]
    {'save_interval': '100'}
    """

    s3_output_path: Optional[str] = attrs.field(default=None, validator=v.optional(v.s3_uri))
    container_local_output_path: Optional[str] = attrs.field(default=None, validator=v.optional(v.container_path))
    hook_parameters: Optional[Dict[str, str]] = attrs.field(
        default=None, converter=v.string_map_converter, validator=_param_checker("hook", 20)
    )
    collection_configs: Optional[List[CollectionConfig]] = attrs.field(
        default=None,
        converter=v.tuple_to_list,
        validator=v.optional(v.list_of(CollectionConfig, "CollectionConfig objects")),
    )

    def __attrs_post_init__(self) -> None:
        built_here(self)  # where the user built it: the edge warns its findings there

    def _to_request_dict(self) -> Dict[str, Any]:
        """The request shape, as the SDK's object renders it (no defaults, no merge)."""
        v.revalidate(self)  # a field set past the validators: ConfigError, not a crash below
        return self.request_shape()

    def request_shape(self) -> Dict[str, Any]:
        """:meth:`_to_request_dict` of an object whose fields were checked (render re-checks them once)."""
        request = _output_request(self)
        if self.hook_parameters is not None:
            request["HookParameters"] = dict(self.hook_parameters)
        if self.collection_configs is not None:
            request["CollectionConfigurations"] = [c._to_request_dict() for c in self.collection_configs]
        return request


def reserved_prefix(field: str, path: str) -> Optional[str]:
    """The reserved prefix the service refuses ``path`` for in ``field`` (None if allowed)."""
    return next(
        (prefix for prefix in hookparams.spec()["reserved_local_paths"].get(field, []) if path.startswith(prefix)), None
    )


def _tensorboard_local_path(instance: Any, attribute: Any, value: Any) -> None:
    v.container_path(instance, attribute, value)
    start = v.known_prefix(value)  # a value known at run time only: its literal start may be reserved already
    prefix = reserved_prefix("TensorBoardOutputConfig", start)
    if prefix is not None:
        table = hookparams.spec()["reserved_local_paths"]
        shown = shorten(value) if isinstance(value, str) else f"{shorten(start)}..."
        v.fail(
            instance,
            attribute,
            f"{shown} starts with {prefix}, which CreateTrainingJob reserves for TensorBoardOutputConfig "
            f"(even the documented default /opt/ml/output/tensorboard is refused)",
            allowed=f"an absolute path outside {', '.join(table['TensorBoardOutputConfig'])}, e.g. "
                    f"{table['suggested']} (write your TensorBoard logs there)",
            code=SMD154.code,  # the request check's code for the same LocalPath
            fix=v.local_path_removal(()),
        )


@attrs.define(field_transformer=v.as_written_fields)
class TensorBoardOutputConfig:
    """Where TensorBoard data goes (the ``TensorBoardOutputConfig`` request field).

    >>> TensorBoardOutputConfig("s3://bucket/tb")._to_request_dict()
    {'S3OutputPath': 's3://bucket/tb'}
    """

    s3_output_path: str = attrs.field(validator=v.s3_uri)
    container_local_output_path: Optional[str] = attrs.field(
        default=None, validator=v.optional(_tensorboard_local_path)
    )

    def __attrs_post_init__(self) -> None:
        built_here(self)  # where the user built it: the edge warns its findings there

    def _to_request_dict(self) -> Dict[str, Any]:
        v.revalidate(self)
        return self.request_shape()

    def request_shape(self) -> Dict[str, Any]:
        """:meth:`_to_request_dict` of an object whose fields were checked (render re-checks them once)."""
        return _output_request(self)


def _output_request(config: Any) -> Dict[str, Any]:
    """``S3OutputPath`` and (when set) ``LocalPath`` of a hook or TensorBoard config."""
    request: Dict[str, Any] = {"S3OutputPath": config.s3_output_path}
    if config.container_local_output_path is not None:
        request["LocalPath"] = config.container_local_output_path
    return request
