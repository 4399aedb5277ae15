"""``sm-debug-config plan``: run a launcher script against a local AWS and check every training job it starts.

A launcher is the Python that starts training jobs: SDK v2 Estimators, SDK v3 ``ModelTrainer``,
sagemaker-core or plain boto3. :func:`run_launcher` (:mod:`.launcher`) runs it as ``__main__`` under
moto's in-process AWS (``moto.mock_aws``), with throw-away credentials, and captures every
CreateTrainingJob, UpdateTrainingJob, CreateHyperParameterTuningJob, CreatePipeline and
UpdatePipeline request at the botocore level (:mod:`.capture`), so all SDKs are seen alike. Each
request keeps the line of the launcher that made it: the innermost frame of the script on the
stack. :func:`plan` then validates each training job (each Training step of a pipeline counts as
one), with the image its request names: one pass of the request checks, every finding a value. This
package's objects are built as written while the launcher runs, so a value they refuse is found on
the request it reaches, with the job's other findings; what their constructors report of an object
that reaches no request, a value that could not be built at all, and the ``--max-jobs`` stop are the
launcher's own findings, at their lines. Nothing is rebuilt from warnings.

>>> definition = {"Steps": [{"Name": "Train", "Type": "Training", "Arguments": {"RoleArn": "r"}},
...     {"Name": "Check", "Type": "Condition",
...      "Arguments": {"IfSteps": [{"Name": "Again", "Type": "Training", "Arguments": {}}]}}]}
>>> [(pointer, name) for pointer, name, _arguments in training_steps(definition)]
[('/Steps/0/Arguments', 'Train'), ('/Steps/1/Arguments/IfSteps/0/Arguments', 'Again')]
"""

from __future__ import annotations

import functools
import json
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import attrs

from sm_debug_config.documents import pipeline, step_into
from sm_debug_config.engine import Job, check
from sm_debug_config.errors import ConfigError, pointer
from sm_debug_config.findings import DEBUG_FIELDS, ERROR, INFO, WARNING, Finding
from sm_debug_config.model import regions
from sm_debug_config.model.catalogue import framework_name
from sm_debug_config.operations.plan.capture import CAPTURED, SMD190, Call, LauncherStopped, plain
from sm_debug_config.sourcemap import member_path
from sm_debug_config.operations.plan.launcher import (
    DEFAULT_MAX_JOBS,
    DEFAULT_TIMEOUT,
    Launch,
    PlanError,
    run_launcher,
)
from sm_debug_config.validation import check_codes

__all__ = [
    "CAPTURED",
    "Call",
    "Launch",
    "LauncherStopped",
    "Plan",
    "PlanError",
    "PlannedJob",
    "SMD190",
    "plan",
    "run_launcher",
    "training_steps",
]

_TRAINING = ("CreateTrainingJob", "UpdateTrainingJob")
_TUNING_NOTE = (
    "a tuning job's training definitions have no Debugger fields (HyperParameterTrainingJobDefinition has no "
    "Debug*, Profiler* or TensorBoard* member): nothing to check"
)



@attrs.frozen
class PlannedJob:
    """One job of the plan: the ``operation`` and launcher ``line`` of the request it comes from, a ``label`` (the job
    name, or the pipeline and step), the training ``image``, its Debugger ``fields``, the ``findings`` and those
    ``--ignore`` left out (``suppressed``); ``note`` says why a request was not checked (a tuning job, a pipeline
    definition that cannot be read)."""

    operation: str
    line: Optional[int]
    label: str
    region: Optional[str] = None
    image: Optional[str] = None
    fields: Dict[str, Any] = attrs.field(factory=dict, eq=False)
    findings: Tuple[Finding, ...] = ()
    suppressed: Tuple[Finding, ...] = ()
    note: Optional[str] = None

    @property
    def checked(self) -> bool:
        return self.note is None

    def to_dict(self) -> Dict[str, Any]:
        return {
            "operation": self.operation,
            "line": self.line,
            "label": self.label,
            "region": self.region,
            "image": self.image,
            "fields": self.fields,
            "findings": [f.to_dict() for f in self.findings],
            "suppressed": len(self.suppressed),
            "note": self.note,
        }


