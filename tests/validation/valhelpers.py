"""Helpers of the validation tests: request pieces (test_validation.py, test_validate.py) and the training
job request the entry points' warnings are checked on (test_run.py, tests/cli/test_warnings.py)."""
from sm_debug_config import Rule, rule_configs, validate

IMAGE = "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest"
OUT = "s3://bucket/out/"
REGION = "us-east-1"
JOB_OUT = "s3://smdc-warn/out/"
PT23 = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.3.0-gpu-py311-cu121-ubuntu20.04-sagemaker"


def rule(name, invoke=None, **params):
    return {
        "RuleConfigurationName": name,
        "RuleEvaluatorImage": IMAGE,
        "RuleParameters": {"rule_to_invoke": invoke or name, **params},
    }


def hook(*collections, **hook_params):
    config = {
        "S3OutputPath": OUT,
        "CollectionConfigurations": [{"CollectionName": n, "CollectionParameters": p} for n, p in collections],
    }
    if hook_params:
        config["HookParameters"] = hook_params
    return config


def profiler(**params):
    return {"S3OutputPath": OUT, "DisableProfiler": False, "ProfilingParameters": params}


def sdk_rules():
    """The rule the warning tests render: VanishingGradient, as the SDK builds it."""
    return [Rule.sagemaker(rule_configs.vanishing_gradient())]


def job_request(image=PT23, name="job-1", out=JOB_OUT, **extra):
    """A CreateTrainingJob request on ``image``, writing to ``out``, with ``extra`` fields (no Debugger field unless
    given)."""
    return {
        "TrainingJobName": name,
        "AlgorithmSpecification": {"TrainingImage": image, "TrainingInputMode": "File"},
        "RoleArn": "arn:aws:iam::123456789012:role/SageMakerRole",
        "OutputDataConfig": {"S3OutputPath": out},
        "ResourceConfig": {"InstanceType": "ml.m5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
        "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
        **extra,
    }


def pt_image(version):
    """A whole CreateTrainingJob request's image part (SMD170-SMD172 read it)."""
    return {
        "AlgorithmSpecification": {
            "TrainingImage": f"763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:{version}-cpu-py310",
            "TrainingInputMode": "File",
        }
    }


def codes(request, **kwargs):
    return {(f.code, f.pointer) for f in validate(request, **kwargs)}


CUSTOM = {
    "RuleConfigurationName": "Mine",
    "RuleEvaluatorImage": "111122223333.dkr.ecr.us-east-1.amazonaws.com/r:1",
    "InstanceType": "ml.m5.xlarge",
    "VolumeSizeInGB": 30,
    "RuleParameters": {"source_s3_uri": "s3://bucket/r.py", "rule_to_invoke": "Mine"},
}

def good_options(code, kwargs):
    """The ``validate`` options the good request of a case is checked with: the bad one's, except for the pairs
    that differ in an option rather than in the request (the framework or the region makes the finding)."""
    # SMD110 with xgboost: losses is not saved by default there; with the default frameworks it is
    if code == "SMD110" and kwargs == {"framework": "xgboost"}:
        return {"framework": "pytorch"}
    if code in ("SMD123", "SMD151", "SMD161", "SMD114") and kwargs:
        return {}
    return kwargs


def assert_case(code, path, bad, good, kwargs):
    """A check's paired case: ``bad`` gives ``code`` at ``path``, the near-identical ``good`` gives no ``code`` (not at
    ``path`` when the pair differs in an option: :func:`good_options`)."""
    found = codes(bad, **kwargs)
    assert (code, path) in found, sorted(found)
    options = good_options(code, kwargs)
    fixed = codes(good, **options)
    if options != kwargs:
        assert (code, path) not in fixed, sorted(fixed)
    else:
        assert code not in {c for c, _ in fixed}, sorted(fixed)


def case_ids(cases):
    return [f"{c[0]}-{i}" for i, c in enumerate(cases)]


def apply_fixes(code, request, **kwargs):
    """``request`` with the fixes of ``code``'s findings applied as a caller of ``validate`` does: the first finding's
    fix, validate again, until no finding of ``code`` carries one (as ``--fix`` loops); and the applicabilities seen."""
    seen = set()
    for _ in range(10):
        fixable = [f for f in validate(request, **kwargs) if f.code == code and f.fix is not None]
        if not fixable:
            return request, seen
        seen.add(fixable[0].fix.applicability)
        request = fixable[0].fix.apply(request)
    raise AssertionError(f"{code}: still a fix after 10 rounds")  # pragma: no cover - a fix that undoes itself


def assert_fix_case(code, applicability, bad, good, kwargs):
    """A fixable check's pair: the fixes of ``code`` on ``bad`` (of ``applicability``) give ``good`` exactly, and
    ``good`` gets no finding of ``code``."""
    fixed, seen = apply_fixes(code, bad, **kwargs)
    assert seen == {applicability}
    assert fixed == good
    assert code not in {f.code for f in validate(fixed, **kwargs)}


def fix_ids(cases):
    return [f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(cases)]
