"""The config file format, described once in ``data/config_format.json``: the reader,
``dump`` and ``config_schema()`` read it.

Each object kind (``debugger_hook_config``, ``custom_rule``, ``profiler_config``...) is a
:class:`Format`: its keys in file order, each with its value kind and a line of documentation,
plus the required keys and the class it builds. A key is the constructor argument it sets. The
top level's settings keys come from :class:`~sm_debug_config.model.settings.JobSettings` and
``DebuggerSetup`` themselves, so a new setting is one edit there (give it a
``metadata={"doc": ...}`` for a better description than its name).
"""
from __future__ import annotations

import functools
from typing import Any, Dict, List, Optional, Tuple

import attrs

from sm_debug_config import datafiles
from sm_debug_config.model.actions import StopTraining
from sm_debug_config.model.catalogue import FRAMEWORKS
from sm_debug_config.model.hook import CollectionConfig, DebuggerHookConfig, TensorBoardOutputConfig
from sm_debug_config.model.profiler import (
    DataloaderProfilingConfig,
    DetailedProfilingConfig,
    FrameworkProfile,
    HorovodProfilingConfig,
    Profiler,
    ProfilerConfig,
    PythonProfiler,
    PythonProfilingConfig,
    SMDataParallelProfilingConfig,
    cProfileTimer,
)
from sm_debug_config.model.rules import ProfilerRule, Rule
from sm_debug_config.model.settings import DEFAULTS_MODES, DebuggerSetup, JobSettings


def data() -> Any:
    """The parsed ``data/config_format.json``."""
    return datafiles.load("config_format")


DETAILED_PROFILER_RULE = "DetailedProfilerProcessingJobConfig"
NOT_IN_FILES = ("validate",)  # JobSettings fields a config file does not set (render's caller decides)


@functools.lru_cache(maxsize=None)
def model_names() -> Dict[str, Any]:
    """The classes (and lists of choices) of the model that ``data/config_format.json`` names, by name.

    An explicit table, so that a reader can follow ``"class": "DebuggerHookConfig"`` to its class;
    built on first use (the model's profiler classes are not needed to start the CLI).
    """

    return {
        "DebuggerHookConfig": DebuggerHookConfig,
        "CollectionConfig": CollectionConfig,
        "TensorBoardOutputConfig": TensorBoardOutputConfig,
        "Rule": Rule,
        "ProfilerRule": ProfilerRule,
        "StopTraining": StopTraining,
        "ProfilerConfig": ProfilerConfig,
        "FrameworkProfile": FrameworkProfile,
        "Profiler": Profiler,
        "DetailedProfilingConfig": DetailedProfilingConfig,
        "DataloaderProfilingConfig": DataloaderProfilingConfig,
        "PythonProfilingConfig": PythonProfilingConfig,
        "HorovodProfilingConfig": HorovodProfilingConfig,
        "SMDataParallelProfilingConfig": SMDataParallelProfilingConfig,
        "FRAMEWORKS": FRAMEWORKS,
        "DEFAULTS_MODES": DEFAULTS_MODES,
        "PythonProfiler": PythonProfiler,
        "cProfileTimer": cProfileTimer,
    }


@attrs.define(eq=True)
class Key:
    """One key of an object: the value kind it holds, its description, the rule kind it is only for."""

    name: str
    kind: str
    doc: str
    only: Optional[str] = None  #: "debugger"/"profiler": a built-in rule key for that kind of rule only


@attrs.define(eq=True)
class Format:
    """One object kind of the format: keys in file order, required keys, what it is, the class it builds."""

    name: str
    what: str
    doc: str
    keys: Dict[str, Key]
    required: Tuple[str, ...] = ()
    cls: Optional[str] = None  #: the class the reader builds and dump writes (a key of model_names())
    alternatives: Tuple[Any, ...] = ()  #: JSON Schemas the value may have instead of the object
    schema: Dict[str, Any] = attrs.field(factory=dict, converter=lambda value: {} if value is None else value)
    """JSON Schema keywords besides the object's."""

    def build_class(self) -> Any:
        return model_names()[self.cls or ""]

    def only(self, kind: str) -> List[str]:
        return [k.name for k in self.keys.values() if k.only == kind]


def _setting_keys(described: Dict[str, Key]) -> Dict[str, Key]:
    """``$schema``, then every render input (JobSettings and DebuggerSetup fields),
    described by their metadata or the file."""

    out = {"$schema": described["$schema"]}
    order = list(described)  # the documented order; a new setting goes after the known ones
    fields = [f for cls in (JobSettings, DebuggerSetup) for f in attrs.fields(cls) if f.name not in NOT_IN_FILES]
    for field in sorted(fields, key=lambda f: order.index(f.name) if f.name in order else len(order)):
        known = described.get(field.name)
        kind = field.metadata.get("config_kind") or (
            known.kind if known else "boolean" if isinstance(field.default, bool) else "string"
        )
        out[field.name] = Key(
            field.name, kind, field.metadata.get("doc") or (known.doc if known else f"JobSettings.{field.name}.")
        )
    return out


@functools.lru_cache(maxsize=None)
def formats() -> Dict[str, Format]:
    """Every object kind of the format, by name (the names of the schema's ``$defs``)."""
    out: Dict[str, Format] = {}
    for name, entry in data()["formats"].items():
        keys = (
            {k: key for k, key in out[entry["like"]].keys.items() if k not in entry.get("without", ())}
            if "like" in entry
            else {}
        )
        keys.update({k: Key(k, *spec) for k, spec in entry.get("keys", {}).items()})
        out[name] = Format(
            name,
            entry["what"],
            entry["doc"],
            _setting_keys(keys) if name == "config" else keys,
            tuple(entry.get("required", ())),
            entry.get("class"),
            tuple(entry.get("or", ())),
            entry.get("schema", {}),
        )
    return out


def rule_entries() -> Dict[str, str]:
    """``{entry key: format}`` of the rules written as ``custom:``, ``custom_profiler:``, ``rule:``,
    ``profiler_rule:``."""
    return data()["rule_entries"]  # type: ignore[no-any-return]


def detailed_profiler_keys() -> List[str]:
    """The keys a ``builtin: DetailedProfilerProcessingJobConfig`` entry takes."""
    return data()["detailed_profiler_keys"]  # type: ignore[no-any-return]


def choices(kind: str) -> Optional[List[str]]:
    """The allowed values of a choice kind (``framework``, ``defaults``, ``python_profiler``, ``cprofile_timer``),
    else None."""
    ref = data()["choices"].get(kind)
    if ref is None:
        return None
    found = model_names()[ref[0]]
    return [getattr(m, "value", m) for m in found]


def table(name: str) -> Dict[str, Tuple[str, str]]:
    """``{key: (kind, doc)}`` of a format (the shape of the old key tables)."""
    return {k.name: (k.kind, k.doc) for k in formats()[name].keys.values()}
