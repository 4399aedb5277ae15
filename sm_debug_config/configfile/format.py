"""The config file format, described once: the reader, ``dump`` and ``config_schema()`` all read it.

Each object kind (``hook``, ``custom_rule``, ``profiler_config``...) is a :class:`Format`: its
keys in file order, each with the value kind it holds, the attribute (or constructor argument)
it maps to and a line of documentation, plus the required keys. The top level's settings keys
come from :class:`~sm_debug_config.model.settings.JobSettings` and ``DebuggerSetup``
themselves, so a new setting is one edit there (give it a ``metadata={"doc": ...}`` for a
better description than its name).

Value kinds are the scalar kinds of ``SCALARS`` (``string``, ``integer``...), the choice
lists of ``choices()`` and the names of other formats.
"""
from __future__ import annotations

import functools
from typing import Any, Dict, List, Optional, Tuple

import attrs

Entry = Tuple[str, str]  # (value kind, description), or (value kind, description, attribute)

SCALARS = ("string", "integer", "number", "boolean", "int_or_string", "string_list", "names_or_bool", "string_map", "hook_parameters", "collection_parameters", "rule_parameters")
DETAILED_PROFILER_RULE = "DetailedProfilerProcessingJobConfig"
RULE_KINDS = ("builtin", "custom", "custom_profiler", "rule", "profiler_rule")
METRIC_CLASSES = ("DetailedProfilingConfig", "DataloaderProfilingConfig", "PythonProfilingConfig", "HorovodProfilingConfig", "SMDataParallelProfilingConfig")


@attrs.frozen
class Key:
    """One key of an object: the value kind it holds, the attribute it maps to, its description."""

    name: str
    kind: str
    doc: str
    attr: str


@attrs.frozen
class Format:
    """One object kind of the format: keys in file order, required keys, what it is, the class it builds."""

    name: str
    what: str
    doc: str
    keys: Dict[str, Key]
    required: Tuple[str, ...] = ()
    cls: Optional[str] = None  # "module:Class" the reader builds and dump writes

    def build_class(self) -> Any:
        import importlib

        module, _, name = (self.cls or "").partition(":")
        return getattr(importlib.import_module(f"sm_debug_config.model.{module}"), name)

    def attr_key(self, attr: str) -> Optional[str]:
        """The key an attribute (or constructor argument) is written as."""
        return next((k.name for k in self.keys.values() if k.attr == attr), None)


def _keys(table: Dict[str, Tuple[str, ...]]) -> Dict[str, Key]:
    return {name: Key(name, entry[0], entry[1], entry[2] if len(entry) > 2 else name) for name, entry in table.items()}


def _without(table: Dict[str, Tuple[str, ...]], *names: str) -> Dict[str, Tuple[str, ...]]:
    return {k: val for k, val in table.items() if k not in names}


_ACTIONS_DOC = "What happens when the rule fires: a list (sent as an action list) of {stop_training: {}}, {email: address}, {sms: number}, or one such mapping."
_LOCAL_RULE_OUTPUT = ("string", "Directory in the rule container for the rule's output.")
_S3_RULE_OUTPUT = ("string", "S3 URI for the rule's output.")
_COLLECTIONS_READ = ("collections", "Collections the rule reads; merged into the hook's collections.", "collections_to_save")

_SETTING_DOCS: Dict[str, Entry] = {
    "region": ("string", "AWS region of the training job (e.g. us-east-1); picks the built-in rule images. May be given on the command line instead."),
    "output_path": ("string", "The Estimator's output_path (s3://bucket/prefix/): default S3 location of hook, profiler and rule output."),
    "job_name": ("string", "Training job name: StopTraining actions without a prefix stop this job; names the detailed-profiler rule."),
    "framework": ("framework", "Training framework; validation checks rules and collections against it."),
    "instance_type": ("string", "Training instance type (e.g. ml.p3.2xlarge); ml.trn* instances have no profiler."),
    "rule_image_uri": ("string", "Image URI for built-in rules, for a region missing from the built-in image table."),
    "defaults": ("defaults", "sdk: fill in the default hook and profiler as the SageMaker Python SDK v2 Estimator does; explicit: send only what this file asks for."),
    "disable_profiler": ("boolean", "true switches the profiler off (the Estimator's disable_profiler)."),
    "disable_debugger": ("boolean", "true switches SageMaker Debugger off entirely: no hook, profiler off (nothing Debugger-related may be configured)."),
    "debugger_hook_config": ("debugger_hook_config", "What the training-side hook saves (DebuggerHookConfig): a mapping, true for the default hook, or false for no hook."),
    "rules": ("rules", "Debugger and profiler rules: built in (builtin: Name), your own (custom:, custom_profiler:), or exact (rule:, profiler_rule:)."),
    "profiler_config": ("profiler_config", "System monitoring and framework profiling (ProfilerConfig)."),
    "tensorboard_output_config": ("tensorboard_output_config", "Where TensorBoard data goes (TensorBoardOutputConfig)."),
}
NOT_IN_FILES = ("validate",)  # JobSettings fields a config file does not set (render's caller decides)


