"""The checked public entry points: render, then validate the request (the layer above validation).

:func:`render_model` is :func:`sm_debug_config.rendering.render_unchecked` followed, when
``settings.validate`` (the default), by :func:`sm_debug_config.validation.validate` of the request:
a ``ConfigError`` carrying every finding if one is an error, else a ``ConfigWarning`` for each other
finding. Everything that renders for a user goes through here (``render``, the integrations,
config files), so every path that renders validates alike.
"""

from __future__ import annotations

from typing import Any, Dict

from sm_debug_config.model import regions
from sm_debug_config.model.settings import DebuggerSetup, JobSettings, takes_setup
from sm_debug_config.rendering import Rendered, render_unchecked
from sm_debug_config.validation import passthrough_of, raise_or_warn, validate

__all__ = ["render", "render_model"]


def render_model(setup: DebuggerSetup, settings: JobSettings) -> Rendered:
    """:func:`render` of ``setup`` with ``settings``, returning the merged model too (for the integrations
    and config files)."""
    rendered = render_unchecked(setup, settings)
    if settings.validate:
        findings = validate(
            rendered.request,
            framework=settings.framework,
            region=regions.check_region(settings.region),
            ignore=settings.ignore,
            passthrough=passthrough_of(rendered.debugger_rules),
            framework_version=settings.framework_version,
            image_uri=settings.image_uri,
        )
        raise_or_warn(findings)
    return rendered


@takes_setup
def render(setup: DebuggerSetup, settings: JobSettings) -> Dict[str, Any]:
    """The Debugger fields of a ``CreateTrainingJob`` request, as the SDK v2 Estimator sends them.

    Returns a dict with those of ``DebugHookConfig``, ``DebugRuleConfigurations``,
    ``ProfilerConfig``, ``ProfilerRuleConfigurations`` and ``TensorBoardOutputConfig`` that
    apply. The job's settings are the fields of :class:`~sm_debug_config.JobSettings`
    (``region`` is required; ``output_path``, the Estimator's output path, is what hook and
    profiler S3 paths default to), given as keywords or as ``settings=JobSettings(...)``
    (keywords then override it); an unknown keyword is a ``ConfigError``.

    >>> from sm_debug_config import Rule, rule_configs
    >>> fields = render([Rule.sagemaker(rule_configs.vanishing_gradient())],
    ...                 region="us-east-1", output_path="s3://bucket/out/")
    >>> fields["DebugHookConfig"]["CollectionConfigurations"]
    [{'CollectionName': 'gradients', 'CollectionParameters': {'save_interval': '500'}}]
    >>> fields["ProfilerConfig"]
    {'S3OutputPath': 's3://bucket/out/', 'DisableProfiler': False}
    """
    return render_model(setup, settings).request
