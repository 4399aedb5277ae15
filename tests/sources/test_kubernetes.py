"""ACK TrainingJob manifests (sm_debug_config.sources.kubernetes): the spec read as the request it is, every finding
at the manifest's key, on the command line as for any other source."""
from __future__ import annotations

import json
import os

import pytest

from sm_debug_config.cli import main
from sm_debug_config.engine import check
from sm_debug_config.sources import SOURCES, detect, kubernetes
from tests.pairhelpers import DOCUMENT_CASES

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, os.pardir, "data", "kubernetes", "trainingjob.yaml")
HEAD = "apiVersion: sagemaker.services.k8s.aws/v1alpha1\nkind: TrainingJob\nmetadata: {name: j}\n"


def test_detected_by_its_group_and_kind_only():
    assert detect({"apiVersion": "sagemaker.services.k8s.aws/v1alpha1", "kind": "TrainingJob", "spec": {}}) is \
        SOURCES["kubernetes"]
    assert not kubernetes.detect({"apiVersion": "sagemaker.aws.amazon.com/v1", "kind": "TrainingJob"})
    assert not kubernetes.detect({"apiVersion": "sagemaker.services.k8s.aws/v1alpha1", "kind": "Endpoint"})


def test_member_names_follow_the_api_and_map_keys_stay_as_written():
    request, paths, misspelt = kubernetes.to_request({
        "debugRuleConfigurations": [{"ruleConfigurationName": "r", "volumeSizeInGB": 5,
                                     "ruleParameters": {"rule_to_invoke": "X", "camelKey": "1"}}],
        "profilerConfig": {"profilingParameters": {"DataloaderProfilingConfig": "{}"}},
        "trainingJobName": "not a Debugger field"})
    assert request == {"DebugRuleConfigurations": [{"RuleConfigurationName": "r", "VolumeSizeInGB": 5,
                                                    "RuleParameters": {"rule_to_invoke": "X", "camelKey": "1"}}],
                       "ProfilerConfig": {"ProfilingParameters": {"DataloaderProfilingConfig": "{}"}}}
    assert paths[("DebugRuleConfigurations", 0, "RuleParameters", "camelKey")] == (
        "debugRuleConfigurations", 0, "ruleParameters", "camelKey")
    assert misspelt == []


def test_every_mistake_at_its_key(capsys):
    code = main(["validate", "--format", "json", "--region", "us-east-1", MANIFEST])
    out = json.loads(capsys.readouterr().out)
    found = {(f["code"], f["path"], f["line"]) for f in out["files"][0]["findings"]}
    assert code == 1
    assert {
        ("SMD132", "/spec/debugHookConfig/hookParameters/save_interval", 24),
        ("SMD120", "/spec/debugRuleConfigurations/0/ruleParameters/num_stepz", 34),
        ("SMD100", "/spec/tensorBoardOutputConfig/s3OutputPath", 36),
        ("SMD154", "/spec/tensorBoardOutputConfig/localPath", 37),
        ("SMD170", "/spec/debugHookConfig", 21),  # the image runs no hook: said where the hook is configured
    } <= found, found


def test_a_clean_manifest_passes(tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text("apiVersion: sagemaker.services.k8s.aws/v1alpha1\nkind: TrainingJob\nmetadata: {name: j}\n"
                    "spec:\n  debugHookConfig:\n    s3OutputPath: s3://b/debug\n")
    found = next(SOURCES["kubernetes"].jobs(type("F", (), {"document": {
        "apiVersion": "sagemaker.services.k8s.aws/v1alpha1", "kind": "TrainingJob", "metadata": {"name": "j"},
        "spec": {"debugHookConfig": {"s3OutputPath": "s3://b/debug"}}}, "locate": staticmethod(lambda p: None)})(),
        {}))
    assert check(found, {"region": "us-east-1"}).findings == []
    assert main(["validate", str(path)]) == 0


@pytest.mark.parametrize("text", ["", "[]\n", "null\n", "region: us-east-1\nrules: [VanishingGradient]\n"])
def test_kind_kubernetes_of_something_else_is_an_error_naming_it(tmp_path, capsys, text):
    path = tmp_path / "x.yaml"
    path.write_text(text)
    assert main(["validate", "--kind", "kubernetes", str(path)]) == 2
    assert "not an ACK TrainingJob manifest" in capsys.readouterr().err


@pytest.mark.parametrize("spec, where, code", [
    ("spec: [1, 2]\n", "/spec", "SMD100"), ("spec:\n", "/spec", "SMD100"),
    ("spec:\n  DebugHookConfig: {S3OutputPath: s3://b/o}\n", "/spec/DebugHookConfig", "SMD103"),
    ("spec:\n  debugHookConfig:\n    s3OutputPath: not-a-url\n    S3OutputPath: s3://b/o\n",
     "/spec/debugHookConfig/S3OutputPath", "SMD103"),
    ("spec:\n  debugHookConfig:\n    S3OutputPath: s3://b/o\n", "/spec/debugHookConfig/S3OutputPath", "SMD103"),
])
def test_a_spec_the_controller_refuses_or_never_sees_is_said_at_its_key(tmp_path, capsys, spec, where, code):
    path = tmp_path / "job.yaml"
    path.write_text(HEAD + spec)
    main(["validate", "--format", "json", "--region", "us-east-1", str(path)])
    found = json.loads(capsys.readouterr().out)["files"][0]["findings"]
    assert (where, code) in {(f["path"], f["code"]) for f in found}
    assert all(f["line"] is not None for f in found)


def test_a_directory_with_a_manifest_stream_is_not_passed_as_clean(tmp_path, capsys):
    (tmp_path / "k8s").mkdir()
    with open(MANIFEST, encoding="utf-8") as handle:
        text = handle.read()
    (tmp_path / "k8s" / "jobs.yaml").write_text(text + "---\napiVersion: v1\nkind: ConfigMap\n")
    assert main(["validate", str(tmp_path / "k8s")]) == 2  # could not be read: said, never "0 errors"
    assert "second YAML document" in capsys.readouterr().err


@pytest.mark.parametrize("code, pointer, bad, good", DOCUMENT_CASES, ids=[c[0] for c in DOCUMENT_CASES])
def test_document_codes_fire_on_bad_and_not_on_near_identical_good(tmp_path, capsys, code, pointer, bad, good):
    found = {}
    for side, text in (("bad", bad), ("good", good)):
        path = tmp_path / f"{side}.yaml"
        path.write_text(text)
        main(["validate", "--format", "json", str(path)])
        found[side] = json.loads(capsys.readouterr().out)["files"][0]["findings"]
    assert (code, pointer) in {(f["code"], f["path"]) for f in found["bad"]} and found["good"] == []
