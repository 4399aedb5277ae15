"""Profiler settings: ``ProfilerConfig``, ``FrameworkProfile``, the five metric configs, ``Profiler``.

Metric configs render in the format the SDK v2 writes (``{"StartStep": 5, "NumSteps": 1, }``):
the training container lower-cases the file and ``eval``s each string. One deliberate fix: a
time range writes ``DurationInSeconds``, the key the container reads (the SDK writes
``Duration``, which is never read, so v2 time ranges profile a single step).
"""
from __future__ import annotations

import ast
import enum
import json
import re
from datetime import datetime
from typing import Any, Dict, Optional, Union

import attrs

from sm_debug_config.model import validators as v
from sm_debug_config.errors import ConfigError

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


def python_literal(value: Any) -> str:
    """A value as the SDK writes it into a metric-config string.

    Strings are wrapped in double quotes as the SDK does; when that would not ``eval`` back
    to the same string (a quote or a backslash escape in a regex), they are escaped instead.
    """
    if isinstance(value, str):
        import warnings

        naive = f'"{value}"'
        with warnings.catch_warnings():  # invalid escapes warn; the result must not depend on filters
            warnings.simplefilter("ignore")
            try:
                if ast.literal_eval(naive) == value:
                    return naive
            except (SyntaxError, ValueError):
                pass
        return json.dumps(value)
    return str(value)


def metrics_config_string(config: Dict[str, Any]) -> str:
    """``{"Key": value, ...}`` with the SDK's trailing ``", }"`` (valid Python, not JSON)."""
    return "{" + "".join(f'"{key}": {python_literal(value)}, ' for key, value in config.items()) + "}"


def _valid_unix_time(value: Any) -> bool:
    try:
        datetime.fromtimestamp(value)
    except (OverflowError, ValueError, OSError):
        return False
    return True


class StepRange:
    """Profile ``num_steps`` steps from ``start_step`` (SDK defaults fill a missing half)."""

    def __init__(self, start_step: Optional[int], num_steps: Optional[int]) -> None:
        if start_step is None:
            start_step = 0
        elif num_steps is None:
            num_steps = 1
        self.start_step = start_step
        self.num_steps = num_steps

    def to_json(self) -> Dict[str, Any]:
        return {"StartStep": self.start_step, "NumSteps": self.num_steps}


class TimeRange:
    """Profile from ``start_unix_time`` for ``duration`` seconds."""

    def __init__(self, start_unix_time: Optional[int], duration: Optional[float]) -> None:
        self.start_unix_time = start_unix_time
        self.duration = duration

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        if self.start_unix_time is not None:
            out["StartTimeInSecSinceEpoch"] = self.start_unix_time
        if self.duration is not None:
            out["DurationInSeconds"] = self.duration
        return out


class MetricsConfigBase:
    """A profiling window by steps or by time (never both) for one kind of framework metric."""

    name = "MetricsConfigBase"
    default_start_step = 0
    default_num_steps = 1

    def __init__(
        self,
        start_step: Optional[int] = None,
        num_steps: Optional[int] = None,
        start_unix_time: Optional[int] = None,
        duration: Optional[float] = None,
        profile_default_steps: bool = False,
    ) -> None:
        where = type(self).__name__
        if not isinstance(profile_default_steps, bool):
            raise ConfigError(f"expected True or False, got {profile_default_steps!r}", field=f"{where}.profile_default_steps")
        self.profile_default_steps = profile_default_steps
        if profile_default_steps or (start_step is None and num_steps is None and start_unix_time is None and duration is None):
            start_step, num_steps = self.default_start_step, self.default_num_steps
            start_unix_time = duration = None
        if start_step is not None and not (v.is_int(start_step) and start_step >= 0):
            raise ConfigError(f"got {start_step!r}", field=f"{where}.start_step", allowed="an integer >= 0")
        if num_steps is not None and not (v.is_int(num_steps) and num_steps > 0):
            raise ConfigError(f"got {num_steps!r}", field=f"{where}.num_steps", allowed="an integer > 0")
        if start_unix_time is not None and not (v.is_int(start_unix_time) and start_unix_time >= 0 and _valid_unix_time(start_unix_time)):
            raise ConfigError(f"got {start_unix_time!r}", field=f"{where}.start_unix_time", allowed="an integer Unix time in seconds")
        if duration is not None and not (v.is_number(duration) and duration > 0):
            raise ConfigError(f"got {duration!r}", field=f"{where}.duration", allowed="a number of seconds > 0")
        has_steps = start_step is not None or num_steps is not None
        has_time = start_unix_time is not None or duration is not None
        if has_steps and has_time:
            raise ConfigError(
                "a step range (start_step/num_steps) and a time range (start_unix_time/duration) cannot both be set",
                field=where,
                allowed="either start_step/num_steps or start_unix_time/duration",
            )
        self.range: Union[StepRange, TimeRange] = StepRange(start_step, num_steps) if has_steps else TimeRange(start_unix_time, duration)

    def _to_json(self) -> Dict[str, Any]:
        return self.range.to_json()

    def to_json_string(self) -> str:
        """The ``ProfilingParameters`` value for this config."""
        return metrics_config_string(self._to_json())

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self._to_json() == other._to_json()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.to_json_string()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._to_json()})"


