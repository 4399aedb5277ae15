"""Running a launcher script for ``plan``: as ``__main__``, under moto's in-process AWS, stopped on time.

:func:`run_launcher` runs the script with throw-away credentials as an IAM role (``moto.mock_aws``),
with the :mod:`.capture` hook on every botocore client, and returns a :class:`Launch`: the captured
requests, the launcher's own findings and how the run ended (its exit status, or what it raised and
at which of its lines).

The launcher's findings are values, never rebuilt from warnings: the launcher runs with this package's
objects built as written (:func:`~sm_debug_config.findings.collecting`), so a constructor keeps a value
its checks refuse, and a render or an SDK integration sends the request a refused value is in, instead
of raising: every finding of a job is then found on the request the launcher sends, in one run. What
the constructors reported comes back with the launcher's line that made the call (the innermost frame
of the script on the stack): :attr:`Launch.constructed`. A ``ConfigError`` that still ends the launcher
(a value of a type an object cannot be built with) and the ``max_jobs`` stop (SMD190) are
:attr:`Launch.findings`. Warnings are the launcher's own output (the SDK's, the script's, this
package's integrations saying what they did): written to stderr as Python writes them
(``file:line: Category: message``), under the warning filters a plain ``python launcher.py`` has.

While the launcher runs, and restored afterwards: the environment (every ``AWS_*`` variable
replaced: no endpoint override, profile or config file applies, so nothing reaches AWS),
``sys.argv``, ``sys.path``, standard output (the launcher's prints go to stderr), the warning
filters and ``warnings.showwarning``, this package's collector of findings (a context variable,
of the launcher's thread), ``time.sleep`` (the SDKs' waits return at once, see
:func:`_sdk_waits_skipped`), ``botocore.session.Session.create_client`` (wrapped to add the
capture to every client), and the SIGALRM timer of ``timeout``. Not restored: the modules the
launcher imported, and whatever it does outside AWS (local files, other network calls) happens as
it would.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import runpy
import signal
import sys
import threading
import time
import warnings
from typing import Any, Dict, Iterator, List, Literal, Optional, Sequence, Tuple, Type, Union

import attrs

from sm_debug_config.errors import ConfigError, install_hint, write_warning
from sm_debug_config.findings import Finding, collecting, finding_of_error
from sm_debug_config.operations.plan.capture import (
    ACCOUNT,
    DEFAULT_REGION,
    Abandoned,
    Call,
    Capture,
    LauncherStopped,
    hooked,
    launcher_line,
)

DEFAULT_MAX_JOBS = 100
DEFAULT_TIMEOUT = 300.0
ROLE_NAME = "SageMakerRole"  # the role plan runs as, so that get_execution_role() finds one
_PIPELINES = ("CreatePipeline", "UpdatePipeline")


class PlanError(Exception):
    """plan cannot run the launcher at all: moto is not installed, or the script cannot be read."""


@attrs.frozen
class Launch:
    """What running a launcher gave: its ``calls`` in order, its own findings, and how it ended.

    ``constructed``: what this package's constructors reported in the launcher (their objects built as written),
    each at the launcher's line that built the object, its ``path`` below the object, in the order they came (a
    problem of an object that reaches a request is reported there too: :func:`~sm_debug_config.operations.plan.plan`
    keeps one); ``findings``: the ``ConfigError`` that ended the launcher and the ``max_jobs`` stop, each at its
    line; ``exit_status``: the code of the
    launcher's own ``sys.exit`` when not 0 (a string code is its message); ``error``: what it raised
    (``Type: message`` on one line) when that is not a ``ConfigError`` (which is a finding);
    ``raised_at``: the launcher's line it raised at, either way; ``stopped``: why plan stopped it
    (``timed_out`` tells a timeout); ``definitions``: the text of pipeline definitions the requests
    name in S3, by ``(bucket, key)``.
    """

    script: str
    calls: Tuple[Call, ...]
    exit_status: Union[None, int, str] = None
    error: Optional[str] = None
    stopped: Optional[str] = None
    timed_out: bool = False
    seconds: float = 0.0
    definitions: Dict[Tuple[str, str], Optional[str]] = attrs.field(factory=dict, eq=False, repr=False)
    findings: Tuple[Finding, ...] = ()
    raised_at: Optional[int] = None
    constructed: Tuple[Finding, ...] = ()



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
def _deadline(seconds: Optional[float], capture: Capture) -> Iterator[None]:
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


def _raised_at(exc: BaseException, script: str) -> Optional[int]:
    """The launcher's line ``exc`` was raised at: the innermost frame of ``script`` in its traceback (the SDK's frames
    below it say nothing of the script), or the line of a syntax error in the script itself."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == script:
            line = tb.tb_lineno
        tb = tb.tb_next
    if line is None and isinstance(exc, SyntaxError) and exc.filename == script:
        line = exc.lineno
    return line