def _setting_entry(field: Any) -> Entry:
    """A JobSettings/DebuggerSetup field's (kind, doc): its metadata, the table above, or from its default."""
    known = _SETTING_DOCS.get(field.name)
    kind = field.metadata.get("config_kind") or (known[0] if known else "boolean" if isinstance(field.default, bool) else "string")
    return kind, field.metadata.get("doc") or (known[1] if known else f"JobSettings.{field.name}.")


def top_keys() -> Dict[str, Key]:
    """The top level: ``$schema``, then every render input (JobSettings and DebuggerSetup fields)."""
    from sm_debug_config.model.settings import DebuggerSetup, JobSettings

    fields = [f for cls in (JobSettings, DebuggerSetup) for f in attrs.fields(cls) if f.name not in NOT_IN_FILES]
    order = list(_SETTING_DOCS)  # the documented order; a new setting goes after the known ones
    fields.sort(key=lambda f: order.index(f.name) if f.name in order else len(order))
    table: Dict[str, Tuple[str, ...]] = {"$schema": ("string", "URI of this file's JSON Schema, for editors; ignored by the loader.")}
    table.update({f.name: _setting_entry(f) for f in fields})
    return _keys(table)


_CUSTOM: Dict[str, Tuple[str, ...]] = {
    "name": ("string", "Rule configuration name shown in the job."),
    "image_uri": ("string", "Image the rule runs in (e.g. the region's sagemaker-debugger-rule-evaluator image)."),
    "instance_type": ("string", "Instance type of the rule's processing job, e.g. ml.m5.xlarge."),
    "volume_size_in_gb": ("integer", "Volume size of the rule's processing job in GB."),
    "source": ("string", "s3:// URI of the Python file that defines the rule (upload a local file first)."),
    "rule_to_invoke": ("string", "Name of the rule class in source."),
    "container_local_output_path": _LOCAL_RULE_OUTPUT,
    "s3_output_path": _S3_RULE_OUTPUT,
    "other_trials_s3_input_paths": ("string_list", "S3 debug output of other training jobs for the rule to read."),
    "rule_parameters": ("rule_parameters", "Parameters passed to the rule (values are sent as strings)."),
    "collections_to_save": _COLLECTIONS_READ,
    "actions": ("actions", _ACTIONS_DOC),
}
_RAW: Dict[str, Tuple[str, ...]] = {
    "name": ("string", "Rule configuration name."),
    "image_uri": ("string", "Image the rule runs in (DEFAULT_RULE_EVALUATOR_IMAGE: the region's built-in rule image)."),
    "instance_type": ("string", "Instance type of the rule's processing job."),
    "volume_size_in_gb": ("integer", "Volume size of the rule's processing job in GB."),
    "container_local_output_path": _LOCAL_RULE_OUTPUT,
    "s3_output_path": _S3_RULE_OUTPUT,
    "rule_parameters": ("rule_parameters", "RuleParameters exactly as sent (write values as strings)."),
    "collections_to_save": _COLLECTIONS_READ,
    "actions": ("actions", "What happens when the rule fires (sent as action_json)."),
}
BUILTIN_COMMON: Dict[str, Tuple[str, ...]] = {
    "builtin": ("builtin_name", "Name of a built-in rule (case-insensitive): a debugger rule such as VanishingGradient or a profiler rule such as ProfilerReport."),
    "name": ("string", "Rule configuration name shown in the job (defaults to the built-in name)."),
    "rule_parameters": ("rule_parameters", "Rule parameters, checked against the rule's documented parameters."),
    "container_local_output_path": _LOCAL_RULE_OUTPUT,
    "s3_output_path": _S3_RULE_OUTPUT,
}
BUILTIN_DEBUGGER_ONLY: Dict[str, Tuple[str, ...]] = {
    "collections_to_save": ("collections", "Debugger rules: collections the rule reads, replacing the rule's default collections."),
    "actions": ("actions", "Debugger rules: " + _ACTIONS_DOC[0].lower() + _ACTIONS_DOC[1:]),
    "other_trials_s3_input_paths": ("string_list", "Debugger rules: S3 debug output of other training jobs to compare with (SimilarAcrossRuns)."),
    "allow_unknown_parameters": ("names_or_bool", "Debugger rules: true, or a list of parameter names, lets parameters (or a rule) newer than this catalogue through with a warning."),
}
BUILTIN_PROFILER_ONLY: Dict[str, Tuple[str, ...]] = {
    "instance_type": ("string", "Profiler rules: instance type of the rule's processing job (built-in rules run on managed instances; only the detailed profiler uses it)."),
    "volume_size_in_gb": ("integer", "Profiler rules: volume size of the rule's processing job (as instance_type)."),
}
DETAILED_RULE_KEYS = ("builtin", "name", "instance_type", "volume_size_in_gb", "container_local_output_path", "s3_output_path")
_METRIC: Dict[str, Tuple[str, ...]] = {
    "start_step": ("integer", "First step to profile."),
    "num_steps": ("integer", "Number of steps to profile."),
    "start_unix_time": ("integer", "Start of the time range, in Unix seconds."),
    "duration": ("number", "Length of the time range in seconds."),
    "profile_default_steps": ("boolean", "true profiles the SDK's default steps for this metric."),
}
_METRIC_EXTRA: Dict[str, Dict[str, Tuple[str, ...]]] = {
    "DataloaderProfilingConfig": {"metrics_regex": ("string", "Regular expression of the data loader events to record (default .*).")},
    "PythonProfilingConfig": {
        "python_profiler": ("python_profiler", "Python profiler: cprofile (default) or pyinstrument."),
        "cprofile_timer": ("cprofile_timer", "Clock cProfile measures with: total_time (default), cpu_time, off_cpu_time or default."),
    },
}
_METRIC_DOCS = {
    "DetailedProfilingConfig": "Native framework profiler (TensorFlow/PyTorch) over a step or time range.",
    "DataloaderProfilingConfig": "Data loader events over a step or time range.",
    "PythonProfilingConfig": "cProfile or Pyinstrument over a step or time range.",
    "HorovodProfilingConfig": "Horovod timeline over a step or time range.",
    "SMDataParallelProfilingConfig": "SageMaker data-parallel timeline over a step or time range.",
}


