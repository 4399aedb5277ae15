"""Fixtures of the operations tests (events, status)."""
from __future__ import annotations

import pytest


@pytest.fixture
def sagemaker():
    """A real SageMaker client with ``botocore.stub.Stubber`` attached: every request and every stubbed
    response is checked against the service model, and a test fails if a response it queued is not used.
    The test module's autouse fixture gives it offline AWS settings first."""
    import boto3
    from botocore.stub import Stubber

    client = boto3.client("sagemaker", region_name="us-east-1")
    with Stubber(client) as stubber:
        yield client, stubber
        stubber.assert_no_pending_responses()
