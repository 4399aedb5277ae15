"""The model's value helpers: type names, numbers, attrs validators, and values as the API carries them.

Validators raise :class:`ConfigError` naming ``Class.field``; they never use ``assert``.
"""
from __future__ import annotations

import math
import re
from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence

import attrs

from sm_debug_config.apischema import SMD100
from sm_debug_config.errors import ConfigError, PathT, shorten
from sm_debug_config.fixes import REMOVE, RENAME, SAFE, SET, UNSAFE, Change, Fix
from sm_debug_config.findings import WARNING, Check, building_as_written, collecting, declare, refuse, report
from sm_debug_config.limits import MAX_INT_DIGITS, check_depth
from sm_debug_config.patterns import LazyPattern
from sm_debug_config.variables import concat, is_pipeline_variable, known_prefix

_NUMBER = (int, float)
# Declared here, the lowest module that produces it: constructors' warnings, and the request checks
# (hookparams, validation/paths) import it from here. SMD100 is apischema's (botocore's model).
SMD153 = declare(
    "SMD153", WARNING, "A LocalPath is not an absolute container path.",
    "botocore's DirectoryPath shape allows any string (pattern .*); a relative path is resolved against the "
    "container's working directory, where SageMaker does not look for output to upload.")
#: The finding code of a value past a CreateTrainingJob limit (length, count, pattern), so that a
#: constructor's error and the request check's finding of the same problem share one code.
API_LIMIT = SMD100.code


def type_name(value: Any) -> str:
    return type(value).__name__


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    """A finite number a double can hold (an int past 1e308 is not: ``float()`` overflows on it)."""
    if isinstance(value, bool) or not isinstance(value, _NUMBER):
        return False
    if isinstance(value, float):
        return math.isfinite(value)
    return value.bit_length() <= 1023


_INT_RE = LazyPattern(r"^[+-]?\d+$")


def parse_int(text: Any) -> Optional[int]:
    """``int`` of an int or an integral decimal string of at most :data:`MAX_INT_DIGITS` characters; else None."""
    if is_int(text):
        return int(text)
    if isinstance(text, str) and len(text) <= MAX_INT_DIGITS and _INT_RE.match(text.strip()):
        return int(text.strip())
    return None


def parse_float(text: Any) -> Optional[float]:
    """``float`` of a finite number or numeric string; else None."""
    if is_number(text):
        return float(text)
    if isinstance(text, str) and len(text) <= MAX_INT_DIGITS:
        try:
            value = float(text.strip())
        except ValueError:
            return None
        return value if math.isfinite(value) else None
    return None


def field_name(instance: Any, attribute: Any) -> str:
    """``Class.argument`` as people name a field: by its constructor argument (``Rule.collections_to_save``)."""
    return f"{type(instance).__name__}.{getattr(attribute, 'alias', None) or attribute.name}"


def _suffix(sub: PathT) -> str:
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in sub)


def warn(instance: Any, attribute: Any, message: str, check: Check, fix: Optional[Fix] = None) -> None:
    """A finding of ``check`` (its code and severity) about one field (``path``: the attribute), reported
    (:func:`~sm_debug_config.findings.report`): collected where objects are built from a source, else warned at the
    user's line; ``fix``'s changes are at paths below the field (``()``: the field itself)."""
    where = (attribute.name,)
    report(check.at(where, message, fix=fix.under(where) if fix else None), field_name(instance, attribute), instance)


def fail(
    instance: Any,
    attribute: Any,
    message: str,
    *,
    allowed: Optional[str] = None,
    sub: PathT = (),
    code: Optional[str] = None,
    fix: Optional[Fix] = None,
) -> NoReturn:
    """Raise the :class:`ConfigError` of one field: ``Class.argument[.sub]`` as text, ``(attribute, *sub)`` as path
    (a private attribute such as ``_override`` by its alias); ``fix``'s changes are at paths below the field."""
    name = attribute.alias if attribute.name.startswith("_") and getattr(attribute, "alias", None) else attribute.name
    raise ConfigError(
        message, field=field_name(instance, attribute) + _suffix(sub), allowed=allowed, code=code, path=(name, *sub),
        fix=fix.under((name,)) if fix else None,
    )


