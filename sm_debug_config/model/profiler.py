"""Profiler settings: ``ProfilerConfig``, ``FrameworkProfile``, the five metric configs, ``Profiler``.

Metric configs render in the format the SDK v2 writes (``{"StartStep": 5, "NumSteps": 1, }``):
the training container lower-cases the file and ``eval``s each string. One deliberate fix: a
time range writes ``DurationInSeconds``, the key the container reads (the SDK writes
``Duration``, which is never read, so v2 time ranges profile a single step).
"""
from __future__ import annotations

import enum
import json
from datetime import datetime
from typing import Any, ClassVar, Dict, Optional, Type, Union

import attrs

from sm_debug_config import pysource
from sm_debug_config.errors import ConfigError, shorten
from sm_debug_config.findings import built_here
from sm_debug_config.limits import regex_error
from sm_debug_config.model import validators as v

BASE_FOLDER_DEFAULT = "/opt/ml/output/profiler"
MAX_FILE_SIZE_DEFAULT = 10485760
CLOSE_FILE_INTERVAL_DEFAULT = 60
FILE_OPEN_FAIL_THRESHOLD_DEFAULT = 50
CPU_PROFILING_DURATION = 3600
FILE_ROTATION_INTERVAL_DEFAULT = 600
DETAIL_PROF_PROCESSING_DEFAULT_INSTANCE_TYPE = "ml.m5.4xlarge"
DETAIL_PROF_PROCESSING_DEFAULT_VOLUME_SIZE = 128
SYSTEM_MONITOR_INTERVALS_MS = (100, 200, 500, 1000, 5000, 60000)


class PythonProfiler(enum.Enum):
    """Which Python profiler ``PythonProfilingConfig`` runs."""

    CPROFILE = "cprofile"
    PYINSTRUMENT = "pyinstrument"


class cProfileTimer(enum.Enum):  # noqa: N801 - the SDK's name
    """Which clock cProfile measures with."""

    TOTAL_TIME = "total_time"
    CPU_TIME = "cpu_time"
    OFF_CPU_TIME = "off_cpu_time"
    DEFAULT = "default"


def python_literal(value: Any, field: str = "ProfilingParameters") -> str:
    """A value as the SDK writes it into a metric-config string: strings in double quotes, escaped where that
    would not ``eval`` back to the same string (a quote or a backslash escape in a regex); other values by
    :func:`validators.api_string` (``ConfigError`` naming ``field`` for junk)."""
    if isinstance(value, str):
        naive = f'"{value}"'
        try:  # without the warning an invalid escape gives (the result must not depend on filters): see pysource
            if pysource.literal(naive) == value:
                return naive
        except (SyntaxError, ValueError):
            pass
        return json.dumps(value)
    return str(v.api_string(value, field))


def _valid_unix_time(value: Any) -> bool:
    if not (v.is_int(value) and value >= 0):
        return False
    try:
        datetime.fromtimestamp(value)
    except (OverflowError, ValueError, OSError):
        return False
    return True


@attrs.frozen(field_transformer=v.as_written_fields)
class StepRange:
    """A profiling window of ``num_steps`` steps from ``start_step``, as rendered."""

    start_step: Optional[int]
    num_steps: Optional[int]

    def to_json(self) -> Dict[str, Any]:
        return {"StartStep": self.start_step, "NumSteps": self.num_steps}


@attrs.frozen(field_transformer=v.as_written_fields)
class TimeRange:
    """A profiling window from ``start_unix_time`` for ``duration`` seconds, as rendered."""

    start_unix_time: Optional[int]
    duration: Optional[float]

    def to_json(self) -> Dict[str, Any]:
        fields = (("StartTimeInSecSinceEpoch", self.start_unix_time), ("DurationInSeconds", self.duration))
        return {key: value for key, value in fields if value is not None}


