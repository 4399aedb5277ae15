"""``sm-debug-config plan``: run a launcher script against a local AWS and check every training job it starts.

A launcher is the Python that starts training jobs: SDK v2 Estimators, SDK v3 ``ModelTrainer``,
sagemaker-core or plain boto3. :func:`run_launcher` runs it as ``__main__`` under moto's
in-process AWS (``moto.mock_aws``), with throw-away credentials, and captures every
CreateTrainingJob, UpdateTrainingJob, CreateHyperParameterTuningJob, CreatePipeline and
UpdatePipeline request at the botocore level, so all SDKs are seen alike. Each request keeps the
line of the launcher that made it: the innermost frame of the script on the stack. :func:`plan`
then validates each training job (each Training step of a pipeline counts as one), with the image
its request names.

While the launcher runs, and restored afterwards: the environment (every ``AWS_*`` variable
replaced: no endpoint override, profile or config file applies, so nothing reaches AWS),
``sys.argv``, ``sys.path``, standard output (the launcher's prints go to stderr),
``botocore.session.Session.create_client`` (wrapped to add the capture to every client), and
the SIGALRM timer of ``timeout``. Not restored: the modules the launcher imported, and whatever it
does outside AWS (local files, other network calls) happens as it would.

>>> definition = {"Steps": [{"Name": "Train", "Type": "Training", "Arguments": {"RoleArn": "r"}},
...     {"Name": "Check", "Type": "Condition",
...      "Arguments": {"IfSteps": [{"Name": "Again", "Type": "Training", "Arguments": {}}]}}]}
>>> [(pointer, name) for pointer, name, _arguments in training_steps(definition)]
[('/Steps/0/Arguments', 'Train'), ('/Steps/1/Arguments/IfSteps/0/Arguments', 'Again')]
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import os
import runpy
import signal
import sys
import threading
import time
import traceback
import types
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import attrs

from sm_debug_config.errors import ConfigError, pointer
from sm_debug_config.validation import DEBUG_FIELDS, ERROR, INFO, WARNING, Finding, check_codes, validate_split

__all__ = [
    "CAPTURED",
    "Call",
    "Launch",
    "LauncherStopped",
    "Plan",
    "PlanError",
    "PlannedJob",
    "plan",
    "run_launcher",
    "training_steps",
]

#: The SageMaker operations plan captures.
CAPTURED = (
    "CreateTrainingJob",
    "UpdateTrainingJob",
    "CreateHyperParameterTuningJob",
    "CreatePipeline",
    "UpdatePipeline",
)
DEFAULT_REGION = "us-east-1"
DEFAULT_MAX_JOBS = 100
DEFAULT_TIMEOUT = 300.0
ACCOUNT = "123456789012"  # moto's account
ROLE_NAME = "SageMakerRole"  # the role plan runs as, so that get_execution_role() finds one
_TRAINING = ("CreateTrainingJob", "UpdateTrainingJob")
_PIPELINES = ("CreatePipeline", "UpdatePipeline")
_TUNING_NOTE = (
    "a tuning job's training definitions have no Debugger fields (HyperParameterTrainingJobDefinition has no "
    "Debug*, Profiler* or TensorBoard* member): nothing to check"
)


class PlanError(Exception):
    """plan cannot run the launcher at all: moto is not installed, or the script cannot be read."""


class LauncherStopped(Exception):
    """Raised into the launcher when plan stops it (``max_jobs`` reached or ``timeout`` passed), and again by every
    AWS call it makes afterwards.

    An ``Exception``, not a ``BaseException``: SDK v2's telemetry wrapper around ``fit()`` re-raises
    the ``Exception`` it caught from a ``finally`` that returns, so a ``BaseException`` raised under
    ``fit()`` is swallowed and a looping launcher would never stop.
    """


class _Abandoned(BaseException):
    """Raised on the launcher's own next line once it is stopped, so that its ``except Exception`` cannot go on."""


