"""From evaluated calls to findings: build our objects as written, render and validate them as ``validate`` does,
and give each finding the source node of the argument or key it concerns.

Each Estimator (or ``attach_debugger``) call is one job: its ``rules=``, ``debugger_hook_config=``,
``profiler_config=``, ``tensorboard_output_config=`` and ``disable_profiler=`` are built and
rendered with SDK defaults, and validated with the framework and version or image the call names.
Debugger objects no such call consumes are checked together as one job without an image.

Every object is built as written (:mod:`sm_debug_config.model.building`): a value its constructor
refuses is a finding at that value, and the object, holding the value, still takes part in its job,
so one mistake hides no other. A value computed at run time (:class:`~.values.Unknown`) is passed on
as a placeholder: only what needs it is left out (a refusal of that value, the findings of checks
that read a field whose content is unknown), each said once in a note, which the summary counts.
Objects written against the SageMaker SDK (``sagemaker.debugger``, ``sagemaker.core.debugger``) are
judged by what that SDK sends (:data:`~.names.SENT_AS_GIVEN`), ours by our conversions.
"""

from __future__ import annotations

import ast
import inspect
import os
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple, Union

import attrs

from sm_debug_config.apischema import SMD001, SMD100
from sm_debug_config.checked import render_model
from sm_debug_config.rendering import with_refusals
from sm_debug_config.errors import ConfigError, PathT, pointer_parts, shorten
from sm_debug_config.findings import Finding, collecting, finding_of_error
from sm_debug_config.fixes import SAFE, SET, Change, Fix
from sm_debug_config.lint.edits import PythonEdits, with_edits
from sm_debug_config.lint.evaluate import Evaluator
from sm_debug_config.lint.sources import Cell
from sm_debug_config.lint.names import SENT_AS_GIVEN
from sm_debug_config.lint.signatures import callable_of
from sm_debug_config.lint.values import (
    ImageSpec,
    Module,
    Partial,
    SourceCall,
    Target,
    Unknown,
    argument_of,
    text_of,
    walk_values,
)
from sm_debug_config.merge import SMD116, sdk_v2_findings
from sm_debug_config.model import building
from sm_debug_config.model.regions import job_region
from sm_debug_config.model.validators import string_fix
from sm_debug_config.model.settings import DebuggerSetup, JobSettings
from sm_debug_config.sourcemap import ARGUMENTS, SourceMap, holds, member_path
from sm_debug_config.validation import validate
from sm_debug_config.validation.registry import READS, SMD180
from sm_debug_config.validation.rules import SMD152
from sm_debug_config.variables import is_pipeline_variable

#: The job's arguments and the request members each renders to.
_MEMBERS = {
    "rules": ("DebugRuleConfigurations", "ProfilerRuleConfigurations"),
    "debugger_hook_config": ("DebugHookConfig",),
    "profiler_config": ("ProfilerConfig",),
    "tensorboard_output_config": ("TensorBoardOutputConfig",),
    "disable_profiler": ("ProfilerConfig",),
}
_SETUP = tuple(_MEMBERS)
_FRAMEWORKS = {
    "estimator:PyTorch": "pytorch",
    "estimator:TensorFlow": "tensorflow",
    "estimator:MXNet": "mxnet",
    "estimator:XGBoost": "xgboost",
}
_FAILED = object()
#: Targets that are no object of ours: they say what the job is (``attach_debugger``, SDK v3's ``ModelTrainer``).
_JOBS = ("attach", "render", "trainer")


@attrs.frozen
class AtNode:
    """A finding and the node it is at (``None``: the file)."""

    finding: Finding
    node: Optional[ast.AST]