def _one_line(exc: BaseException) -> str:
    """``Type: message`` of what the launcher raised, on one line and bounded (botocore's messages run to many)."""
    text = " ".join(str(exc).split())
    text = text if len(text) <= 400 else text[:300] + " ... " + text[-95:]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _error_finding(err: ConfigError, line: Optional[int]) -> Finding:
    """What a ``ConfigError`` that ended the launcher reports, at its ``line``: a finding of its code (SMD002 when it
    has none), its path below the object, the field named in the message as lint names it. (A request with errors is
    not refused while the launcher runs: its findings are its job's.)"""
    return finding_of_error(err).replace(line=line)


#: The warning filters of a plain ``python launcher.py`` ("Default Warning Filter" in Python's ``warnings``
#: documentation), most specific first: the launcher's DeprecationWarnings are shown, the libraries' are not.
_PYTHON_DEFAULT_FILTERS: Tuple[Tuple[Literal["default", "ignore"], Type[Warning], str], ...] = (
    ("default", DeprecationWarning, "__main__"),
    ("ignore", DeprecationWarning, ""),
    ("ignore", PendingDeprecationWarning, ""),
    ("ignore", ImportWarning, ""),
    ("ignore", ResourceWarning, ""),
)


@contextlib.contextmanager
def _launchers_warnings() -> Iterator[None]:
    """The launcher's warnings under Python's default filters (with ``-W`` and ``PYTHONWARNINGS``), written to stderr
    as Python writes them. This package's constructors and checks warn nothing meanwhile: they report to plan's
    collector (:func:`run_launcher`)."""
    with warnings.catch_warnings():
        warnings.resetwarnings()
        for action, category, module in reversed(_PYTHON_DEFAULT_FILTERS):
            warnings.filterwarnings(action, category=category, module=module)
        process_options = getattr(warnings, "_processoptions", None)  # how Python applies -W; private
        if sys.warnoptions and callable(process_options):
            process_options(sys.warnoptions)
        warnings.showwarning = write_warning  # the command around plan may record its own; these are the launcher's
        yield


def _constructed(collected: Sequence[Finding]) -> List[Finding]:
    """What this package reported while the launcher ran, each once at its line (a loop builds the same object
    again): its constructors' findings (their path below the object) and its renders' (their path into the request
    they made, which the launcher may send or not)."""
    out: Dict[Tuple[Finding, Optional[int]], Finding] = {}  # a Finding's equality leaves its line out
    for finding in collected:
        out.setdefault((finding, finding.line), finding)
    return list(out.values())


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


#: The packages whose sleeps plan skips while the launcher runs (see :func:`_sdk_waits_skipped`).
_SDK_PACKAGES = ("sagemaker", "sagemaker_core", "botocore", "boto3")
#: How many of the SDKs' sleeps are skipped in one run; after that they sleep (see :func:`_sdk_waits_skipped`).
_MAX_SKIPPED_SLEEPS = 1000


def _is_sdk(module: Any) -> bool:
    return isinstance(module, str) and any(module == name or module.startswith(name + ".") for name in _SDK_PACKAGES)


@contextlib.contextmanager
def _sdk_waits_skipped() -> Iterator[None]:
    """``time.sleep`` called by the SDKs' own code in the launcher's thread returns at once.

    Under moto a job is complete as soon as it is created, yet SDK v2's ``fit()`` sleeps 5 s before its first look at
    the job (``sagemaker.session._wait_until``), and sagemaker-core's and botocore's waiters sleep between polls: time
    nothing is waited for. The launcher's own sleeps, and those of other threads, sleep as they would. After
    :data:`_MAX_SKIPPED_SLEEPS` the SDKs' sleeps sleep again, so that a wait for a state moto never reaches runs at
    the SDK's own pace until ``timeout``, not as a busy loop.
    """
    real = time.sleep
    thread = threading.get_ident()
    skipped = 0

    def sleep(seconds: float) -> None:
        nonlocal skipped
        if (
            skipped < _MAX_SKIPPED_SLEEPS
            and threading.get_ident() == thread
            and _is_sdk(sys._getframe(1).f_globals.get("__name__"))
        ):
            skipped += 1
            return
        real(seconds)

    time.sleep = sleep
    try:
        yield
    finally:
        time.sleep = real


