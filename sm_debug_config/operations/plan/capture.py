"""The botocore capture of ``plan``: each SageMaker job request a launcher makes, with its line in the launcher.

:func:`hooked` wraps ``botocore.session.Session.create_client``, through which every SDK (v2, v3,
sagemaker-core, plain boto3) creates its clients, so that each client carries a :class:`Capture`.
The capture sees a request before botocore validates it (a request botocore refuses is seen too),
answers UpdateTrainingJob (moto has no such operation), and stops the launcher at ``max_jobs``:
:class:`LauncherStopped` in the AWS call, then :class:`Abandoned` on the launcher's own next line;
that stop is a finding (SMD190) at the launcher's line of the request it refused.

>>> Call("CreateTrainingJob", 12, "us-east-1", {"TrainingJobName": "j"})
Call(operation='CreateTrainingJob', line=12, region='us-east-1')
"""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect
import json
import sys
import types
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

import attrs

from sm_debug_config.findings import Finding
from sm_debug_config.validation.registry import SMD190

#: The SageMaker operations plan captures.
CAPTURED = (
    "CreateTrainingJob",
    "UpdateTrainingJob",
    "CreateHyperParameterTuningJob",
    "CreatePipeline",
    "UpdatePipeline",
)
DEFAULT_REGION = "us-east-1"
ACCOUNT = "123456789012"  # moto's account


class LauncherStopped(Exception):  # public API; a stop signal, not an error
    """Raised into the launcher when plan stops it (``max_jobs`` reached or ``timeout`` passed), and again by every
    AWS call it makes afterwards.

    An ``Exception``, not a ``BaseException``: SDK v2's telemetry wrapper around ``fit()`` re-raises
    the ``Exception`` it caught from a ``finally`` that returns, so a ``BaseException`` raised under
    ``fit()`` is swallowed and a looping launcher would never stop.
    """


class Abandoned(BaseException):
    """Raised on the launcher's own next line once it is stopped, so that its ``except Exception`` cannot go on."""



@attrs.frozen
class Call:
    """One captured request: its ``operation``, the launcher's ``line`` that made it (None when the script was not on
    the stack, e.g. a thread), the client's ``region`` and a copy of the request ``params``."""

    operation: str
    line: Optional[int]
    region: Optional[str]
    params: Dict[str, Any] = attrs.field(eq=False, repr=False)



class Capture:
    """The botocore hook: records the captured calls, stops the launcher at ``max_jobs`` (a finding: ``findings``),
    answers UpdateTrainingJob."""

    def __init__(self, script: str, max_jobs: int) -> None:
        self.script = script
        self.max_jobs = max_jobs
        self.calls: List[Call] = []
        self.findings: List[Finding] = []
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
            reason = (
                f"stopped the launcher at its job request number {self.max_jobs + 1} (--max-jobs {self.max_jobs}); "
                f"the first {self.max_jobs} are checked"
            )
            message = (
                f"plan {reason}: this {model.name} and what would follow are not (raise --max-jobs to see them)"
            )
            self.findings.append(SMD190.at((), message).replace(line=self._launcher_line()))
            self.stop(reason)
        self.calls.append(
            Call(model.name, self._launcher_line(), (context or {}).get("client_region"), _snapshot(params))
        )

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
        return launcher_line(self.script)

    def stop(self, reason: str, timed_out: bool = False) -> None:
        """Stop the launcher: raise :class:`LauncherStopped` here, and :class:`Abandoned` on its own next line."""
        if self.stopped is None:
            self.stopped, self.timed_out = reason, timed_out
        self._abandon_on_next_line()
        raise LauncherStopped(self.stopped)

    def _abandon_on_next_line(self) -> None:
        script = self.script

        def on_line(frame: types.FrameType, event: str, arg: Any) -> Any:
            if event == "line":
                raise Abandoned(self.stopped)
            return on_line

        def on_call(frame: types.FrameType, event: str, arg: Any) -> Any:
            return on_line if frame.f_code.co_filename == script else None

        frame = inspect.currentframe()
        while frame is not None:  # the launcher's frames running now: a new trace function reaches only new frames
            if frame.f_code.co_filename == script:
                frame.f_trace = on_line
            frame = frame.f_back
        sys.settrace(on_call)


def launcher_line(script: str) -> Optional[int]:
    """The line the innermost frame of ``script`` on the current stack runs (None when it is not on the stack)."""
    # A walk up f_back is microseconds; inspect.stack() builds FrameInfo (and reads source) for every frame.
    frame = inspect.currentframe()
    while frame is not None:
        if frame.f_code.co_filename == script:
            return frame.f_lineno
        frame = frame.f_back
    return None


def _snapshot(params: Dict[str, Any]) -> Dict[str, Any]:
    """A copy of the request as the launcher made it; its JSON form (``repr`` for what JSON lacks) if it holds an object
    that cannot be copied (botocore refuses such a request later: the launcher's error, not plan's)."""
    try:
        return copy.deepcopy(params)
    except Exception:  # noqa: BLE001 - whatever the object's __deepcopy__ raises
        return plain(params)


#: The S3 operations that need their bucket to exist: a launcher's own bucket (``output_path=f"s3://{bucket}/..."``,
#: code uploaded there) exists in its account but not in plan's empty local S3, so plan makes it at first use.
_BUCKET_OPERATIONS = frozenset({"PutObject", "CreateMultipartUpload", "UploadPart", "CompleteMultipartUpload",
                                "CopyObject", "GetObject", "HeadObject", "ListObjects", "ListObjectsV2",
                                "HeadBucket", "GetBucketLocation"})


def _with_bucket(client: Any, made: Set[str], params: Dict[str, Any], model: Any, **kwargs: Any) -> None:
    """Before an S3 call of plan's local AWS that needs a bucket: make the bucket if it does not exist yet."""
    bucket = params.get("Bucket")
    if model.name not in _BUCKET_OPERATIONS or not isinstance(bucket, str) or not bucket or bucket in made:
        return
    made.add(bucket)
    region = client.meta.region_name
    where = {} if region in (None, "us-east-1") else {"CreateBucketConfiguration": {"LocationConstraint": region}}
    # it exists already, or the name is refused: then the launcher's own call says so
    with contextlib.suppress(Exception):
        client.create_bucket(Bucket=bucket, **where)


def plain(value: Any) -> Any:
    """``value`` as JSON data: what plan prints is always JSON."""
    return json.loads(json.dumps(value, default=repr))


@contextlib.contextmanager
def hooked(capture: Capture) -> Iterator[None]:
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
        if client.meta.service_model.service_name == "s3":
            client.meta.events.register(
                "before-parameter-build.s3", functools.partial(_with_bucket, client, made),
                unique_id="sm-debug-config-plan-bucket",
            )
        return client

    made: Set[str] = set()

    botocore.session.Session.create_client = create_client
    saved_trace = sys.gettrace()
    try:
        yield
    finally:
        capture.active = False
        sys.settrace(saved_trace)
        botocore.session.Session.create_client = original