class Checker:
    """Builds, renders and validates the calls one :class:`Evaluator` recorded."""

    def __init__(
        self, ev: Evaluator, directory: str, defaults: Dict[str, Any], cells: Sequence[Cell] = ()
    ) -> None:
        self.ev, self.directory, self.defaults = ev, directory, defaults
        self.out: List[AtNode] = []  # the findings of the jobs rendered (request pointers)
        #: the constructors' findings and the call of each (reported unless a job's finding covers them)
        self.constructed: List[Tuple[AtNode, SourceCall]] = []
        self.notes: List[Tuple[Optional[ast.AST], str]] = []
        self.built: Dict[int, SourceCall] = {}  # id(object built) -> its call
        self.assumed_region: Optional[str] = None  # the region a job was rendered in that nobody named
        self.places = CallPlaces(ev.key_nodes)  # where each object built and its arguments are
        #: a fix's changes as edits at the literals the values came from (``cells``: the pieces ``ev`` ran)
        self.edits = PythonEdits(ev, cells, self.places.place_of, self.places.objects)
        #: each job rendered and its call (None: objects no call takes), whose request paths the edits follow
        self.jobs: List[Tuple[Any, Optional[SourceCall]]] = []
        self.pointers: Dict[int, str] = {}  # id(object built) -> the request pointer it rendered at
        self.unknowns: Dict[str, Unknown] = {}  # the placeholder's name in a request -> the value computed at run time

    def run(self) -> List[AtNode]:
        self.notes.extend(self.ev.changed)
        for site in self.ev.sites:
            self.site(site)
        ours = [c for c in self.ev.calls if not c.target.startswith("estimator:") and c.target not in _JOBS]
        loose: List[SourceCall] = []
        written: Set[int] = set()  # one object per call written: a loop's objects that nothing takes are no job
        for call in ours:
            if not call.nested and not call.consumed and id(call.node) not in written:
                written.add(id(call.node))
                loose.append(call)
        if loose:
            self.free(loose)
        for call in ours:  # a call nothing took part in (nested in one that was not built): still built
            if call.state == "new":
                self.build(call)
        covered = {(item.finding.code, id(item.node)) for item in self.out}
        jobs = [(item.finding.code, item.finding.pointer) for item in self.out]
        for item, call in self.constructed:
            placed = with_edits(item.finding, lambda change: self.edits.below(change, call))  # noqa: B023
            finding = self.in_request(AtNode(placed, item.node), call)
            if (item.finding.code, id(item.node)) in covered:
                continue
            place = self.rendered_at(call)
            if place and any(code == item.finding.code and (at == place or at.startswith(place + "/"))
                             for code, at in jobs):
                continue  # a job's check said it of the object rendered there, at its request pointer
            covered.add((item.finding.code, id(item.node)))
            self.out.append(AtNode(finding, item.node))
        found = {id(item.node) for item in self.out}
        self.notes = [(node, text) for node, text in self.notes if id(node) not in found]  # checked in part: refused
        self.out = self.agreed(self.out)
        return self.out

    def agreed(self, out: List[AtNode]) -> List[AtNode]:
        """The findings, an edit of the text one node holds for several objects (a comprehension's key, a loop's
        dict) kept only when every object's finding there makes it: else it would change the others too (one
        rule's rename given to a rule of another kind)."""
        groups: Dict[Tuple[str, int], List[int]] = {}
        for index, item in enumerate(out):
            if item.node is not None:
                groups.setdefault((item.finding.code, id(item.node)), []).append(index)
        for indexes in groups.values():
            if len(indexes) < 2:
                continue
            node = out[indexes[0]].node
            made = [None if fix is None else tuple(e for e in fix.edits or () if self.edits.within(e, node))
                    for fix in (out[i].finding.fix for i in indexes)]
            if not any(made) or all(each == made[0] for each in made):
                continue
            for i in indexes:
                fix = out[i].finding.fix
                if fix is not None and fix.edits and any(self.edits.within(e, node) for e in fix.edits):
                    out[i] = AtNode(out[i].finding.replace(fix=attrs.evolve(fix, edits=None)), out[i].node)
        return out

    # --- building -----------------------------------------------------------------------------

    def build(self, call: SourceCall) -> Any:
        """Our object for ``call`` (once), built as written; ``_FAILED`` when it cannot be built (said once)."""
        if call.state == "built":
            return call.built
        if call.state in ("failed", "building"):
            return _FAILED
        call.state = "building"
        call.consumed = True
        obj = self._build(call)
        if obj is _FAILED:
            call.state = "failed"
            return _FAILED
        call.built, call.state = obj, "built"
        self.built[id(obj)] = call
        self.places.built(obj, (call.node, call))
        return obj

    def _build(self, call: SourceCall) -> Any:
        if "*error" in call.args:
            self.constructed.append((AtNode(finding_of_error(ConfigError(call.args["*error"])), call.node), call))
            return _FAILED
        if "**" in call.args:
            self.note(call.node, f"not checked: {_src(call.node)} passes arguments computed at run time")
            return _FAILED
        args: Dict[str, Any] = {}
        for name, value in call.args.items():
            built = self.value(value)
            if built is _FAILED:
                return _FAILED
            args[name] = built
        if call.target in ("Rule.custom", "ProfilerRule.custom"):
            uploaded = self.local_source(call, args)
            if uploaded is None:
                return _FAILED
            args = uploaded
        self.sent_as_given(call)
        for item in walk_values(list(args.values())):
            if isinstance(item, Unknown):
                self.unknowns[item.expr["Get"]] = item
        func = callable_of(call.target)
        positional, keywords = _split(func, args)
        built = building.build(func, positional, keywords)
        usable = built.built
        for err, finding in zip(built.errors, built.findings):
            node, unknown = self.subject(call, err.path)
            if unknown is not None and not err.code:  # refused for being a stand-in, not for what is known of it
                self.note(node, f"not checked: {unknown.text or 'a value'} is computed at run time")
                continue
            if not err.code:  # a value of the wrong type: the object is not rendered with it
                usable = False
            self.constructed.append((AtNode(finding, node), call))
        for finding in built.findings[len(built.errors):]:
            self.constructed.append((AtNode(finding, self.subject(call, finding.path)[0]), call))
        return built.value if usable else _FAILED

    def value(self, value: Any) -> Any:
        """``value`` with the calls inside it built (``_FAILED`` if one cannot be); a name imported from a module that
        is nothing of ours is a value known only at run time."""
        if isinstance(value, SourceCall):
            return self.build(value)
        if isinstance(value, (Module, Target)):
            return Unknown(None, getattr(value, "path", None) or getattr(value, "name", ""))
        if isinstance(value, (list, tuple)):
            items = [self.value(v) for v in value]
            if any(item is _FAILED for item in items):
                return _FAILED
            return items if isinstance(value, list) else tuple(items)
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                out[key] = self.value(item)
                if out[key] is _FAILED:
                    return _FAILED
            return out
        return value

    def sent_as_given(self, call: SourceCall) -> None:
        """What the SageMaker SDK sends without converting it (a number among string parameters): botocore refuses
        the request (SMD100), whatever our classes would have made of it."""
        for argument in SENT_AS_GIVEN.get(call.target, ()) if call.library in ("sdk", "sdk-v3") else ():
            values = call.args.get(argument)
            if not isinstance(values, dict):
                continue
            for key, item in values.items():
                if isinstance(item, (Unknown, SourceCall, str)) or item is None or is_pipeline_variable(item):
                    continue
                member = next((m for m, keys in ARGUMENTS.items() if keys == (argument,)), argument)
                fix = string_fix((argument, key), item)  # the one string a number or bool is written as
                literal = self.ev.item_at.get((id(values), key))
                spelt = self.edits.number_text(literal.value if literal else None, item)
                if fix is not None and spelt is not None and spelt != fix.changes[0].value:  # 0.0000001, not 1e-07
                    fix = Fix(SAFE, f"write {spelt} as the string {shorten(spelt)}",
                              (Change(SET, (argument, key), spelt),))
                written = fix.changes[0].value if fix is not None else str(item)
                message = (
                    f"{member} {shorten(key)} is {shorten(item)} ({type(item).__name__}): {call.module} sends it as "
                    "given and CreateTrainingJob takes only strings here, so botocore refuses the request; "
                    f"write {shorten(written)}"
                )
                node = self.key_node(values, key) or call.nodes.get(argument, call.node)
                self.constructed.append((AtNode(SMD100.at((argument, key), message, fix=fix), node), call))

    def local_source(self, call: SourceCall, args: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        """A custom rule's local ``source`` file: the SDK uploads it at ``fit()`` (SMD152 when it does not exist)."""
        source = args.get("source")
        if not isinstance(source, str) or source.startswith("s3://"):
            return args
        path = source if os.path.isabs(source) else os.path.join(self.directory, source)
        if os.path.isfile(path):
            return dict(args, source=f"s3://lint-upload-placeholder/{os.path.basename(source)}")
        message = (
            f"custom rule source {shorten(source)} is neither an s3:// URI nor an existing file next to the linted file"
        )
        self.constructed.append((AtNode(SMD152.at((), message), call.nodes.get("source", call.node)), call))
        return None

    def subject(self, call: SourceCall, path: PathT) -> Tuple[Optional[ast.AST], Optional[Unknown]]:
        """The deepest source node of ``path`` (below the object ``call`` builds), and the value computed at run
        time found on the way there, if any (for a path naming no argument: any in the call)."""
        node: Optional[ast.AST] = call.node
        current: Any = call
        for depth, part in enumerate(path):
            if isinstance(current, SourceCall):
                name = argument_of(current, part)
                if name is None:
                    if depth == 0:
                        found = next((v for v in walk_values(list(current.args.values())) if isinstance(v, Unknown)),
                                     None)
                        return node, found
                    break
                node = current.nodes.get(name, node)
                current = current.args[name]
            elif isinstance(current, dict):
                key = self.key_node(current, part)
                node = key or node
                if part not in current:
                    break
                current = current[part]
            elif isinstance(current, (list, tuple)) and isinstance(part, int) and 0 <= part < len(current):
                elements = getattr(node, "elts", None)
                if isinstance(elements, list) and len(elements) == len(current):
                    node = elements[part]
                current = current[part]
                if isinstance(current, SourceCall):
                    node = current.node
            else:
                break
            if isinstance(current, Unknown):
                return node, current
        return node, _unknown_inside(current)

    def note(self, node: Optional[ast.AST], text: str) -> None:
        self.notes.append((node, text))

    def key_node(self, mapping: Any, key: Any) -> Optional[ast.AST]:
        return self.ev.key_nodes.get((id(mapping), key))

    # --- a job ----------------------------------------------------------------------------------

    def site(self, site: SourceCall) -> None:
        for value in walk_values(list(site.args.values())):
            if isinstance(value, SourceCall):
                value.consumed = True
        args = site.args
        if (
            site.target.startswith("estimator:")
            and not any(k in args for k in _SETUP)
            and not any(isinstance(v, SourceCall) for v in walk_values(list(args.values())))
        ):
            return  # an Estimator with no Debugger argument: the prefilter's promise, not checked
        setup: Dict[str, Any] = {}
        unknown: Set[str] = set()  # request members whose content is not known (a default stands in for it)
        partly: Set[str] = set()  # request members known in part
        for name in _SETUP:
            if name not in args:
                continue
            value = args[name]
            node = site.nodes.get(name, site.node)
            if name == "rules" and isinstance(value, (list, tuple)):
                rules = []
                for item in value:
                    built = self.build(item) if isinstance(item, SourceCall) else _FAILED
                    if isinstance(item, Unknown):
                        self.note(node, f"not checked: {item.text or 'a rule'} is computed at run time")
                    if built is _FAILED:
                        partly.update(_MEMBERS[name])  # the rules known are checked, what reads them all is not
                    else:
                        rules.append(built)
                setup[name] = rules
            elif isinstance(value, SourceCall):
                built = self.build(value)
                if built is _FAILED:
                    unknown.update(_MEMBERS[name])
                else:
                    setup[name] = built
            elif value is None or isinstance(value, bool):
                setup[name] = value
            else:
                if isinstance(value, Unknown):
                    self.note(node, f"not checked: {value.text or name} is computed at run time")
                unknown.update(_MEMBERS[name])
        if "**" in args:
            self.note(site.node, f"not checked: {_src(site.node)} passes keywords computed at run time")
            return
        if (
            "debugger_hook_config" in args
            and args["debugger_hook_config"] is None
            and site.target.startswith("estimator:")
        ):
            message = "debugger_hook_config=None is the SDK's default hook, not off; write False to turn the hook off"
            self.out.append(
                AtNode(SMD180.at(("DebugHookConfig",), message), site.nodes.get("debugger_hook_config", site.node))
            )
        self.validate(site, setup, self.job(site), unknown, partly)

    def job(self, site: SourceCall) -> Dict[str, Any]:
        """What the Estimator call says about the job: framework, version, image, instance type, output path."""
        args = site.args
        framework = _FRAMEWORKS.get(site.target) or (args.get("framework") if site.target in ("attach", "render")
                                                      else None)
        version = args.get("framework_version")
        if site.target == "estimator:HuggingFace":
            framework = (
                "pytorch" if "pytorch_version" in args else "tensorflow" if "tensorflow_version" in args else None
            )
            version = None  # the HuggingFace images are their own line
        trainer = args.get("target") if site.target == "attach" else None
        if isinstance(trainer, SourceCall) and trainer.target == "trainer" and "image_uri" in trainer.args:
            args = dict(args, image_uri=args.get("image_uri", trainer.args["image_uri"]))  # the job runs its image
        elif isinstance(trainer, Unknown) and not {"image_uri", "framework", "framework_version"} & set(args):
            self.note(site.nodes.get("target", site.node), f"not checked: the training image of {trainer.text} is "
                      "known only at run time")
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

    def free(self, calls: List[SourceCall]) -> None:
        """Debugger objects no Estimator takes: each built; the rules and the hook, profiler and TensorBoard configs
        there is one of as one job, each config of a kind there are several of as a job of its own."""
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
        job = {"framework": self.defaults.get("framework")}
        for name, objects in kinds.items():
            if len(objects) == 1:
                setup[name] = objects[0]
            else:
                for obj in objects:
                    self.validate(None, {name: obj}, job, set(), set())
        if len(setup) > 1 or setup["rules"]:
            self.validate(None, setup, job, set(), set())

    def validate(
        self, site: Optional[SourceCall], setup: Dict[str, Any], job: Dict[str, Any], unknown: Set[str],
        partly: Set[str],
    ) -> None:
        """Render the job with SDK defaults and validate it. Left out: the findings about a member whose content is
        ``unknown`` (a default stands in for it), and those of checks that read a member not wholly known."""
        at = site.node if site is not None else None
        region = job_region(self.defaults.get("region"))  # the one default: given, else the environment's, else assumed
        if region.assumed:
            self.assumed_region = region.name
        built = building.build(JobSettings, (), {
            "region": region.name,
            "output_path": job.get("output_path") or "s3://output-path-set-at-submit/",
            "job_name": "job-name-set-at-submit",  # the SDK names the job at fit()
            "validate": False,
            "framework": job.get("framework"),
            "instance_type": job.get("instance_type"),
            "defaults": job.get("defaults") or "sdk",
            "framework_version": job.get("framework_version"),
            "image_uri": job.get("image_uri"),
        })
        settings = built.value if built.built else None
        for err, finding in zip(built.errors, built.findings):
            node = site.nodes.get(str(err.path[0])) if site is not None and err.path else None
            self.out.append(AtNode(finding, node or at))
        if settings is None or built.errors:
            settings = JobSettings(region=region.name, output_path="s3://output-path-set-at-submit/",
                                   job_name="job-name-set-at-submit", validate=False)
        try:
            # objects built as written: their refusals are findings already; what an object render makes reports,
            # the request's checks report below
            with collecting(as_written=True):
                rendered = render_model(DebuggerSetup(**setup), settings, built_here=True)
        except ConfigError as err:  # e.g. two collection configs of one name that disagree
            node = site.nodes.get(str(err.path[0])) if site is not None and err.path else None
            if not err.code and _unknown_inside(list(setup.values())) is not None:
                self.note(node or at, "not checked: the job holds values computed at run time that it could not "
                          f"be rendered with ({' '.join(err.message.split())[:80]})")
                return
            self.out.append(AtNode(finding_of_error(err).replace(path=()), node or at))
            return
        except Exception as err:  # noqa: BLE001 - a value lint could not model: said, never a traceback
            self.note(at, f"not checked: the job could not be rendered ({type(err).__name__})")
            return
        self.jobs.append((rendered, site))
        for request_pointer in rendered.origins:
            for obj in rendered.objects_at(request_pointer):
                if id(obj) in self.built:
                    self.pointers.setdefault(id(obj), request_pointer)
        findings = with_refusals(rendered, validate(
            rendered.request,
            framework=settings.framework,
            region=region.checked,
            framework_version=settings.framework_version,
            image_uri=settings.image_uri,
        ))  # as validate does for a config file: SMD120, not SMD122; with what the render could not send as written
        # the merge's SMD116 (a refusal above) is about our objects; the SDK v2 sends each distinct collection config:
        # for its objects SMD117 instead
        objects = list(setup.get("rules") or []) + [setup.get("debugger_hook_config")]
        if any(getattr(self.built.get(id(o)), "library", None) == "sdk" for o in objects):
            hook_parameters = (rendered.request.get("DebugHookConfig") or {}).get("HookParameters")
            findings = [f for f in findings if f.code != SMD116.code]
            findings += sdk_v2_findings(rendered.collections, hook_parameters)
        needed = {code for code, members in READS.items() if (unknown | partly).intersection(members)}
        for finding in findings:
            where = self.locate(finding.pointer, rendered, site)
            head = str(finding.path[0]) if finding.path else ""
            if head in unknown or finding.code in needed:
                continue  # about content that is not known (a default stands in for it), or read from it
            value = _lint_value(rendered.request, finding.pointer)
            if finding.code == SMD001.code and value is not None:
                stand_in = self.unknowns.get(value)
                text = stand_in.text if stand_in is not None and stand_in.text else "a value"
                self.note(where or at, f"not checked: {text} is computed at run time")
                continue
            finding = with_edits(finding, lambda change: self.edits.at_request(change, rendered, site))
            self.out.append(AtNode(finding, where))

    def rendered_at(self, call: SourceCall) -> str:
        """The request pointer of the object ``call`` built, or of the innermost object rendered in a job that holds
        it (an action inside a rule), else ``""``."""
        if id(call.built) in self.pointers:
            return self.pointers[id(call.built)]
        if call.built is None:
            return ""
        holders = [(at, other) for other in self.built.values()
                   for at in [self.pointers.get(id(other.built))] if at is not None and holds(other.built, call.built)]
        return max(holders, key=lambda pair: len(pair[0]))[0] if holders else ""

    def in_request(self, item: AtNode, call: SourceCall) -> Finding:
        """A constructor's finding with its path in the request, where its object was rendered (else the pointer of
        the rendered object that holds it, else none)."""
        request_pointer = self.pointers.get(id(call.built))
        if request_pointer is None:
            return item.finding.replace(path=pointer_parts(self.rendered_at(call)))
        prefix = pointer_parts(request_pointer)
        fix = item.finding.fix
        if fix is not None:  # its changes in the request too (its edits were placed below the call)
            fix = attrs.evolve(fix, changes=[attrs.evolve(c, path=prefix + member_path(c.path)) for c in fix.changes])
        return item.finding.replace(path=prefix + member_path(item.finding.path), fix=fix)

    # --- positions ----------------------------------------------------------------------------

    def locate(self, path: str, rendered: Any, site: Optional[SourceCall]) -> Optional[ast.AST]:
        """The deepest source node behind a request pointer (:class:`CallPlaces`), else the Estimator's argument."""
        place = self.places.locate(rendered, path)
        parts = pointer_parts(path)
        if place is None and site is None and len(parts) == 1:  # a whole field of objects built alone: the first
            first = next((p for p in rendered.origins if pointer_parts(p)[:1] == parts), None)
            place = self.places.locate(rendered, first) if first is not None else None
        if place is not None:
            return place[0]
        if site is not None and parts:
            argument = next((name for name, members in _MEMBERS.items() if parts[0] in members), "")
            return site.nodes.get(argument, site.node)
        return None


class CallPlaces(SourceMap[Tuple[ast.AST, Any]]):
    """Where a Python source's objects and their arguments are: a place is a source node and the value written there
    (a :class:`~.values.Call`, a dict, a list); below a call, its arguments; below a dict, its keys."""

    def __init__(self, key_nodes: Dict[Tuple[int, Any], ast.AST]) -> None:
        super().__init__()
        self.key_nodes = key_nodes

    def below(self, place: Tuple[ast.AST, Any], part: Union[str, int]) -> Optional[Tuple[ast.AST, Any]]:
        node, value = place
        if isinstance(value, SourceCall):
            name = argument_of(value, part)
            if name is not None:
                return value.nodes.get(name, node), value.args[name]
            base = value.args.get("base_config")
            if part == "rule_parameters" and isinstance(base, SourceCall):  # a profiler rule's parameters are keywords
                return base.node, base
            return None
        if isinstance(value, dict):
            key = self.key_nodes.get((id(value), part))
            return (key, value.get(part)) if key is not None else None
        if isinstance(value, (list, tuple)) and isinstance(part, int) and 0 <= part < len(value):
            item = value[part]
            if isinstance(item, SourceCall):
                return item.node, item
            elements = getattr(node, "elts", None)
            if isinstance(elements, list) and len(elements) == len(value):
                return elements[part], item
        return None


def _split(func: Any, args: Dict[str, Any]) -> Tuple[List[Any], Dict[str, Any]]:
    """Bound arguments back to a call: ``*args`` parameters positionally, ``**kwargs`` spread out."""
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


def _unknown_inside(value: Any) -> Optional[Unknown]:
    """The first value computed at run time inside ``value``: in its lists and dicts, the arguments of its calls and
    the fields of the objects built from them."""
    stack: List[Any] = [value]
    seen: Set[int] = set()
    while stack:
        item = stack.pop()
        if id(item) in seen or len(seen) > 10_000:
            continue
        seen.add(id(item))
        if isinstance(item, Unknown):
            return item
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, SourceCall):
            stack.extend(item.args.values())
        elif attrs.has(type(item)):
            stack.extend(getattr(item, field.name) for field in attrs.fields(type(item)))
    return None


def _lint_value(request: Dict[str, Any], path: str) -> Optional[str]:
    """The name of the lint unknown the request holds at ``path`` (SMD001 of ours, not of a real pipeline
    variable), or None."""
    value: Any = request
    for part in pointer_parts(path):
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    name = value.get("Get") if isinstance(value, dict) else None
    return name if isinstance(name, str) and name.startswith("Lint.") else None


def _src(node: ast.AST) -> str:
    return text_of(node.func) + "(...)" if isinstance(node, ast.Call) else text_of(node)


__all__: Sequence[str] = ["CallPlaces", "Checker", "AtNode", "argument_of"]
