"""From evaluated calls to findings: build our objects, render and validate them as ``validate`` does, and
give each finding the source node of the argument it concerns.

Each Estimator (or ``attach_debugger``) call is one job: its ``rules=``, ``debugger_hook_config=``,
``profiler_config=``, ``tensorboard_output_config=`` and ``disable_profiler=`` are built and
rendered with SDK defaults, and validated with the framework and version or image the call names.
Debugger objects no such call consumes are checked together as one job without an image. A
construction error is reported at the argument it names; when an unknown value took part, nothing
is reported but a ``--verbose`` note (an unknown could have caused it).
"""

from __future__ import annotations

import ast
import warnings
from typing import Any, Dict, List, Optional, Tuple

import attrs

from sm_debug_config.errors import ConfigError, ConfigWarning, pointer, pointer_parts
from sm_debug_config.lint.evaluate import Evaluator
from sm_debug_config.lint.signatures import callable_of
from sm_debug_config.lint.values import Call, ImageSpec, Partial, Unknown, text_of, walk_values
from sm_debug_config.validation import Finding

#: Request member -> the argument of ours it came from (as the config file's keys).
ARGUMENT_OF = {
    "RuleParameters": ("rule_parameters",),
    "CollectionParameters": ("parameters",),
    "HookParameters": ("hook_parameters",),
    "CollectionConfigurations": ("collection_configs",),
    "S3OutputPath": ("s3_output_path",),
    "LocalPath": ("container_local_output_path", "local_path"),
    "InstanceType": ("instance_type",),
    "VolumeSizeInGB": ("volume_size_in_gb",),
    "ProfilingIntervalInMilliseconds": ("system_monitor_interval_millis",),
    "DisableProfiler": ("disable_profiler",),
    "ProfilingParameters": ("framework_profile_params",),
    "RuleEvaluatorImage": ("image_uri",),
    "RuleConfigurationName": ("name",),
    "CollectionName": ("name",),
}
_SITE_ARGUMENT = {
    "DebugHookConfig": "debugger_hook_config",
    "ProfilerConfig": "profiler_config",
    "TensorBoardOutputConfig": "tensorboard_output_config",
    "DebugRuleConfigurations": "rules",
    "ProfilerRuleConfigurations": "rules",
}
_FRAMEWORKS = {
    "estimator:PyTorch": "pytorch",
    "estimator:TensorFlow": "tensorflow",
    "estimator:MXNet": "mxnet",
    "estimator:XGBoost": "xgboost",
}
_SETUP = ("rules", "debugger_hook_config", "profiler_config", "tensorboard_output_config", "disable_profiler")
_FAILED = object()


@attrs.frozen
class Located:
    """A finding and the node it is at (``None``: the file)."""

    finding: Finding
    node: Optional[ast.AST]