def _window(config: "MetricsConfigBase") -> Union[StepRange, TimeRange]:
    """The window a metric config profiles: the class's defaults, or the SDK's filling-in of a half-given step range."""
    start, num, start_time, duration = config.start_step, config.num_steps, config.start_unix_time, config.duration
    if config.profile_default_steps is True or (
        start is None and num is None and start_time is None and duration is None
    ):
        return StepRange(config.default_start_step, config.default_num_steps)
    if start is not None or num is not None:
        return StepRange(0 if start is None else start, 1 if num is None and start is not None else num)
    return TimeRange(start_time, duration)


def _unless_default_steps(validator: v.Validator) -> v.Validator:
    """``validator``, skipped when ``profile_default_steps=True`` replaces the value by the default window."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if instance.profile_default_steps is not True and value is not None:
            validator(instance, attribute, value)

    return check


def _one_kind_of_window(instance: Any, attribute: Any, value: Any) -> None:
    if instance.profile_default_steps is True:
        return
    times = instance.start_unix_time is not None or instance.duration is not None
    if (instance.start_step is not None or instance.num_steps is not None) and times:
        raise ConfigError(
            "a step range (start_step/num_steps) and a time range (start_unix_time/duration) cannot both be set",
            field=type(instance).__name__,
            allowed="either start_step/num_steps or start_unix_time/duration",
        )


@attrs.frozen(field_transformer=v.as_written_fields)
class MetricsConfigBase:
    """A profiling window by steps or by time (never both) for one kind of framework metric.

    The arguments are kept as given; ``range`` is the window they mean (the class's default
    window when none is given or ``profile_default_steps=True``), and equality is by what renders.
    """

    name: ClassVar[str] = "MetricsConfigBase"  # each subclass: its class name (the ProfilingParameters key)
    default_start_step: ClassVar[int] = 0
    default_num_steps: ClassVar[int] = 1

    start_step: Optional[int] = attrs.field(
        default=None,
        eq=False,
        validator=_unless_default_steps(v.satisfies(lambda x: v.is_int(x) and x >= 0, "an integer >= 0")),
    )
    num_steps: Optional[int] = attrs.field(
        default=None,
        eq=False,
        validator=_unless_default_steps(v.satisfies(lambda x: v.is_int(x) and x > 0, "an integer > 0")),
    )
    start_unix_time: Optional[int] = attrs.field(
        default=None,
        eq=False,
        validator=_unless_default_steps(v.satisfies(_valid_unix_time, "an integer Unix time in seconds")),
    )
    duration: Optional[float] = attrs.field(
        default=None,
        eq=False,
        validator=_unless_default_steps(v.satisfies(lambda x: v.is_number(x) and x > 0, "a number of seconds > 0")),
    )
    profile_default_steps: bool = attrs.field(default=False, eq=False, validator=v.boolean)
    range: Union[StepRange, TimeRange] = attrs.field(
        init=False, repr=False, default=attrs.Factory(_window, takes_self=True), validator=_one_kind_of_window
    )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.name = cls.__name__

    def _to_json(self) -> Dict[str, Any]:
        return self.range.to_json()

    def to_json_string(self) -> str:
        """The ``ProfilingParameters`` value: ``{"Key": value, }`` as the SDK writes it (Python, not JSON)."""
        items = self._to_json().items()
        return "{" + "".join(f'"{key}": {python_literal(value, f"{self.name}.{key}")}, ' for key, value in items) + "}"


@attrs.frozen(field_transformer=v.as_written_fields)
class DetailedProfilingConfig(MetricsConfigBase):
    """Native framework profiler (TensorFlow/PyTorch) over a step or time range."""

    default_start_step: ClassVar[int] = 5


def _regex(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, str):
        v.fail(instance, attribute, f"got {shorten(value)}", allowed="a regular expression string")
    why = regex_error(value)
    if why is not None:
        v.fail(instance, attribute, f"{shorten(value)} does not compile: {why}")


@attrs.frozen(field_transformer=v.as_written_fields)
class DataloaderProfilingConfig(MetricsConfigBase):
    """Data loader events whose names match ``metrics_regex``."""

    default_start_step: ClassVar[int] = 7

    metrics_regex: str = attrs.field(default=".*", validator=_regex)

    def _to_json(self) -> Dict[str, Any]:
        return {**self.range.to_json(), "MetricsRegex": self.metrics_regex}


def _member(enum_cls: Any, value: Any) -> Any:
    """The member of ``enum_cls`` that ``value`` is or names (value or name, any case);
    else ``value`` for the validator to refuse."""
    if isinstance(value, str):
        for member in enum_cls:
            if value.lower() in (member.value, member.name.lower()):
                return member
    return value


def _enum(enum_cls: Any) -> v.Validator:
    return v.instance_of(enum_cls, allowed=", ".join(f"{enum_cls.__name__}.{m.name}" for m in enum_cls))


@attrs.frozen(field_transformer=v.as_written_fields)
class PythonProfilingConfig(MetricsConfigBase):
    """cProfile or Pyinstrument over a step or time range."""

    default_start_step: ClassVar[int] = 9
    default_num_steps: ClassVar[int] = 3

    python_profiler: PythonProfiler = attrs.field(
        default=PythonProfiler.CPROFILE,
        converter=lambda value: _member(PythonProfiler, value),
        validator=_enum(PythonProfiler),
    )
    # kept as given (attrs >= 22.2 has no converter that sees the other fields); the property below
    # is the timer cProfile runs with
    _cprofile_timer: Optional[cProfileTimer] = attrs.field(
        default=cProfileTimer.TOTAL_TIME, alias="cprofile_timer", converter=lambda value: _member(cProfileTimer, value),
        validator=v.optional(_enum(cProfileTimer)),
    )

    @property
    def cprofile_timer(self) -> Optional[cProfileTimer]:
        """``DEFAULT`` for the default window, ``None`` for Pyinstrument, else the timer given."""
        if self.python_profiler is PythonProfiler.PYINSTRUMENT:
            return None
        return cProfileTimer.DEFAULT if self.profile_default_steps is True else self._cprofile_timer

    def _to_json(self) -> Dict[str, Any]:
        out = {**self.range.to_json(), "ProfilerName": self.python_profiler.value}
        if self.cprofile_timer is not None:
            out["cProfileTimer"] = self.cprofile_timer.value
        return out


@attrs.frozen(field_transformer=v.as_written_fields)
class HorovodProfilingConfig(MetricsConfigBase):
    """Horovod timeline (rendered as the SDK does; smdebug 1.0.34 does not read it)."""

    default_start_step: ClassVar[int] = 13


@attrs.frozen(field_transformer=v.as_written_fields)
class SMDataParallelProfilingConfig(MetricsConfigBase):
    """SageMaker data-parallel timeline."""

    default_start_step: ClassVar[int] = 15


_SLOTS: Dict[str, Type[MetricsConfigBase]] = {
    "detailed_profiling_config": DetailedProfilingConfig,
    "dataloader_profiling_config": DataloaderProfilingConfig,
    "python_profiling_config": PythonProfilingConfig,
    "horovod_profiling_config": HorovodProfilingConfig,
    "smdataparallel_profiling_config": SMDataParallelProfilingConfig,
}
ALL_METRIC_CONFIGS = tuple(_SLOTS.values())


def _slot(cls: type) -> v.Validator:
    return v.optional(v.instance_of(cls, allowed=f"a {cls.__name__}"))


@attrs.define(field_transformer=v.as_written_fields)
class FrameworkProfile:
    """Framework metrics (framework profiling) for ``ProfilerConfig(framework_profile_params=...)``.

    Give per-metric configs, or one step/time range for all five, or nothing for the SDK's
    default windows. ``profiling_parameters=`` (keyword only) replaces the whole map, as
    assigning ``profiling_parameters`` does in the SDK.

    >>> FrameworkProfile(start_step=2, num_steps=3).profiling_parameters["DetailedProfilingConfig"]
    '{"StartStep": 2, "NumSteps": 3, }'
    """

    local_path: str = attrs.field(default=BASE_FOLDER_DEFAULT, validator=v.container_path)
    file_max_size: int = attrs.field(default=MAX_FILE_SIZE_DEFAULT, validator=v.integer(1, pipeline=False))
    file_close_interval: Union[int, float] = attrs.field(default=CLOSE_FILE_INTERVAL_DEFAULT, validator=v.number(0))
    file_open_fail_threshold: int = attrs.field(
        default=FILE_OPEN_FAIL_THRESHOLD_DEFAULT, validator=v.integer(1, pipeline=False)
    )
    detailed_profiling_config: Optional[DetailedProfilingConfig] = attrs.field(
        default=None, validator=_slot(DetailedProfilingConfig)
    )
    dataloader_profiling_config: Optional[DataloaderProfilingConfig] = attrs.field(
        default=None, validator=_slot(DataloaderProfilingConfig)
    )
    python_profiling_config: Optional[PythonProfilingConfig] = attrs.field(
        default=None, validator=_slot(PythonProfilingConfig)
    )
    horovod_profiling_config: Optional[HorovodProfilingConfig] = attrs.field(
        default=None, validator=_slot(HorovodProfilingConfig)
    )
    smdataparallel_profiling_config: Optional[SMDataParallelProfilingConfig] = attrs.field(
        default=None, validator=_slot(SMDataParallelProfilingConfig)
    )
    start_step: Optional[int] = attrs.field(default=None)
    num_steps: Optional[int] = attrs.field(default=None)
    start_unix_time: Optional[int] = attrs.field(default=None)
    duration: Optional[float] = attrs.field(default=None)
    _override: Optional[Dict[str, str]] = attrs.field(
        default=None,
        kw_only=True,
        alias="profiling_parameters",
        repr=False,
        eq=False,
        converter=v.dict_copy,
        validator=v.optional(v.string_map(20)),
    )

    def __attrs_post_init__(self) -> None:
        self._metric_configs()  # a check only: the shared range must make a valid window for each metric

    def _metric_configs(self) -> list:
        explicit = [getattr(self, slot) for slot in _SLOTS if getattr(self, slot) is not None]
        if explicit:
            return explicit
        window: Dict[str, Any] = {
            "start_step": self.start_step,
            "num_steps": self.num_steps,
            "start_unix_time": self.start_unix_time,
            "duration": self.duration,
        }
        if all(x is None for x in window.values()):
            return [cls(profile_default_steps=True) for cls in ALL_METRIC_CONFIGS]
        try:
            return [cls(**window) for cls in ALL_METRIC_CONFIGS]
        except ConfigError as err:  # the range fields are this object's too: same path, its name in the text
            raise ConfigError(
                err.message,
                field=f"FrameworkProfile.{(err.field or '').split('.')[-1]}",
                allowed=err.allowed,
                path=err.path,
            ) from None

    def _api_string(self, attribute: str) -> Any:
        return v.api_string(getattr(self, attribute), f"FrameworkProfile.{attribute}", (attribute,))

    @property
    def profiling_parameters(self) -> Dict[str, str]:
        """The ``ProfilingParameters`` map, as the SDK's ``FrameworkProfile`` holds it."""
        if self._override is not None:
            return dict(self._override)
        params = {
            "LocalPath": self.local_path,
            "RotateMaxFileSizeInBytes": self._api_string("file_max_size"),
            "RotateFileCloseIntervalInSeconds": self._api_string("file_close_interval"),
            "FileOpenFailThreshold": self._api_string("file_open_fail_threshold"),
        }
        return {**params, **{config.name: config.to_json_string() for config in self._metric_configs()}}

    @profiling_parameters.setter
    def profiling_parameters(self, value: Dict[str, str]) -> None:
        """SDK-compatible: replace the whole map (checked); ``attrs.evolve(profile,
        profiling_parameters=...)`` makes a copy instead."""
        self._override = value


