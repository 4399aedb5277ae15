"""The public functions that take the Debugger objects and the job's settings write their signature out in
Python (so help(), IDEs, grep and type checkers see it); these tests keep every copy equal to the one
description, ``SetupCall`` in model/settings.py, itself checked against ``DebuggerSetup`` and ``JobSettings``.
"""

from __future__ import annotations

import inspect
import os
import re
from typing import Any, Callable, Dict, List, Tuple

import attrs
import pytest

from sm_debug_config import DebuggerSetup, JobSettings, Rule, rule_configs
from sm_debug_config.checked import render
from sm_debug_config.errors import ConfigError
from sm_debug_config.explaining import explain
from sm_debug_config.integrations.boto3_client import create_training_job, training_job_request
from sm_debug_config.integrations.sagemaker_core import to_sagemaker_core
from sm_debug_config.integrations.sagemaker_v2 import to_sagemaker
from sm_debug_config.model.settings import SetupCall
from sm_debug_config.reverse import from_request
from sm_debug_config.update import render_update

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
US = dict(region="us-east-1", output_path="s3://bucket/out/")

#: Each public function with the parameters of its own (where they stand is pinned by the test), and whether
#: the five objects are keyword-only there (after a positional ``request``).
PUBLIC: List[Tuple[Callable[..., Any], Tuple[str, ...], bool]] = [
    (render, (), False),
    (explain, (), False),
    (to_sagemaker, ("service_model",), False),
    (to_sagemaker_core, (), False),
    (training_job_request, ("request", "s3_client", "session"), True),
    (create_training_job, ("request", "session", "client", "s3_client"), True),
]
IDS = [function.__name__ for function, _, _ in PUBLIC]
#: Functions that take other objects but the same settings= and settings (model.settings.settings_of).
SETTINGS_ONLY = [render_update, from_request]


def _template() -> List[inspect.Parameter]:
    return list(inspect.signature(SetupCall.__call__).parameters.values())[1:]  # without self


def test_the_template_is_debugger_setup_then_job_settings():
    parameters = _template()
    objects, settings, job_settings, unknown = parameters[:5], parameters[5], parameters[6:-1], parameters[-1]
    assert tuple(p.name for p in objects) == DebuggerSetup.names()
    assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in objects)
    defaults = DebuggerSetup()
    assert [p.default for p in objects] == [getattr(defaults, p.name) for p in objects]
    assert (settings.name, settings.kind, settings.default) == ("settings", settings.KEYWORD_ONLY, None)
    assert tuple(p.name for p in job_settings) == JobSettings.names()
    assert all(p.kind is p.KEYWORD_ONLY and p.default is None for p in job_settings)  # None: not given
    assert (unknown.name, unknown.kind, unknown.annotation) == ("unknown", unknown.VAR_KEYWORD, "NoReturn")


@pytest.mark.parametrize("function, own, after_request", PUBLIC, ids=IDS)
def test_each_signature_is_the_template_written_out(function, own, after_request):
    parameters = list(inspect.signature(function).parameters.values())
    template = _template()
    if after_request:
        template = [p.replace(kind=p.KEYWORD_ONLY) if p.kind is p.POSITIONAL_OR_KEYWORD else p for p in template]
    assert [p for p in parameters if p.name not in own] == template  # names, kinds, defaults and annotations
    assert tuple(p.name for p in parameters if p.name in own) == own
    settings_at = [p.name for p in parameters].index("settings")
    # the job's settings close the signature, as **job_settings did: only the function's own come between
    assert [p.name for p in parameters[settings_at:]][-len(JobSettings.names()) - 1 : -1] == list(JobSettings.names())
    assert inspect.signature(function).return_annotation != inspect.Signature.empty
    assert function.__doc__ and "__wrapped__" not in vars(function)  # a plain function, not a built wrapper


@pytest.mark.parametrize("function", SETTINGS_ONLY, ids=[f.__name__ for f in SETTINGS_ONLY])
def test_the_settings_only_functions_end_with_the_template_settings(function):
    parameters = list(inspect.signature(function).parameters.values())
    settings_at = [p.name for p in parameters].index("settings")
    assert parameters[settings_at:] == _template()[5:]  # settings=, the twelve settings, **unknown


@pytest.mark.parametrize("function, own, after_request", PUBLIC + [(f, (), f is from_request) for f in SETTINGS_ONLY],
                         ids=IDS + [f.__name__ for f in SETTINGS_ONLY])
