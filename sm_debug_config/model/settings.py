"""What a render needs besides the user's objects: the job's settings, held in one value class.

:class:`JobSettings` is the one description of the render inputs (region, output path, job
name...). ``render``, ``explain``, the integrations, config files and ``from_request`` all take
or produce one; adding an input is adding a field here. :class:`DebuggerSetup` holds the five
objects an Estimator takes (``rules``, ``debugger_hook_config``...), so that a config file or a
rebuilt request is ``DebuggerSetup`` + ``JobSettings``.

>>> JobSettings(region="us-east-1", output_path="s3://bucket/out/").defaults
'sdk'
>>> JobSettings.build(None, {"regoin": "us-east-1"})
Traceback (most recent call last):
...
sm_debug_config.errors.ConfigError: regoin: unknown setting; did you mean 'region'? (allowed: region, output_path, job_name, instance_type, rule_image_uri, defaults, validate, framework, disable_debugger, ignore, framework_version, image_uri)
"""
from __future__ import annotations

from typing import Any, Dict, Mapping, NoReturn, Optional, Tuple

import attrs

from sm_debug_config.errors import ConfigError, did_you_mean, shorten
from sm_debug_config.model import validators as v

DEFAULTS_MODES = ("sdk", "explicit")
JOB_NAME_ALLOWED = "1-63 letters, digits and hyphens, starting with a letter or digit"


def _fail(attribute: Any, message: str, allowed: str) -> NoReturn:
    """Settings are named by their own name (``output_path``), as the keyword arguments of ``render``."""
    raise ConfigError(message, field=attribute.name, allowed=allowed, path=(attribute.name,))


def _region(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None:
        from sm_debug_config.model.regions import check_region

        try:
            check_region(value)
        except ConfigError as err:
            raise (err if err.path else err.under((attribute.name,))) from None


@v.unless_pipeline
def _output_path(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and not v.is_s3_uri(value):
        _fail(attribute, f"{shorten(value)} is not an S3 URI", "an s3://bucket/prefix URI of at most 1024 characters")


@v.unless_pipeline
def _job_name(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and (not isinstance(value, str) or not v.JOB_NAME_RE.match(value)):
        _fail(attribute, f"{shorten(value)} is not a training job name", JOB_NAME_ALLOWED)


def _flag(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, bool):
        _fail(attribute, f"got {shorten(value)}", "True or False")


def _defaults(instance: Any, attribute: Any, value: Any) -> None:
    if value not in DEFAULTS_MODES:
        _fail(attribute, f"got {shorten(value)}", " or ".join(DEFAULTS_MODES))


def _ignore(value: Any) -> Any:
    """``ignore`` as a tuple of registered check codes (a ``ConfigError`` with did-you-mean otherwise)."""
    from sm_debug_config.validation.registry import check_codes

    return check_codes(value, field="ignore")


def _text(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise ConfigError(f"got {value!r}", field=attribute.name, allowed="a non-empty string or None")


def _rule_image_uri(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and (not isinstance(value, str) or not 1 <= len(value) <= 255):
        _fail(attribute, f"got {shorten(value)}", "an image URI of at most 255 characters")


@attrs.frozen(kw_only=True)
class JobSettings:
    """The training job's settings that decide what ``render`` writes.

    ``region`` picks rule images; ``output_path`` is the Estimator's output path (hook and
    profiler S3 paths default to it); ``job_name`` names StopTraining's prefix and the
    detailed-profiler rule; ``instance_type`` matters for profiler support; ``rule_image_uri``
    overrides the built-in rule image; ``defaults`` is ``"sdk"`` (the SDK v2 Estimator's
    defaults) or ``"explicit"`` (only what was asked for); ``validate`` raises for error
    findings; ``framework`` (``tensorflow``, ``pytorch``...) sharpens validation;
    ``disable_debugger`` turns hook and profiler off; ``ignore`` lists check codes the validation
    step suppresses (``("SMD110",)``; an unknown code is a ``ConfigError``); ``framework_version``
    (with ``framework``) or ``image_uri`` name the training image, so validation can say whether
    the hook and framework profiling run there (``data/containers.json``).
    """

    region: Optional[str] = attrs.field(default=None, validator=_region)
    output_path: Any = attrs.field(default=None, validator=_output_path)
    job_name: Any = attrs.field(default=None, validator=_job_name)
    instance_type: Optional[str] = None
    rule_image_uri: Optional[str] = attrs.field(default=None, validator=_rule_image_uri)
    defaults: str = attrs.field(default="sdk", validator=_defaults)
    validate: bool = attrs.field(default=True, validator=_flag)
    framework: Optional[str] = None
    disable_debugger: bool = attrs.field(default=False, validator=_flag)
    ignore: Tuple[str, ...] = attrs.field(
        default=(), converter=_ignore, metadata={"config_kind": "string_list", "doc": "Check codes whose findings are suppressed (counted as suppressed)."}
    )
    framework_version: Optional[str] = attrs.field(
        default=None, validator=_text, metadata={"doc": "Framework version of the training image (with framework): validation says whether the hook and framework profiling run there."}
    )
    image_uri: Optional[str] = attrs.field(
        default=None, validator=_text, metadata={"doc": "The training image URI (the Estimator's image_uri): validation says whether the hook and framework profiling run there."}
    )

    @classmethod
    def names(cls) -> Tuple[str, ...]:
        """The settings' names, in declaration order."""
        return tuple(a.name for a in attrs.fields(cls))

    @classmethod
    def build(cls, settings: Optional["JobSettings"], overrides: Mapping[str, Any]) -> "JobSettings":
        """``settings`` (or the defaults) with ``overrides`` applied; an unknown name is a ``ConfigError``."""
        names = cls.names()
        for key in overrides:
            if key not in names:
                hint = did_you_mean(str(key), names).strip()
                raise ConfigError(f"unknown setting;{(' ' + hint) if hint else ''}".rstrip(";"), field=str(key), allowed=", ".join(names), path=(str(key),))
        if settings is None:
            return cls(**overrides)
        if not isinstance(settings, JobSettings):
            raise ConfigError(f"got {v.type_name(settings)}", field="settings", allowed="a JobSettings", path=("settings",))
        return attrs.evolve(settings, **overrides) if overrides else settings

    def updated(self, **overrides: Any) -> "JobSettings":
        """A copy with the ``overrides`` that are not ``None``."""
        return self.build(self, {k: val for k, val in overrides.items() if val is not None})

    def to_dict(self) -> Dict[str, Any]:
        """The settings as keyword arguments (for ``render(**...)``)."""
        return attrs.asdict(self, recurse=False)


@attrs.frozen(kw_only=True)
class DebuggerSetup:
    """The five Debugger objects an SDK v2 Estimator takes, as given (checked by ``render``)."""

    rules: Any = None
    debugger_hook_config: Any = None
    profiler_config: Any = None
    tensorboard_output_config: Any = None
    disable_profiler: bool = False

    @classmethod
    def names(cls) -> Tuple[str, ...]:
        return tuple(a.name for a in attrs.fields(cls))

    def to_dict(self) -> Dict[str, Any]:
        return attrs.asdict(self, recurse=False)