@attrs.frozen
class Plan:
    """The jobs a launcher starts, checked; the launcher's own ``findings`` (those ``--ignore`` left out:
    ``suppressed``), each at its line; and how its run ended (see :class:`Launch`). The command line writes it
    (:mod:`sm_debug_config.cli.plan`: its summary line and how the run ended)."""

    launch: Launch
    jobs: Tuple[PlannedJob, ...]
    findings: Tuple[Finding, ...] = ()
    suppressed: Tuple[Finding, ...] = ()

    def count(self, severity: str) -> int:
        """How many findings of ``severity`` the plan has: its jobs' and the launcher's own."""
        return sum(1 for job in self.jobs for f in job.findings if f.severity == severity) + sum(
            1 for f in self.findings if f.severity == severity
        )

    @property
    def failed(self) -> bool:
        """The launcher did not run to its end: it raised (not a ``ConfigError``, which is a finding), exited with a
        non-zero code, or ran past the timeout."""
        return bool(self.launch.error or self.launch.timed_out or self.launch.exit_status not in (None, 0))

    def to_dict(self) -> Dict[str, Any]:
        launch = self.launch
        return {
            "script": launch.script,
            "findings": [f.to_dict() for f in self.findings],
            "jobs": [job.to_dict() for job in self.jobs],
            "errors": self.count(ERROR),
            "warnings": self.count(WARNING),
            "infos": self.count(INFO),
            "suppressed": sum(len(j.suppressed) for j in self.jobs) + len(self.suppressed),
            "exit_status": launch.exit_status,
            "error": launch.error,
            "raised_at": launch.raised_at,
            "stopped": launch.stopped,
            "timed_out": launch.timed_out,
            "seconds": round(launch.seconds, 2),
        }


# --- pipeline definitions ---------------------------------------------------------------------


def training_steps(definition: Any) -> Iterator[Tuple[str, str, Dict[str, Any]]]:
    """``(pointer, step name, Arguments)`` of each Training step of a SageMaker pipeline definition (a JSON string or
    its object), Condition steps' ``IfSteps``/``ElseSteps`` included, as :mod:`sm_debug_config.documents.pipeline`
    reads them. The Arguments are a CreateTrainingJob request without ``TrainingJobName``; anything that is not a
    step is skipped. A string that is not JSON: ``ValueError``."""
    document = json.loads(definition) if isinstance(definition, (str, bytes)) else definition
    if not isinstance(document, dict):  # (a JSON string holding JSON is no definition)
        return
    for path, arguments in pipeline.training_steps(document):
        step = step_into(document, path[:-1])
        yield pointer(*path), str(step.get("Name", path[-2])), arguments


# --- checking what it started -----------------------------------------------------------------


def _known_region(region: Optional[str]) -> Optional[str]:
    return region if isinstance(region, str) and regions.is_region(region) else None


def _job(call: Call, request: Dict[str, Any], label: str, options: Dict[str, Any], operation: str = "") -> PlannedJob:
    """The job of one captured request, checked by the engine (as every source's jobs are), each finding placed at the
    launcher's line that sent the request."""
    operation = operation or call.operation
    spec = request.get("AlgorithmSpecification")
    image = spec.get("TrainingImage") if isinstance(spec, dict) else None
    job = Job(request=request, operation=operation, label=label, place=functools.partial(_at_line, call.line))
    checked = check(job, dict(options, region=_known_region(call.region)))
    return PlannedJob(
        operation,
        call.line,
        label,
        call.region,
        image if isinstance(image, str) else None,
        plain({k: request[k] for k in DEBUG_FIELDS if k in request}),
        tuple(checked.findings),
        tuple(checked.suppressed),
    )


def _at_line(line: Optional[int], finding: Finding, rendered: Any) -> Finding:
    """A job's finding at the launcher's ``line`` that sent its request (the source map of a launcher's request)."""
    return finding.replace(line=line)


def _jobs_of(call: Call, launch: Launch, options: Dict[str, Any]) -> Iterator[PlannedJob]:
    params = call.params
    if call.operation in _TRAINING:
        yield _job(call, params, str(params.get("TrainingJobName", "(no name)")), options)
    elif call.operation == "CreateHyperParameterTuningJob":
        yield PlannedJob(
            call.operation,
            call.line,
            str(params.get("HyperParameterTuningJobName", "(no name)")),
            call.region,
            note=_TUNING_NOTE,
        )
    else:
        name = str(params.get("PipelineName", "(no name)"))
        definition = params.get("PipelineDefinition")
        location = params.get("PipelineDefinitionS3Location")
        if definition is None and isinstance(location, dict):
            definition = launch.definitions.get((str(location.get("Bucket")), str(location.get("ObjectKey"))))
        try:
            steps = list(training_steps(definition)) if definition is not None else None
        except ValueError:
            steps = None
        if steps is None:
            yield PlannedJob(
                call.operation,
                call.line,
                f"pipeline {name}",
                call.region,
                note="the pipeline definition could not be read as JSON",
            )
        elif not steps:
            yield PlannedJob(
                call.operation, call.line, f"pipeline {name}", call.region, note="the pipeline has no Training step"
            )
        for _pointer, step, arguments in steps or ():
            yield _job(call, arguments, f"pipeline {name}, step {step}", options, operation="CreateTrainingJob")