class DetailedProfilingConfig(MetricsConfigBase):
    """Native framework profiler (TensorFlow/PyTorch) over a step or time range."""

    name = "DetailedProfilingConfig"
    default_start_step = 5


class DataloaderProfilingConfig(MetricsConfigBase):
    """Data loader events whose names match ``metrics_regex``."""

    name = "DataloaderProfilingConfig"
    default_start_step = 7

    def __init__(
        self,
        start_step: Optional[int] = None,
        num_steps: Optional[int] = None,
        start_unix_time: Optional[int] = None,
        duration: Optional[float] = None,
        profile_default_steps: bool = False,
        metrics_regex: str = ".*",
    ) -> None:
        super().__init__(start_step, num_steps, start_unix_time, duration, profile_default_steps)
        if not isinstance(metrics_regex, str):
            raise ConfigError(f"got {metrics_regex!r}", field="DataloaderProfilingConfig.metrics_regex", allowed="a regular expression string")
        try:
            re.compile(metrics_regex)
        except (re.error, RecursionError, OverflowError) as err:
            raise ConfigError(f"{metrics_regex!r} does not compile: {err}", field="DataloaderProfilingConfig.metrics_regex") from None
        self.metrics_regex = metrics_regex

    def _to_json(self) -> Dict[str, Any]:
        out = super()._to_json()
        out["MetricsRegex"] = self.metrics_regex
        return out


def _enum_value(enum_cls: Any, value: Any, field: str) -> Any:
    if isinstance(value, enum_cls):
        return value
    if isinstance(value, str):
        for member in enum_cls:
            if value.lower() in (member.value, member.name.lower()):
                return member
    allowed = ", ".join(f"{enum_cls.__name__}.{m.name}" for m in enum_cls)
    raise ConfigError(f"got {value!r}", field=field, allowed=allowed)


class PythonProfilingConfig(MetricsConfigBase):
    """cProfile or Pyinstrument over a step or time range."""

    name = "PythonProfilingConfig"
    default_start_step = 9
    default_num_steps = 3

    def __init__(
        self,
        start_step: Optional[int] = None,
        num_steps: Optional[int] = None,
        start_unix_time: Optional[int] = None,
        duration: Optional[float] = None,
        profile_default_steps: bool = False,
        python_profiler: PythonProfiler = PythonProfiler.CPROFILE,
        cprofile_timer: cProfileTimer = cProfileTimer.TOTAL_TIME,
    ) -> None:
        super().__init__(start_step, num_steps, start_unix_time, duration, profile_default_steps)
        if profile_default_steps:
            cprofile_timer = cProfileTimer.DEFAULT
        self.python_profiler = _enum_value(PythonProfiler, python_profiler, "PythonProfilingConfig.python_profiler")
        timer = _enum_value(cProfileTimer, cprofile_timer, "PythonProfilingConfig.cprofile_timer")
        self.cprofile_timer = None if self.python_profiler is PythonProfiler.PYINSTRUMENT else timer

    def _to_json(self) -> Dict[str, Any]:
        out = super()._to_json()
        out["ProfilerName"] = self.python_profiler.value
        if self.cprofile_timer is not None:
            out["cProfileTimer"] = self.cprofile_timer.value
        return out


