"""Running a launcher script for ``plan``: as ``__main__``, under moto's in-process AWS, stopped on time.

:func:`run_launcher` runs the script with throw-away credentials as an IAM role (``moto.mock_aws``),
with the :mod:`.capture` hook on every botocore client, and returns a :class:`Launch`: the captured
requests and how the run ended (its exit status, or its traceback trimmed to the script's frames).

While the launcher runs, and restored afterwards: the environment (every ``AWS_*`` variable
replaced: no endpoint override, profile or config file applies, so nothing reaches AWS),
``sys.argv``, ``sys.path``, standard output (the launcher's prints go to stderr),
``botocore.session.Session.create_client`` (wrapped to add the capture to every client), and
the SIGALRM timer of ``timeout``. Not restored: the modules the launcher imported, and whatever it
does outside AWS (local files, other network calls) happens as it would.
"""

from __future__ import annotations

import contextlib
import json
import os
import runpy
import signal
import sys
import threading
import time
import traceback
from typing import Any, Dict, Iterator, Optional, Sequence, Tuple, Union

import attrs

from sm_debug_config.operations.plan.capture import (
    ACCOUNT,
    DEFAULT_REGION,
    Abandoned,
    Call,
    Capture,
    LauncherStopped,
    hooked,
    sdk_v2_restored,
)

DEFAULT_MAX_JOBS = 100
DEFAULT_TIMEOUT = 300.0
ROLE_NAME = "SageMakerRole"  # the role plan runs as, so that get_execution_role() finds one
_PIPELINES = ("CreatePipeline", "UpdatePipeline")


class PlanError(Exception):
    """plan cannot run the launcher at all: moto is not installed, or the script cannot be read."""


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
    capture = Capture(path, max_jobs)
    exit_status: Union[None, int, str] = None
    error: Optional[str] = None
    started = time.perf_counter()
    with _as_main(path, args, _throwaway_environment(region)), sdk_v2_restored(), moto.mock_aws():
        _assume_role(region)
        with hooked(capture):
            try:
                with _deadline(timeout, capture):
                    runpy.run_path(path, run_name="__main__")
            except SystemExit as exc:
                exit_status = (
                    None if exc.code in (None, 0) else exc.code if isinstance(exc.code, int) else str(exc.code)
                )
            except (LauncherStopped, Abandoned):
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

