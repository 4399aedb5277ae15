"""What a render needs besides the user's objects: the job's settings, held in one value class.

:class:`JobSettings` holds the render inputs (region, output path, job name...), :class:`DebuggerSetup`
the five objects an Estimator takes; a config file or a rebuilt request is the two together, and
:class:`SetupCall` is the one signature of every public function that takes them (each writes it out,
builds its ``DebuggerSetup(...)`` and passes its settings by name to :func:`settings_of`). Parse once, trust
afterwards: what is below the public functions takes the checked :class:`JobSettings` and checks none of it again.

>>> JobSettings.build(None, {"regoin": "us-east-1"})
Traceback (most recent call last):
...
sm_debug_config.errors.ConfigError: regoin: unknown setting; did you mean 'region'? (allowed: region, output_path,
    job_name, instance_type, rule_image_uri, defaults, validate, framework, disable_debugger, ignore, framework_version,
    image_uri)
"""
from __future__ import annotations

from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Collection,
    Dict,
    Mapping,
    NoReturn,
    Optional,
    Protocol,
    Sequence,
    Tuple,
    TypeVar,
    Union,
)

import attrs

from sm_debug_config.errors import ConfigError, did_you_mean, shorten
from sm_debug_config.findings import code_list
from sm_debug_config.model import validators as v
from sm_debug_config.model import regions

if TYPE_CHECKING:
    from sm_debug_config.model.hook import DebuggerHookConfig, TensorBoardOutputConfig
    from sm_debug_config.model.profiler import ProfilerConfig
    from sm_debug_config.model.rules import ProfilerRule, Rule

DEFAULTS_MODES = ("sdk", "explicit")
JOB_NAME_ALLOWED = "1-63 letters, digits and hyphens, starting with a letter or digit"
S3_ALLOWED = "an s3://bucket/prefix URI of at most 1024 characters"


def _setting(predicate: Callable[[Any], Any], allowed: str, message: str = "got {}") -> v.Validator:
    """A setting's validator; its ``ConfigError`` names it as ``render``'s keyword does (``output_path``)."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if not predicate(value):
            name = attribute.name
            raise ConfigError(message.format(shorten(value)), field=name, allowed=allowed, path=(name,))

    return check


def _region(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None:
        try:
            regions.check_region(value)
        except ConfigError as err:
            raise (err if err.path else err.under((attribute.name,))) from None


def _ignore(value: Any) -> Any:
    """``ignore`` as a tuple of upper-cased check codes (a ``ConfigError`` for anything else); whether each is
    a known code is checked by ``render``'s validation, with a did-you-mean."""
    return code_list(value, field="ignore")


_flag = _setting(lambda x: isinstance(x, bool), "True or False")
_text = v.optional(_setting(lambda x: isinstance(x, str) and x.strip(), "a non-empty string or None"))
_output_path = v.unless_pipeline(v.optional(_setting(v.is_s3_uri, S3_ALLOWED, "{} is not an S3 URI")))
_job_name = v.unless_pipeline(v.optional(_setting(lambda x: isinstance(x, str) and v.JOB_NAME_RE.match(x),
                                                  JOB_NAME_ALLOWED, "{} is not a training job name")))
_rule_image_uri = v.optional(_setting(lambda x: isinstance(x, str) and 0 < len(x) < 256,
                                      "an image URI of at most 255 characters"))
_defaults = _setting(lambda x: x in DEFAULTS_MODES, " or ".join(DEFAULTS_MODES))
_IMAGE_DOC = "validation says whether the hook and framework profiling run there."


class _Fields:
    @classmethod
    def names(cls) -> Tuple[str, ...]:
        """The fields' names, in declaration order."""
        return tuple(a.name for a in attrs.fields(cls))  # type: ignore[arg-type]

    def to_dict(self) -> Dict[str, Any]:
        """The fields as keyword arguments (for ``render(**...)``)."""
        return attrs.asdict(self, recurse=False)  # type: ignore[arg-type]


@attrs.frozen(kw_only=True, field_transformer=v.as_written_fields)
class JobSettings(_Fields):
    """The training job's settings that decide what ``render`` writes (each is described by
    ``sm-debug-config schema``; ``validate=True`` raises for error findings)."""

    region: Optional[str] = attrs.field(default=None, validator=_region)
    output_path: Any = attrs.field(default=None, validator=_output_path)
    job_name: Any = attrs.field(default=None, validator=_job_name)
    instance_type: Optional[str] = None
    rule_image_uri: Optional[str] = attrs.field(default=None, validator=_rule_image_uri)
    defaults: str = attrs.field(default="sdk", validator=_defaults)
    validate: bool = attrs.field(default=True, validator=_flag)
    framework: Optional[str] = attrs.field(
        default=None, validator=v.optional(_setting(lambda x: isinstance(x, str), "a framework name or None"))
    )
    disable_debugger: bool = attrs.field(default=False, validator=_flag)
    ignore: Tuple[str, ...] = attrs.field(
        default=(),
        converter=_ignore,
        metadata={
            "config_kind": "string_list",
            "doc": "Check codes whose findings are suppressed (counted as suppressed).",
        },
    )
    framework_version: Optional[str] = attrs.field(
        default=None,
        validator=_text,
        metadata={"doc": "Framework version of the training image (with framework): " + _IMAGE_DOC},
    )
    image_uri: Optional[str] = attrs.field(
        default=None,
        validator=_text,
        metadata={"doc": "The training image URI (the Estimator's image_uri): " + _IMAGE_DOC},
    )

    @classmethod
    def build(cls, settings: Optional["JobSettings"], overrides: Mapping[str, Any]) -> "JobSettings":
        """``settings`` (or the defaults) with ``overrides`` applied; an unknown name is a ``ConfigError``."""
        names = cls.names()
        if not isinstance(overrides, Mapping):
            raise ConfigError(f"got {v.type_name(overrides)}", field="overrides", allowed="a mapping of setting names")
        for key in overrides:
            if not isinstance(key, str):
                raise ConfigError(f"got a {v.type_name(key)} key", field="overrides", allowed=", ".join(names))
            if key not in names:
                hint = did_you_mean(str(key), names).strip()
                raise ConfigError(
                    f"unknown setting;{(' ' + hint) if hint else ''}".rstrip(";"),
                    field=str(key),
                    allowed=", ".join(names),
                    path=(str(key),),
                )
        if settings is None:
            return cls(**overrides)
        if not isinstance(settings, JobSettings):
            raise ConfigError(
                f"got {v.type_name(settings)}", field="settings", allowed="a JobSettings", path=("settings",)
            )
        return attrs.evolve(settings, **overrides) if overrides else settings

    def updated(self, **overrides: Any) -> "JobSettings":
        """A copy with the ``overrides`` that are not ``None``."""
        return self.build(self, {k: val for k, val in overrides.items() if val is not None})


