"""``--select`` and ``--ignore`` of validate, lint and plan, the project's ``select`` (ruff's semantics, the table of
:mod:`sm_debug_config.codes`), and the one region default every command uses and says when it assumed it
(:mod:`sm_debug_config.cli.defaults`). plan's runs are in ``tests/operations/test_plan.py``."""
from __future__ import annotations

import json
import re

import pytest

from tests.placehelpers import EXPECTED, FOUR_MISTAKES

#: A launcher lint reads: an unknown rule parameter (SMD120) and a save_interval of 0 (SMD132).
LAUNCHER = """\
from sagemaker.debugger import CollectionConfig, DebuggerHookConfig, Rule, rule_configs
from sagemaker.pytorch import PyTorch

PyTorch(entry_point="train.py", framework_version="1.13.1", py_version="py39", role="r", instance_count=1,
        instance_type="ml.p3.2xlarge",
        rules=[Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshhold": "0.1"})],
        debugger_hook_config=DebuggerHookConfig(
            collection_configs=[CollectionConfig("gradients", parameters={"save_interval": "0"})]))
"""
#: A region the table says has no Debugger (SMD161 there).
NO_DEBUGGER = "ap-south-2"
NO_REGION = {"AWS_REGION": None, "AWS_DEFAULT_REGION": None}
US_EAST_1 = {"AWS_REGION": "us-east-1"}
ASSUMED_NOTE = "sm-debug-config: note: region us-east-1 assumed (no --region, region setting, AWS_REGION/"


def codes_of(output: str):
    return re.findall(r": (?:error|warning|info) (SMD\d{3}) ", output)


@pytest.fixture
def four(tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text(FOUR_MISTAKES)
    return str(path)


@pytest.fixture
def launcher(tmp_path):
    path = tmp_path / "launch.py"
    path.write_text(LAUNCHER)
    return str(path)


ALL_FOUR = [code for code, *_ in EXPECTED]  # SMD132, SMD114, SMD154, SMD101


@pytest.mark.parametrize("flags, kept", [
    ([], ALL_FOUR),
    (["--select", "SMD13"], ["SMD132"]),  # a prefix
    (["--select", "SMD132,SMD101"], ["SMD132", "SMD101"]),  # a comma-separated list
    (["--select", "SMD132", "--select", "smd101"], ["SMD132", "SMD101"]),  # repeated, any case
    (["--ignore", "SMD13,SMD114"], ["SMD154", "SMD101"]),
    (["--select", "SMD1", "--ignore", "SMD15"], ["SMD132", "SMD114", "SMD101"]),  # select narrows, ignore removes
    (["--select", "SMD132", "--ignore", "SMD13"], []),  # ignore wins
])
def test_validate_select_and_ignore(cli, four, flags, kept):
    out = cli("validate", *flags, four)
    assert codes_of(out.stdout) == kept
    suppressed = 4 - len(kept)
    assert out.stdout.splitlines()[-1].endswith(f", {suppressed} suppressed" if suppressed else "0 infos")
    summary = json.loads(cli("validate", "--format", "json", *flags, four).stdout)
    assert summary["suppressed"] == suppressed
    assert [f["code"] for f in summary["files"][0]["findings"]] == kept


def test_validate_select_in_a_request_and_a_document(cli, tmp_path):
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"DebugHookConfig": {"S3OutputPath": "s3://b/o", "CollectionConfigurations": [
        {"CollectionName": "gradients", "CollectionParameters": {"save_interval": "0"}},
        {"CollectionName": "weights", "CollectionParameters": {"save_steps": "1,2"}}]}}))
    assert sorted(codes_of(cli("validate", str(request)).stdout)) == ["SMD132", "SMD173"]
    assert codes_of(cli("validate", "--select", "SMD17", str(request)).stdout) == ["SMD173"]
    assert codes_of(cli("validate", "--ignore", "SMD17", str(request)).stdout) == ["SMD132"]