# --- what a run gives -------------------------------------------------------------------------


@attrs.frozen
class Call:
    """One captured request: its ``operation``, the launcher's ``line`` that made it (None when the script was not on
    the stack, e.g. a thread), the client's ``region`` and a copy of the request ``params``."""

    operation: str
    line: Optional[int]
    region: Optional[str]
    params: Dict[str, Any] = attrs.field(eq=False, repr=False)


@attrs.frozen
class Launch:
    """What running a launcher gave: its ``calls`` in order, and how it ended.

    ``exit_status``: the code of the launcher's own ``sys.exit`` when not 0 (a string code is its
    message); ``error``: its traceback, trimmed to the script's frames, when it raised; ``stopped``:
    why plan stopped it (``timed_out`` tells a timeout); ``definitions``: the text of pipeline
    definitions the requests name in S3, by ``(bucket, key)``.
    """

    script: str
    calls: Tuple[Call, ...]
    exit_status: Union[None, int, str] = None
    error: Optional[str] = None
    stopped: Optional[str] = None
    timed_out: bool = False
    seconds: float = 0.0
    definitions: Dict[Tuple[str, str], Optional[str]] = attrs.field(factory=dict, eq=False, repr=False)


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
    """The jobs a launcher starts, checked, and how its run ended (see :class:`Launch`)."""

    launch: Launch
    jobs: Tuple[PlannedJob, ...]

    def count(self, severity: str) -> int:
        return sum(1 for job in self.jobs for f in job.findings if f.severity == severity)

    @property
    def failed(self) -> bool:
        """The launcher did not run to its end: it raised, exited with a non-zero code, or ran past the timeout."""
        return bool(self.launch.error or self.launch.timed_out or self.launch.exit_status not in (None, 0))

    def summary(self) -> str:
        """``3 training jobs planned: 1 error, 2 warnings``, with updates, requests not checked and suppressed findings
        when there are."""

        def plural(n: int, word: str) -> str:
            return f"{n} {word}{'' if n == 1 else 's'}"

        trainings = sum(1 for job in self.jobs if job.operation != "UpdateTrainingJob" and job.checked)
        updates = sum(1 for job in self.jobs if job.operation == "UpdateTrainingJob")
        others = sum(1 for job in self.jobs if not job.checked)
        suppressed = sum(len(job.suppressed) for job in self.jobs)
        return (
            f"{plural(trainings, 'training job')} planned"
            + (f", {plural(updates, 'update')}" if updates else "")
            + (f", {others} not checked" if others else "")
            + f": {plural(self.count(ERROR), 'error')}, {plural(self.count(WARNING), 'warning')}"
            + (f", {suppressed} suppressed" if suppressed else "")
        )

    def messages(self) -> List[str]:
        """How the run ended, when that is worth saying: stopped, exited, raised, or no job started."""
        launch = self.launch
        out = [f"plan: {launch.stopped}"] if launch.stopped else []
        if isinstance(launch.exit_status, str):
            out.append(f"plan: the launcher exited with the message: {launch.exit_status}")
        elif launch.exit_status:
            out.append(
                f"plan: the launcher exited with status {launch.exit_status}; the jobs it started until then are listed"
            )
        if launch.error:
            out.append(f"plan: the launcher raised; the jobs it started until then are listed\n{launch.error}")
        if not launch.calls and not self.failed:
            out.append("plan: the launcher started no training job (nothing to check; --strict makes this exit 1)")
        return out

    def to_dict(self) -> Dict[str, Any]:
        launch = self.launch
        return {
            "script": launch.script,
            "jobs": [job.to_dict() for job in self.jobs],
            "errors": self.count(ERROR),
            "warnings": self.count(WARNING),
            "infos": self.count(INFO),
            "suppressed": sum(len(j.suppressed) for j in self.jobs),
            "exit_status": launch.exit_status,
            "error": launch.error,
            "stopped": launch.stopped,
            "timed_out": launch.timed_out,
            "seconds": round(launch.seconds, 2),
            "summary": self.summary(),
        }