def test_a_misspelt_setting_is_a_config_error_with_a_did_you_mean(function, own, after_request):
    args = ({"TrainingJobName": "j"},) if after_request else ()
    with pytest.raises(ConfigError, match="did you mean 'region'") as err:
        function(*args, regoin="us-east-1")
    assert err.value.field == "regoin"


def test_objects_positional_and_settings_override_settings_object():
    rules = [Rule.sagemaker(rule_configs.vanishing_gradient())]
    settings = JobSettings(region="eu-west-1", output_path="s3://other/out/", validate=False)
    assert render(rules, None, None, None, False, **US) == render(rules=rules, **US)
    assert render(rules, settings=settings, **US) == render(rules, **US)
    # a setting left out (None) comes from settings=, not from JobSettings's default
    same = render(rules, region="eu-west-1", output_path="s3://other/out/")
    assert render(rules, settings=settings, region=None) == same
    with pytest.raises(ConfigError) as err:
        render(rules, settings=settings, region="us-east-1", job_name="bad_name")
    assert err.value.field == "job_name"
    with pytest.raises(TypeError):
        render(rules, None, None, None, False, "us-east-1")  # the settings are keyword-only, as before


MYPY_SNIPPET = '''
from sm_debug_config.checked import render
from sm_debug_config.explaining import explain
from sm_debug_config.integrations.boto3_client import create_training_job, training_job_request
from sm_debug_config.integrations.sagemaker_core import to_sagemaker_core
from sm_debug_config.integrations.sagemaker_v2 import to_sagemaker
from sm_debug_config.reverse import from_request
from sm_debug_config.update import render_update

render([], region="us-east-1", validate=False, ignore=["SMD110"])
render([], regoin="us-east-1")  # wrong
explain(region="us-east-1", framework="tensorflow")
explain(framewrok="tensorflow")  # wrong
to_sagemaker(region="us-east-1", service_model=None)
to_sagemaker(regoin="us-east-1")  # wrong
to_sagemaker_core(region="us-east-1")
to_sagemaker_core(output_pth="s3://b/o")  # wrong
training_job_request({}, region="us-east-1", s3_client=None)
training_job_request({}, regoin="us-east-1")  # wrong
create_training_job({}, client=None, job_name="j")
create_training_job({}, jobname="j")  # wrong
render([], validate="yes")  # wrong
render_update(region="us-east-1", current=None)
render_update(regoin="us-east-1")  # wrong
from_request({}, region="us-east-1")
from_request({}, outputpath="s3://b/o")  # wrong
'''


def test_mypy_sees_the_real_parameters(tmp_path):
    api = pytest.importorskip("mypy.api")
    path = tmp_path / "snippet.py"
    path.write_text(MYPY_SNIPPET)
    wrong = {number for number, line in enumerate(MYPY_SNIPPET.splitlines(), 1) if line.endswith("# wrong")}
    stdout, stderr, _ = api.run(
        [str(path), "--follow-imports=silent", "--ignore-missing-imports", "--no-error-summary", "--show-error-codes",
         "--cache-dir", os.path.join(ROOT, ".mypy_cache"), "--python-version", "3.8"]
    )
    errors: Dict[int, str] = {}
    for line in stdout.splitlines():
        found = re.match(r".*snippet\.py:(\d+): error: .*\[([a-z-]+)\]$", line)
        if found:
            errors[int(found.group(1))] = found.group(2)
    assert set(errors) == wrong, stdout + stderr
    assert set(errors.values()) <= {"arg-type", "call-arg"}


# --- parse once, trust afterwards -----------------------------------------------------------------


def test_settings_of_takes_every_setting_by_name():
    from sm_debug_config.model.settings import settings_of

    parameters = list(inspect.signature(settings_of).parameters.values())
    assert [p.name for p in parameters[:2]] == ["settings", "unknown"]
    assert tuple(p.name for p in parameters[2:]) == JobSettings.names()
    # keyword-only without a default: a public function that leaves one out fails at once, never silently
    assert all(p.kind is p.KEYWORD_ONLY and p.default is p.empty for p in parameters[2:])


def test_no_call_in_the_package_passes_its_locals():
    import ast

    found = []
    for folder, _, files in os.walk(os.path.join(ROOT, "sm_debug_config")):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    tree = ast.parse(handle.read())
                calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
                found += [f"{os.path.relpath(path, ROOT)}:{call.lineno}" for call in calls
                          if isinstance(call.func, ast.Name) and call.func.id == "locals"]
    assert found == []


