"""The checked public entry points: render, then validate the request (the layer above validation).

:func:`render_model` is :func:`sm_debug_config.rendering.render_unchecked` followed, when
``settings.validate`` (the default), by :func:`sm_debug_config.validation.validate` of the request, with what
the render could not send as written (:attr:`~sm_debug_config.rendering.Rendered.refusals`): a
``ConfigWarning`` for each finding that is no error, then one ``ConfigError`` carrying every finding if one is
an error. Everything that renders for a user goes through here (``render``, the integrations,
config files), so every path that renders validates alike.
"""

from __future__ import annotations

from typing import Any, Collection, Dict, List, NoReturn, Optional, Sequence, Union

from sm_debug_config.errors import Site, pointer
from sm_debug_config.findings import Finding, reported, site_of
from sm_debug_config.model.hook import DebuggerHookConfig, TensorBoardOutputConfig
from sm_debug_config.model.profiler import ProfilerConfig
from sm_debug_config.model.rules import ProfilerRule, Rule
from sm_debug_config.model.settings import DebuggerSetup, JobSettings, settings_of
from sm_debug_config.rendering import Rendered, render_unchecked, with_refusals
from sm_debug_config.sourcemap import member_path
from sm_debug_config.validation import passthrough_of, raise_or_warn
from sm_debug_config.validation.run import validate_job

__all__ = ["already_reported", "built_at", "findings_of", "render", "render_model"]


def render_model(setup: DebuggerSetup, settings: JobSettings, *, built_here: bool = False) -> Rendered:
    """:func:`render` of ``setup`` with ``settings``, returning the merged model too (for the integrations
    and config files); ``built_here``: see :func:`~sm_debug_config.rendering.render_unchecked`."""
    rendered = render_unchecked(setup, settings, built_here=built_here)
    if settings.validate:
        raise_or_warn(findings_of(rendered, settings), lambda finding: built_at(rendered, finding))
    return rendered


def built_at(rendered: Rendered, finding: Finding) -> Optional[Site]:
    """Where the user built the object ``finding`` is about (the deepest one the request part at its pointer was
    rendered from; for a whole list, its first item's), so that the edge warns it at that line; ``None`` when no
    object of theirs is known (the finding is warned at their call)."""
    parts = finding.path
    for depth in range(len(parts), 0, -1):
        for obj in rendered.objects_at(pointer(*parts[:depth])):
            site = site_of(obj)
            if site is not None:
                return site
    if len(parts) == 1:  # a whole field, such as /ProfilerRuleConfigurations: its first object the user built
        for request_pointer in rendered.origins:
            if request_pointer.startswith(pointer(*parts) + "/"):
                return next((s for s in map(site_of, rendered.objects_at(request_pointer)) if s is not None), None)
    return None


def findings_of(rendered: Rendered, settings: JobSettings) -> List[Finding]:
    """The findings of a render's request with its settings, as values: those a constructor already warned for the
    objects rendered are left out (the edge that reports them, :func:`render_model` or the command line, says the
    rest once)."""
    findings = validate_job(rendered.request, settings, passthrough=passthrough_of(rendered.debugger_rules))
    return with_refusals(rendered, [f for f in findings if not already_reported(rendered, f)], settings.ignore)


def already_reported(rendered: Rendered, finding: Finding) -> bool:
    """Whether a constructor warned ``finding`` already, for an object the request part it is about was rendered
    from (the same code at the same place below the object): a user is told once.

    The place below an object is named by its arguments (``hook_parameters``), in the request by its members
    (``HookParameters``): :func:`~sm_debug_config.sourcemap.member_path` relates them."""
    parts = finding.path
    for depth in range(len(parts), 0, -1):
        objects = rendered.objects_at(pointer(*parts[:depth]))
        if not objects:
            continue
        rest = parts[depth:]
        for obj in objects:
            for earlier in reported(obj):
                if earlier.code == finding.code and member_path(earlier.path) == rest:
                    return True
        return False
    return False


def render(
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
) -> Dict[str, Any]:
    """The Debugger fields of a ``CreateTrainingJob`` request, as the SDK v2 Estimator sends them.

    Returns a dict with those of ``DebugHookConfig``, ``DebugRuleConfigurations``,
    ``ProfilerConfig``, ``ProfilerRuleConfigurations`` and ``TensorBoardOutputConfig`` that
    apply. The job's settings are the fields of :class:`~sm_debug_config.JobSettings`
    (``region`` is required; ``output_path``, the Estimator's output path, is what hook and
    profiler S3 paths default to), given as keywords or as ``settings=JobSettings(...)``
    (keywords that are not ``None`` then override it); an unknown keyword is a ``ConfigError``.

    >>> from sm_debug_config import Rule, rule_configs
    >>> fields = render([Rule.sagemaker(rule_configs.vanishing_gradient())],
    ...                 region="us-east-1", output_path="s3://bucket/out/")
    >>> fields["DebugHookConfig"]["CollectionConfigurations"]
    [{'CollectionName': 'gradients', 'CollectionParameters': {'save_interval': '500'}}]
    >>> fields["ProfilerConfig"]
    {'S3OutputPath': 's3://bucket/out/', 'DisableProfiler': False}
    """
    setup = DebuggerSetup(
        rules=rules,
        debugger_hook_config=debugger_hook_config,
        profiler_config=profiler_config,
        tensorboard_output_config=tensorboard_output_config,
        disable_profiler=disable_profiler,
    )
    job = settings_of(
        settings, unknown, region=region, output_path=output_path, job_name=job_name, instance_type=instance_type,
        rule_image_uri=rule_image_uri, defaults=defaults, validate=validate, framework=framework,
        disable_debugger=disable_debugger, ignore=ignore, framework_version=framework_version, image_uri=image_uri,
    )
    return render_model(setup, job).request