def local_path_removal(path: PathT) -> Fix:
    """The unsafe fix of SMD153 and SMD154 that removes the LocalPath at ``path`` so that SageMaker's default
    applies: unsafe, for what the job's code writes there must move with it.

    >>> local_path_removal(("TensorBoardOutputConfig", "LocalPath")).changes[0].to_dict()
    {'kind': 'remove', 'path': '/TensorBoardOutputConfig/LocalPath'}
    """
    return Fix(UNSAFE, "remove the LocalPath: SageMaker uses its default container path", (Change(REMOVE, path),))


class _Refusing:
    """A field's validator whose ``ConfigError`` goes through :func:`~sm_debug_config.findings.refuse`: raised, or
    recorded when the object is built as written (:mod:`sm_debug_config.model.building`)."""

    __slots__ = ("validator",)

    def __init__(self, validator: Any) -> None:
        self.validator = validator

    def __call__(self, instance: Any, attribute: Any, value: Any) -> None:
        try:
            self.validator(instance, attribute, value)
        except ConfigError as err:
            refuse(err)

    def __repr__(self) -> str:
        return f"<refusing {self.validator!r}>"


def as_written_fields(cls: type, fields: List[Any]) -> List[Any]:
    """The ``field_transformer`` of every configuration class: each field's validator refuses through
    :func:`~sm_debug_config.findings.refuse`, so that one class serves both the user's objects (refused at once)
    and objects built as written from a source (every refused field recorded, the value kept)."""
    del cls
    return [
        f.evolve(validator=_Refusing(f.validator)) if f.validator is not None and not isinstance(f.validator, _Refusing)
        else f
        for f in fields
    ]


# --- attrs validators -----------------------------------------------------------------------
# Each is (instance, attribute, value) -> None and raises ConfigError naming the field.

Validator = Callable[[Any, Any, Any], None]


def optional(validator: Validator) -> Validator:
    def check(instance: Any, attribute: Any, value: Any) -> None:
        if value is not None:
            validator(instance, attribute, value)

    return check


def unless_pipeline(validator: Validator) -> Validator:
    """``validator``, except that SageMaker Pipelines values pass (they are resolved at run time)."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if not is_pipeline_variable(value):
            validator(instance, attribute, value)

    return check


def string(min_len: int = 0, max_len: Optional[int] = None, pipeline: bool = True) -> Validator:
    """A ``str`` of the given length (or, where the SDK allows it, a pipeline variable)."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        allowed = f"a string of {min_len}-{max_len} characters" if max_len else "a string"
        _text(instance, attribute, value, allowed)
        if len(value) < min_len:
            fail(instance, attribute, "must not be empty", allowed=allowed, code=API_LIMIT)
        if max_len is not None and len(value) > max_len:
            fail(instance, attribute, f"is {len(value)} characters long", allowed=allowed, code=API_LIMIT)

    return unless_pipeline(check) if pipeline else check


JOB_NAME_RE = LazyPattern(r"^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$")  # CreateTrainingJob TrainingJobName
# StopTraining's training_job_prefix (as smdebug-rulesconfig checks it): a prefix, so hyphens may start or end it
TRAINING_JOB_PREFIX_RE = LazyPattern(r"^[A-Za-z0-9\-]{1,63}$")
S3_URI_RE = LazyPattern(r"^(https|s3)://([^/]+)/?(.*)$", re.DOTALL)


def is_s3_uri(value: Any) -> bool:
    """An ``s3://bucket/...`` URI as the API's pattern wants it (max 1024 characters)."""
    return isinstance(value, str) and bool(S3_URI_RE.match(value)) and len(value) <= 1024


def _text(instance: Any, attribute: Any, value: Any, allowed: str) -> None:
    if not isinstance(value, str):
        fail(instance, attribute, f"expected a string, got {type_name(value)}", allowed=allowed)


def s3_uri(instance: Any, attribute: Any, value: Any) -> None:
    """An S3 URI (max 1024 characters); of a value known only at run time, what its literal start says
    (``f"{bucket}/tb"`` may be one, ``f"my-bucket/{run}"`` is not)."""
    allowed = "an s3://bucket/prefix URI of at most 1024 characters"
    if is_pipeline_variable(value):
        start = known_prefix(value)
        if not any(scheme.startswith(start) or start.startswith(scheme) for scheme in ("s3://", "https://")):
            fail(instance, attribute, f"{start[:80]!r}... is not an S3 URI", allowed=allowed, code=API_LIMIT)
        return
    _text(instance, attribute, value, allowed)
    if not is_s3_uri(value):
        fail(instance, attribute, f"{value[:80]!r} is not an S3 URI", allowed=allowed, code=API_LIMIT)