class _Counted:
    """How often each check of a setting ran: ``regions.check_region`` and each JobSettings field's validator."""

    def __init__(self, monkeypatch: Any) -> None:
        from sm_debug_config.model import regions
        from sm_debug_config.model import validators as v

        self.region_checks = 0
        self.validators: Dict[str, int] = {}
        check_region, call = regions.check_region, v._Refusing.__call__

        def counted_check_region(region: Any) -> str:
            self.region_checks += 1
            return check_region(region)

        def counted_call(validator: Any, instance: Any, attribute: Any, value: Any) -> None:
            if isinstance(instance, JobSettings):
                self.validators[attribute.name] = self.validators.get(attribute.name, 0) + 1
            call(validator, instance, attribute, value)

        monkeypatch.setattr(regions, "check_region", counted_check_region)
        monkeypatch.setattr(v._Refusing, "__call__", counted_call)


RULES = [Rule.sagemaker(rule_configs.vanishing_gradient()), Rule.sagemaker(rule_configs.overfit())]
SETTINGS = dict(US, job_name="job-1", framework="pytorch", ignore=["SMD110"])
CALLS: Dict[str, Callable[[List[Any]], Any]] = {
    "render": lambda rules: render(rules, **SETTINGS),
    "explain": lambda rules: explain(rules, **SETTINGS),
    "render_update": lambda rules: render_update(profiler_rules=[r for r in rules if not isinstance(r, Rule)],
                                                 **SETTINGS),
}


@pytest.mark.parametrize("call", list(CALLS.values()), ids=list(CALLS))
def test_a_call_checks_each_setting_once(call, monkeypatch):
    from sm_debug_config import ProfilerRule

    rules = RULES + [ProfilerRule.sagemaker(rule_configs.ProfilerReport())]  # every rule has an image in the region
    counted = _Counted(monkeypatch)
    call(rules)
    assert counted.region_checks == 1  # JobSettings', not again by render, each rule's image, validate
    validated = [a.name for a in attrs.fields(JobSettings) if a.validator is not None]
    assert counted.validators == dict.fromkeys(validated, 1)


def test_settings_given_as_an_object_are_trusted(monkeypatch):
    settings = JobSettings(**SETTINGS)
    counted = _Counted(monkeypatch)
    render(RULES, settings=settings)
    assert (counted.region_checks, counted.validators) == (0, {})  # checked when built: not again
    render(RULES, settings=settings, job_name="job-2")
    assert counted.region_checks == 1 and set(counted.validators.values()) == {1}  # the copy with job_name, once



def _from_request(rules: List[Any]) -> Callable[[], Any]:
    fields = render(rules, **SETTINGS)  # not counted
    source = dict(fields, TrainingJobName="job-1", OutputDataConfig={"S3OutputPath": US["output_path"]})
    return lambda: from_request(source, region="us-east-1")


def _training_job_request(rules: List[Any]) -> Callable[[], Any]:
    image = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.3.0-gpu-py311-cu121-ubuntu20.04-sagemaker"
    request = {"TrainingJobName": "job-1", "OutputDataConfig": {"S3OutputPath": US["output_path"]},
               "AlgorithmSpecification": {"TrainingImage": image}}
    return lambda: training_job_request(request, rules=rules, region="us-east-1", ignore=["SMD170"])  # no smdebug


def _to_sagemaker(rules: List[Any]) -> Callable[[], Any]:
    pytest.importorskip("sagemaker")
    return lambda: to_sagemaker(rules, **SETTINGS)


#: Calls that add values found elsewhere to the settings given: how many times each checks the region (each copy
#: of the settings checks its values once more).
COPIES: Dict[str, Tuple[Callable[[List[Any]], Callable[[], Any]], int]] = {
    # the keywords; with the request's job name and output path; the settings of a rule rendered alone, built once
    # for all the rules and their candidates (it was once for each)
    "from_request": (_from_request, 3),
    "training_job_request": (_training_job_request, 2),  # the keywords; with the request's values and image at once
    "to_sagemaker": (_to_sagemaker, 1),  # with an output_path given: no copy with a placeholder
}


@pytest.mark.parametrize("prepare, copies", list(COPIES.values()), ids=list(COPIES))
def test_settings_found_elsewhere_are_added_in_one_copy(prepare, copies, monkeypatch):
    from sm_debug_config import ProfilerRule

    call = prepare(RULES + [ProfilerRule.sagemaker(rule_configs.ProfilerReport())])
    counted = _Counted(monkeypatch)
    call()
    assert counted.region_checks == copies
