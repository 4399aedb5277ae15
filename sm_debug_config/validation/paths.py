"""Checks of places: container paths (LocalPath, reserved TensorBoard paths) and regions
(the rule image's region, Debugger and profiler support in the job's region)."""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Tuple

from sm_debug_config.errors import WARNING, PathT, shorten
from sm_debug_config.findings import Finding, declare
from sm_debug_config.fixes import SET, UNSAFE, Change, Fix
from sm_debug_config.model import regions
from sm_debug_config.model.regions import SMD161
from sm_debug_config.model.hook import SMD154, reserved_prefix
from sm_debug_config.model.hookparams import SMD153
from sm_debug_config.model.validators import local_path_removal
from sm_debug_config.validation.registry import Context, check, mapping


@check(SMD153)
def _local_paths(ctx: Context) -> Iterator[Finding]:
    for path, value in _local_path_values(ctx):
        if not value.startswith("/"):
            yield SMD153.at(
                path,
                f"LocalPath {shorten(value)} is not an absolute path inside the container; "
                "it is resolved against the working directory",
                fix=local_path_removal(path),
            )


def _local_path_values(ctx: Context) -> Iterator[Tuple[PathT, str]]:
    places: List[Tuple[Tuple[Any, ...], Dict[str, Any]]] = [
        ((f,), ctx.field(f)) for f in ("DebugHookConfig", "TensorBoardOutputConfig")
    ]
    places += [((field, index), rule) for field, index, rule in ctx.rules()]
    profiling = mapping(ctx.field("ProfilerConfig").get("ProfilingParameters"))
    places.append((("ProfilerConfig", "ProfilingParameters"), profiling))
    for where, config in places:
        if isinstance(config.get("LocalPath"), str):
            yield (*where, "LocalPath"), config["LocalPath"]


@check(SMD154)
def _reserved_local_paths(ctx: Context) -> Iterator[Finding]:
    config = ctx.field("TensorBoardOutputConfig")
    if isinstance(config.get("LocalPath"), str):
        prefix = reserved_prefix("TensorBoardOutputConfig", config["LocalPath"])
        if prefix is not None:
            where = ("TensorBoardOutputConfig", "LocalPath")
            yield SMD154.at(
                where,
                f"LocalPath {shorten(config['LocalPath'])} starts with the reserved {prefix}; "
                "CreateTrainingJob refuses it (use e.g. /tensorboard)",
                fix=local_path_removal(where),
            )


SMD151 = declare(
    "SMD151",
    WARNING,
    "A rule image lives in another region than the job.",
    "The rule job pulls the image across regions, which may work or be denied by the registry's policy; "
    "not a request rejection.",
)


@check(SMD151)
def _image_region(ctx: Context) -> Iterator[Finding]:
    if not ctx.region:
        return
    for field, index, rule in ctx.rules():
        image = rule.get("RuleEvaluatorImage")
        image_region = regions.region_of_image(image) if isinstance(image, str) else None
        if image_region and image_region != ctx.region:
            where = (field, index, "RuleEvaluatorImage")
            same = regions.same_image_in(image, ctx.region) if isinstance(image, str) else None
            yield SMD151.at(
                where,
                f"the image is in {image_region} but the job runs in {ctx.region}; pulls cross regions or fail",
                fix=Fix(UNSAFE, f"use the same rule image in {ctx.region}", (Change(SET, where, same),))
                if same is not None else None,
            )


@check(SMD161)
def _region_support(ctx: Context) -> Iterator[Finding]:
    if not ctx.region:
        return
    if not regions.supports_debugger(ctx.region):
        for field in ("DebugHookConfig", "DebugRuleConfigurations"):
            if ctx.get(field):
                yield SMD161.at((field,), f"region {ctx.region} does not support SageMaker Debugger")
    if not regions.supports_profiler(ctx.region):
        config = ctx.get("ProfilerConfig")
        if (isinstance(config, dict) and config.get("DisableProfiler") is not True) or ctx.get(
            "ProfilerRuleConfigurations"
        ):
            yield SMD161.at(
                ("ProfilerConfig",), f"region {ctx.region} has no SageMaker profiler; set DisableProfiler true"
            )