class HorovodProfilingConfig(MetricsConfigBase):
    """Horovod timeline (rendered as the SDK does; smdebug 1.0.34 does not read it)."""

    name = "HorovodProfilingConfig"
    default_start_step = 13


class SMDataParallelProfilingConfig(MetricsConfigBase):
    """SageMaker data-parallel timeline."""

    name = "SMDataParallelProfilingConfig"
    default_start_step = 15


ALL_METRIC_CONFIGS = (
    DetailedProfilingConfig,
    DataloaderProfilingConfig,
    PythonProfilingConfig,
    HorovodProfilingConfig,
    SMDataParallelProfilingConfig,
)
_SLOTS = {
    "detailed_profiling_config": DetailedProfilingConfig,
    "dataloader_profiling_config": DataloaderProfilingConfig,
    "python_profiling_config": PythonProfilingConfig,
    "horovod_profiling_config": HorovodProfilingConfig,
    "smdataparallel_profiling_config": SMDataParallelProfilingConfig,
}


def _slot(cls: type):
    def check(instance: Any, attribute: Any, value: Any) -> None:
        if value is not None and not isinstance(value, cls):
            raise ConfigError(f"got {v.type_name(value)}", field=v.field_name(instance, attribute), allowed=f"a {cls.__name__}")

    return check


def _positive_int(instance: Any, attribute: Any, value: Any) -> None:
    v.integer(1, pipeline=False)(instance, attribute, value)