@attrs.frozen(kw_only=True, field_transformer=v.as_written_fields)
class DebuggerSetup(_Fields):
    """The five Debugger objects an SDK v2 Estimator takes, as given (checked by ``render``)."""

    rules: Any = None
    debugger_hook_config: Any = None
    profiler_config: Any = None
    tensorboard_output_config: Any = None
    disable_profiler: bool = False


def render_arguments(
    arguments: Mapping[str, Any], settings: Optional[JobSettings] = None
) -> Tuple[DebuggerSetup, JobSettings]:
    """The setup and the settings (``settings`` updated) among ``render``'s keyword arguments given as one mapping."""
    names = DebuggerSetup.names()
    setup = DebuggerSetup(**{k: val for k, val in arguments.items() if k in names})
    return setup, JobSettings.build(settings, {k: val for k, val in arguments.items() if k not in names})


def settings_of(
    settings: Optional[JobSettings],
    unknown: Mapping[str, Any],
    *,
    region: Optional[str],
    output_path: Any,
    job_name: Any,
    instance_type: Optional[str],
    rule_image_uri: Optional[str],
    defaults: Optional[str],
    validate: Optional[bool],
    framework: Optional[str],
    disable_debugger: Optional[bool],
    ignore: Optional[Collection[str]],
    framework_version: Optional[str],
    image_uri: Optional[str],
) -> JobSettings:
    """The checked settings of a call with :class:`SetupCall`'s ``settings``, settings and ``unknown``, each passed
    by name (no default: a caller cannot leave one out); the one place a public call's settings are checked.

    A setting that is ``None`` was not given: it comes from ``settings=``, else from :class:`JobSettings`'s
    default. ``unknown`` holds misspelt keywords: a ``ConfigError`` naming the first, with a did-you-mean.

    >>> settings_of(None, {}, region="us-east-1", output_path=None, job_name=None, instance_type=None,
    ...             rule_image_uri=None, defaults=None, validate=False, framework=None, disable_debugger=None,
    ...             ignore=None, framework_version=None, image_uri=None).validate
    False
    """
    given = {
        "region": region,
        "output_path": output_path,
        "job_name": job_name,
        "instance_type": instance_type,
        "rule_image_uri": rule_image_uri,
        "defaults": defaults,
        "validate": validate,
        "framework": framework,
        "disable_debugger": disable_debugger,
        "ignore": ignore,
        "framework_version": framework_version,
        "image_uri": image_uri,
    }
    return JobSettings.build(settings, {**unknown, **{name: val for name, val in given.items() if val is not None}})


R_co = TypeVar("R_co", covariant=True)


class SetupCall(Protocol[R_co]):
    """The one signature of ``render``, ``explain``, ``to_sagemaker``...: each writes it out, with its own
    parameters around it, builds ``DebuggerSetup(rules=rules, ...)`` and passes ``settings``, ``unknown`` and each
    setting by name to :func:`settings_of` (tests/model/test_settings.py checks that every copy matches this one and
    :class:`JobSettings`). ``render_update`` and ``from_request`` take other objects but the same ``settings`` and
    settings (:func:`settings_of`).

    The five objects are :class:`DebuggerSetup`'s, in the SDK v2 Estimator's order; ``settings`` and then
    :class:`JobSettings`'s fields are keyword-only (``None``: not given). ``unknown`` is typed ``NoReturn`` so
    that a type checker refuses a misspelt keyword; at run time it is a ``ConfigError`` with a did-you-mean.
    """

    def __call__(
        self,
        rules: Optional[Sequence[Union[Rule, ProfilerRule]]] = None,
        debugger_hook_config: Union[DebuggerHookConfig, bool, None] = None,
        profiler_config: Optional[ProfilerConfig] = None,
        tensorboard_output_config: Optional[TensorBoardOutputConfig] = None,
        disable_profiler: bool = False,
        *,
        settings: Optional[JobSettings] = None,
        region: Optional[str] = None,
        output_path: Any = None,
        job_name: Any = None,
        instance_type: Optional[str] = None,
        rule_image_uri: Optional[str] = None,
        defaults: Optional[str] = None,
        validate: Optional[bool] = None,
        framework: Optional[str] = None,
        disable_debugger: Optional[bool] = None,
        ignore: Optional[Collection[str]] = None,
        framework_version: Optional[str] = None,
        image_uri: Optional[str] = None,
        **unknown: NoReturn,
    ) -> R_co: ...
