"""Fixes placed in the files users write (config files in YAML and JSON, request JSON, ACK manifests): the engine's
findings carry edits that turn the bad file into the good one byte for byte, comments and line endings kept, and
each fix's edits make in the file what :meth:`Fix.apply` makes in the request."""
from __future__ import annotations

import json
import os

import pytest

from sm_debug_config.checked import render_model
from sm_debug_config.configfile import read_text
from sm_debug_config.findings import collecting
from sm_debug_config.fixes import Change, apply_edits
from sm_debug_config.rendering import render_arguments
from sm_debug_config.sources import detect, kubernetes
from tests.sources.sourcehelpers import DEFAULTS, findings_of, fixed

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, os.pardir, "data", "kubernetes", "trainingjob.yaml")

BAD_CONFIG = """\
# Debugger settings of the nightly job
region: us-east-1
output_path: s3://my-bucket/out/
rules:
  - builtin: VanishingGradient
    rule_parameters:
      thresold: 0.0001   # too small?
  - LossNotDecreasing
tensorboard_output_config:
  s3_output_path: my-bucket/tensorboard
"""
GOOD_CONFIG = BAD_CONFIG.replace("thresold:", "threshold:").replace(": my-bucket/", ": s3://my-bucket/")
# every kind of change in one config file: set (SMD115, SMD114, SMD133's two), rename (SMD120), a member added with its
# siblings' indentation (SMD101: the second rule named), a line removed (SMD154)
BAD_MANY = """\
region: us-east-1
output_path: s3://b/o/
debugger_hook_config:
  hook_parameters:
    save_interval: "5"
    include_workers: One
  collection_configs:
    - name: weigths
    - name: gradients
      parameters: {save_steps: "1,2", start_step: "10", end_step: "5"}  # backwards
rules:
  - builtin: VanishingGradient
    rule_parameters: {thresold: "0.1"}
  - builtin: VanishingGradient
tensorboard_output_config:
  s3_output_path: s3://b/tb
  container_local_output_path: /opt/ml/input/tb
"""
GOOD_MANY = (BAD_MANY.replace("include_workers: One", "include_workers: one").replace("weigths", "weights")
             .replace('start_step: "10", end_step: "5"', 'start_step: "5", end_step: "10"')
             .replace("{thresold:", "{threshold:")
             .replace("  - builtin: VanishingGradient\ntensorboard", "  - builtin: VanishingGradient\n"
                      "    name: VanishingGradient-2\ntensorboard")
             .replace("  container_local_output_path: /opt/ml/input/tb\n", ""))
BAD_CONFIG_JSON = """{
  "region": "us-east-1",
  "rules": [{"builtin": "VanishingGradient", "rule_parameters": {"thresold": 0.0001}}],
  "tensorboard_output_config": {"s3_output_path": "my-bucket/tensorboard"}
}
"""
GOOD_CONFIG_JSON = BAD_CONFIG_JSON.replace('"thresold"', '"threshold"').replace('"my-bucket', '"s3://my-bucket')
BAD_REQUEST = """{
  "TrainingJobName": "nightly",
  "DebugHookConfig": {
    "S3OutputPath": "my-bucket/debug",
    "HookParameters": {"save_interval": 20}
  },
  "DebugRuleConfigurations": [
    {
      "RuleConfigurationName": "VanishingGradient",
      "RuleEvaluatorImage": "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest",
      "RuleParameters": {"rule_to_invoke": "VanishingGradient", "thresold": "0.0001", "num_steps": 20}
    }
  ]
}
"""
GOOD_REQUEST = (BAD_REQUEST.replace('"my-bucket/debug"', '"s3://my-bucket/debug"')
                .replace('"save_interval": 20', '"save_interval": "20"')
                .replace('"thresold"', '"threshold"').replace('"num_steps": 20', '"num_steps": "20"'))


