"""Explain a configuration: merged collections with where each parameter came from, and, per
rule, which collections and steps it reads and whether the hook saves them.

>>> from sm_debug_config import CollectionConfig, DebuggerHookConfig, Rule, rule_configs
>>> report = explain([Rule.sagemaker(rule_configs.vanishing_gradient())],
...                  DebuggerHookConfig(collection_configs=[CollectionConfig("gradients", {"save_interval": "100"})]),
...                  region="us-east-1", output_path="s3://bucket/out/")
>>> report["collections"][0]["parameters"]["save_interval"]["from"]
'hook'
>>> report["rules"][0]["reads"][0]["steps"]
'every 100 steps'
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Collection, Dict, NoReturn, Optional, Sequence, Union

from sm_debug_config.model import catalogue, hookparams
from sm_debug_config.model.images import image_verdict
from sm_debug_config.model.settings import DebuggerSetup, JobSettings, settings_of
from sm_debug_config.rendering import render_unchecked, with_refusals
from sm_debug_config.validation import builtin_name, needed_collections, run

if TYPE_CHECKING:  # for explain's signature only: importing explaining costs no more than before
    from sm_debug_config.model.hook import DebuggerHookConfig, TensorBoardOutputConfig
    from sm_debug_config.model.profiler import ProfilerConfig
    from sm_debug_config.model.rules import ProfilerRule, Rule
from sm_debug_config.errors import shorten
from sm_debug_config.model.validators import parse_int

_DEFAULTS = {"save_interval": 500, "start_step": 0, "end_step": None, "save_steps": ""}
_MODES = ("train", "eval", "predict", "global")


def effective_save_config(
    collection_params: Optional[Dict[str, Any]], hook_params: Optional[Dict[str, Any]], framework: Optional[str] = None
) -> Dict[str, Dict[str, Any]]:
    """Per mode, the save settings the hook uses for a collection (smdebug's precedence:
    collection ``<mode>.key`` > collection ``key`` > hook ``<mode>.key`` > hook ``key`` > default)."""
    sources = (collection_params or {}, hook_params or {})
    return {
        mode: {
            key: next((s for p in sources for s in (p.get(f"{mode}.{key}"), p.get(key)) if isinstance(s, str)), default)
            for key, default in _DEFAULTS.items()
        }
        for mode in _MODES
    }


def describe_steps(settings: Dict[str, Any]) -> str:
    """``"every 100 steps from step 10 to 1000, plus steps 1,2"`` for one mode's settings."""
    interval = parse_int(settings["save_interval"])
    start = parse_int(settings["start_step"]) or 0
    end = parse_int(settings["end_step"]) if settings["end_step"] is not None else None
    if end == 0:
        text = "nothing (end_step 0)"
    else:
        text = f"every {interval} steps" if interval else f"save_interval {shorten(settings['save_interval'])}"
        if start:
            text += f" from step {start}"
        if end is not None:
            text += f" until step {end}"
    if settings["save_steps"]:
        text += f", plus steps {settings['save_steps']}"
    return text


def _steps_text(per_mode: Dict[str, Dict[str, Any]]) -> str:
    texts = {mode: describe_steps(settings) for mode, settings in per_mode.items()}
    if len(set(texts.values())) == 1:
        return texts["train"]
    return "; ".join(f"{mode.upper()}: {text}" for mode, text in texts.items())