# --- pipeline definitions ---------------------------------------------------------------------


def training_steps(definition: Any) -> Iterator[Tuple[str, str, Dict[str, Any]]]:
    """``(pointer, step name, Arguments)`` of each Training step of a SageMaker pipeline definition (a JSON string or
    its object), Condition steps' ``IfSteps``/``ElseSteps`` included. The Arguments are a CreateTrainingJob request
    without ``TrainingJobName``; anything that is not a step is skipped. A string that is not JSON: ``ValueError``."""
    document = json.loads(definition) if isinstance(definition, (str, bytes)) else definition
    steps = document.get("Steps") if isinstance(document, dict) else None
    yield from _steps(steps, ("Steps",))


def _steps(steps: Any, at: Tuple[Union[str, int], ...]) -> Iterator[Tuple[str, str, Dict[str, Any]]]:
    for index, step in enumerate(steps if isinstance(steps, list) else ()):
        arguments = step.get("Arguments") if isinstance(step, dict) else None
        if not isinstance(arguments, dict):
            continue
        where = at + (index, "Arguments")
        if step.get("Type") == "Training":
            yield pointer(*where), str(step.get("Name", index)), arguments
        elif step.get("Type") == "Condition":
            for branch in ("IfSteps", "ElseSteps"):
                yield from _steps(arguments.get(branch), where + (branch,))


# --- running the launcher ---------------------------------------------------------------------


class _Capture:
    """The botocore hook: records the captured calls, stops the launcher at ``max_jobs``, answers UpdateTrainingJob."""

    def __init__(self, script: str, max_jobs: int) -> None:
        self.script = script
        self.max_jobs = max_jobs
        self.calls: List[Call] = []
        self.stopped: Optional[str] = None
        self.timed_out = False
        self.active = True

    def on_parameters(
        self, params: Dict[str, Any], model: Any, context: Optional[Dict[str, Any]] = None, **_: Any
    ) -> None:
        """``before-parameter-build`` of every client: before botocore validates, so a request it refuses is seen."""
        if not self.active:
            return
        if self.stopped:  # sticky: once stopped, every AWS call of the launcher fails
            self.stop(self.stopped)
        if model.service_model.service_name != "sagemaker" or model.name not in CAPTURED:
            return
        if len(self.calls) >= self.max_jobs:
            self.stop(
                f"stopped the launcher at its job request number {self.max_jobs + 1} (--max-jobs {self.max_jobs}); "
                f"the first {self.max_jobs} are checked"
            )
        self.calls.append(
            Call(model.name, self._launcher_line(), (context or {}).get("client_region"), _snapshot(params))
        )
        _cache_sdk_v2_endpoints()

    def on_update(self, context: Optional[Dict[str, Any]] = None, **_: Any) -> Tuple[Any, Dict[str, Any]]:
        """``before-call`` of UpdateTrainingJob, which moto does not implement: answered here (the request is kept)."""
        name = self.calls[-1].params.get("TrainingJobName", "unknown") if self.calls else "unknown"
        region = (context or {}).get("client_region") or DEFAULT_REGION
        http = types.SimpleNamespace(status_code=200, headers={})
        return http, {
            "TrainingJobArn": f"arn:aws:sagemaker:{region}:{ACCOUNT}:training-job/{name}",
            "ResponseMetadata": {"HTTPStatusCode": 200},
        }

    def _launcher_line(self) -> Optional[int]:
        # A walk up f_back is microseconds; inspect.stack() builds FrameInfo (and reads source) for every frame.
        frame: Optional[types.FrameType] = sys._getframe(2)
        while frame is not None:
            if frame.f_code.co_filename == self.script:
                return frame.f_lineno
            frame = frame.f_back
        return None

    def stop(self, reason: str, timed_out: bool = False) -> None:
        """Stop the launcher: raise :class:`LauncherStopped` here, and :class:`_Abandoned` on its own next line."""
        if self.stopped is None:
            self.stopped, self.timed_out = reason, timed_out
        self._abandon_on_next_line()
        raise LauncherStopped(self.stopped)

    def _abandon_on_next_line(self) -> None:
        script = self.script

        def on_line(frame: types.FrameType, event: str, arg: Any) -> Any:
            if event == "line":
                raise _Abandoned(self.stopped)
            return on_line

        def on_call(frame: types.FrameType, event: str, arg: Any) -> Any:
            return on_line if frame.f_code.co_filename == script else None

        frame: Optional[types.FrameType] = sys._getframe(1)
        while frame is not None:  # the launcher's frames running now: a new trace function reaches only new frames
            if frame.f_code.co_filename == script:
                frame.f_trace = on_line
            frame = frame.f_back
        sys.settrace(on_call)