def container_path(instance: Any, attribute: Any, value: Any) -> None:
    """A path inside the training container (max 4096 characters); a relative one warns (SMD153): the API takes
    it, but it is resolved against the training script's working directory, rarely what was meant. Of a value known
    only at run time, its literal start is checked."""
    allowed = "an absolute container path such as /opt/ml/output/tensors"
    if is_pipeline_variable(value):
        start = known_prefix(value)
        if start and not start.startswith("/"):
            warn(instance, attribute, f"{start[:80]!r}... is not an absolute path; it is resolved against the "
                 "working directory", SMD153)
        return
    _text(instance, attribute, value, allowed)
    if len(value) > 4096 or "\x00" in value:
        fail(instance, attribute, f"{value[:80]!r} is not a container path", allowed=allowed, code=API_LIMIT)
    if not value.startswith("/"):
        message = f"{value[:80]!r} is not an absolute path; it is resolved against the working directory"
        warn(instance, attribute, message, SMD153, fix=local_path_removal(()))


def _bounded(
    kind: Callable[[Any], bool], what: str, in_range: Callable[[Any], bool], allowed: str, code: Optional[str] = None
) -> Validator:
    """A value of ``kind`` (else a wrong type: no code) within range (else ``code``: the request check's)."""
    def check(instance: Any, attribute: Any, value: Any) -> None:
        if not kind(value):
            fail(instance, attribute, f"expected {what}, got {shorten(value)}", allowed=allowed)
        if not in_range(value):
            fail(instance, attribute, f"{shorten(value)} is out of range", allowed=allowed, code=code)

    return check


def integer(min_value: int, pipeline: bool = True, code: Optional[str] = None) -> Validator:
    """An ``int`` (not a bool) >= ``min_value`` (``code``: of the request check that refuses a smaller one)."""
    check = _bounded(is_int, "an integer", lambda value: value >= min_value, f"an integer >= {min_value}", code)
    return unless_pipeline(check) if pipeline else check


def number(greater_than: float) -> Validator:
    """A finite number > ``greater_than``."""
    return _bounded(is_number, "a number", lambda value: value > greater_than, f"a finite number > {greater_than}")


def boolean(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, bool):
        fail(instance, attribute, f"expected True or False, got {shorten(value)}", allowed="True or False")


def instance_of(*classes: type, allowed: str) -> Validator:
    def check(instance: Any, attribute: Any, value: Any) -> None:
        if not isinstance(value, classes):
            fail(instance, attribute, f"got {type_name(value)}", allowed=allowed)

    return check


def satisfies(predicate: Callable[[Any], bool], allowed: str) -> Validator:
    """A value for which ``predicate`` holds; otherwise "got <value>" with ``allowed``."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if not predicate(value):
            fail(instance, attribute, f"got {shorten(value)}", allowed=allowed)

    return check


def list_of(item_class: type, what: str) -> Validator:
    """A ``list`` whose items are ``item_class`` objects (``what`` names them in messages)."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if not isinstance(value, list):
            fail(instance, attribute, f"expected a list of {item_class.__name__}, got {type_name(value)}")
        for index, item in enumerate(value):
            if not isinstance(item, item_class):
                fail(instance, attribute, f"item {index} is {type_name(item)}", allowed=what, sub=(index,))

    return check