def _metric_slot(class_name: str) -> str:
    return class_name.replace("Profiling", "_profiling").replace("Config", "_config").lower()


@functools.lru_cache(maxsize=None)
def formats() -> Dict[str, Format]:
    """Every object kind of the format, by name (the names of the schema's ``$defs``)."""
    out = [
        Format("config", "the config", "SageMaker Debugger settings of a training job, mirroring the sm_debug_config Python API.", top_keys()),
        Format("debugger_hook_config", "debugger_hook_config", "DebuggerHookConfig, or true/false.", _keys({
            "s3_output_path": ("string", "S3 URI the saved tensors go to; defaults to output_path."),
            "container_local_output_path": ("string", "Directory in the training container the hook writes to (default /opt/ml/output/tensors)."),
            "hook_parameters": ("hook_parameters", "HookParameters: hook-wide settings such as save_interval, include_regex, reductions (values are sent as strings)."),
            "collection_configs": ("collections", "Tensor collections to save: a collection name, or {name, parameters}."),
        }), cls="hook:DebuggerHookConfig"),
        Format("collection", "a collection", "A collection: its name, or {name, parameters}.", _keys({
            "name": ("string", "Collection name: built in (gradients, weights, losses...) or your own with an include_regex."),
            "parameters": ("collection_parameters", "CollectionParameters such as include_regex, save_interval, save_steps, reductions (values are sent as strings)."),
        }), required=("name",), cls="hook:CollectionConfig"),
        Format("builtin_rule", "a rule", "A built-in rule from the catalogue.", _keys({**BUILTIN_COMMON, **BUILTIN_DEBUGGER_ONLY, **BUILTIN_PROFILER_ONLY}), required=("builtin",)),
        Format("custom_rule", "a custom rule", "Your own debugger rule (Rule.custom).", _keys(_CUSTOM), required=("name", "image_uri", "instance_type", "volume_size_in_gb"), cls="rules:Rule"),
        Format("custom_profiler_rule", "a custom_profiler rule", "Your own profiler rule (ProfilerRule.custom).",
               _keys(_without(_CUSTOM, "other_trials_s3_input_paths", "collections_to_save", "actions")), required=("name", "image_uri", "instance_type", "volume_size_in_gb"), cls="rules:ProfilerRule"),
        Format("exact_rule", "a rule entry", "A debugger rule exactly as the Rule constructor takes it (what dump writes when no builtin:/custom: entry rebuilds the rule).",
               _keys(_RAW), required=("name", "image_uri"), cls="rules:Rule"),
        Format("exact_profiler_rule", "a profiler_rule entry", "A profiler rule exactly as the ProfilerRule constructor takes it.",
               _keys(_without(_RAW, "collections_to_save", "actions")), required=("name", "image_uri"), cls="rules:ProfilerRule"),
        Format("action", "an action ({stop_training: {}}, {email: address} or {sms: number})", "One rule action.", _keys({
            "stop_training": ("stop_training", "Stop the training job: {} (or empty) stops the job named by job_name, {training_job_prefix: prefix} the one job whose name starts with it."),
            "email": ("string", "Email address notified through the SNS topic SMDebugRules."),
            "sms": ("string", "Phone number in E.164 form (quoted, e.g. '+14155550100') notified through the SNS topic SMDebugRules."),
        })),
        Format("stop_training", "stop_training", "StopTraining settings.", _keys({
            "training_job_prefix": ("string", "Stop the one in-progress training job whose name starts with this prefix."),
        }), cls="actions:StopTraining"),
        Format("profiler_config", "profiler_config", "ProfilerConfig.", _keys({
            "s3_output_path": ("string", "S3 URI for profiler output; defaults to output_path."),
            "system_monitor_interval_millis": ("integer", "System metrics interval in milliseconds: 100, 200, 500, 1000, 5000 or 60000."),
            "framework_profile_params": ("framework_profile", "Framework metrics (FrameworkProfile); cannot be combined with profile_params."),
            "profile_params": ("profiler", "The SageMaker Profiler (Profiler); cannot be combined with framework_profile_params."),
            "disable_profiler": ("boolean", "true sends DisableProfiler: true."),
        }), cls="profiler:ProfilerConfig"),
        Format("framework_profile", "framework_profile_params", "FrameworkProfile.", _keys({
            "local_path": ("string", "Directory in the training container for framework trace files (default /opt/ml/output/profiler)."),
            "file_max_size": ("integer", "Trace file size in bytes that starts a new file (default 10485760)."),
            "file_close_interval": ("number", "Seconds after which a trace file is closed (default 60)."),
            "file_open_fail_threshold": ("integer", "Failed file opens before the trace writer gives up (default 50)."),
            "start_step": ("integer", "One step range for all five metric configs: first step."),
            "num_steps": ("integer", "One step range for all five metric configs: number of steps."),
            "start_unix_time": ("integer", "One time range for all five metric configs: start, in Unix seconds."),
            "duration": ("number", "One time range for all five metric configs: length in seconds."),
            **{_metric_slot(name): (name, _METRIC_DOCS[name]) for name in METRIC_CLASSES},
            "profiling_parameters": ("string_map", "The raw ProfilingParameters map, sent as is (replaces every other key here)."),
        }), cls="profiler:FrameworkProfile"),
        Format("profiler", "profile_params", "The SageMaker Profiler.", _keys({
            "cpu_profiling_duration": ("int_or_string", "Seconds of CPU profiling (default 3600)."),
            "file_rotation_interval": ("int_or_string", "Seconds after which a profiler file rotates (default 600)."),
        }), cls="profiler:Profiler"),
        Format("tensorboard_output_config", "tensorboard_output_config", "TensorBoardOutputConfig.", _keys({
            "s3_output_path": ("string", "S3 URI TensorBoard data is uploaded to."),
            "container_local_output_path": ("string", "Directory in the training container the data is written to."),
        }), required=("s3_output_path",), cls="hook:TensorBoardOutputConfig"),
    ]
    for name in METRIC_CLASSES:
        out.append(Format(name, _metric_slot(name), f"{name}: a step range (start_step, num_steps) or a time range (start_unix_time, duration).",
                          _keys({**_METRIC, **_METRIC_EXTRA.get(name, {})}), cls=f"profiler:{name}"))
    return {f.name: f for f in out}


def choices(kind: str) -> Optional[List[str]]:
    """The allowed values of a choice kind (``framework``, ``defaults``, ``python_profiler``, ``cprofile_timer``), else None."""
    if kind == "framework":
        from sm_debug_config.model.catalogue import FRAMEWORKS

        return list(FRAMEWORKS)
    if kind == "defaults":
        from sm_debug_config.model.settings import DEFAULTS_MODES

        return list(DEFAULTS_MODES)
    if kind in ("python_profiler", "cprofile_timer"):
        from sm_debug_config.model import profiler

        return [m.value for m in (profiler.PythonProfiler if kind == "python_profiler" else profiler.cProfileTimer)]
    return None


def table(name: str) -> Dict[str, Tuple[str, str]]:
    """``{key: (kind, doc)}`` of a format (the shape of the old key tables)."""
    return {k.name: (k.kind, k.doc) for k in formats()[name].keys.values()}
