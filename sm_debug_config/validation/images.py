"""Checks that need the job's training image: will the hook and framework profiling run there?

The image comes from, in this order: the ``image_uri`` given to :func:`validate`, the request's
``AlgorithmSpecification.TrainingImage`` (a whole ``CreateTrainingJob`` request), or
``framework`` + ``framework_version``. :func:`~sm_debug_config.model.images.image_verdict`
places it in ``data/containers.json``; an image it cannot place (a custom image, a pipeline
expression) gives no finding: what it contains is not known. Also here: ``save_steps`` beside
the ``save_interval`` in effect (SMD173, SMD174).

Every message is one line of fewer than :data:`MESSAGE_LIMIT` characters: the verdict in a few
words and what to do. The evidence is in the declarations (``sm-debug-config checks``) and, per
image, in the verdict that ``explain`` prints (its reason, sources and what is unconfirmed).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Tuple

from sm_debug_config.apischema import SMD001, is_pipeline_expression
from sm_debug_config.errors import INFO, WARNING, shorten
from sm_debug_config.findings import Finding, declare
from sm_debug_config.fixes import SET, UNSAFE, Change, Fix
from sm_debug_config.model import catalogue
from sm_debug_config.validation.profiler import FRAMEWORK_PROFILING_KEYS
from sm_debug_config.validation.rules import builtin_name
from sm_debug_config.validation.registry import Context, check, mapping

if TYPE_CHECKING:
    from sm_debug_config.model.images import ImageVerdict

_SAVE_CONFIG = (
    "smdebug 1.0.34 core/save_config.py SaveConfigMode.should_save_step; core/json_config.py "
    "parse_save_config_modes_dict."
)
_MODES = ("train", "eval", "predict", "global")
_DEFAULT_INTERVAL = "500"
#: Messages are shorter than this; a user's value in one (a version, a rule name) is clipped to fit.
MESSAGE_LIMIT = 200
_VALUE_WIDTH = 24


def job_image(ctx: Context) -> Optional["ImageVerdict"]:
    """The :class:`~sm_debug_config.model.images.ImageVerdict` of the job's image, or ``None`` (computed once)."""
    return ctx.once("image_verdict", lambda: _place(ctx))


def _place(ctx: Context) -> Optional["ImageVerdict"]:
    image_uri = ctx.image_uri
    if image_uri is None:
        training_image = mapping(ctx.get("AlgorithmSpecification")).get("TrainingImage")
        image_uri = training_image if isinstance(training_image, str) else None
    version = ctx.framework_version
    if image_uri is None and (ctx.framework is None or not isinstance(version, str)):
        return None  # nothing to place (a config file seldom names the image): the image table is not loaded

    from sm_debug_config.model.images import image_verdict  # its tables only for a job whose image is known

    return image_verdict(framework=ctx.framework, framework_version=version, image_uri=image_uri)


def _image_text(verdict: "ImageVerdict", *, line: bool = True) -> str:
    """``the PyTorch 2.3 image`` (``line``: with the image line when it is not the framework's own)."""
    named = f" ({verdict.line})" if line and verdict.line != verdict.framework else ""
    return f"the {verdict.title} {_clip(verdict.version)}{named} image"


def _clip(text: str, width: int = _VALUE_WIDTH) -> str:
    """``text`` cut to ``width`` characters (a user's value in a message)."""
    return text if len(text) <= width else text[: width - 3] + "..."


def _fitting(*messages: str) -> str:
    """The first message shorter than :data:`MESSAGE_LIMIT` (the last one is built to be)."""
    return next((m for m in messages if len(m) < MESSAGE_LIMIT), messages[-1])


def _named(kind: str, names: List[str]) -> Tuple[str, str]:
    """``("rule VanishingGradient", "1 rule")``: the items by name, and by count."""
    plural = "" if len(names) == 1 else "s"
    listed = ", ".join(_clip(name) for name in names)
    return f"{kind}{plural} {listed}", f"{len(names)} {kind}{plural}"


def is_default_hook(hook: Any) -> bool:
    """True for the hook the SDK adds on its own: an S3 path (and LocalPath), no collections, no parameters."""
    return isinstance(hook, dict) and not hook.get("CollectionConfigurations") and not hook.get("HookParameters")


SMD170 = declare(
    "SMD170",
    WARNING,
    "The job's training image does not run the Debugger hook: the hook saves nothing and debugger rules see no "
    "tensors.",
    "data/containers.json: each image row's sources (Dockerfile or lock file at a commit; smdebug's version check "
    "per release), printed per image by explain. Where smdebug is missing but would run, nothing in the image "
    "creates the hook: the script must (script_hooks: smdebug 1.0.34 Hook.create_from_json_file, register_module/"
    "register_block). smdebug imports distutils, gone in Python 3.12: it imports there only with setuptools, which "
    "torch requires on 3.12 (smdebug_imports: measured on Python 3.12.1 with torch 2.8.0).",
)
SMD172 = declare(
    "SMD172",
    INFO,
    'The hook the SDK adds by default (no collections, no rules) does nothing on the job\'s image; '
    'defaults="explicit" leaves it out.',
    "sagemaker.estimator.EstimatorBase._prepare_debugger_for_training adds DebuggerHookConfig(s3_output_path=...) "
    "by default.",
)


