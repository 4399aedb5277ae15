"""Junk that an independent fuzzer found past the 19 reproducers of issue 23 (tests/test_junk.py): each case once
raised something other than ``ConfigError`` (or hung). One case per site; each asserts the error and the field it
names, never another library's wording.

Most come from two gaps: values set past the attrs validators (``object.__setattr__``, as the issue's ``setp``), which
the renderer and ``configfile.dump`` trusted by type (now :func:`sm_debug_config.rendering.revalidate` runs the
validators again), and helpers that looked at a value before checking its type (a huge int turned into text, a list
iterated, a dict used as a key).
"""
from __future__ import annotations

import importlib.util
import warnings
from typing import Any, Callable, Dict, List

import pytest

import sm_debug_config as smd
from sm_debug_config import ConfigError, ConfigWarning, configfile, documents, lint
from sm_debug_config import rule_configs as rc
from sm_debug_config.documents import cloudformation, terraform
from sm_debug_config.operations import events, status

BIG = 10**5000
KW = {"region": "us-east-1", "output_path": "s3://b/o/"}
IMG = "123456789012.dkr.ecr.us-east-1.amazonaws.com/my-rule:latest"


def setp(obj: Any, attribute: str, value: Any) -> Any:
    """``obj`` with ``attribute`` set past its validators and converter."""
    object.__setattr__(obj, attribute, value)
    return obj