class Checker:
    """Builds, renders and validates the calls one :class:`Evaluator` recorded."""

    def __init__(self, ev: Evaluator, directory: str, defaults: Dict[str, Any]) -> None:
        self.ev, self.directory, self.defaults = ev, directory, defaults
        self.out: List[Located] = []
        self.notes: List[Tuple[Optional[ast.AST], str]] = []
        self.built: Dict[int, Call] = {}  # id(object built) -> its call

    def run(self) -> List[Located]:
        self.notes.extend(self.ev.changed)
        for site in self.ev.sites:
            self.site(site)
        loose = [
            c
            for c in self.ev.calls
            if not c.nested and not c.consumed and not c.target.startswith("estimator:") and c.target != "attach"
        ]
        if loose:
            self.free(loose)
        return self.out

    # --- building -----------------------------------------------------------------------------

    def build(self, call: Call) -> Any:
        """Our object for ``call`` (once), or ``_FAILED`` (reported, or not checkable)."""
        if call.state == "built":
            return call.built
        if call.state in ("failed", "building"):
            return _FAILED
        call.state = "building"
        call.consumed = True
        if "*error" in call.args:
            self.error(call, None, ConfigError(call.args["*error"]), unknown=False)
            call.state = "failed"
            return _FAILED
        if "**" in call.args:
            self.note(call.node, f"not checked: {_src(call.node)} passes arguments computed at run time")
            call.state = "failed"
            return _FAILED
        try:
            args = {name: self.value(v) for name, v in call.args.items()}
        except _NotBuilt:
            call.state = "failed"
            return _FAILED
        if call.target == "Rule.custom" or call.target == "ProfilerRule.custom":
            uploaded = self.local_source(call, args)
            if uploaded is None:
                call.state = "failed"
                return _FAILED
            args = uploaded
        func = callable_of(call.target)
        positional, keywords = _split(func, args)
        try:
            with warnings.catch_warnings():  # what constructors warn about, validation reports, at its argument
                warnings.simplefilter("ignore", ConfigWarning)
                obj = func(*positional, **keywords)
        except ConfigError as err:
            names = [p for p in err.path if isinstance(p, str)] + str(err.field or "").split(".")[-1:]
            argument = next((name for name in names if name in call.nodes), names[0] if names else None)
            self.error(call, argument, err, unknown=_has_unknown(call.args))
            call.state = "failed"
            return _FAILED
        except Exception as err:  # noqa: BLE001 - a value we could not model; never a traceback
            self.note(call.node, f"not checked: {_src(call.node)} ({type(err).__name__})")
            call.state = "failed"
            return _FAILED
        call.built, call.state = obj, "built"
        self.built[id(obj)] = call
        return obj

    def value(self, value: Any) -> Any:
        if isinstance(value, Call):
            obj = self.build(value)
            if obj is _FAILED:
                raise _NotBuilt()
            return obj
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, tuple):
            return tuple(self.value(v) for v in value)
        if isinstance(value, dict):
            return {k: self.value(v) for k, v in value.items()}
        return value

    def local_source(self, call: Call, args: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        """A custom rule's local ``source`` file: the SDK uploads it at ``fit()`` (SMD152 when it does not exist)."""
        import os

        source = args.get("source")
        if not isinstance(source, str) or source.startswith("s3://"):
            return args
        path = source if os.path.isabs(source) else os.path.join(self.directory, source)
        if os.path.isfile(path):
            return dict(args, source=f"s3://lint-upload-placeholder/{os.path.basename(source)}")
        from sm_debug_config.errors import shorten
        from sm_debug_config.validation.rules import SMD152

        message = (
            f"custom rule source {shorten(source)} is neither an s3:// URI nor an existing file next to the linted file"
        )
        self.out.append(
            Located(SMD152.at((), message), call.nodes.get("source", call.node))
        )
        return None

    def error(self, call: Call, argument: Optional[str], err: ConfigError, unknown: bool) -> None:
        from sm_debug_config.validation import severity_of
        from sm_debug_config.validation.registry import SMD002

        if unknown:
            self.note(call.node, f"not checked: {_src(call.node)} (an argument is computed at run time)")
            return
        code = err.code or SMD002.code
        text = " ".join(str(ConfigError(err.message, field=err.field, allowed=err.allowed)).split())
        node = call.nodes.get(argument) if argument else None
        if node is None and argument and isinstance(call.args.get("rule_parameters"), dict):
            node = self.key_node(call.args["rule_parameters"], argument)
        self.out.append(Located(Finding(severity_of(code), code, "", text), node or call.node))

    def note(self, node: Optional[ast.AST], text: str) -> None:
        self.notes.append((node, text))

    def key_node(self, mapping: Any, key: Any) -> Optional[ast.AST]:
        return self.ev.key_nodes.get((id(mapping), key))

    # --- a job ----------------------------------------------------------------------------------

    def site(self, site: Call) -> None:
        for value in walk_values(list(site.args.values())):
            if isinstance(value, Call):
                value.consumed = True
        args = site.args
        if (
            site.target.startswith("estimator:")
            and not any(k in args for k in _SETUP)
            and not any(isinstance(v, Call) for v in walk_values(list(args.values())))
        ):
            return  # an Estimator with no Debugger argument: the prefilter's promise, not checked
        setup: Dict[str, Any] = {}
        whole = True
        for name in _SETUP:
            if name not in args:
                continue
            value = args[name]
            if name == "rules" and isinstance(value, (list, tuple)):
                rules = []
                for item in value:
                    built = self.build(item) if isinstance(item, Call) else _FAILED
                    if isinstance(item, Unknown):
                        self.note(
                            site.nodes.get("rules", site.node),
                            f"not checked: {item.text or 'a rule'} is computed at run time",
                        )
                    if built is not _FAILED:
                        rules.append(built)
                    else:
                        whole = False
                setup[name] = rules
            elif isinstance(value, Call):
                built = self.build(value)
                if built is _FAILED:
                    whole = False
                setup[name] = built
            elif isinstance(value, Unknown):
                self.note(site.nodes.get(name, site.node), f"not checked: {value.text or name} is computed at run time")
                whole = False
            elif value is None or isinstance(value, bool):
                setup[name] = value
            else:
                whole = False
        if "**" in args:
            self.note(site.node, f"not checked: {_src(site.node)} passes keywords computed at run time")
            return
        if not whole:
            return
        if (
            "debugger_hook_config" in args
            and args["debugger_hook_config"] is None
            and site.target.startswith("estimator:")
        ):
            from sm_debug_config.validation.registry import SMD180

            self.out.append(
                Located(
                    SMD180.at(
                        ("DebugHookConfig",),
                        "debugger_hook_config=None is the SDK's default hook, not off; write False to turn the "
                        "hook off",
                    ),
                    site.nodes.get("debugger_hook_config", site.node),
                )
            )
        self.validate(site, setup, self.job(site))

    def job(self, site: Call) -> Dict[str, Any]:
        """What the Estimator call says about the job: framework, version, image, instance type, output path."""
        args = site.args
        framework = _FRAMEWORKS.get(site.target) or (args.get("framework") if site.target == "attach" else None)
        version = args.get("framework_version")
        if site.target == "estimator:HuggingFace":
            framework = (
                "pytorch" if "pytorch_version" in args else "tensorflow" if "tensorflow_version" in args else None
            )
            version = None  # the HuggingFace images are their own line
        image = args.get("image_uri", self.defaults.get("image_uri"))
        image_uri: Optional[str] = None
        if isinstance(image, str):
            image_uri = image
        elif isinstance(image, ImageSpec):
            framework = framework or image.framework
            version = image.version
        elif isinstance(image, Partial) and "/" in image.suffix:
            image_uri = "000000000000.dkr.ecr.us-east-1.amazonaws.com/" + image.suffix.rsplit("/", 1)[1]
        elif image is not None:
            version = None  # the job runs that image, whatever framework_version says
            self.note(site.nodes.get("image_uri", site.node), "not checked: the training image is computed at run time")
        if "compiler_config" in args:
            version, image_uri = None, None
        out = {
            "framework": framework if isinstance(framework, str) else self.defaults.get("framework"),
            "framework_version": version if isinstance(version, str) and image_uri is None else None,
            "image_uri": image_uri,
        }
        if out["framework_version"] is None and image_uri is None and "image_uri" not in args and not framework:
            out["framework_version"] = self.defaults.get("framework_version")
        for name in ("instance_type", "output_path", "defaults"):  # defaults: attach_debugger(..., defaults="explicit")
            if isinstance(args.get(name), str):
                out[name] = args[name]
        return out

    def free(self, calls: List[Call]) -> None:
        """Debugger objects no Estimator takes: each built; the rules, one hook and one profiler config as one job."""
        setup: Dict[str, Any] = {"rules": []}
        kinds: Dict[str, List[Any]] = {
            "debugger_hook_config": [],
            "profiler_config": [],
            "tensorboard_output_config": [],
        }
        for call in calls:
            obj = self.build(call)
            if obj is _FAILED:
                continue
            kind = type(obj).__name__
            if kind in ("Rule", "ProfilerRule"):
                setup["rules"].append(obj)
            elif kind == "DebuggerHookConfig":
                kinds["debugger_hook_config"].append(obj)
            elif kind == "ProfilerConfig":
                kinds["profiler_config"].append(obj)
            elif kind == "TensorBoardOutputConfig":
                kinds["tensorboard_output_config"].append(obj)
        for name, objects in kinds.items():
            if len(objects) == 1:
                setup[name] = objects[0]
        if len(setup) > 1 or setup["rules"]:
            self.validate(None, setup, {"framework": self.defaults.get("framework")})

    def validate(self, site: Optional[Call], setup: Dict[str, Any], job: Dict[str, Any]) -> None:
        from sm_debug_config.model.settings import DebuggerSetup, JobSettings
        from sm_debug_config.checked import render_model
        from sm_debug_config.apischema import SMD001
        from sm_debug_config.findings import ERROR
        from sm_debug_config.validation import validate
        from sm_debug_config.validation.registry import SMD002

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConfigWarning)
                settings = JobSettings(
                    region="us-east-1",
                    output_path=job.get("output_path") or "s3://output-path-set-at-submit/",
                    job_name="job-name-set-at-submit",  # the SDK names the job at fit()
                    validate=False,
                    framework=job.get("framework"),
                    instance_type=job.get("instance_type"),
                    defaults=job.get("defaults") or "sdk",
                    framework_version=job.get("framework_version"),
                    image_uri=job.get("image_uri"),
                )
                debugger_setup = DebuggerSetup(**setup)
                rendered = render_model(debugger_setup, settings)
        except ConfigError as err:
            node = site.nodes.get(str(err.path[0])) if site is not None and err.path else None
            text = " ".join(str(ConfigError(err.message, field=err.field, allowed=err.allowed)).split())
            self.out.append(
                Located(Finding(ERROR, err.code or SMD002.code, (), text), node or (site.node if site else None))
            )
            return
        findings = validate(
            rendered.request,
            framework=settings.framework,
            framework_version=settings.framework_version,
            image_uri=settings.image_uri,
        )  # as validate does for a config file: SMD120, not SMD122
        for finding in findings:
            if finding.code == SMD001.code and _lint_value(rendered.request, finding.pointer):
                self.note(
                    self.locate(finding.pointer, rendered, site) or (site.node if site else None),
                    "not checked: a value is computed at run time",
                )
                continue
            self.out.append(Located(finding, self.locate(finding.pointer, rendered, site)))

    # --- positions ----------------------------------------------------------------------------

    def locate(self, path: str, rendered: Any, site: Optional[Call]) -> Optional[ast.AST]:
        """The deepest source node behind a request pointer: the object it came from, its arguments, dict keys."""
        parts = pointer_parts(path)
        for depth in range(len(parts), 0, -1):
            obj = rendered.origins.get(pointer(*parts[:depth]))
            if obj is None:
                continue
            call = self.call_of(obj)
            if call is not None:
                return self.deeper(call, list(parts[depth:])) or call.node
        if site is not None and parts:
            return site.nodes.get(_SITE_ARGUMENT.get(str(parts[0]), ""), site.node)
        return None

    def call_of(self, obj: Any) -> Optional[Call]:
        if id(obj) in self.built:
            return self.built[id(obj)]
        for contribution in getattr(
            obj, "contributions", ()
        ):  # a merged collection: the first CollectionConfig it came from
            for call in self.built.values():
                if call.target == "CollectionConfig" and call.built is not None and call.built.name == obj.name:
                    return call
            del contribution
        return None

    def deeper(self, call: Call, rest: List[Any]) -> Optional[ast.AST]:
        node: Optional[ast.AST] = None
        current: Any = call
        for part in rest:
            if isinstance(current, Call):
                names = ARGUMENT_OF.get(str(part), ())
                found = next((n for n in names if n in current.args), None)
                if found is None and part == "RuleParameters" and isinstance(current.args.get("base_config"), Call):
                    current = current.args["base_config"]  # a profiler rule's keyword parameters
                    continue
                if found is None:
                    if isinstance(part, str) and part in current.nodes:
                        return current.nodes[part]
                    base = current.args.get("base_config")
                    if isinstance(base, Call) and isinstance(part, str) and part in base.nodes:
                        return base.nodes[part]
                    return node
                node = current.nodes.get(found, node)
                current = current.args[found]
            elif isinstance(current, dict):
                key = self.key_node(current, part)
                if key is None:
                    return node
                node, current = key, current.get(part)
            else:
                return node
        return node