@check(SMD170, SMD172, reads=("DebugHookConfig", "DebugRuleConfigurations"))
def _hook_on_image(ctx: Context) -> Iterator[Finding]:
    hook = ctx.get("DebugHookConfig")
    rules = [rule.get("RuleConfigurationName", index) for _field, index, rule in ctx.rules("DebugRuleConfigurations")]
    if not isinstance(hook, dict) and not rules:
        return
    verdict = job_image(ctx)
    if verdict is None or verdict.hook_runs is not False:
        return
    todo = f"; {verdict.action}" if verdict.action else ""
    off = verdict.hook_off or "does not run the hook"
    fix = _image_fix(ctx)
    if rules:
        by_name, by_count = _named("rule", [str(r) for r in rules])
        verb = "sees" if len(rules) == 1 else "see"
        yield SMD170.at(
            ("DebugRuleConfigurations",),
            _fitting(
                f"{_image_text(verdict)} {off}: {by_name} {verb} no tensors{todo}",
                f"{_image_text(verdict, line=False)} {off}: {by_count} {verb} no tensors{todo}",
                f"the image {off}{todo}",
            ),
            fix=fix,
        )
    if isinstance(hook, dict):
        if is_default_hook(hook) and not rules:
            leave_out = (
                'the hook the SDK adds by default saves nothing; defaults="explicit" or debugger_hook_config=False '
                "leaves it out"
            )
            yield SMD172.at(
                ("DebugHookConfig",),
                _fitting(f"{_image_text(verdict, line=False)} {off}: {leave_out}", f"the image {off}: {leave_out}"),
            )
        elif not is_default_hook(hook):
            yield SMD170.at(
                ("DebugHookConfig",),
                _fitting(
                    f"{_image_text(verdict)} {off}: nothing is saved{todo}",
                    f"{_image_text(verdict, line=False)} {off}: nothing is saved{todo}",
                    f"the image {off}{todo}",
                ),
                fix=fix,
            )


def _image_fix(ctx: Context) -> Optional[Fix]:
    """SMD170's unsafe fix: the request's training image named at the nearest version of its framework that runs the
    hook (:func:`~sm_debug_config.model.images.hook_running_image`); None when the image is not the request's (given
    as ``image_uri``) or has no such version. Unsafe: the framework version changes, the script is not."""
    image = mapping(ctx.get("AlgorithmSpecification")).get("TrainingImage")
    if ctx.image_uri is not None or not isinstance(image, str):
        return None

    from sm_debug_config.model.images import hook_running_image  # loaded already: the verdict came from it

    new = hook_running_image(image)
    if new is None:
        return None
    return Fix(UNSAFE, f"run the job on {shorten(new.rpartition('/')[2])}, whose image runs the hook",
               (Change(SET, ("AlgorithmSpecification", "TrainingImage"), new),))


SMD171 = declare(
    "SMD171",
    WARNING,
    "Framework profiling is configured for a training image where it is not supported.",
    "data/containers.json framework_profiling; "
    "docs.aws.amazon.com/sagemaker/latest/dg/debugger-configure-framework-profiling.html.",
)


@check(SMD001)
def _image_known_at_run_time(ctx: Context) -> Iterator[Finding]:
    """A training image computed at run time (an intrinsic function, a Terraform reference, a pipeline variable) leaves
    "will the hook run?" unanswered: said, and counted as not checked, rather than passed over."""
    image = mapping(ctx.get("AlgorithmSpecification")).get("TrainingImage")
    if ctx.image_uri is None and is_pipeline_expression(image) and (
            ctx.get("DebugHookConfig") or ctx.get("DebugRuleConfigurations")):
        yield SMD001.at(("AlgorithmSpecification", "TrainingImage"), "the training image is known only at run "
                        "time: whether it runs the Debugger hook (SMD170) is not checked")


@check(SMD171, reads=("ProfilerConfig",))
def _framework_profiling_on_image(ctx: Context) -> Iterator[Finding]:
    config = ctx.field("ProfilerConfig")
    params = mapping(config.get("ProfilingParameters"))
    keys = [key for key in FRAMEWORK_PROFILING_KEYS if key in params]
    if not keys or config.get("DisableProfiler") is True:
        return
    verdict = job_image(ctx)
    if verdict is None or verdict.framework_profiling is not False:
        return
    by_count = _named("key", keys)[1]
    verb = "is" if len(keys) == 1 else "are"
    first = f"{keys[0]} and {len(keys) - 1} more" if len(keys) > 1 else keys[0]
    yield SMD171.at(
        ("ProfilerConfig", "ProfilingParameters"),
        _fitting(
            *(
                f"{_image_text(verdict, line=False)} does not support framework profiling: {keys_text} {verb} not "
                "collected (system metrics are); use the framework's own profiler"
                for keys_text in (", ".join(keys), first, by_count)
            )
        ),
    )