def _seconds_text(value: Any) -> Any:
    """The string the API carries for a number of seconds; anything else unchanged for the validator (no ``str()`` of
    junk)."""
    return str(value) if isinstance(value, str) or (v.is_int(value) and abs(value) < 10**18) else value


def _seconds(value: Any) -> bool:
    number = v.parse_int(value)
    return number is not None and number > 0


@attrs.define(field_transformer=v.as_written_fields)
class Profiler:
    """The SageMaker Profiler (``ProfilerConfig(profile_params=Profiler())``); rendering adds a
    ``DetailedProfilerProcessingJobConfig`` processing rule (unless profiler rules are given or ``rules=[]``)."""

    cpu_profiling_duration: str = attrs.field(
        default=str(CPU_PROFILING_DURATION),
        converter=_seconds_text,
        validator=v.satisfies(_seconds, "a whole number of seconds > 0"),
    )
    file_rotation_interval: str = attrs.field(
        default=str(FILE_ROTATION_INTERVAL_DEFAULT),
        converter=_seconds_text,
        validator=v.satisfies(_seconds, "a whole number of seconds > 0"),
    )
    instanceType: str = attrs.field(default=DETAIL_PROF_PROCESSING_DEFAULT_INSTANCE_TYPE, init=False)  # noqa: N815 - SDK name
    volumeSizeInGB: int = attrs.field(default=DETAIL_PROF_PROCESSING_DEFAULT_VOLUME_SIZE, init=False)  # noqa: N815

    def _api_string(self, attribute: str) -> Any:
        return v.api_string(getattr(self, attribute), f"FrameworkProfile.{attribute}", (attribute,))

    @property
    def profiling_parameters(self) -> Dict[str, str]:
        return {"CPUProfilingDuration": self.cpu_profiling_duration, "SMPFileRotationSecs": self.file_rotation_interval}