def explain(
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
    """A JSON-ready report of what ``render`` would send and why; not validated on the way (``validate`` is
    ignored): its findings are listed under ``"findings"``."""
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
    return explain_model(setup, job)


def explain_model(setup: DebuggerSetup, settings: JobSettings) -> Dict[str, Any]:
    """:func:`explain` of ``setup`` with ``settings``."""

    framework = settings.framework
    verdict = image_verdict(
        framework=framework, framework_version=settings.framework_version, image_uri=settings.image_uri
    )
    no_hook = _no_hook_text(verdict)
    rendered = render_unchecked(setup, settings)
    request = rendered.request
    hook = request.get("DebugHookConfig")
    hook_params = (hook or {}).get("HookParameters") or {}
    collections = []
    for merged in rendered.collections:
        params = {}
        for key, source in merged.sources.items():
            entry = {"value": source.value, "from": source.level, "origins": list(source.origins)}
            if source.combined:
                entry["note"] = "greatest common divisor of what the rules ask for"
            if source.overridden:
                entry["overrides"] = [
                    {"from": level, "origin": origin, "value": value} for level, origin, value in source.overridden
                ]
            params[key] = entry
        requested_by = list(dict.fromkeys(c.origin for c in merged.contributions))
        steps = _steps_text(effective_save_config(merged.parameters, hook_params, framework))
        listed: Dict[str, Any] = {
            "name": merged.name,
            "parameters": params,
            "requested_by": requested_by,
            "steps": steps,
            "saved": no_hook is None,
        }
        if no_hook:
            listed["note"] = f"nothing is saved: {no_hook}"
        collections.append(listed)
    saved = {
        c["CollectionName"]: c.get("CollectionParameters") for c in (hook or {}).get("CollectionConfigurations", [])
    }
    table = hookparams.spec()["frameworks"]
    by_default = (
        table[framework]["saved_by_default"]
        if framework in table
        else sorted({c for fw in table.values() for c in fw["saved_by_default"]})
    )
    rules = []
    for config in request.get("DebugRuleConfigurations", []):
        name = builtin_name(config)
        row: Dict[str, Any] = {
            "name": config["RuleConfigurationName"],
            "kind": "debugger",
            "builtin": name,
            "reads": [],
        }
        if name is None:
            row["note"] = "custom rule: what it reads is up to its code"
        else:
            needed, regex_fed = needed_collections(config, name)
            for collection, why in needed + [(c, "through its tensor regex") for c in regex_fed]:
                read: Dict[str, Any] = {"collection": collection, "how": why}
                if hook is None:
                    read.update(saved=False, steps="nothing: the hook is off")
                elif no_hook:
                    read.update(saved=False, steps=f"nothing: {no_hook}")
                elif collection in saved:
                    per_mode = effective_save_config(saved[collection], hook_params, framework)
                    read.update(
                        saved=not all(parse_int(s["end_step"]) == 0 for s in per_mode.values()),
                        steps=_steps_text(per_mode),
                    )
                    expected = _expected_interval(name, collection)
                    actual = parse_int(per_mode["train"]["save_interval"])
                    if expected and actual and expected % actual:
                        read["note"] = (
                            f"the rule's default saves every {expected} steps; with every {actual}, "
                            f"steps like {expected} are not saved"
                        )
                elif collection in by_default:
                    read.update(
                        saved=True,
                        steps=_steps_text(effective_save_config(None, hook_params, framework)),
                        note="saved by default by the framework's hook",
                    )
                else:
                    read.update(saved=False, steps="nothing: no collection of that name is saved")
                row["reads"].append(read)
            if no_hook and hook is not None:
                row["note"] = f"finds nothing: it sees no tensors, {no_hook}"
        rules.append(row)
    for config in request.get("ProfilerRuleConfigurations", []):
        rules.append(
            {
                "name": config["RuleConfigurationName"],
                "kind": "profiler",
                "reads": [
                    {
                        "collection": "system and framework metrics",
                        "saved": not (request.get("ProfilerConfig") or {}).get("DisableProfiler", False),
                    }
                ],
            }
        )
    findings = with_refusals(rendered, run.validate_job(request, settings), settings.ignore)  # settings checked
    return {
        "collections": collections,
        "rules": rules,
        "saved_by_default": by_default,
        "image": verdict.to_dict() if verdict is not None else None,
        "findings": [f.to_dict() for f in findings],
        "request": request,
    }


def _no_hook_text(verdict: Any) -> Optional[str]:
    """Why nothing is saved when the verdict says the hook does not run in the training image, else ``None``."""
    if verdict is None or verdict.hook_runs is not False:
        return None
    return f"the Debugger hook does not run in the {verdict.line} {verdict.version} training image"


def _expected_interval(rule: str, collection: str) -> Optional[int]:
    for config in catalogue.default_collections(catalogue.rules("debugger")[rule]):
        if config.get("CollectionName") == collection:
            return parse_int((config.get("CollectionParameters") or {}).get("save_interval"))
    return None


def format_findings(findings: Sequence[Dict[str, Any]], source: Optional[str] = None) -> str:
    """``Findings:`` and a line for each finding (a finding's dict), placed in ``source`` as ``validate`` places
    it (``file:line:col:``) when it has a line; nothing when there are none.

    >>> print(format_findings([{"severity": "warning", "code": "SMD144", "path": "/ProfilerConfig",
    ...                         "message": "7 ms", "line": 3, "column": 5}], "job.yaml"), end="")
    Findings:
      job.yaml:3:5: warning SMD144 /ProfilerConfig: 7 ms
    """
    if not findings:
        return ""
    lines = ["Findings:"]
    for f in findings:
        line, column, place = f.get("line"), f.get("column"), ""
        if source and line:  # as validate prints a place: file:line:col (file:line without a column)
            place = f"{source}:{line}:{column}: " if column else f"{source}:{line}: "
        lines.append(f"  {place}{f['severity']} {f['code']} {f['path'] or '/'}: {f['message']}")
    return "\n".join(lines) + "\n"


def format_explanation(report: Dict[str, Any], source: Optional[str] = None) -> str:
    """The report as text for people; its findings placed in ``source`` (the file explained) where they have a line."""
    lines = ["Collections the hook saves:"]
    if not report["collections"]:
        lines.append(
            "  (none listed; the hook saves its framework's defaults: " + ", ".join(report["saved_by_default"]) + ")"
        )
    for coll in report["collections"]:
        steps = coll["steps"] if coll.get("saved", True) else f"{coll['note']}; configured: {coll['steps']}"
        lines.append(f"  {coll['name']}  ({steps}; asked for by {', '.join(coll['requested_by'])})")
        for key, entry in coll["parameters"].items():
            origin = ", ".join(entry["origins"])
            text = f"    {key} = {shorten(entry['value'])}  from {entry['from']} ({origin})"
            if entry.get("note"):
                text += f"; {entry['note']}"
            for lost in entry.get("overrides", []):
                text += f"; overrides {lost['from']} {lost['origin']} {shorten(lost['value'])}"
            lines.append(text)
    image = report.get("image")
    if image:
        runs = {True: "runs", False: "does NOT run", None: "may or may not run (unknown)"}[image["hook_runs"]]
        lines.append(
            f"Training image: {image['line']} {image['version']}: the Debugger hook {runs}"
            + (f" (smdebug {image['smdebug']} in the image)" if image.get("smdebug") else " (no smdebug in the image)")
        )
        if image.get("action"):
            lines.append(f"  what to do: {image['action']}")
    lines.append("Rules:")
    for rule in report["rules"]:
        head = (
            f"  {rule['name']} ({rule['kind']}"
            + (f", built-in {rule['builtin']}" if rule.get("builtin") and rule["builtin"] != rule["name"] else "")
            + ")"
        )
        lines.append(head)
        if rule.get("note"):
            lines.append(f"    {rule['note']}")
        for read in rule["reads"]:
            if "how" in read:
                mark = "ok " if read["saved"] else "NOT SAVED "
                text = f"    {mark}{read['collection']} ({read['how']}): {read['steps']}"
                if read.get("note"):
                    text += f"; {read['note']}"
            else:
                text = f"    {read['collection']}: {'on' if read['saved'] else 'OFF (profiler disabled)'}"
            lines.append(text)
        if not rule["reads"] and not rule.get("note"):
            lines.append("    reads what its parameters name (collection_names / tensor_regex)")
    return "\n".join(lines) + "\n" + format_findings(report["findings"], source)