def string_map(max_entries: int, max_key: int = 256, max_value: int = 256) -> Validator:
    """A ``dict`` of string keys to string values within the API's map limits."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if not isinstance(value, dict):
            fail(
                instance, attribute, f"expected a dict, got {type_name(value)}", allowed="a dict of strings to strings"
            )
        if len(value) > max_entries:
            fail(
                instance,
                attribute,
                f"has {len(value)} entries",
                allowed=f"at most {max_entries} entries",
                code=API_LIMIT,
            )
        for key, item in value.items():
            if not isinstance(key, str) or not 1 <= len(key) <= max_key:
                fail(
                    instance, attribute, f"key {shorten(key)} is not a string of 1-{max_key} characters", code=API_LIMIT
                )
            if is_pipeline_variable(item):
                continue
            if not isinstance(item, str):
                fail(
                    instance,
                    attribute,
                    f"value of {shorten(key)} is {type_name(item)}",
                    allowed="a string (or int, float, bool)",
                    sub=(key,),
                )
            if len(item) > max_value:
                fail(
                    instance,
                    attribute,
                    f"value is {len(item)} characters long",
                    allowed=f"at most {max_value} characters",
                    sub=(key,),
                    code=API_LIMIT,
                )

    return check


# Converters copy what the user passed (a later change to it cannot slip past validation) and leave
# anything else unchanged for the validator to refuse.


def string_map_converter(value: Any) -> Any:
    """A copy of a dict, numbers as ``str()`` and bools as ``"true"``/``"false"`` (what the API carries)."""
    if not isinstance(value, dict):
        return value
    text = {True: "true", False: "false"}
    return {k: text[val] if isinstance(val, bool) else str(val) if is_number(val) else val for k, val in value.items()}


def tuple_to_list(value: Any) -> Any:
    """A new list of a list's or tuple's items (the SDK takes either where it means a list)."""
    return list(value) if isinstance(value, (list, tuple)) else value


def list_to_tuple(value: Any) -> Any:
    """A tuple of a list's or tuple's items (anything else unchanged, for the validator to refuse)."""
    return tuple(value) if isinstance(value, (list, tuple)) else value


def dict_copy(value: Any) -> Any:
    return dict(value) if isinstance(value, dict) else value


# --- values as API strings -------------------------------------------------------------------

#: Integers at or past this are refused by :func:`api_string`: ``str()`` fails past 4,300 digits and costs
#: quadratic time before, and no API string (at most 256 characters) holds such a number.
_INT_LIMIT = 10**MAX_INT_DIGITS
_API_VALUE = "a string, a number, True/False, None or a flat list of them"


def _scalar_string(value: Any, field: str, path: PathT) -> Any:
    """``str()`` of one scalar, a string or pipeline variable kept; ``ConfigError`` for anything else."""
    if isinstance(value, str) or is_pipeline_variable(value):
        return value
    if is_int(value) and abs(value) >= _INT_LIMIT:
        digits = int(value.bit_length() * 0.30103) + 1
        why = f"an integer of about {digits} digits; no field takes a number of more than {MAX_INT_DIGITS} digits"
        raise ConfigError(why, field=field, path=path, allowed=_API_VALUE)
    if value is None or isinstance(value, (bool, float, int)) or _is_number_object(value):
        return str(value)
    raise ConfigError(f"got {shorten(value)}", field=field, path=path, allowed=_API_VALUE)


def string_fix(path: PathT, value: Any) -> Optional[Fix]:
    """SMD100's safe fix of a number or bool where the API takes a string (a parameter's value): the string the SDK v2
    sends for it, ``str()`` (sagemaker/debugger/debugger.py ``ProfilerRule.to_profiler_rule_config_dict``; the
    renderers' :func:`api_string`); None for any other value (a list, None, a float that is not finite: not certain).

    >>> string_fix(("num_steps",), 20).changes[0].value, string_fix(("x",), True).changes[0].value
    ('20', 'True')
    """
    if not isinstance(value, (bool, int, float)) or (isinstance(value, float) and not math.isfinite(value)):
        return None
    try:
        text = _scalar_string(value, "value", path)
    except ConfigError:  # an integer past MAX_INT_DIGITS: no string the API takes
        return None
    if len(text) > 256:  # pragma: no cover - MAX_INT_DIGITS keeps ints shorter; a float's str() is short
        return None
    return Fix(SAFE, f"write {shorten(value)} as the string {shorten(text)}", (Change(SET, path, text),))


def rename_fix(path: PathT, new: Optional[str], siblings: Any) -> Optional[Fix]:
    """The safe fix of a misspelt key (SMD120, SMD135, SMD143): rename the key at ``path`` to ``new`` (the one close
    name, :func:`~sm_debug_config.errors.only_close`), unless there is none or ``siblings`` (the keys beside it, in
    any case) has it already (a rename would lose one).

    >>> rename_fix(("threshhold",), "threshold", {"threshhold": "0.1"}).changes[0].to_dict()
    {'kind': 'rename', 'path': '/threshhold', 'value': 'threshold'}
    >>> rename_fix(("threshhold",), "threshold", {"threshhold": "0.1", "threshold": "0.2"}) is None
    True
    """
    if new is None or new.lower() in {key.lower() for key in siblings if isinstance(key, str) and key != path[-1]}:
        return None
    return Fix(SAFE, f"rename {shorten(path[-1])} to {shorten(new)}", (Change(RENAME, path, new),))


def _is_number_object(value: Any) -> bool:
    """A number that is not a builtin one (``Decimal``, numpy scalars): its ``str()`` is its digits."""

    import numbers  # only for a value that is no builtin number: rare

    return isinstance(value, numbers.Number)


def api_string(value: Any, field: str, path: PathT = (), *, lists: str = "join") -> Any:
    """``value`` as the API carries it in a string (RuleParameters, ProfilingParameters): ``str()`` of a number,
    bool or None; a string or pipeline variable kept; a list or tuple of those joined with commas (``lists="repr"``:
    its ``str()``, the SDK's spelling for profiler rules). The one conversion every renderer uses: it never calls
    ``str()`` on junk, so an integer of more than :data:`MAX_INT_DIGITS` digits, a dict, a set, a nested or
    self-referencing list is a ``ConfigError`` naming ``field`` (nothing here recurses).

    >>> api_string(0.5, "threshold"), api_string([1, "a"], "names"), api_string([1, "a"], "names", lists="repr")
    ('0.5', '1,a', "[1, 'a']")
    >>> api_string({"k": 1}, "Rule.rule_parameters.k")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sm_debug_config.errors.ConfigError: Rule.rule_parameters.k: got {'k': 1} (allowed: a string, a number, ...)
    """
    if not isinstance(value, (list, tuple)):
        return _scalar_string(value, field, path)
    items = []
    for index, item in enumerate(value):
        if isinstance(item, (list, tuple, dict, set, frozenset)):
            raise ConfigError(f"item {index} is a {type_name(item)}: the value is one string, so a list must be flat",
                              field=field, path=path, allowed=_API_VALUE)
        items.append(_scalar_string(item, field, path))
    if lists == "repr":
        return str(value)  # items checked above: their repr is bounded
    if not any(is_pipeline_variable(item) for item in items):
        return ",".join(items)
    parts: List[Any] = []
    for item in items:
        parts += [",", item] if parts else [item]
    return concat(parts)


def api_strings(parameters: Any, field: str, path: PathT = (), *, lists: str = "join") -> Dict[str, Any]:
    """Each value of ``parameters`` (a dict, or None) through :func:`api_string`; a value's field is ``field.key``."""
    items = (parameters or {}).items()
    return {key: api_string(value, f"{field}.{key}", (*path, key), lists=lists) for key, value in items}


def choice(value: Any, allowed: Sequence[str], field: str) -> str:
    """``value`` if it is one of the strings ``allowed``; ``ConfigError`` naming ``field`` otherwise. The type is
    checked first: ``in`` on an object with its own ``__eq__`` would answer for the object, not for us.

    >>> choice("profiler", ("debugger", "profiler"), "kind")
    'profiler'
    """
    if not isinstance(value, str) or str.__str__(value) not in allowed:  # a str subclass's __eq__ may lie too
        raise ConfigError(f"got {shorten(value)}", field=field, allowed=", ".join(allowed))
    return str.__str__(value)


def revalidate(*values: Any, depth: bool = False) -> None:
    """Run the attrs validators again on every configuration object in ``values`` and on those their fields and lists
    hold: a field set past them (``object.__setattr__``, an old pickle) is refused by the check it skipped, naming
    ``Class.field``, before the renderer trusts its type. Warnings were given at construction and are not repeated.
    ``depth``: also refuse a field nested too deep (for callers whose walks recurse without checking it themselves).

    Objects a source built as written (:mod:`~sm_debug_config.model.building`) are re-checked inside the same kind of
    block: their refusals were reported already, so they are recorded and dropped, not raised again.

    >>> from sm_debug_config import CollectionConfig
    >>> with collecting(as_written=True):
    ...     weights = CollectionConfig("weights", {"save_interval": "0"})
    ...     revalidate(weights)
    """
    stack, seen = list(values), set()
    # what the checks report was reported at construction: not again
    with collecting(as_written=building_as_written()):
        while stack:
            value = stack.pop()
            if id(value) in seen:
                continue
            seen.add(id(value))
            if isinstance(value, (list, tuple)):
                stack.extend(item for item in value if attrs.has(type(item)))
            elif attrs.has(type(value)):
                attrs.validate(value)  # fields in order: a list field's items are checked before they are walked
                for field in attrs.fields(type(value)):
                    item = getattr(value, field.name)
                    if depth:
                        check_depth(item, field=f"{type(value).__name__}.{field.name}", path=(field.name,))
                    stack.append(item)