def deep_dict(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = {"k": value}
    return value


def deep_tuple(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = (value,)
    return value


class PipelineVariable:
    """Duck-types a SageMaker Pipelines value; like the SDK's, it refuses ``str()``."""

    expr = {"Get": "Parameters.X"}

    def to_string(self) -> "PipelineVariable":
        return self

    def __str__(self) -> str:
        raise TypeError("Pipeline variables do not support __str__ operation.")


class LyingStr(str):
    """A ``str`` equal to everything: ``x in ("a", "b")`` is True for it."""

    def __eq__(self, other: Any) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


def _rule(**fields: Any) -> Any:
    rule = smd.Rule.sagemaker(rc.vanishing_gradient())
    return [setp(rule, name, value) for name, value in fields.items()][-1]


def _hook(**fields: Any) -> Any:
    hook = smd.DebuggerHookConfig(collection_configs=[smd.CollectionConfig("losses")])
    return [setp(hook, name, value) for name, value in fields.items()][-1]


def _collection_hook(parameters: Any) -> Any:
    return smd.DebuggerHookConfig(collection_configs=[setp(smd.CollectionConfig("losses"), "parameters", parameters)])


def _request(**fields: Any) -> Dict[str, Any]:
    return dict({"TrainingJobName": "job-1", "RoleArn": "arn:aws:iam::123456789012:role/r",
                 "OutputDataConfig": {"S3OutputPath": "s3://b/o/"}}, **fields)


LOADED = configfile.loads("region: us-east-1\noutput_path: s3://b/o/\nrules: [LossNotDecreasing]\n", filename="j.yaml")
PROFILER_REPORT = smd.ProfilerRule.sagemaker(rc.ProfilerReport()).to_profiler_rule_config_dict()

# (id, call, a part of the field the ConfigError names); the site in the id: module.function
REFUSED: List[Any] = [
    # documents/shapes.py (what every writer checks), documents/terraform.py, documents/cloudformation.py
    ("shapes.check_fields-huge-int-key", lambda: smd.to_terraform({BIG: 1}), "int(5001 digits)"),
    ("shapes._check-huge-int-map-key", lambda: smd.to_cloudformation(
        {"DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {-BIG: "1"}}}), "HookParameters"),
    ("shapes._check-pipeline-variable-map-key", lambda: smd.to_cloudformation(
        {"DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {PipelineVariable(): "1"}}}),
     "HookParameters"),
    ("terraform.from_terraform-not-a-mapping", lambda: terraform.from_terraform(b"junk"), "values"),  # type: ignore
    ("cloudformation.to_cloudformation_pipeline-int", lambda: cloudformation.to_cloudformation_pipeline(-1),  # type: ignore
     "fields"),
    ("cloudformation.to_cloudformation_pipeline-deep",
     lambda: cloudformation.to_cloudformation_pipeline(deep_dict(100_000)), "fields"),
    # documents/__init__.py
    ("documents.requests-kind-dict", lambda: list(documents.requests({}, kind={})), "kind"),  # type: ignore[arg-type]
    # lint/__init__.py
    ("lint.lint_text-text", lambda: lint.lint_text(b"import os\n"), "text"),  # type: ignore[arg-type]
    ("lint.lint_text-name", lambda: lint.lint_text("x = 1\n", name=1), "name"),  # type: ignore[arg-type]
    ("lint.lint_text-ignore", lambda: lint.lint_text("x = 1\n", ignore=2**64), "ignore"),  # type: ignore[arg-type]
    # operations/events.py
    ("events.rules_with_issues-detail", lambda: events.rules_with_issues(BIG), "detail"),  # type: ignore[arg-type]
    ("events.rules_with_issues-rule_names", lambda: events.rules_with_issues(
        {}, rule_names=PipelineVariable()), "rule_names"),  # type: ignore[arg-type]
    # operations/status.py
    ("status.format_summary_table-rows", lambda: status.format_summary_table("rows"), "rows"),  # type: ignore
    ("status.format_summary_table-width", lambda: status.format_summary_table(
        [status.RuleJobRow("debugger", "r", "InProgress", "d", None)], details_width="9"),  # type: ignore[arg-type]
     "details_width"),
    ("status.log_url-job_name", lambda: status.log_url(BIG, "us-east-1"), "job_name"),  # type: ignore[arg-type]
    # model/validators.py choice: a str subclass whose __eq__ lies (FileNotFoundError of a made-up catalogue before)
    ("validators.choice-lying-str", lambda: rc.list_rules(kind=LyingStr("VanishingGradient")), "kind"),
    # rendering.py revalidate: render trusted the types of fields set past the validators
    ("render-Rule.actions", lambda: smd.render([_rule(actions="stop")], **KW), "Rule.actions"),
    ("render-Rule.rule_parameters", lambda: smd.render([_rule(rule_parameters=("a",))], **KW), "rule_parameters"),
    ("render-CollectionConfig.parameters", lambda: smd.render(debugger_hook_config=_collection_hook(len), **KW),
     "CollectionConfig.parameters"),
    ("render-DebuggerHookConfig.hook_parameters", lambda: smd.render(debugger_hook_config=_hook(
        hook_parameters=frozenset({1})), **KW), "DebuggerHookConfig.hook_parameters"),
    ("render-DebuggerHookConfig.collection_configs", lambda: smd.render(debugger_hook_config=_hook(
        collection_configs=1.5), **KW), "DebuggerHookConfig.collection_configs"),
    ("render-ProfilerConfig.framework_profile_params", lambda: smd.render(profiler_config=setp(
        smd.ProfilerConfig(), "framework_profile_params", {}), **KW), "ProfilerConfig.framework_profile_params"),
    ("render-CollectionConfig.name-huge-int", lambda: smd.render(debugger_hook_config=smd.DebuggerHookConfig(
        collection_configs=[setp(smd.CollectionConfig("losses"), "name", BIG)]), **KW), "CollectionConfig.name"),
    ("explain-hook_parameters-50000-entries", lambda: smd.explain(debugger_hook_config=_hook(
        hook_parameters={str(i): str(i) for i in range(50_000)}), **KW), "DebuggerHookConfig.hook_parameters"),
    ("to_sagemaker_core-Rule.name", lambda: smd.to_sagemaker_core([_rule(name=smd.Rule.sagemaker(
        rc.vanishing_gradient()))], **KW), "Rule.name"),
    # model/catalogue.py check_parameters: a did-you-mean per unknown key took 4.7 s for 50,000 (a hang at 5 s)
    ("catalogue.check_parameters-50000", lambda: smd.Rule.sagemaker(rc.vanishing_gradient(), rule_parameters={
        str(i): i for i in range(50_000)}), "Rule.sagemaker.rule_parameters"),
    # the SDK's methods (to_*_rule_config_dict, _to_request_dict, which the SDK's estimator calls) check the same way
    ("Rule.to_debugger_rule_config_dict", lambda: _rule(rule_parameters=1.5).to_debugger_rule_config_dict(),
     "Rule.rule_parameters"),
    ("ProfilerRule.to_profiler_rule_config_dict", lambda: setp(smd.ProfilerRule.sagemaker(rc.ProfilerReport()),
                                                               "rule_parameters", b"x").to_profiler_rule_config_dict(),
     "ProfilerRule.rule_parameters"),
    ("DebuggerHookConfig._to_request_dict", lambda: _hook(hook_parameters=("a",))._to_request_dict(),
     "DebuggerHookConfig.hook_parameters"),
    ("ProfilerConfig._to_request_dict", lambda: setp(smd.ProfilerConfig(), "framework_profile_params", 1)
     ._to_request_dict(), "ProfilerConfig.framework_profile_params"),
    ("TensorBoardOutputConfig._to_request_dict", lambda: setp(smd.TensorBoardOutputConfig("s3://b/t"),
                                                              "s3_output_path", BIG)._to_request_dict(),
     "TensorBoardOutputConfig.s3_output_path"),
    # configfile/dump.py: the same check before dump walks the objects
    ("dump-ProfilerRule.rule_parameters", lambda: configfile.dump(rules=[setp(
        smd.ProfilerRule.sagemaker(rc.ProfilerReport()), "rule_parameters", float("-inf"))]), "rule_parameters"),
    ("dump-Rule.name-long-list", lambda: configfile.dump(rules=[_rule(name=list(range(200_000)))]), "Rule.name"),
    ("dump-collection_configs", lambda: configfile.dump(debugger_hook_config=_hook(collection_configs=1j)),
     "DebuggerHookConfig.collection_configs"),
    ("dump-Rule.rule_parameters-deep", lambda: configfile.dump(rules=[_rule(rule_parameters=deep_dict(100_000))]),
     "Rule.rule_parameters"),
    # integrations/sagemaker_core.py _shape: sagemaker-core's pydantic shapes refuse a pipeline variable
    ("to_sagemaker_core-pipeline-variable", lambda: smd.to_sagemaker_core(tensorboard_output_config=(
        smd.TensorBoardOutputConfig("s3://b/t", container_local_output_path=PipelineVariable())), **KW),
     "TensorBoardOutputConfig"),
    # integrations/boto3_client.py _merged_request: deepcopy of a request nested without end; rules read before render
    ("training_job_request-deep-request", lambda: smd.training_job_request(_request(
        ProfilerConfig=deep_dict(100_000)), **KW), "ProfilerConfig"),
    ("training_job_request-ProfilerRule.rule_parameters", lambda: smd.training_job_request(_request(), rules=[setp(
        smd.ProfilerRule.sagemaker(rc.ProfilerReport()), "rule_parameters", float("inf"))], **KW), "rule_parameters"),
    # model/settings.py JobSettings.build: iterated and str()-ed its overrides before checking them
    ("settings.JobSettings.build-not-a-mapping", lambda: smd.JobSettings.build(None, -1), "overrides"),
    ("settings.JobSettings.build-huge-int-key", lambda: smd.JobSettings.build(None, {BIG: 1}), "overrides"),
    # configfile/load.py LoadedConfig's look-ups iterated, hashed or read attributes of their arguments first
    ("load.LoadedConfig.locate-int", lambda: LOADED.locate(5), "path"),  # type: ignore[arg-type]
    ("load.LoadedConfig.locate-unhashable-part", lambda: LOADED.locate([["rules"]]), "path"),  # type: ignore[list-item]
    ("load.LoadedConfig.error_at-not-an-error", lambda: LOADED.error_at(-1), "err"),  # type: ignore[arg-type]
    ("load.LoadedConfig.path_of_request_pointer-bytes", lambda: LOADED.path_of_request_pointer(b"/x"),  # type: ignore
     "pointer_text"),
    ("load.LoadedConfig.path_of_request_pointer-rendered", lambda: LOADED.path_of_request_pointer("/x", rendered={}),
     "rendered"),
    ("load.LoadedConfig.request_pointer_of-rendered", lambda: LOADED.request_pointer_of(("rules", 0), rendered=3),
     "rendered"),
    ("load.LoadedConfig.request_pointer_of-path", lambda: LOADED.request_pointer_of(None, LOADED.render_model()),  # type: ignore
     "path"),
    # limits.py too_deep walked a mapping's values only: a key nested without end reached deepcopy (RecursionError)
    ("limits.too_deep-deep-tuple-key", lambda: smd.training_job_request(_request(
        DebugHookConfig={deep_tuple(100_000): 1}), **KW), "DebugHookConfig"),
]

#: (id, call): inputs that may be accepted or refused (a ConfigError), and once raised something else.
ANSWERED: List[Any] = [
    # findings.py path_key: str() of a request key (a pipeline variable; a tuple nested without end)
    ("findings.path_key-pipeline-variable-key", lambda: smd.from_request(_request(
        DebugHookConfig={"S3OutputPath": "s3://b/o", PipelineVariable(): "x"}), region="us-east-1")),
    # validation/rules.py: `"_" in key` of an int key of ProfilerReport's parameters
    ("validation.rules-ProfilerReport-int-key", lambda: smd.validate({"ProfilerRuleConfigurations": [dict(
        PROFILER_REPORT, RuleParameters={"rule_to_invoke": "ProfilerReport", BIG: "1"})]})),
    # model/hookparams.py check: str() of a huge int key of CollectionParameters
    ("hookparams.check-huge-int-key", lambda: smd.validate({"DebugHookConfig": {"S3OutputPath": "s3://b/o",
        "CollectionConfigurations": [{"CollectionName": "losses", "CollectionParameters": {BIG: "1"}}]}})),
    # configfile/jsonparse.py _member: dump's check of a rule with more values than a config file holds looked for its
    # place in an empty text (IndexError); the rule is written exactly instead
    ("jsonparse._member-dump-50000-parameters", lambda: configfile.dump(rules=[smd.ProfilerRule.custom(
        "R", IMG, "ml.m5.xlarge", 30, rule_parameters={str(i): "1" for i in range(50_000)})])),
    # model/images.py version_key: int() of a 5,000-digit version
    ("images.version_key-huge-version", lambda: smd.render(
        [smd.Rule.sagemaker(rc.vanishing_gradient())], framework="pytorch", framework_version="9" * 5000, **KW)),
]


@pytest.mark.parametrize("call", [pytest.param(call, id=name) for name, call in ANSWERED])
def test_junk_gets_an_answer_or_a_config_error(call: Callable[[], Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConfigWarning)  # junk may warn: what is said is not the point
        try:
            call()
        except ConfigError as err:
            assert err.field or err.path, str(err)[:300]


#: Cases that need an optional dependency (the deps-range venvs have no SDK v3).
NEEDS = {
    "to_sagemaker_core-pipeline-variable": pytest.mark.skipif(
        importlib.util.find_spec("sagemaker_core") is None, reason="sagemaker-core (SDK v3) is not installed"
    ),
}


@pytest.mark.parametrize(
    "call,field", [pytest.param(call, field, id=name, marks=NEEDS.get(name, ())) for name, call, field in REFUSED]
)
def test_junk_is_a_config_error_naming_the_field(call: Callable[[], Any], field: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConfigWarning)  # junk may warn: what is said is not the point
        with pytest.raises(ConfigError) as caught:
            call()
    named = caught.value.field or ""
    assert field in named, (named, str(caught.value)[:300])
    assert len(str(caught.value)) < 20_000


def test_revalidate_keeps_valid_objects_and_gives_no_warning_twice() -> None:
    """The second check is silent: a finding is warned once, at render, not once more for the re-check."""
    from sm_debug_config.model.validators import revalidate

    hook = smd.DebuggerHookConfig(collection_configs=[smd.CollectionConfig("losses")])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        revalidate([smd.Rule.sagemaker(rc.vanishing_gradient())], hook, smd.ProfilerConfig(), None)
    assert caught == []


def test_rules_with_issues_takes_any_iterable_of_names() -> None:
    detail = {"DebugRuleEvaluationStatuses": [{"RuleConfigurationName": "A", "RuleEvaluationStatus": "IssuesFound"}]}
    assert events.rules_with_issues(detail, rule_names=(n for n in ["A"])) == ["A"]