@attrs.define(eq=True, repr=True)
class FrameworkProfile:
    """Framework metrics (framework profiling) for ``ProfilerConfig(framework_profile_params=...)``.

    Give per-metric configs, or one step/time range for all five, or nothing for the SDK's
    default windows.

    >>> FrameworkProfile(start_step=2, num_steps=3).profiling_parameters["DetailedProfilingConfig"]
    '{"StartStep": 2, "NumSteps": 3, }'
    """

    local_path: str = attrs.field(default=BASE_FOLDER_DEFAULT, validator=v.container_path)
    file_max_size: int = attrs.field(default=MAX_FILE_SIZE_DEFAULT, validator=_positive_int)
    file_close_interval: Union[int, float] = attrs.field(default=CLOSE_FILE_INTERVAL_DEFAULT, validator=v.number(0))
    file_open_fail_threshold: int = attrs.field(default=FILE_OPEN_FAIL_THRESHOLD_DEFAULT, validator=_positive_int)
    detailed_profiling_config: Optional[DetailedProfilingConfig] = attrs.field(default=None, validator=_slot(DetailedProfilingConfig))
    dataloader_profiling_config: Optional[DataloaderProfilingConfig] = attrs.field(default=None, validator=_slot(DataloaderProfilingConfig))
    python_profiling_config: Optional[PythonProfilingConfig] = attrs.field(default=None, validator=_slot(PythonProfilingConfig))
    horovod_profiling_config: Optional[HorovodProfilingConfig] = attrs.field(default=None, validator=_slot(HorovodProfilingConfig))
    smdataparallel_profiling_config: Optional[SMDataParallelProfilingConfig] = attrs.field(default=None, validator=_slot(SMDataParallelProfilingConfig))
    start_step: Optional[int] = attrs.field(default=None)
    num_steps: Optional[int] = attrs.field(default=None)
    start_unix_time: Optional[int] = attrs.field(default=None)
    duration: Optional[float] = attrs.field(default=None)
    _override: Optional[Dict[str, str]] = attrs.field(default=None, init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        self._metric_configs()  # check the range fields now, not at render time

    def _metric_configs(self) -> list:
        explicit = [getattr(self, slot) for slot in _SLOTS if getattr(self, slot) is not None]
        if explicit:
            return explicit
        if any(x is not None for x in (self.start_step, self.num_steps, self.start_unix_time, self.duration)):
            built = []
            for cls in ALL_METRIC_CONFIGS:
                try:
                    built.append(cls(start_step=self.start_step, num_steps=self.num_steps, start_unix_time=self.start_unix_time, duration=self.duration))
                except ConfigError as err:
                    raise ConfigError(err.message, field=f"FrameworkProfile.{(err.field or '').split('.')[-1]}", allowed=err.allowed) from None
            return built
        return [cls(profile_default_steps=True) for cls in ALL_METRIC_CONFIGS]

    @property
    def profiling_parameters(self) -> Dict[str, str]:
        """The ``ProfilingParameters`` map, as the SDK's ``FrameworkProfile`` holds it."""
        if self._override is not None:
            return dict(self._override)
        params = {
            "LocalPath": self.local_path,
            "RotateMaxFileSizeInBytes": str(self.file_max_size),
            "RotateFileCloseIntervalInSeconds": str(self.file_close_interval),
            "FileOpenFailThreshold": str(self.file_open_fail_threshold),
        }
        for config in self._metric_configs():
            params[config.name] = config.to_json_string()
        return params

    @profiling_parameters.setter
    def profiling_parameters(self, value: Dict[str, str]) -> None:
        v.string_map(20)(self, attrs.fields(FrameworkProfile).local_path, value)
        self._override = dict(value)


def _duration_string(instance: Any, attribute: Any, value: Any) -> None:
    if v.parse_int(value) is None or v.parse_int(value) <= 0:
        raise ConfigError(f"got {value!r}", field=v.field_name(instance, attribute), allowed="a whole number of seconds > 0")


@attrs.define(eq=True, repr=True)
class Profiler:
    """The SageMaker Profiler (``ProfilerConfig(profile_params=Profiler())``).

    Adds a ``DetailedProfilerProcessingJobConfig`` processing rule when rendered (unless
    profiler rules are given or ``rules=[]``).
    """

    cpu_profiling_duration: str = attrs.field(default=str(CPU_PROFILING_DURATION), converter=str, validator=_duration_string)
    file_rotation_interval: str = attrs.field(default=str(FILE_ROTATION_INTERVAL_DEFAULT), converter=str, validator=_duration_string)
    instanceType: str = attrs.field(default=DETAIL_PROF_PROCESSING_DEFAULT_INSTANCE_TYPE, init=False)  # noqa: N815 - SDK name
    volumeSizeInGB: int = attrs.field(default=DETAIL_PROF_PROCESSING_DEFAULT_VOLUME_SIZE, init=False)  # noqa: N815

    @property
    def profiling_parameters(self) -> Dict[str, str]:
        return {"CPUProfilingDuration": self.cpu_profiling_duration, "SMPFileRotationSecs": self.file_rotation_interval}


def _disable(instance: Any, attribute: Any, value: Any) -> None:
    if v.is_pipeline_variable(value):
        return
    v.boolean(instance, attribute, value)


def _interval(instance: Any, attribute: Any, value: Any) -> None:
    if value is None or v.is_pipeline_variable(value):
        return
    if not v.is_int(value) or value <= 0:
        raise ConfigError(
            f"got {value!r}",
            field=v.field_name(instance, attribute),
            allowed="milliseconds as an integer: " + ", ".join(map(str, SYSTEM_MONITOR_INTERVALS_MS)),
        )


@attrs.define(eq=True, repr=True)
class ProfilerConfig:
    """System monitoring and framework profiling (the ``ProfilerConfig`` request field).

    >>> ProfilerConfig(s3_output_path="s3://bucket/p", system_monitor_interval_millis=500)._to_request_dict()
    {'S3OutputPath': 's3://bucket/p', 'DisableProfiler': False, 'ProfilingIntervalInMilliseconds': 500}
    """

    s3_output_path: Optional[str] = attrs.field(default=None, validator=v.optional(v.s3_uri))
    system_monitor_interval_millis: Optional[int] = attrs.field(default=None, validator=_interval)
    framework_profile_params: Optional[FrameworkProfile] = attrs.field(default=None, validator=_slot(FrameworkProfile))
    profile_params: Optional[Profiler] = attrs.field(default=None, validator=_slot(Profiler))
    disable_profiler: bool = attrs.field(default=False, validator=_disable)

    def __attrs_post_init__(self) -> None:
        if self.profile_params is not None and self.framework_profile_params is not None:
            raise ConfigError(
                "profile_params (the SageMaker Profiler) and framework_profile_params cannot be used together",
                field="ProfilerConfig",
                allowed="one of profile_params=Profiler() or framework_profile_params=FrameworkProfile()",
            )

    def _to_request_dict(self) -> Dict[str, Any]:
        """The request shape, as the SDK's object renders it (no defaults)."""
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
