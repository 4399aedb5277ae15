"""Helpers of the status tests (``operations/test_status.py``, ``cli/test_status.py``): the recorded
``DescribeTrainingJob`` responses and events, offline AWS settings, a Stubber-checked SageMaker client."""
from __future__ import annotations

import contextlib
import datetime as dt
import json
from pathlib import Path
from typing import Any, Dict, Iterator, Tuple

DATA = Path(__file__).parent.parent / "data" / "events"
JOB = "pytorch-training-2024-05-01-12-00-00-123"
TIME_KEYS = {"CreationTime", "TrainingStartTime", "TrainingEndTime", "LastModifiedTime"}


def _as_boto3(node: Any) -> Any:
    """ISO timestamps -> timezone-aware datetimes, as boto3 returns them."""
    if isinstance(node, dict):
        return {
            k: dt.datetime.fromisoformat(v) if k in TIME_KEYS and isinstance(v, str) else _as_boto3(v)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_as_boto3(v) for v in node]
    return node


def describe(name: str) -> Dict[str, Any]:
    """A recorded ``DescribeTrainingJob`` response of ``tests/data/events/``, timestamps as boto3 gives them."""
    with open(DATA / name, encoding="utf-8") as handle:
        return _as_boto3(json.load(handle))  # type: ignore[no-any-return]


def event(name: str) -> Dict[str, Any]:
    """A recorded EventBridge event of ``tests/data/events/``."""
    with open(DATA / name, encoding="utf-8") as handle:
        return json.load(handle)  # type: ignore[no-any-return]


def offline_aws(monkeypatch: Any, tmp_path: Path) -> None:
    """Throw-away credentials, no profile or shared config, region us-east-1."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-credentials"))
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")


@contextlib.contextmanager
def stubbed_sagemaker() -> Iterator[Tuple[Any, Any]]:
    """A real SageMaker client with ``botocore.stub.Stubber`` attached (every request and stubbed response checked
    against the service model); fails when a response it was given is not used."""
    import boto3
    from botocore.stub import Stubber

    client = boto3.client("sagemaker", region_name="us-east-1")
    with Stubber(client) as stubber:
        yield client, stubber
        stubber.assert_no_pending_responses()