class _NotBuilt(Exception):  # a signal to skip a call, not an error
    """A call's arguments hold a call that could not be built: the outer call is not built either."""


def _split(func: Any, args: Dict[str, Any]) -> Tuple[List[Any], Dict[str, Any]]:
    """Bound arguments back to a call: ``*args`` parameters positionally, ``**kwargs`` spread out."""
    import inspect

    try:
        params = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return [], args
    positional: List[Any] = []
    keywords: Dict[str, Any] = {}
    for name, value in args.items():
        kind = params[name].kind if name in params else None
        if kind is inspect.Parameter.VAR_POSITIONAL:
            positional.extend(value)
        elif kind is inspect.Parameter.VAR_KEYWORD:
            keywords.update(value)
        elif kind is inspect.Parameter.POSITIONAL_ONLY:
            positional.append(value)
        else:
            keywords[name] = value
    return positional, keywords


def _has_unknown(value: Any) -> bool:
    for item in walk_values(
        value if isinstance(value, list) else list(value.values()) if isinstance(value, dict) else [value]
    ):
        if isinstance(item, Unknown) or (isinstance(item, Call) and _has_unknown(item.args)):
            return True
    return False


def _lint_value(request: Dict[str, Any], path: str) -> bool:
    """The request holds one of lint's unknowns at ``path`` (SMD001 of ours, not of a real pipeline variable)."""
    value: Any = request
    for part in pointer_parts(path):
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return False
    return isinstance(value, dict) and str(value.get("Get", "")).startswith("Lint.")


def _src(node: ast.AST) -> str:
    return text_of(node.func) + "(...)" if isinstance(node, ast.Call) else text_of(node)