def _snapshot(params: Dict[str, Any]) -> Dict[str, Any]:
    """A copy of the request as the launcher made it; its JSON form (``repr`` for what JSON lacks) if it holds an object
    that cannot be copied (botocore refuses such a request later: the launcher's error, not plan's)."""
    try:
        return copy.deepcopy(params)
    except Exception:  # noqa: BLE001 - whatever the object's __deepcopy__ raises
        return _plain(params)


def _plain(value: Any) -> Any:
    """``value`` as JSON data: what plan prints is always JSON."""
    return json.loads(json.dumps(value, default=repr))


def _cache_sdk_v2_endpoints() -> None:
    """SDK v2 reloads botocore's endpoint data for every new Session (seconds each): cached while plan runs, for
    launchers that make a session per job. Private to the SDK, so only when it is there as expected."""
    utils = sys.modules.get("sagemaker.utils")
    resolver = getattr(utils, "_botocore_resolver", None)
    if resolver is not None and not hasattr(resolver, "cache_info") and utils is not None:
        setattr(utils, "_botocore_resolver", functools.lru_cache(maxsize=None)(resolver))


@contextlib.contextmanager
def _sdk_v2_restored() -> Iterator[None]:
    utils = sys.modules.get("sagemaker.utils")
    before = getattr(utils, "_botocore_resolver", None)
    try:
        yield
    finally:
        utils = sys.modules.get("sagemaker.utils")
        resolver = getattr(utils, "_botocore_resolver", None)
        if utils is not None and hasattr(resolver, "__wrapped__"):
            setattr(utils, "_botocore_resolver", before or getattr(resolver, "__wrapped__"))