def _not_with_framework_profile(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and instance.framework_profile_params is not None:
        raise ConfigError(
            "profile_params (the SageMaker Profiler) and framework_profile_params cannot be used together",
            field="ProfilerConfig",
            allowed="one of profile_params=Profiler() or framework_profile_params=FrameworkProfile()",
        )


@attrs.define(field_transformer=v.as_written_fields)
class ProfilerConfig:
    """System monitoring and framework profiling (the ``ProfilerConfig`` request field).

    >>> ProfilerConfig(s3_output_path="s3://bucket/p", system_monitor_interval_millis=500)._to_request_dict()
    {'S3OutputPath': 's3://bucket/p', 'DisableProfiler': False, 'ProfilingIntervalInMilliseconds': 500}
    """

    s3_output_path: Optional[str] = attrs.field(default=None, validator=v.optional(v.s3_uri))
    system_monitor_interval_millis: Optional[int] = attrs.field(
        default=None,
        validator=v.optional(
            v.unless_pipeline(
                v.satisfies(
                    lambda x: v.is_int(x) and x > 0,
                    "milliseconds as an integer: " + ", ".join(map(str, SYSTEM_MONITOR_INTERVALS_MS)),
                )
            )
        ),
    )
    framework_profile_params: Optional[FrameworkProfile] = attrs.field(default=None, validator=_slot(FrameworkProfile))
    profile_params: Optional[Profiler] = attrs.field(
        default=None, validator=[_slot(Profiler), _not_with_framework_profile]
    )
    disable_profiler: bool = attrs.field(default=False, validator=v.unless_pipeline(v.boolean))

    def __attrs_post_init__(self) -> None:
        built_here(self)  # where the user built it: the edge warns its findings there

    def _to_request_dict(self) -> Dict[str, Any]:
        """The request shape, as the SDK's object renders it (no defaults)."""
        v.revalidate(self)  # a field set past the validators: ConfigError, not a crash below
        return self.request_shape()

    def request_shape(self) -> Dict[str, Any]:
        """:meth:`_to_request_dict` of an object whose fields were checked (render re-checks them once)."""
        request: Dict[str, Any] = {}
        if self.s3_output_path is not None and self.disable_profiler is False:
            request["S3OutputPath"] = self.s3_output_path
        request["DisableProfiler"] = self.disable_profiler
        if self.system_monitor_interval_millis is not None:
            request["ProfilingIntervalInMilliseconds"] = self.system_monitor_interval_millis
        if self.framework_profile_params is not None:
            request["ProfilingParameters"] = self.framework_profile_params.profiling_parameters
        if self.profile_params is not None:
            request["ProfilingParameters"] = self.profile_params.profiling_parameters
        return request

    @classmethod
    def _to_profiler_disabled_request_dict(cls) -> Dict[str, Any]:
        return {"DisableProfiler": True}
