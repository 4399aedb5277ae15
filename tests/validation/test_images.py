"""Findings that need the job's training image (SMD170-SMD172) and save_steps beside an inherited
interval (SMD173/SMD174); what issue 18 measured with smdebug 1.0.34 is checked at its severity."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sm_debug_config import (
    CollectionConfig,
    DebuggerHookConfig,
    FrameworkProfile,
    JobSettings,
    ProfilerConfig,
    Rule,
    render,
    rule_configs,
)
from sm_debug_config.errors import ConfigError
from sm_debug_config.model import images
from sm_debug_config.validation import validate
from sm_debug_config.findings import CHECKS
from sm_debug_config.validation.images import MESSAGE_LIMIT
from tests.validation.valhelpers import assert_case, assert_fix_case, case_ids, fix_ids, hook, profiler, pt_image
from sm_debug_config.validation.profiler import FRAMEWORK_PROFILING_KEYS

from tests.warnhelpers import config_warnings

US = {"region": "us-east-1", "output_path": "s3://bucket/out/"}
PT23 = {"framework": "pytorch", "framework_version": "2.3"}
XGB3_URI = "683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-xgboost:3.0-5"
TF212_URI = (
    "763104351884.dkr.ecr.us-east-1.amazonaws.com/tensorflow-training:2.12.0-gpu-py310-cu118-ubuntu20.04-sagemaker"
)


def codes(findings):
    return [(f.severity, f.code, f.pointer) for f in findings]


def rendered(*args, **kwargs):
    return render(*args, **US, validate=False, **kwargs)


def vanishing_gradient():
    return [Rule.sagemaker(rule_configs.vanishing_gradient())]


def test_codes_registered_with_evidence():
    for code in ("SMD170", "SMD171", "SMD172", "SMD173", "SMD174"):
        assert code in CHECKS and CHECKS[code].evidence
    assert (CHECKS["SMD170"].severity, CHECKS["SMD171"].severity, CHECKS["SMD172"].severity) == (
        "warning",
        "warning",
        "info",
    )


def test_issue_example_pytorch_23_hook_and_rule_warns():
    """Issue 18: "a PyTorch 2.3 job with a hook and VanishingGradient validates clean" no more."""
    request = rendered(vanishing_gradient())
    found = [f for f in validate(request, **PT23) if f.code.startswith("SMD17")]
    assert codes(found) == [
        ("warning", "SMD170", "/DebugHookConfig"),
        ("warning", "SMD170", "/DebugRuleConfigurations"),
    ]
    assert "add smdebug to requirements.txt" in found[0].message
    assert "smdebug.pytorch.Hook.create_from_json_file()" in found[0].message  # the script must create the hook
    assert "deep-learning-containers@" not in found[0].message  # the evidence is in explain, not in the line
    assert "VanishingGradient" in found[1].message or "1 rule sees" in found[1].message
    assert not [
        f for f in validate(request, framework="pytorch", framework_version="1.13.1") if f.code.startswith("SMD17")
    ]


def test_tensorflow_212_nothing_in_smdebug_runs():
    request = rendered(vanishing_gradient())
    [hook] = [
        f for f in validate(request, image_uri=TF212_URI) if f.pointer == "/DebugHookConfig" and f.code == "SMD170"
    ]
    assert "TensorFlow >= 2.12" in hook.message and "TensorBoard" in hook.message


def test_image_from_create_training_job_request():
    request = dict(
        rendered(vanishing_gradient()),
        AlgorithmSpecification={"TrainingImage": XGB3_URI, "TrainingInputMode": "File"},
        TrainingJobName="j",
    )
    found = [f for f in validate(request) if f.code == "SMD170"]
    assert len(found) == 2 and "sagemaker-xgboost 1.7-1" in found[0].message
    # the keyword wins over the request's image
    assert not [f for f in validate(request, image_uri=XGB3_URI.replace("3.0-5", "1.7-1")) if f.code == "SMD170"]


@pytest.mark.parametrize(
    "image",
    [
        {"image_uri": "123456789012.dkr.ecr.us-east-1.amazonaws.com/my-own-image:latest"},
        {
            "framework": "pytorch",
            "framework_version": "2.3",
            "image_uri": "123456789012.dkr.ecr.us-east-1.amazonaws.com/mine:2.3",
        },
        {"framework": "pytorch"},
        {"framework": "pytorch", "framework_version": "custom"},
        {},
    ],
)
def test_image_that_cannot_be_placed_gives_nothing(image):
    request = rendered(
        vanishing_gradient(), profiler_config=ProfilerConfig(framework_profile_params=FrameworkProfile())
    )
    assert not [f for f in validate(request, **image) if f.code in ("SMD170", "SMD171", "SMD172")]


def test_pipeline_expression_training_image_gives_nothing():
    request = dict(
        rendered(vanishing_gradient()), AlgorithmSpecification={"TrainingImage": {"Get": "Parameters.Image"}}
    )
    assert not [f for f in validate(request) if f.code == "SMD170"]


def test_default_hook_alone_is_info_and_explicit_leaves_it_out():
    request = rendered()
    assert request["DebugHookConfig"] == {"S3OutputPath": "s3://bucket/out/", "CollectionConfigurations": []}
    found = [f for f in validate(request, **PT23) if f.code.startswith("SMD17")]
    assert codes(found) == [("info", "SMD172", "/DebugHookConfig")]
    assert 'defaults="explicit"' in found[0].message
    assert "DebugHookConfig" not in rendered(defaults="explicit")
    assert not [
        f for f in validate(request, framework="pytorch", framework_version="1.13") if f.code.startswith("SMD17")
    ]


def test_custom_collections_on_hookless_image_warn():
    request = rendered(debugger_hook_config=DebuggerHookConfig(collection_configs=[CollectionConfig("weights")]))
    assert codes(f for f in validate(request, **PT23) if f.code.startswith("SMD17")) == [
        ("warning", "SMD170", "/DebugHookConfig")
    ]


def test_framework_profiling_where_unsupported_warns_once():
    request = rendered(
        profiler_config=ProfilerConfig(framework_profile_params=FrameworkProfile()), debugger_hook_config=False
    )
    [found] = [f for f in validate(request, **PT23) if f.code == "SMD171"]
    assert found.pointer == "/ProfilerConfig/ProfilingParameters" and "DetailedProfilingConfig" in found.message
    assert not [f for f in validate(request, framework="pytorch", framework_version="1.13.1") if f.code == "SMD171"]
    system_only = rendered(
        profiler_config=ProfilerConfig(system_monitor_interval_millis=500), debugger_hook_config=False
    )
    assert not [f for f in validate(system_only, **PT23) if f.code == "SMD171"]


def test_settings_carry_the_image_into_render_and_refuse_non_strings():
    settings = JobSettings(
        region="us-east-1", output_path="s3://bucket/out/", framework="pytorch", framework_version="2.3"
    )
    with config_warnings("SMD170"):  # the PyTorch 2.3 image has no smdebug
        assert render(vanishing_gradient(), settings=settings)["DebugRuleConfigurations"]  # warnings never raise
    assert JobSettings(image_uri=XGB3_URI).image_uri == XGB3_URI
    with pytest.raises(ConfigError, match="framework_version"):
        JobSettings(framework_version=2.3)


# --- what smdebug 1.0.34 does (tests/system/test_smdebug_run.py runs it), at the right severity ---------

def hook_request(collection_params=None, hook_params=None, name="weights"):
    hook = {
        "S3OutputPath": "s3://b/o",
        "CollectionConfigurations": [{"CollectionName": name, "CollectionParameters": collection_params or {}}],
    }
    if hook_params is not None:
        hook["HookParameters"] = hook_params
    return {"DebugHookConfig": hook}


def severities(request, **kwargs):
    return {(f.code, f.severity) for f in validate(request, **kwargs)}


@pytest.mark.parametrize("params", [{"save_interval": "0"}, {"train.save_interval": "0"}])
def test_save_interval_zero_is_an_error(params):
    assert ("SMD132", "error") in severities(hook_request(params))
    assert ("SMD132", "error") in severities(hook_request(hook_params=params))


def test_unknown_collection_without_regex_is_an_error():
    assert ("SMD114", "error") in severities(hook_request(name="my_layers"), framework="pytorch")
    assert ("SMD114", "error") not in severities(
        hook_request({"include_regex": "fc1.*"}, name="my_layers"), framework="pytorch"
    )


def comma_split_effect(value):
    """What smdebug's comma split (core/utils.py split) does to an include_regex, by the hook checks:
    "crash" (SMD130: a piece does not compile, re.match raises on the first step), "silent" (SMD131:
    the pieces compile but match nothing meant, fc1{1,2} becomes fc1{1 and 2}), None (commas separate
    whole patterns). Both effects were measured with smdebug 1.0.34 and PyTorch (tests/system/test_smdebug_run.py)."""
    codes = {code for code, _severity in severities(hook_request({"include_regex": value}))}
    return "crash" if "SMD130" in codes else "silent" if "SMD131" in codes else None


def test_comma_in_character_class_is_an_error():
    found = severities(hook_request({"include_regex": "fc[1,2].*"}))
    assert ("SMD130", "error") in found and comma_split_effect("fc[1,2].*") == "crash"  # a split piece does not compile


def test_comma_in_quantifier_is_split_silently():
    """smdebug splits fc1{1,2} into fc1{1 and 2}: both compile and match nothing; the job runs."""
    assert comma_split_effect("fc1{1,2}") == "silent"
    assert comma_split_effect("(fc1|fc2),relu") is None and comma_split_effect("a(b,c)") == "crash"
    assert ("SMD131", "warning") in severities(hook_request({"include_regex": "fc1{1,2}"}))


def test_save_steps_beside_default_interval_warns():
    [found] = [f for f in validate(hook_request({"save_steps": "1,2,3"})) if f.code.startswith("SMD17")]
    assert (found.severity, found.code, found.pointer) == (
        "warning",
        "SMD173",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_steps",
    )
    assert "500" in found.message and 'end_step "0"' in found.message
    [hook_level] = [
        f for f in validate(hook_request(hook_params={"train.save_steps": "7"})) if f.code.startswith("SMD17")
    ]
    assert hook_level.pointer == "/DebugHookConfig/HookParameters/train.save_steps" and "train" in hook_level.message


def test_save_steps_beside_hook_interval_is_info():
    [found] = [
        f for f in validate(hook_request({"save_steps": "1,2"}, {"save_interval": "10"})) if f.code.startswith("SMD17")
    ]
    assert (found.severity, found.code) == ("info", "SMD174") and "'10'" in found.message
    assert found.message.count("saves only the listed steps") == 1  # the advice once, not twice


@pytest.mark.parametrize("collection, hook", [
    ({"save_steps": "1,2", "save_interval": "10"}, None),
    ({"save_steps": "1,2", "end_step": "0"}, None),
    ({"save_steps": "1,2"}, {"end_step": "0"}),
    ({"save_interval": "10"}, {"save_interval": "5"}),
])
def test_save_steps_replacing_or_explicit_is_quiet(collection, hook):
    assert not [f for f in validate(hook_request(collection, hook)) if f.code in ("SMD173", "SMD174")]


# --- docs/will-my-hook-run.md says what containers.json says -----------------------------------

DOC = __import__("pathlib").Path(__file__).resolve().parent.parent.parent / "docs" / "will-my-hook-run.md"
DOC_LINES = {"PyTorch": "pytorch", "TensorFlow": "tensorflow", "MXNet": "mxnet", "XGBoost (algorithm)": "xgboost"}


def doc_rows():
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0] in DOC_LINES:
            low, _, high = cells[1].partition(" – ")
            yield DOC_LINES[cells[0]], low, None if high == "…" else high, cells[2:5]


def test_doc_table_agrees_with_containers_json():
    """Every row of a framework line falls in one row of the doc table, with the same three answers."""

    def key(version):
        return images._pad(images.version_key(version))

    def word(value):
        return {True: "yes", False: "no", None: "not known"}[value]

    rows = list(doc_rows())
    assert {r[0] for r in rows} == set(DOC_LINES.values())
    for row in images.rows():
        if "same_as" in row:
            continue
        start = key(row["versions"]["min"])
        matches = [
            r for r in rows if r[0] == row["line"] and key(r[1]) <= start and (r[2] is None or start < key(r[2]))
        ]
        assert len(matches) == 1, (row["line"], row["versions"])
        smdebug, hook_runs, profiling = (cell.split(" (")[0] for cell in matches[0][3])
        assert (smdebug, hook_runs, profiling) == (
            word(row["smdebug"] is not None),
            word(row["hook_runs"]),
            word(row["framework_profiling"]),
        ), (row["line"], row["versions"])
        if row["smdebug"] is not None:
            assert row["smdebug"] in matches[0][3][0] or "–" in matches[0][3][0], (row["line"], row["versions"])


def test_explain_and_the_estimator_know_the_image():
    """explain shows the verdict for the job's image; the SDK v2 integration takes the Estimator's version."""
    from sm_debug_config import Rule, explain, rule_configs

    report = explain([Rule.sagemaker(rule_configs.vanishing_gradient())], region="us-east-1", output_path="s3://b/o/",
                     framework="pytorch", framework_version="2.3")
    assert report["image"]["hook_runs"] is False and "smdebug" in report["image"]["action"]
    assert "SMD170" in {f["code"] for f in report["findings"]}
    assert explain(region="us-east-1", output_path="s3://b/o/")["image"] is None


# --- every message of SMD170-SMD174 is one short line (the evidence is in the declaration and explain) ----

HOST = "763104351884.dkr.ecr.us-east-1.amazonaws.com"
PY_TAGS = (None, "py2", "py3", "py310", "py312")
PROFILING = '{"StartStep": 5, "NumSteps": 1}'


def image_request(rules=(), custom=True, keys=("DetailedProfilingConfig",)):
    """A request with a hook (custom collections or the SDK's default), debugger rules and framework profiling."""
    hook = {"S3OutputPath": "s3://b/o/", "CollectionConfigurations": [{"CollectionName": "weights"}] if custom else []}
    request = {"DebugHookConfig": hook}
    if rules:
        request["DebugRuleConfigurations"] = [
            {"RuleConfigurationName": name, "RuleEvaluatorImage": "img", "RuleParameters": {"rule_to_invoke": name}}
            for name in rules
        ]
    if keys:
        request["ProfilerConfig"] = {"S3OutputPath": "s3://b/o/", "ProfilingParameters": dict.fromkeys(keys, PROFILING)}
    return request


def image_cases():
    """Image keywords for every row of data/containers.json: its first version, short and padded to 24+
    characters, as framework + version and as an image URI with every Python tag."""
    repositories = {}
    for repository, line in images.table()["repositories"].items():
        repositories.setdefault(line, repository)
    for row in images.rows():
        line, low = row["line"], row["versions"]["min"]
        algorithm = images.table()["lines"][line]["version_style"] == "algorithm"
        versions = [low] if algorithm else [low, low + ".0" * 12]
        for version in versions:
            if line in images.FRAMEWORK_TITLES:
                yield {"framework": line, "framework_version": version}
            for py in (None,) if algorithm else PY_TAGS:
                tag = version if algorithm else f"{version}-gpu" + (f"-{py}" if py else "")
                yield {"image_uri": f"{HOST}/{repositories[line]}:{tag}"}


REQUESTS = [
    image_request(rules=["VG"]),
    image_request(rules=["VanishingGradient", "LossNotDecreasing"], keys=()),
    image_request(rules=[f"rule-{i}-" + "x" * 240 for i in range(20)], keys=FRAMEWORK_PROFILING_KEYS),
    image_request(custom=False, keys=()),
]


def test_every_image_message_over_the_data_is_one_short_line():
    """Generated over every row, version form and Python tag: each message is under the limit, names what to do
    (the verdict's action) and carries no evidence (commits, sources)."""
    seen, actions = {}, set()
    for kwargs in image_cases():
        verdict = images.image_verdict(**kwargs)
        for request in REQUESTS:
            for finding in validate(request, **kwargs):
                if finding.code not in ("SMD170", "SMD171", "SMD172"):
                    continue
                message = finding.message
                assert len(message) < MESSAGE_LIMIT, (kwargs, message)
                assert "@" not in message and "#L" not in message and "deep-learning-containers" not in message
                if finding.code == "SMD170":
                    assert verdict.action and message.endswith("; " + verdict.action), (kwargs, message)
                    actions.add(verdict.action)
                seen[finding.code] = max(seen.get(finding.code, 0), len(message))
    assert set(seen) == {"SMD170", "SMD171", "SMD172"}
    row_actions = {r["action"] for r in images.table()["rows"] if "action" in r}
    row_actions |= {r["py2"]["action"] for r in images.table()["rows"] if "py2" in r}
    assert row_actions <= actions  # every action the data holds reached a message whole
    assert any("smdebug.pytorch.Hook.create_from_json_file()" in a for a in actions)


def test_the_install_action_of_every_framework_fits_the_shortest_message():
    """SMD170's last resort is "the image has no smdebug; <action>": it fits for every framework and Python."""
    for framework in images.FRAMEWORK_TITLES:
        for python in ((), ("py2",), ("py3",), ("py310",), ("py312",)):
            assert len("the image has no smdebug; " + images.install_action(framework, python)) < MESSAGE_LIMIT


def save_steps_cases():
    modes = ("", "train.", "eval.", "predict.", "global.")
    for steps_mode in modes:
        for interval in (None, "10", "x" * 300):
            for interval_mode in ("", "eval."):
                hook_params = {} if interval is None else {interval_mode + "save_interval": interval}
                yield hook_request({steps_mode + "save_steps": "1,2"}, hook_params)
                yield hook_request(hook_params=dict(hook_params, **{steps_mode + "save_steps": "1,2"}))


def test_every_save_steps_message_is_one_short_line():
    seen = set()
    for request in save_steps_cases():
        for finding in validate(request):
            if finding.code in ("SMD173", "SMD174"):
                assert len(finding.message) < MESSAGE_LIMIT, finding.message
                seen.add(finding.code)
    assert seen == {"SMD173", "SMD174"}


@given(
    version=st.from_regex(r"\A\d{1,4}(\.\d{1,4}){0,20}\Z"),
    names=st.lists(st.text(min_size=1, max_size=256), min_size=1, max_size=25),
    interval=st.text(max_size=400),
)
def test_user_values_in_image_messages_are_clipped(version, names, interval):
    request = image_request(rules=names, keys=FRAMEWORK_PROFILING_KEYS)
    request["DebugHookConfig"]["HookParameters"] = {"save_interval": interval}
    request["DebugHookConfig"]["CollectionConfigurations"][0]["CollectionParameters"] = {"save_steps": "1"}
    for framework in ("pytorch", "tensorflow"):
        for finding in validate(request, framework=framework, framework_version=version):
            if finding.code.startswith("SMD17"):
                assert len(finding.message) < MESSAGE_LIMIT, finding.message


CASES = [
    # code, path, bad request, good request, validate kwargs (the registry's drift test wants a pair for each code)
    (
        "SMD170",
        "/DebugHookConfig",
        dict(pt_image("2.3.0"), DebugHookConfig=hook(("weights", {}))),
        dict(pt_image("1.13.1"), DebugHookConfig=hook(("weights", {}))),
        {},
    ),
    (
        "SMD171",
        "/ProfilerConfig/ProfilingParameters",
        dict(pt_image("2.3.0"), ProfilerConfig=profiler(DetailedProfilingConfig='{"StartStep": 5, "NumSteps": 1}')),
        dict(pt_image("1.13.1"), ProfilerConfig=profiler(DetailedProfilingConfig='{"StartStep": 5, "NumSteps": 1}')),
        {},
    ),
    (
        "SMD172",
        "/DebugHookConfig",
        dict(pt_image("2.3.0"), DebugHookConfig=hook()),
        dict(pt_image("1.13.1"), DebugHookConfig=hook()),
        {},
    ),
    (
        "SMD173",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_steps",
        {"DebugHookConfig": hook(("losses", {"save_steps": "1,2"}))},
        {"DebugHookConfig": hook(("losses", {"save_steps": "1,2", "end_step": "0"}))},
        {},
    ),
    (
        "SMD174",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_steps",
        {"DebugHookConfig": hook(("losses", {"save_steps": "1,2"}), save_interval="10")},
        {"DebugHookConfig": hook(("losses", {"save_steps": "1,2", "save_interval": "10"}), save_interval="10")},
        {},
    ),
]


@pytest.mark.parametrize("code, path, bad, good, kwargs", CASES, ids=case_ids(CASES))
def test_check_fires_on_bad_and_not_on_near_identical_good(code, path, bad, good, kwargs):
    assert_case(code, path, bad, good, kwargs)


def test_a_builtin_rules_own_default_collection_is_not_smd173():
    """Issue 37: create_xgboost_report()'s hyperparameters (save_steps 0) is what the rule sends, not the user's."""
    report = render([Rule.sagemaker(rule_configs.create_xgboost_report())], region="us-east-1", output_path="s3://b/o",
                    framework="xgboost")  # no warning: filterwarnings = error
    assert {"CollectionName": "hyperparameters", "CollectionParameters": {"save_steps": "0"}} in report[
        "DebugHookConfig"
    ]["CollectionConfigurations"]
    assert not [f for f in validate(report) if f.code in ("SMD173", "SMD174")]
    # the same collection without the rule that brings it is the user's: reported
    alone = hook_request({"save_steps": "0"}, name="hyperparameters")
    assert [f.code for f in validate(alone) if f.code.startswith("SMD17")] == ["SMD173"]
    # and with other steps than the rule's default
    other = dict(report, DebugHookConfig=dict(report["DebugHookConfig"], CollectionConfigurations=[
        {"CollectionName": "hyperparameters", "CollectionParameters": {"save_steps": "0,1"}}]))
    assert [f.code for f in validate(other) if f.code.startswith("SMD17")] == ["SMD173"]


def test_an_image_known_only_at_run_time_is_said_not_checked():
    """Review of issue 36: a template's computed image (!Sub, a Terraform local) left SMD170 silently unanswered."""
    from sm_debug_config.validation import validate

    hooked = {"DebugHookConfig": {"S3OutputPath": "s3://b/o"}}
    computed = dict(hooked, AlgorithmSpecification={"TrainingImage": {"Get": "Parameters.Image"},
                                                    "TrainingInputMode": "File"})
    found = [(f.code, f.pointer) for f in validate(computed)]
    assert ("SMD001", "/AlgorithmSpecification/TrainingImage") in found
    literal = dict(hooked, AlgorithmSpecification={"TrainingImage": "111122223333.dkr.ecr.us-east-1.amazonaws.com/x:1",
                                                   "TrainingInputMode": "File"})
    assert "/AlgorithmSpecification/TrainingImage" not in {pointer for _, pointer in
                                                          [(f.code, f.pointer) for f in validate(literal)]}
    without_hook = {"AlgorithmSpecification": computed["AlgorithmSpecification"]}
    assert validate(without_hook) == []


_PT = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:"
#: SMD170's fix: code, applicability, bad request, the request the fix makes of it (exactly), validate kwargs.
FIX_CASES = [
    (  # PyTorch 2.3 runs no hook: the newest PyTorch image below it that does, as the SDK v2 tags it
        "SMD170", "unsafe",
        {"AlgorithmSpecification": {"TrainingImage": _PT + "2.3.0-gpu-py311-cu121-ubuntu20.04-sagemaker",
                                    "TrainingInputMode": "File"}, "DebugHookConfig": hook(("gradients", {}))},
        {"AlgorithmSpecification": {"TrainingImage": _PT + "2.0.1-gpu-py310", "TrainingInputMode": "File"},
         "DebugHookConfig": hook(("gradients", {}))},
        {},
    ),
]


@pytest.mark.parametrize("code, applicability, bad, good, kwargs", FIX_CASES, ids=fix_ids(FIX_CASES))
def test_fix_makes_the_good_request_of_the_bad(code, applicability, bad, good, kwargs):
    assert_fix_case(code, applicability, bad, good, kwargs)


def test_no_image_fix_for_an_image_given_as_an_option_or_of_another_line():
    request = dict(pt_image("2.3.0"), DebugHookConfig=hook(("gradients", {})))
    given = [f for f in validate(request, image_uri=request["AlgorithmSpecification"]["TrainingImage"])
             if f.code == "SMD170"]
    assert given and all(f.fix is None for f in given)  # the image is not the request's: nothing to change there
    hugging = {"TrainingImage": "763104351884.dkr.ecr.us-east-1.amazonaws.com/huggingface-pytorch-training:"
                                "2.1.0-transformers4.36.0-gpu-py310-cu121-ubuntu20.04", "TrainingInputMode": "File"}
    found = [f for f in validate(dict(request, AlgorithmSpecification=hugging)) if f.code == "SMD170"]
    assert found and all(f.fix is None for f in found)  # its tags name transformers too: no tag is certain
