"""Helpers shared by the SDK v2 tests (test_sagemaker_v2, test_sdk_patch, test_sagemaker_v2_warnings): the
moto bucket and role, an Estimator's common arguments, and the Debugger fields of a captured request next to
what ``render()`` gives for the same objects. The ``sm`` fixture that uses them is in this directory's conftest."""
from __future__ import annotations

from sm_debug_config import render
from sm_debug_config.rendering import FIELDS

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
NO_TELEMETRY = {"SchemaVersion": "1.0", "SageMaker": {"PythonSDK": {"Modules": {"TelemetryOptOut": True}}}}
BUCKET = "smdc-sdk-v2"


def common(sm, **extra):
    """The Estimator arguments every test gives: role, one instance, the moto session."""
    return dict(role=ROLE, instance_count=1, instance_type="ml.m5.xlarge", sagemaker_session=sm.session, **extra)


def debugger_fields(body):
    """The Debugger fields of a CreateTrainingJob body."""
    return {k: body[k] for k in FIELDS if k in body}


def rendered_fields(
    estimator,
    job_name,
    rules=None,
    debugger_hook_config=None,
    profiler_config=None,
    tensorboard_output_config=None,
    disable_profiler=False,
):
    """What ``render()`` gives for these objects and the Estimator's settings."""
    return render(
        rules,
        debugger_hook_config,
        profiler_config,
        tensorboard_output_config,
        disable_profiler,
        region=estimator.sagemaker_session.boto_region_name,
        output_path=estimator.output_path,
        job_name=job_name,
        instance_type=estimator.instance_type,
    )


def snapshot(*objects):
    """A value to compare before and after a call, to show the call did not change the user's objects."""
    return repr(objects)