@pytest.mark.parametrize("bad, good, name", [
    (BAD_CONFIG, GOOD_CONFIG, "job.yaml"),
    (BAD_CONFIG.replace("\n", "\r\n"), GOOD_CONFIG.replace("\n", "\r\n"), "job.yaml"),
    (BAD_CONFIG_JSON, GOOD_CONFIG_JSON, "job.json"),
    (BAD_REQUEST, GOOD_REQUEST, "request.json"),
    (BAD_MANY, GOOD_MANY, "job.yaml"),
    (BAD_REQUEST.replace("\n", "\r\n"), GOOD_REQUEST.replace("\n", "\r\n"), "request.json"),
], ids=["config-yaml", "config-yaml-crlf", "config-json", "request-json", "every-kind", "request-json-crlf"])
def test_the_fixes_turn_the_bad_file_into_the_good_one_byte_for_byte(bad, good, name):
    _, findings = findings_of(bad, name)
    assert {"SMD100", "SMD120"} & {f.code for f in findings if f.fix is not None and f.fix.edits}
    assert fixed(bad, name) == good
    after = {f.code for f in findings_of(good, name)[1] if f.fix is not None and f.fix.edits}
    assert not after & {"SMD100", "SMD120"}


def test_safe_fixes_only_leave_the_unsafe_ones():
    once = fixed(BAD_CONFIG, "job.yaml", unsafe=False)
    assert once == BAD_CONFIG.replace("thresold", "threshold")  # the missing s3:// is unsafe: a guess of the bucket


def test_a_manifest_is_fixed_at_its_lower_camel_keys():
    with open(MANIFEST, encoding="utf-8") as handle:
        bad = handle.read()
    good = fixed(bad, "trainingjob.yaml")
    assert good == (bad.replace("s3OutputPath: my-bucket/xgboost/tensorboard",
                                "s3OutputPath: s3://my-bucket/xgboost/tensorboard")
                    .replace("    localPath: /opt/ml/output/tensorboard\n", "")  # SMD154: the reserved path dropped
                    .replace('num_stepz: "10"', 'num_steps: "10"')
                    .replace("pytorch-training:2.4.0-gpu-py311-cu124-ubuntu22.04-sagemaker",  # SMD170: a hook's image
                             "pytorch-training:2.0.1-gpu-py310"))


def _request(found, name):
    """The request a file stands for, as the engine checks it (a config file's render as written)."""
    job = next(detect(found.document).jobs(found, {}))
    if job.request is not None:
        return job.request
    with collecting(as_written=True):
        setup, settings = render_arguments(dict(job.render_kwargs, **DEFAULTS, region="us-east-1"))
        return render_model(setup, settings, built_here=True).request


@pytest.mark.parametrize("bad, name", [(BAD_CONFIG, "job.yaml"), (BAD_CONFIG_JSON, "job.json"), (BAD_MANY, "job.yaml"),
                                       (BAD_REQUEST, "request.json"), (None, "trainingjob.yaml")])
def test_each_fix_edits_the_file_as_it_changes_the_request(bad, name):
    if bad is None:
        with open(MANIFEST, encoding="utf-8") as handle:
            bad = handle.read()
    found, findings = findings_of(bad, name)
    placed = [f for f in findings if f.fix is not None and f.fix.edits]
    assert placed
    before = _request(found, name)
    for finding in placed:
        text, count = apply_edits(found.text, [finding.fix.edits])
        assert count == 1
        assert _request(read_text(text, name), name) == finding.fix.apply(before), finding


def test_a_change_the_file_does_not_write_where_the_request_has_it_has_no_edits():
    # a rule written as its name: its parameters are nowhere in the file to rename
    text = ("region: us-east-1\nrules: [VanishingGradient]\n"
            "debugger_hook_config: {hook_parameters: {save_interval: 5}}\n")
    found = read_text(text, "job.yaml")
    config, _ = found.load(as_far_as_possible=True)
    rendered = config.render_model(validate=False, output_path="s3://b/o/")
    assert config.file_change(Change("rename", ("DebugRuleConfigurations", 0, "RuleParameters", "rule_to_invoke"),
                                     "x"), rendered, found.document) is None
    hook = config.file_change(Change("set", ("DebugHookConfig", "HookParameters", "save_interval"), "10"), rendered,
                              found.document)
    assert hook.path == ("debugger_hook_config", "hook_parameters", "save_interval")
    assert found.edits(hook)[0].apply(found.text) == text.replace("save_interval: 5", 'save_interval: "10"')
    # below a member the file does not have: not added (the finding keeps its fix without edits)
    assert config.file_change(Change("set", ("TensorBoardOutputConfig", "S3OutputPath"), "s3://b/tb"), rendered,
                              found.document) is None