@contextlib.contextmanager
def _one_data_loader() -> Iterator[None]:
    """Every botocore loader made meanwhile is one loader (one per data path), so botocore's data files are parsed once.

    Each new botocore session makes its own loader, which parses ``endpoints.json`` (about 80 ms) and each service
    model again, and so does SDK v2 for each image or partition it looks up (``sagemaker.utils._botocore_resolver``):
    ``endpoints.json`` was parsed 11 times for one SDK v2 Estimator. botocore shares a loader's data between the
    clients of one session already; here every session and the SDK share it. ``botocore.loaders.create_loader`` is the
    factory both call (``botocore.session`` imported it by name).
    """
    import botocore.loaders
    import botocore.session

    original = botocore.loaders.create_loader
    loaders: Dict[Optional[str], Any] = {}

    def create_loader(search_path_string: Optional[str] = None) -> Any:
        if search_path_string not in loaders:
            loaders[search_path_string] = original(search_path_string)
        return loaders[search_path_string]

    modules = [m for m in (botocore.loaders, botocore.session) if getattr(m, "create_loader", None) is original]
    for module in modules:
        module.create_loader = create_loader
    try:
        yield
    finally:
        for module in modules:
            module.create_loader = original


def _import_moto() -> Any:
    try:
        import moto
    except ImportError:
        raise PlanError(f"plan needs moto (a local AWS): {install_hint('plan')}") from None
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
    SageMaker job requests and its own findings (see the module docstring for what it changes while it runs).

    It never waits on AWS: jobs complete at once under moto, and the SDKs' waits return at once. At request number
    ``max_jobs + 1``, or after ``timeout`` seconds (None or 0: no limit), the launcher is stopped. The cwd stays as it
    is, since launchers name local paths relative to it. A script that cannot be read, or no moto: :class:`PlanError`.
    """
    path = os.path.abspath(script)
    if not os.path.isfile(path):
        raise PlanError(f"{script}: no such file")
    moto = _import_moto()
    capture = Capture(path, max_jobs)
    raised: List[Finding] = []
    exit_status: Union[None, int, str] = None
    error: Optional[str] = None
    raised_at: Optional[int] = None
    started = time.perf_counter()
    with _as_main(path, args, _throwaway_environment(region)), _launchers_warnings(), _one_data_loader(), \
            moto.mock_aws():
        _assume_role(region)
        # this package's objects built as written, each finding a value at the launcher's line that built it
        built_as_written = collecting(as_written=True, where=functools.partial(launcher_line, path))
        with hooked(capture), _sdk_waits_skipped(), built_as_written as found:
            try:
                with _deadline(timeout, capture):
                    runpy.run_path(path, run_name="__main__")
            except SystemExit as exc:
                exit_status = (
                    None if exc.code in (None, 0) else exc.code if isinstance(exc.code, int) else str(exc.code)
                )
            except (LauncherStopped, Abandoned):
                pass  # capture.stopped says why
            except ConfigError as exc:  # a value this package could not build with: a finding, at the launcher's line
                if capture.stopped is None:
                    raised_at = _raised_at(exc, path)
                    raised = [_error_finding(exc, raised_at)]
            except Exception as exc:  # noqa: BLE001 - the launcher's own failure, reported at its line
                if capture.stopped is None:
                    error, raised_at = _one_line(exc), _raised_at(exc, path)
        definitions = _read_s3_definitions(capture.calls, region)
    return Launch(
        script,
        tuple(capture.calls),
        exit_status=exit_status,
        error=error,
        stopped=capture.stopped,
        timed_out=capture.timed_out,
        seconds=time.perf_counter() - started,
        definitions=definitions,
        findings=tuple(raised + capture.findings),
        raised_at=raised_at,
        constructed=tuple(_constructed(found.placed)),
    )
