"""Fixtures of the SDK v2 tests; their helpers are in v2helpers.py."""
from __future__ import annotations

import json
import types

import pytest

from tests.integrations.v2helpers import BUCKET, NO_TELEMETRY


@pytest.fixture
def sm(aws, tmp_path, monkeypatch):
    """A SageMaker session on moto, with every CreateTrainingJob body captured.

    Telemetry is opted out through the SDK's own config (it would otherwise try to reach an
    AWS host). The SDK validates that config with jsonschema on every one of its ~20 look-ups
    per ``fit`` (~0.2 s each); validating each config once keeps these tests fast.
    """
    sagemaker = pytest.importorskip("sagemaker")
    validated = set()
    validate = sagemaker.utils.validate_sagemaker_config

    def validate_once(config=None):
        key = json.dumps(config, sort_keys=True, default=str)
        if key not in validated:
            validate(config)
            validated.add(key)

    monkeypatch.setattr(sagemaker.utils, "validate_sagemaker_config", validate_once)
    aws.bucket(BUCKET)
    boto_session = aws.session()
    session = sagemaker.Session(boto_session=boto_session, sagemaker_config=NO_TELEMETRY, default_bucket=BUCKET)
    sent = []
    session.sagemaker_client.meta.events.register(
        "before-send.sagemaker.CreateTrainingJob", lambda request, **_: sent.append(json.loads(request.body))
    )
    entry_point = tmp_path / "train.py"
    entry_point.write_text("print('training')\n")
    return types.SimpleNamespace(
        session=session, sent=sent, region=aws.region, entry_point=str(entry_point), aws=aws, tmp=tmp_path
    )
