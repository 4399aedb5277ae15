"""The boto3 path (sm_debug_config.integrations.boto3_events) without the SDK: a handler on a real botocore
client's ``before-parameter-build`` event adds ``render()``'s fields to ``CreateTrainingJob``, refuses a bad
Debugger configuration before anything is sent, and reports its warnings, honouring ``ignore``.

Most tests stub the API with ``botocore.stub.Stubber``: the stubbed response is only taken when the request
would be sent. ``_recorded`` keeps the parameters the handlers are given (the same dict, which the handler
changes in place), so after the call it is the request that left; the Stubber's own ``expected_params``
check runs before the handler and cannot see its fields. One test sends to the local moto server (conftest
``aws``) and reads the job back. tests/v3 covers
the same handler under SDK v3's ``ModelTrainer``.
"""
from __future__ import annotations

import warnings

import boto3
import pytest
from botocore.stub import Stubber

from sm_debug_config import ConfigError, ConfigWarning, render
from sm_debug_config.integrations.boto3_events import EVENT, add_to_step_arguments, attach
from tests.validation.valhelpers import job_request, sdk_rules as _rules

REGION = "us-east-1"
OUT = "s3://smdc-boto3-events/out/"
PT113 = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:1.13.1-gpu-py39-cu117-ubuntu20.04-sagemaker"
PT23 = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.3.0-gpu-py311-cu121-ubuntu20.04-sagemaker"
ARN = "arn:aws:sagemaker:us-east-1:123456789012:training-job/job-1"
DUMMY_KEYS = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing"}  # never sent anywhere


def _request(image=PT113, name="job-1", **extra):
    return job_request(image, name, OUT, **extra)


def _client(region=REGION):
    """A real SageMaker client that never reaches AWS (every call here is stubbed or refused)."""
    return boto3.client("sagemaker", region_name=region, **DUMMY_KEYS)


def _recorded(client):
    """A list that gets the parameters of each CreateTrainingJob through ``client`` (the dict itself)."""
    calls = []
    client.meta.events.register(EVENT, lambda params, **_: calls.append(params), unique_id="test-record")
    return calls