def test_a_construction_error_and_the_files_ignore_are_suppressed_too(cli, tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text("ignore: [SMD101]\n" + FOUR_MISTAKES + "hook: {}\n")
    assert sorted(codes_of(cli("validate", str(path)).stdout)) == ["SMD002", "SMD114", "SMD132", "SMD154"]
    out = cli("validate", "--ignore", "SMD002,SMD154", str(path))  # the file's ignore: still applies
    assert sorted(codes_of(out.stdout)) == ["SMD114", "SMD132"] and out.stdout.endswith("3 suppressed\n")


@pytest.mark.parametrize("command", ["validate", "lint", "plan"])
@pytest.mark.parametrize("flag, given, wanted", [
    ("--ignore", "SMD999", "--ignore SMD999: no such check; did you mean SMD190?"),
    ("--select", "SMD12O", "--select SMD12O: no such check; did you mean SMD120?"),
    ("--ignore", "SMD120,bogus", "--ignore BOGUS: no such check (`sm-debug-config checks` lists them)"),
])
def test_an_unknown_code_is_a_usage_error_with_a_did_you_mean(cli, four, launcher, command, flag, given, wanted):
    path = {"validate": four, "lint": launcher, "plan": launcher}[command]
    out = cli(command, flag, given, path)
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr == f"sm-debug-config: {wanted}\n"


@pytest.mark.parametrize("command", ["validate", "lint"])
def test_an_unknown_unfixable_code_is_a_usage_error(cli, four, launcher, command):
    out = cli(command, "--unfixable", "SMD120,bogus", "--fix", {"validate": four, "lint": launcher}[command])
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr == "sm-debug-config: --unfixable BOGUS: no such check (`sm-debug-config checks` lists them)\n"


def test_lint_select_and_ignore(cli, launcher):
    # SMD117: the SDK v2 sends gradients twice (the hook's "0", VanishingGradient's default "500")
    assert codes_of(cli("lint", launcher).stdout) == ["SMD120", "SMD117", "SMD132"]
    out = cli("lint", "--select", "SMD13", launcher)
    assert codes_of(out.stdout) == ["SMD132"] and out.stdout.endswith("2 suppressed\n")
    assert codes_of(cli("lint", "--ignore", "SMD132", launcher).stdout) == ["SMD120", "SMD117"]
    assert json.loads(cli("lint", "--format", "json", "--select", "SMD190", launcher).stdout)["suppressed"] == 3


def test_the_projects_select_and_the_flag_that_replaces_it(cli, tmp_path, four):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.sm-debug-config]\nselect = ["SMD10", "SMD11"]\nignore = ["SMD114"]\n')
    assert codes_of(cli("validate", four).stdout) == ["SMD101"]
    assert codes_of(cli("validate", "--select", "SMD13,SMD114", four).stdout) == ["SMD132"]  # the file's ignore stays
    assert codes_of(cli("validate", "--select", "SMD13", four).stdout) == ["SMD132"]
    assert codes_of(cli("validate", "--isolated", four).stdout) == ALL_FOUR
    (tmp_path / "pyproject.toml").write_text('[tool.sm-debug-config]\nselect = ["SMD12O"]\n')
    out = cli("validate", four)
    assert out.returncode == 2 and "select: SMD12O: no such check; did you mean SMD120?" in out.stderr


# --- one region default, said when assumed ---------------------------------------------------------------------


def test_validate_says_the_region_it_assumed(cli, tmp_path):
    four = tmp_path / "job.yaml"
    four.write_text(FOUR_MISTAKES.replace("region: us-east-1\n", ""))
    out = cli("validate", str(four), env=NO_REGION)
    assert ASSUMED_NOTE in out.stderr and codes_of(out.stdout) == ALL_FOUR  # a note, not a finding
    assert out.returncode == 1  # as without the note: SMD132 is an error
    assert json.loads(cli("validate", "--format", "json", str(four), env=NO_REGION).stdout)["assumed"] == {
        "region": "us-east-1"}
    for env in ({"AWS_REGION": "eu-west-1"}, {"AWS_REGION": None, "AWS_DEFAULT_REGION": "eu-west-1"}):
        out = cli("validate", "--format", "json", str(four), env=env)
        assert json.loads(out.stdout)["assumed"] == {} and "note" not in out.stderr


def test_validate_and_lint_judge_the_same_region(cli, tmp_path):
    config, launcher = tmp_path / "job.yaml", tmp_path / "launch.py"
    config.write_text("debugger_hook_config:\n  collection_configs:\n    - name: gradients\n")
    launcher.write_text(LAUNCHER.replace('parameters={"save_interval": "0"}', ""))
    refused = f"region {NO_DEBUGGER} does not support SageMaker Debugger"  # (lint used to assume us-east-1 always)
    for argv in (["validate", str(config)], ["lint", str(launcher)]):
        given = cli(*argv, "--region", NO_DEBUGGER, env=US_EAST_1)  # the user's setting
        assert refused in given.stdout and given.returncode == 1, argv
        environment = cli(*argv, env={"AWS_REGION": NO_DEBUGGER})  # else the environment's
        assert refused in environment.stdout, argv
        assumed = cli(*argv, env=NO_REGION)  # else assumed and said
        assert refused not in assumed.stdout and ASSUMED_NOTE in assumed.stderr, argv


def test_a_bad_region_in_the_environment_is_a_usage_error(cli, four, launcher):
    for argv in (["validate", four], ["lint", launcher]):
        out = cli(*argv, env={"AWS_REGION": "moon"})
        assert out.returncode == 2 and "AWS_REGION: 'moon' is not an AWS region name" in out.stderr, out.stderr


def test_render_and_explain_assume_the_region_and_say_so(cli, tmp_path):
    config = tmp_path / "job.yaml"
    config.write_text("output_path: s3://b/o/\nrules: [VanishingGradient]\n")
    rendered = cli("render", str(config), env=NO_REGION)
    assert rendered.returncode == 0 and ASSUMED_NOTE in rendered.stderr
    image = json.loads(rendered.stdout)["DebugRuleConfigurations"][0]["RuleEvaluatorImage"]
    assert ".us-east-1." in image
    assert ASSUMED_NOTE in cli("explain", str(config), env=NO_REGION).stderr
    assert "note" not in cli("render", str(config), env=US_EAST_1).stderr
