"""``sm-debug-config plan``: run a launcher script against a local AWS and check every training job it starts.

A launcher is the Python that starts training jobs: SDK v2 Estimators, SDK v3 ``ModelTrainer``,
sagemaker-core or plain boto3. :func:`run_launcher` (:mod:`.launcher`) runs it as ``__main__`` under
moto's in-process AWS (``moto.mock_aws``), with throw-away credentials, and captures every
CreateTrainingJob, UpdateTrainingJob, CreateHyperParameterTuningJob, CreatePipeline and
UpdatePipeline request at the botocore level (:mod:`.capture`), so all SDKs are seen alike. Each
request keeps the line of the launcher that made it: the innermost frame of the script on the
stack. :func:`plan` then validates each training job (each Training step of a pipeline counts as
one), with the image its request names. The launcher's own findings (what this package's
constructors warned or raised in it, the ``--max-jobs`` stop) are the plan's too, at their lines.

>>> definition = {"Steps": [{"Name": "Train", "Type": "Training", "Arguments": {"RoleArn": "r"}},
...     {"Name": "Check", "Type": "Condition",
...      "Arguments": {"IfSteps": [{"Name": "Again", "Type": "Training", "Arguments": {}}]}}]}
>>> [(pointer, name) for pointer, name, _arguments in training_steps(definition)]
[('/Steps/0/Arguments', 'Train'), ('/Steps/1/Arguments/IfSteps/0/Arguments', 'Again')]
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import attrs

from sm_debug_config.documents import pipeline, step_into
from sm_debug_config.errors import ConfigError, pointer
from sm_debug_config.findings import DEBUG_FIELDS, ERROR, INFO, WARNING, Finding
from sm_debug_config.model import regions
from sm_debug_config.model.catalogue import framework_name
from sm_debug_config.operations.plan.capture import CAPTURED, SMD190, Call, LauncherStopped, plain
from sm_debug_config.operations.plan.launcher import (
    DEFAULT_MAX_JOBS,
    DEFAULT_TIMEOUT,
    Launch,
    PlanError,
    run_launcher,
)
from sm_debug_config.validation import check_codes, validate_split

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


def _job(call: Call, request: Dict[str, Any], label: str, check: Callable[..., Any], operation: str = "") -> PlannedJob:
    operation = operation or call.operation
    spec = request.get("AlgorithmSpecification")
    image = spec.get("TrainingImage") if isinstance(spec, dict) else None
    findings, suppressed = check(request, operation=operation, region=_known_region(call.region))
    at = [f.replace(line=call.line) for f in findings]
    return PlannedJob(
        operation,
        call.line,
        label,
        call.region,
        image if isinstance(image, str) else None,
        plain({k: request[k] for k in DEBUG_FIELDS if k in request}),
        tuple(at),
        tuple(suppressed),
    )


def _jobs_of(call: Call, launch: Launch, check: Callable[..., Any]) -> Iterator[PlannedJob]:
    params = call.params
    if call.operation in _TRAINING:
        yield _job(call, params, str(params.get("TrainingJobName", "(no name)")), check)
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
            yield _job(call, arguments, f"pipeline {name}, step {step}", check, operation="CreateTrainingJob")


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
    (the hook verdict included); each finding carries the launcher's line that started the job. The launcher's own
    findings (what this package's constructors warned or raised in it; SMD190 when ``max_jobs`` stopped it) are the
    plan's too, ``ignore`` applied. Bad arguments: ``ConfigError`` naming the field.
    """

    region = regions.job_region(region).name  # the one default of every surface
    codes = check_codes(ignore)
    framework = framework_name(framework)
    if not isinstance(max_jobs, int) or isinstance(max_jobs, bool) or max_jobs < 1:
        raise ConfigError(f"got {max_jobs!r}", field="max_jobs", allowed="a whole number of at least 1")
    if timeout is not None and (not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout < 0):
        raise ConfigError(f"got {timeout!r}", field="timeout", allowed="seconds (0 or None: no limit)")
    launch = run_launcher(script, args, region=region, max_jobs=max_jobs, timeout=timeout)

    def check(request: Dict[str, Any], **options: Any) -> Tuple[List[Finding], List[Finding]]:
        return validate_split(request, framework=framework, ignore=codes, **options)

    jobs = tuple(job for call in launch.calls for job in _jobs_of(call, launch, check))
    own = _not_reported_by(jobs, launch.findings)
    return Plan(launch, jobs, tuple(f for f in own if f.code not in codes), tuple(f for f in own if f.code in codes))


def _not_reported_by(jobs: Sequence[PlannedJob], findings: Sequence[Finding]) -> List[Finding]:
    """The launcher's ``findings`` but the warnings a job's request check reports too: a constructor warned of a value
    (an unknown rule parameter, SMD120) that then reached a request, whose check reports it with its pointer; same code,
    same last key (the constructor's path is below its object, the check's is into the request). An error that
    stopped the launcher is always kept: it says why nothing after it was planned."""
    reported = {(f.code, f.path[-1]) for job in jobs for f in job.findings + job.suppressed if f.path}
    return [f for f in findings if f.severity == ERROR or not (f.path and (f.code, f.path[-1]) in reported)]