def _config_warnings(call):
    """The ConfigWarnings of one call, every one recorded (another warning meets the run's filters)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConfigWarning)
        call()
    return [w.message for w in caught if isinstance(w.message, ConfigWarning)]


def test_the_request_that_leaves_carries_exactly_renders_fields():
    client = _client()
    sent = _recorded(client)
    expected = dict(_request(), **render(_rules(), region=REGION, output_path=OUT, job_name="job-1", image_uri=PT113))
    with Stubber(client) as stubber, attach(client, rules=_rules()):
        stubber.add_response("create_training_job", {"TrainingJobArn": ARN})
        client.create_training_job(**_request())
        stubber.assert_no_pending_responses()
    assert sent == [expected]


def test_the_region_is_the_clients():
    client = _client("eu-west-1")
    sent = _recorded(client)
    with Stubber(client) as stubber, attach(client, rules=_rules()):
        stubber.add_response("create_training_job", {"TrainingJobArn": ARN})
        client.create_training_job(**_request())
    rendered = render(_rules(), region="eu-west-1", output_path=OUT)["DebugRuleConfigurations"]
    images = [rule["RuleEvaluatorImage"] for rule in sent[0]["DebugRuleConfigurations"]]
    assert images == [rule["RuleEvaluatorImage"] for rule in rendered] and ".eu-west-1." in images[0]


def test_a_request_the_api_would_refuse_is_refused_before_sending():
    client = _client()
    tensorboard = {"S3OutputPath": "s3://smdc-boto3-events/tb/", "LocalPath": "/opt/ml/output/tensorboard"}
    with Stubber(client) as stubber, attach(client, rules=_rules()):
        stubber.add_response("create_training_job", {"TrainingJobArn": ARN})
        with pytest.raises(ConfigError, match="SMD154") as err:
            client.create_training_job(**_request(TensorBoardOutputConfig=tensorboard))
        with pytest.raises(AssertionError):  # the stubbed response is still queued: nothing was sent
            stubber.assert_no_pending_responses()
    assert "/TensorBoardOutputConfig/LocalPath" in str(err.value)


def test_debugger_fields_the_launcher_set_are_not_overwritten():
    client = _client()
    launcher_hook = {"S3OutputPath": OUT, "CollectionConfigurations": []}
    with Stubber(client) as stubber, attach(client, rules=_rules()):
        stubber.add_response("create_training_job", {"TrainingJobArn": ARN})
        with pytest.raises(ConfigError) as err:
            client.create_training_job(**_request(DebugHookConfig=launcher_hook))
        with pytest.raises(AssertionError):
            stubber.assert_no_pending_responses()
    assert err.value.field == "DebugHookConfig"


def test_a_request_without_an_output_path_is_refused_naming_it():
    client = _client()
    request = _request()
    del request["OutputDataConfig"]  # botocore would refuse it too, but after the handler: ours speaks first
    with Stubber(client) as stubber, attach(client, rules=_rules()):
        stubber.add_response("create_training_job", {"TrainingJobArn": ARN})
        with pytest.raises(ConfigError, match="output_path"):
            client.create_training_job(**request)


def test_bad_arguments_fail_at_attach_not_at_the_call():
    client = _client()
    with pytest.raises(ConfigError, match="region"), attach(client, regoin="us-east-1"):
        pass  # pragma: no cover
    sent = _recorded(client)
    with Stubber(client) as stubber:  # and nothing stays registered
        stubber.add_response("create_training_job", {"TrainingJobArn": ARN})
        client.create_training_job(**_request())
    assert sent == [_request()]


def test_warnings_reach_the_user_and_the_job_is_still_sent():
    client = _client()

    def send():
        with Stubber(client) as stubber, attach(client, rules=_rules()):
            stubber.add_response("create_training_job", {"TrainingJobArn": ARN})
            client.create_training_job(**_request(PT23))
            stubber.assert_no_pending_responses()

    warned = _config_warnings(send)
    found = {(w.code, w.path) for w in warned}
    assert {("SMD170", ("DebugHookConfig",)), ("SMD170", ("DebugRuleConfigurations",))} <= found
    keys = [(w.code, w.pointer, str(w)) for w in warned]
    assert len(keys) == len(set(keys)), keys  # once per finding


def test_ignore_is_honoured():
    client = _client()

    def send():
        with Stubber(client) as stubber, attach(client, rules=_rules(), ignore=["SMD170"]):
            stubber.add_response("create_training_job", {"TrainingJobArn": ARN})
            client.create_training_job(**_request(PT23))

    assert "SMD170" not in {w.code for w in _config_warnings(send)}


def test_the_handler_is_gone_after_the_block():
    client = _client()
    sent = _recorded(client)
    with attach(client, rules=_rules()):
        pass
    with Stubber(client) as stubber:
        stubber.add_response("create_training_job", {"TrainingJobArn": ARN})
        client.create_training_job(**_request())
    assert sent == [_request()]


def test_a_session_reaches_the_clients_created_in_the_block():
    session = boto3.Session(region_name=REGION, **DUMMY_KEYS)
    expected = dict(_request(), **render(_rules(), region=REGION, output_path=OUT, job_name="job-1", image_uri=PT113))
    with attach(session, rules=_rules()):
        client = session.client("sagemaker")
        sent = _recorded(client)
        with Stubber(client) as stubber:
            stubber.add_response("create_training_job", {"TrainingJobArn": ARN})
            client.create_training_job(**_request())
    assert sent == [expected]


def test_an_unknown_target_is_refused_naming_it():
    with pytest.raises(ConfigError) as err, attach(object(), rules=_rules()):
        pass  # pragma: no cover
    assert err.value.field == "target"


def test_step_arguments_that_are_not_a_trainers_are_refused():
    with pytest.raises(ConfigError) as err:
        add_to_step_arguments({"TrainingJobName": "job-1"}, rules=_rules())
    assert err.value.field == "step_args"


def test_against_a_local_api_the_job_has_the_fields_and_a_refused_one_never_arrives(aws):
    client = aws.session(REGION).client("sagemaker")
    sent = []
    client.meta.events.register("before-send.sagemaker.CreateTrainingJob", lambda request, **_: sent.append(request))
    fields = render(_rules(), region=REGION, output_path=OUT, job_name="boto3-events-1", image_uri=PT113)
    with attach(client, rules=_rules()):
        client.create_training_job(**_request(name="boto3-events-1"))
        tensorboard = {"S3OutputPath": "s3://smdc-boto3-events/tb/", "LocalPath": "/opt/ml/output/tensorboard"}
        with pytest.raises(ConfigError):
            client.create_training_job(**_request(name="boto3-events-2", TensorBoardOutputConfig=tensorboard))
    assert len(sent) == 1
    job = client.describe_training_job(TrainingJobName="boto3-events-1")
    assert job["DebugHookConfig"] == fields["DebugHookConfig"]
    assert [r["RuleConfigurationName"] for r in job["DebugRuleConfigurations"]] == ["VanishingGradient"]
    names = [s["TrainingJobName"] for s in client.list_training_jobs()["TrainingJobSummaries"]]
    assert "boto3-events-1" in names and "boto3-events-2" not in names