def _throwaway_environment(region: str) -> Dict[str, str]:
    """The environment the launcher sees: the current one without any ``AWS_*`` variable (endpoint overrides,
    profiles, role and container credentials, config files), then throw-away credentials and ``region``."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")}
    env.update(
        {
            "AWS_ACCESS_KEY_ID": "plan-access-key",
            "AWS_SECRET_ACCESS_KEY": "plan-secret-key",
            "AWS_SESSION_TOKEN": "plan-session-token",
            "AWS_REGION": region,
            "AWS_DEFAULT_REGION": region,
            "AWS_CONFIG_FILE": os.devnull,
            "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
            "AWS_EC2_METADATA_DISABLED": "true",
            # SDK v3 checks the role with iam:SimulatePrincipalPolicy, which moto does not implement
            "SAGEMAKER_VALIDATE_ROLE": "false",
        }
    )
    return env


@contextlib.contextmanager
def _as_main(script: str, args: Sequence[str], env: Dict[str, str]) -> Iterator[None]:
    """``sys.argv``, ``sys.path``, the environment and stdout as the launcher expects them, restored afterwards."""
    saved_argv, saved_path, saved_env = sys.argv[:], sys.path[:], dict(os.environ)
    sys.argv = [script, *args]
    sys.path.insert(0, os.path.dirname(script))
    os.environ.clear()
    os.environ.update(env)
    try:
        with contextlib.redirect_stdout(sys.stderr):  # plan's own output stays alone on stdout
            yield
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
        os.environ.clear()
        os.environ.update(saved_env)


@contextlib.contextmanager
def _hooked(capture: _Capture) -> Iterator[None]:
    """Every botocore client created from now on carries the capture (all SDKs create theirs through this method)."""
    import botocore.session

    original = botocore.session.Session.create_client

    @functools.wraps(original)
    def create_client(self: Any, *args: Any, **kwargs: Any) -> Any:
        client = original(self, *args, **kwargs)
        # Last, and at the least specific level: botocore calls more specific handlers first, so the request is
        # captured as it leaves, after every other handler (our own attach() adds the Debugger fields there).
        client.meta.events.register_last(
            "before-parameter-build", capture.on_parameters, unique_id="sm-debug-config-plan"
        )
        client.meta.events.register(
            "before-call.sagemaker.UpdateTrainingJob", capture.on_update, unique_id="sm-debug-config-plan-update"
        )
        return client

    botocore.session.Session.create_client = create_client
    saved_trace = sys.gettrace()
    try:
        yield
    finally:
        capture.active = False
        sys.settrace(saved_trace)
        botocore.session.Session.create_client = original


@contextlib.contextmanager
def _deadline(seconds: Optional[float], capture: _Capture) -> Iterator[None]:
    """After ``seconds``, stop the launcher, and again every second until it has ended (main thread, POSIX only)."""
    if not seconds or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def fire(signum: int, frame: Any) -> None:
        capture.stop(f"stopped the launcher after --timeout {seconds:g} s", timed_out=True)

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _assume_role(region: str) -> None:
    """Run as an IAM role, as on SageMaker: ``get_execution_role()`` refuses a user identity (moto's default)."""
    import boto3

    session = boto3.session.Session(region_name=region)
    trust = {
        "Version": "2012-10-17",
        "Statement": [
            {"Effect": "Allow", "Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}
        ],
    }
    session.client("iam").create_role(RoleName=ROLE_NAME, AssumeRolePolicyDocument=json.dumps(trust))
    role_arn = f"arn:aws:iam::{ACCOUNT}:role/{ROLE_NAME}"
    credentials = session.client("sts").assume_role(RoleArn=role_arn, RoleSessionName="sm-debug-config-plan")[
        "Credentials"
    ]
    os.environ.update(
        AWS_ACCESS_KEY_ID=credentials["AccessKeyId"],
        AWS_SECRET_ACCESS_KEY=credentials["SecretAccessKey"],
        AWS_SESSION_TOKEN=credentials["SessionToken"],
    )


def _trimmed_traceback(exc: BaseException, script: str) -> str:
    """The traceback of what the launcher raised, its own frames only (the SDK's dozens say nothing of the script)."""
    frames = traceback.StackSummary.from_list(
        [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == script]
    )
    lines = ["Traceback (the launcher's frames only):\n"] + frames.format() if frames else []
    return "".join(lines + traceback.format_exception_only(type(exc), exc)).rstrip("\n")


def _read_s3_definitions(calls: Sequence[Call], region: str) -> Dict[Tuple[str, str], Optional[str]]:
    """The pipeline definitions the requests keep in (moto's) S3, read while it still holds them; None if unreadable."""
    out: Dict[Tuple[str, str], Optional[str]] = {}
    locations = [c.params.get("PipelineDefinitionS3Location") for c in calls if c.operation in _PIPELINES]
    for location in [loc for loc in locations if isinstance(loc, dict)]:
        key = (str(location.get("Bucket")), str(location.get("ObjectKey")))
        try:
            import boto3

            s3 = boto3.session.Session(region_name=region).client("s3")
            version = {"VersionId": location["VersionId"]} if location.get("VersionId") else {}
            out[key] = s3.get_object(Bucket=key[0], Key=key[1], **version)["Body"].read().decode("utf-8")
        except Exception:  # noqa: BLE001 - reported as a definition plan could not read
            out[key] = None
    return out


def _import_moto() -> Any:
    try:
        import moto
    except ImportError:
        raise PlanError('plan needs moto (a local AWS): pip install "sm-debug-config[plan]"') from None
    return moto


def run_launcher(
    script: str,
    args: Sequence[str] = (),
    *,
    region: str = DEFAULT_REGION,
    max_jobs: int = DEFAULT_MAX_JOBS,
    timeout: Optional[float] = DEFAULT_TIMEOUT,
) -> Launch:
    """Run ``script`` as ``__main__`` with ``args`` as ``sys.argv[1:]`` under ``moto.mock_aws`` and capture its
    SageMaker job requests (see the module docstring for what it changes while it runs).

    It never waits on AWS: jobs complete at once under moto. At request number ``max_jobs + 1``, or after
    ``timeout`` seconds (None or 0: no limit), the launcher is stopped. The cwd stays as it is, since launchers
    name local paths relative to it. A script that cannot be read, or no moto: :class:`PlanError`.
    """
    path = os.path.abspath(script)
    if not os.path.isfile(path):
        raise PlanError(f"{script}: no such file")
    moto = _import_moto()
    capture = _Capture(path, max_jobs)
    exit_status: Union[None, int, str] = None
    error: Optional[str] = None
    started = time.perf_counter()
    with _as_main(path, args, _throwaway_environment(region)), _sdk_v2_restored(), moto.mock_aws():
        _assume_role(region)
        with _hooked(capture):
            try:
                with _deadline(timeout, capture):
                    runpy.run_path(path, run_name="__main__")
            except SystemExit as exc:
                exit_status = (
                    None if exc.code in (None, 0) else exc.code if isinstance(exc.code, int) else str(exc.code)
                )
            except (LauncherStopped, _Abandoned):
                pass  # capture.stopped says why
            except Exception as exc:  # noqa: BLE001 - the launcher's own failure, reported with its frames
                if capture.stopped is None:
                    error = _trimmed_traceback(exc, path)
        definitions = _read_s3_definitions(capture.calls, region)
    return Launch(
        script,
        tuple(capture.calls),
        exit_status,
        error,
        capture.stopped,
        capture.timed_out,
        time.perf_counter() - started,
        definitions,
    )


# --- checking what it started -----------------------------------------------------------------


def _known_region(region: Optional[str]) -> Optional[str]:
    from sm_debug_config.model import regions

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
        _plain({k: request[k] for k in DEBUG_FIELDS if k in request}),
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
    (the hook verdict included); each finding carries the launcher's line that started the job. Bad arguments:
    ``ConfigError`` naming the field.
    """
    from sm_debug_config.model import regions
    from sm_debug_config.model.catalogue import framework_name

    region = regions.check_region(
        region or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or DEFAULT_REGION
    )
    codes = check_codes(ignore)
    framework = framework_name(framework)
    if not isinstance(max_jobs, int) or isinstance(max_jobs, bool) or max_jobs < 1:
        raise ConfigError(f"got {max_jobs!r}", field="max_jobs", allowed="a whole number of at least 1")
    if timeout is not None and (not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout < 0):
        raise ConfigError(f"got {timeout!r}", field="timeout", allowed="seconds (0 or None: no limit)")
    launch = run_launcher(script, args, region=region, max_jobs=max_jobs, timeout=timeout)

    def check(request: Dict[str, Any], **options: Any) -> Tuple[List[Finding], List[Finding]]:
        return validate_split(request, framework=framework, ignore=codes, **options)

    return Plan(launch, tuple(job for call in launch.calls for job in _jobs_of(call, launch, check)))