# --- save_steps beside the save_interval in effect -------------------------------------------
# smdebug's SaveConfigMode.should_save_step saves a step in save_steps *or* in [start_step, end_step)
# and divisible by save_interval: the list adds to the interval (500 unless set), although the class
# docstring says "Overrides save_interval". end_step "0" leaves only the listed steps.


def _level_setting(params: Dict[str, Any], mode: str, key: str) -> Tuple[Optional[str], Optional[str]]:
    """``(value, key it came from)`` of ``key`` for ``mode`` in one parameter map (mode key wins)."""
    for name in (f"{mode}.{key}", key):
        if name in params:
            return params[name], name
    return None, None


_NOT_DEFAULTS = (
    " Not reported for a built-in rule's own default collection (create_xgboost_report()'s hyperparameters, "
    "save_steps 0): the SDK sends it as the rule sets it, and the rule reads the steps it lists."
)
SMD173 = declare(
    "SMD173",
    WARNING,
    "save_steps with no save_interval set anywhere: smdebug's default interval (500) still saves too; "
    "save_steps adds, it does not replace.",
    _SAVE_CONFIG + _NOT_DEFAULTS,
)
SMD174 = declare(
    "SMD174",
    INFO,
    "save_steps beside a save_interval inherited from HookParameters: both apply (the union of their steps).",
    _SAVE_CONFIG + _NOT_DEFAULTS,
)


def rule_default_of(ctx: Context, name: Any, params: Dict[str, Any]) -> Optional[str]:
    """The built-in rule of the request whose default collection ``name`` has exactly ``params``: a collection the
    user did not write (a rule without collections_to_save sends its defaults), else None."""
    for _field, _index, rule in ctx.rules("DebugRuleConfigurations"):
        builtin = builtin_name(rule)
        entry = catalogue.rules("debugger").get(builtin) if builtin is not None else None
        for default in catalogue.default_collections(entry) if entry is not None else []:
            if default.get("CollectionName") == name and mapping(default.get("CollectionParameters")) == params:
                return builtin
    return None


@check(SMD173, SMD174, reads=("DebugHookConfig",))
def _save_steps_added(ctx: Context) -> Iterator[Finding]:
    hook = ctx.get("DebugHookConfig")
    if not isinstance(hook, dict):
        return
    hook_params = mapping(hook.get("HookParameters"))
    places: List[Tuple[Tuple[Any, ...], Dict[str, Any], Optional[Dict[str, Any]]]] = [
        (("DebugHookConfig", "HookParameters"), hook_params, None)
    ]
    places += [
        (
            ("DebugHookConfig", "CollectionConfigurations", index, "CollectionParameters"),
            mapping(coll.get("CollectionParameters")),
            hook_params,
        )
        for index, coll in ctx.collections()
        if rule_default_of(ctx, coll.get("CollectionName"), mapping(coll.get("CollectionParameters"))) is None
    ]
    for where, params, parent in places:
        for key, modes, interval, origin in _steps_with_inherited_interval(params, parent):
            which = "every mode" if len(modes) == len(_MODES) else ", ".join(modes)
            only = 'end_step "0" beside it saves only the listed steps'
            if origin is None:
                yield SMD173.at(
                    (*where, key),
                    f"{key} adds to smdebug's default save_interval {_DEFAULT_INTERVAL} ({which}): steps 0, 500, "
                    f"1000... are saved too; {only} (or set save_interval)",
                )
            else:
                yield SMD174.at(
                    (*where, key),
                    f"{key} adds to save_interval {_clip(repr(interval))} from HookParameters {origin} ({which}): "
                    f"both are saved; {only}",
                )


def _steps_with_inherited_interval(
    params: Dict[str, Any], parent: Optional[Dict[str, Any]]
) -> Iterator[Tuple[str, List[str], Any, Optional[str]]]:
    """``(save_steps key, modes, interval, where the interval came from)`` where a map's save_steps meets an interval
    it did not set.

    ``where`` is the HookParameters key, or ``None`` for smdebug's default. Modes whose
    interval saving is off (end_step "0" at any level) are left out: only the list saves there.
    """
    found: Dict[Tuple[str, Any, Optional[str]], List[str]] = {}
    for mode in _MODES:
        steps, steps_key = _level_setting(params, mode, "save_steps")
        if steps_key is None or not isinstance(steps, str) or not steps.strip():
            continue
        if _level_setting(params, mode, "save_interval")[1] is not None:
            continue
        end = _level_setting(params, mode, "end_step")[0]
        if end is None and parent is not None:
            end = _level_setting(parent, mode, "end_step")[0]
        if isinstance(end, str) and end.strip() == "0":
            continue
        interval, origin = _level_setting(parent, mode, "save_interval") if parent is not None else (None, None)
        found.setdefault((steps_key, interval, origin), []).append(mode)
    for (key, interval, origin), modes in found.items():
        yield key, modes, interval, origin

