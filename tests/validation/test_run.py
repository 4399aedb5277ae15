"""Every entry point that validates reports its non-error findings (issue 22): as ``ConfigWarning``s
with ``code``, ``severity``, ``path`` and ``pointer`` in Python, once per finding per call, honouring
``ignore``; errors still raise before anything is sent. The SMD170 verdict (the hook does not run in
a PyTorch 2.3 / TensorFlow 2.16 training image) is the finding every path must carry. The command line's
warnings are in tests/cli/test_warnings.py."""
from __future__ import annotations

import json
import os
import warnings

import pytest

from sm_debug_config import ConfigError, ConfigWarning, Rule, explain, render, rule_configs
from sm_debug_config.errors import pointer
from tests.validation.valhelpers import JOB_OUT as OUT, PT23, REGION, job_request as _request, sdk_rules as _rules

TF216 = "763104351884.dkr.ecr.us-east-1.amazonaws.com/tensorflow-training:2.16.2-gpu-py310-cu123-ubuntu20.04-sagemaker"
HOOK_NOT_RUNNING = {("SMD170", ("DebugHookConfig",)), ("SMD170", ("DebugRuleConfigurations",))}


def _caught(call, *args, **kwargs):
    """``(result, [ConfigWarning...])`` of one call, every one recorded (another warning meets the run's filters)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConfigWarning)
        result = call(*args, **kwargs)
    return result, [w.message for w in caught if isinstance(w.message, ConfigWarning)]


def _found(warned):
    return {(w.code, w.path) for w in warned if w.code is not None}


def _assert_one_per_finding(warned):
    keys = [(w.code, w.pointer, w.message) for w in warned if w.code is not None]
    assert len(keys) == len(set(keys)), keys


# --- render and the mechanism ----------------------------------------------------------------


@pytest.mark.parametrize(
    "image", [dict(framework="pytorch", framework_version="2.3"), dict(image_uri=TF216), dict(image_uri=PT23)]
)
def test_render_warns_that_the_hook_does_not_run(image):
    _, warned = _caught(render, _rules(), region=REGION, output_path=OUT, **image)
    assert _found(warned) >= HOOK_NOT_RUNNING
    _assert_one_per_finding(warned)
    for w in warned:
        assert w.severity in ("warning", "info") and w.pointer == pointer(*w.path)
        assert str(w).startswith(f"{w.code} {w.pointer}: ")  # the code and the request path are in the text too


def test_render_warning_points_at_the_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        render(_rules(), region=REGION, output_path=OUT, framework="pytorch", framework_version="2.3")
    # issue 36: at the user's line that built the object a finding is about (the rules: valhelpers.py), else the call
    assert caught and {os.path.basename(w.filename) for w in caught} <= {os.path.basename(__file__), "valhelpers.py"}


def test_ignore_is_honoured():
    _, warned = _caught(
        render,
        _rules(),
        region=REGION,
        output_path=OUT,
        framework="pytorch",
        framework_version="2.3",
        ignore=["SMD170"],
    )
    assert "SMD170" not in {w.code for w in warned}


def test_a_supported_image_warns_nothing():
    _, warned = _caught(render, _rules(), region=REGION, output_path=OUT, framework="pytorch", framework_version="1.13")
    assert _found(warned) == set()


def test_errors_still_raise_and_carry_every_finding():
    twice = _rules() + _rules()  # the same rule name twice: SMD101
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConfigWarning)
        with pytest.raises(ConfigError) as info:
            render(twice, region=REGION, output_path=OUT, framework="pytorch", framework_version="2.3")
    assert {"SMD101", "SMD170"} <= {f.code for f in info.value.findings}
    # issue 36: an error does not hide the job's warnings; each is warned once, and the errors only raised
    warned = [(w.message.code, w.message.pointer) for w in caught if getattr(w.message, "code", None)]
    assert len(warned) == len(set(warned)) and {code for code, _ in warned} == {"SMD170"}


def test_python_explain_reports_findings_without_warning():
    report, warned = _caught(
        explain, _rules(), region=REGION, output_path=OUT, framework="pytorch", framework_version="2.3"
    )
    assert _found(warned) == set()
    assert {f["code"] for f in report["findings"]} >= {"SMD170"}


def test_constructor_warnings_carry_code_and_path():
    _, warned = _caught(Rule.sagemaker, rule_configs.similar_across_runs())
    [w] = [w for w in warned if w.code == "SMD124"]
    assert w.path == ("rule_parameters", "other_trial_0") and w.field.startswith("Rule.sagemaker.")


def test_render_update_warns_and_honours_ignore():
    from sm_debug_config import FrameworkProfile, HorovodProfilingConfig, ProfilerConfig, render_update

    # SMD145 for a HorovodProfilingConfig the user set (FrameworkProfile's own, for every profile, is not reported)
    profile = FrameworkProfile(horovod_profiling_config=HorovodProfilingConfig())
    config = ProfilerConfig(framework_profile_params=profile)
    _, warned = _caught(render_update, config, region=REGION, job_name="job-1", output_path=OUT)
    assert "SMD145" in {w.code for w in warned}
    _, warned = _caught(render_update, config, region=REGION, job_name="job-1", output_path=OUT, ignore=["SMD145"])
    assert "SMD145" not in {w.code for w in warned}


# --- explain agrees with the image verdict -----------------------------------------------------


def test_explain_lines_agree_with_a_hook_that_does_not_run():
    from sm_debug_config.explaining import format_explanation

    report = explain(_rules(), region=REGION, output_path=OUT, framework="pytorch", framework_version="2.3")
    assert report["image"]["hook_runs"] is False
    assert all(c["saved"] is False for c in report["collections"])
    reads = [read for rule in report["rules"] for read in rule["reads"]]
    assert reads and all(read["saved"] is False for read in reads)
    text = format_explanation(report)
    assert "does NOT run" in text and "    ok " not in text
    assert "nothing is saved" in text and "finds nothing" in text
    supported = explain(_rules(), region=REGION, output_path=OUT, framework="pytorch", framework_version="1.13")
    assert all(read["saved"] for rule in supported["rules"] for read in rule["reads"])


# --- boto3 and SDK v3 paths take the image from the request ------------------------------------


def test_training_job_request_takes_the_image_from_the_request():
    from sm_debug_config.integrations.boto3_client import training_job_request

    _, warned = _caught(training_job_request, _request(), rules=_rules(), region=REGION)
    assert _found(warned) >= HOOK_NOT_RUNNING
    _assert_one_per_finding(warned)
    _, warned = _caught(
        training_job_request, _request(), rules=_rules(), region=REGION, framework="pytorch", framework_version="1.13"
    )
    assert _found(warned) == set()  # a version given wins over the request's image


def test_create_training_job_warns_before_sending(aws):
    from sm_debug_config.integrations.boto3_client import create_training_job

    aws.bucket("smdc-warn")
    client = aws.session().client("sagemaker")
    sent = []
    client.meta.events.register(
        "before-send.sagemaker.CreateTrainingJob", lambda request, **_: sent.append(json.loads(request.body))
    )
    _, warned = _caught(create_training_job, _request(), rules=_rules(), client=client)
    assert _found(warned) >= HOOK_NOT_RUNNING and len(sent) == 1


def test_attach_debugger_takes_the_image_from_the_request(aws):
    from sm_debug_config import attach_debugger

    aws.bucket("smdc-warn")
    client = aws.session().client("sagemaker")

    def send():
        with attach_debugger(client, rules=_rules()):
            client.create_training_job(**_request(name="attached-1"))

    _, warned = _caught(send)
    assert _found(warned) >= HOOK_NOT_RUNNING
    _assert_one_per_finding(warned)


def test_to_sagemaker_core_warns():
    pytest.importorskip("sagemaker_core")
    from sm_debug_config import to_sagemaker_core

    _, warned = _caught(
        to_sagemaker_core, _rules(), region=REGION, output_path=OUT, framework="pytorch", framework_version="2.3"
    )
    assert _found(warned) >= HOOK_NOT_RUNNING