def plan(
    script: str,
    args: Sequence[str] = (),
    *,
    region: Optional[str] = None,
    max_jobs: int = DEFAULT_MAX_JOBS,
    timeout: Optional[float] = DEFAULT_TIMEOUT,
    framework: Optional[str] = None,
    ignore: Union[None, str, Sequence[str]] = (),
) -> Plan:
    """Run the launcher ``script`` (:func:`run_launcher`) and check every training job it starts.

    ``region`` defaults to ``AWS_REGION`` (else ``AWS_DEFAULT_REGION``, else us-east-1). Each job is validated as
    :func:`~sm_debug_config.validation.validate` does, in its client's region, with the image its request names
    (the hook verdict included); each finding carries the launcher's line that started the job, each problem once. The
    launcher's own findings (what this package's constructors found in objects that reach no request, a value that
    could not be built at all; SMD190 when ``max_jobs`` stopped it) are the plan's too, ``ignore`` applied. Bad
    arguments: ``ConfigError`` naming the field.
    """

    region = regions.job_region(region).name  # the one default of every surface
    codes = check_codes(ignore)
    framework = framework_name(framework)
    if not isinstance(max_jobs, int) or isinstance(max_jobs, bool) or max_jobs < 1:
        raise ConfigError(f"got {max_jobs!r}", field="max_jobs", allowed="a whole number of at least 1")
    if timeout is not None and (not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout < 0):
        raise ConfigError(f"got {timeout!r}", field="timeout", allowed="seconds (0 or None: no limit)")
    launch = run_launcher(script, args, region=region, max_jobs=max_jobs, timeout=timeout)

    options = {"framework": framework, "ignore": codes}
    jobs = tuple(job for call in launch.calls for job in _jobs_of(call, launch, options))
    own = _not_reported_by(jobs, launch.constructed) + list(launch.findings)
    return Plan(launch, jobs, tuple(f for f in own if f.code not in codes), tuple(f for f in own if f.code in codes))


def _not_reported_by(jobs: Sequence[PlannedJob], constructed: Sequence[Finding]) -> List[Finding]:
    """What this package reported while the launcher ran, but the problems a job's request check reports too: an
    object's value that reached a request is found there, with the request's pointer, at the job's line (one problem,
    one finding). What no job reports stays, at the line that found it: a render whose request no job carries (with
    its request pointer: the problems of the objects it rendered are its), an object the launcher built and never
    rendered, a refusal with no request check (SMD002)."""
    reported = [f for job in jobs for f in job.findings + job.suppressed]
    renders = [f for f in constructed if _into_request(f) and not any(same_problem(f, r) for r in reported)]
    reported += renders
    kept = {id(f) for f in renders} | {
        id(f) for f in constructed if not _into_request(f) and not any(same_problem(f, r) for r in reported)
    }
    return [f for f in constructed if id(f) in kept]


def _into_request(finding: Finding) -> bool:
    """Whether ``finding``'s path goes into a request (a render's finding), not below an object (a constructor's)."""
    return bool(finding.path) and finding.path[0] in DEBUG_FIELDS


def same_problem(found: Finding, request: Finding) -> bool:
    """Whether ``found`` (a constructor's finding, its path below the object by the arguments' names, or a render's,
    its path into the request it made) and a request check's finding are about the same value: the same code, and

    - a render's path the request's, but for list positions (the SDK may order the collections anew);
    - an object's path, named as the request names its members, continuing a part of the request's path
      (``/rule_parameters/other_trial_0`` below a rule and ``/DebugRuleConfigurations/0/RuleParameters``;
      ``/hook_parameters/start_step`` and ``/DebugHookConfig/HookParameters/start_step``); a finding about the
      object as a whole (no path): the code alone.

    >>> from sm_debug_config.findings import CHECKS
    >>> SMD133 = CHECKS["SMD133"]
    >>> ctor = SMD133.at(("hook_parameters", "start_step"), "start_step 100 is not below end_step 10")
    >>> same_problem(ctor, SMD133.at(("DebugHookConfig", "HookParameters", "start_step"), "..."))
    True
    >>> same_problem(ctor, SMD133.at(("DebugHookConfig", "CollectionConfigurations", 0), "..."))
    False
    """
    if found.code != request.code:
        return False
    into = request.path
    if _into_request(found):
        return _names(found.path) == _names(into)
    below = member_path(found.path)
    if not below:
        return True
    for start in range(1, len(into)):  # never the whole request path: its first part is a request field
        tail = into[start:]
        shorter = min(len(tail), len(below))
        if tail[:shorter] == below[:shorter]:
            return True
    return False


def _names(path: Sequence[Union[str, int]]) -> Tuple[str, ...]:
    return tuple(part for part in path if isinstance(part, str))
