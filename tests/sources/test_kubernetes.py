"""ACK TrainingJob manifests (sm_debug_config.sources.kubernetes): the spec read as the request it is, every finding
at the manifest's key, on the command line as for any other source."""
from __future__ import annotations

import json
import os

from sm_debug_config.cli import main
from sm_debug_config.engine import check
from sm_debug_config.sources import SOURCES, detect, kubernetes

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, os.pardir, "data", "kubernetes", "trainingjob.yaml")


def test_detected_by_its_group_and_kind_only():
    assert detect({"apiVersion": "sagemaker.services.k8s.aws/v1alpha1", "kind": "TrainingJob", "spec": {}}) is \
        SOURCES["kubernetes"]
    assert not kubernetes.detect({"apiVersion": "sagemaker.aws.amazon.com/v1", "kind": "TrainingJob"})
    assert not kubernetes.detect({"apiVersion": "sagemaker.services.k8s.aws/v1alpha1", "kind": "Endpoint"})


def test_member_names_follow_the_api_and_map_keys_stay_as_written():
    request, paths = kubernetes.to_request({
        "debugRuleConfigurations": [{"ruleConfigurationName": "r", "volumeSizeInGB": 5,
                                     "ruleParameters": {"rule_to_invoke": "X", "camelKey": "1"}}],
        "profilerConfig": {"profilingParameters": {"DataloaderProfilingConfig": "{}"}},
        "trainingJobName": "not a Debugger field"})
    assert request == {"DebugRuleConfigurations": [{"RuleConfigurationName": "r", "VolumeSizeInGB": 5,
                                                    "RuleParameters": {"rule_to_invoke": "X", "camelKey": "1"}}],
                       "ProfilerConfig": {"ProfilingParameters": {"DataloaderProfilingConfig": "{}"}}}
    assert paths[("DebugRuleConfigurations", 0, "RuleParameters", "camelKey")] == (
        "debugRuleConfigurations", 0, "ruleParameters", "camelKey")


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