def test_manifest_change_names_members_as_the_manifest_does():
    request, paths, _ = kubernetes.to_request({"debugHookConfig": {"s3OutputPath": "s3://b/o",
                                                                   "hookParameters": {"save_interval": "5"}}})
    assert kubernetes.manifest_change(Change("rename", ("DebugHookConfig", "HookParameters", "save_interval"),
                                             "save_steps"), paths).path[-1] == "save_interval"
    assert kubernetes.manifest_change(Change("set", ("DebugHookConfig", "HookParameters", "include_regex"), "a"),
                                      paths).path == ("spec", "debugHookConfig", "hookParameters", "include_regex")
    assert kubernetes.manifest_change(Change("set", ("DebugHookConfig", "CollectionConfigurations"),
                                             [{"CollectionName": "weights"}]), paths).value == [
        {"collectionName": "weights"}]
    assert kubernetes.manifest_change(Change("set", ("ProfilerConfig", "S3OutputPath"), "s3://b/p"), paths) is None


def test_a_json_manifest_is_fixed_too():
    bad = json.dumps({
        "apiVersion": "sagemaker.services.k8s.aws/v1alpha1", "kind": "TrainingJob", "metadata": {"name": "j"},
        "spec": {"debugRuleConfigurations": [{
            "ruleConfigurationName": "r",
            "ruleEvaluatorImage": "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest",
            "ruleParameters": {"rule_to_invoke": "LossNotDecreasing", "num_stepz": "10"}}],
            "tensorBoardOutputConfig": {"s3OutputPath": "my-bucket/tb"}}}, indent=2)
    assert fixed(bad, "job.json") == bad.replace('"num_stepz"', '"num_steps"').replace(
        '"my-bucket/tb"', '"s3://my-bucket/tb"')


def test_smd103_renames_a_manifest_member_to_the_controller_s_case_pass_after_pass():
    bad = ("apiVersion: sagemaker.services.k8s.aws/v1alpha1\nkind: TrainingJob\nmetadata: {name: j}\nspec:\n"
           "  DebugHookConfig:\n    S3OutputPath: s3://b/o  # out\n  tensorBoardOutputConfig: {S3OutputPath: s3://b/tb}\n")
    assert fixed(bad, "job.yaml") == bad.replace("DebugHookConfig", "debugHookConfig").replace(
        "S3OutputPath", "s3OutputPath")  # the hook's member once its parent is read, in the next pass


def test_a_profiling_parameter_written_in_its_map_is_renamed_there():
    # ProfilingParameters' keys are written in framework_profile_params' profiling_parameters map (sourcemap._HELD_MAPS)
    bad = ("region: us-east-1\noutput_path: s3://b/o/\nprofiler_config:\n  framework_profile_params:\n"
           "    profiling_parameters:\n      FileOpenFailThreshhold: \"50\"  # files\n")
    assert fixed(bad, "job.yaml") == bad.replace("FileOpenFailThreshhold", "FileOpenFailThreshold")
    # written as arguments (start_step...), the map is rendered from them: nothing there to rename
    found, findings = findings_of("region: us-east-1\nprofiler_config:\n  framework_profile_params: {start_step: 2}\n",
                                  "job.yaml")
    assert not [f for f in findings if f.fix is not None and f.fix.edits]


def test_a_value_refused_when_the_file_is_read_is_fixed_at_its_key():
    """A misspelt ProfilerReport key is refused when its object is built (SMD120, no request to check): its fix is the
    constructor's, made at the key the refusal is placed at. One close name of several (``CPUBottleneck_threshold``
    one edit away, ``CPUBottleneck_cpu_threshold`` more) is the certain one."""
    bad = ("output_path: s3://b/o\nrules:\n  - builtin: ProfilerReport\n    rule_parameters:\n"
           "      CPUBottleneck_treshold: 50  # percent\n")
    _, findings = findings_of(bad, "job.yaml")
    refused = [f for f in findings if f.code == "SMD120"]
    assert len(refused) == 1 and refused[0].fix is not None and refused[0].fix.edits
    assert fixed(bad, "job.yaml") == bad.replace("_treshold:", "_threshold:")
