"""The engine (sm_debug_config.engine) and the sources' table (sm_debug_config.sources): every job of every input kind
goes through one pass, and a refusal never hides the other findings of its job."""
from __future__ import annotations

import pytest

from sm_debug_config import engine, sources
from sm_debug_config.configfile import read_file
from sm_debug_config.engine import Job, check
from sm_debug_config.errors import ConfigError
from sm_debug_config.fixes import REMOVE, UNSAFE, Change, Edit, Fix

REGION = {"region": "us-east-1"}
IMAGE = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.4.0-gpu-py311-cu124-ubuntu22.04-sagemaker"


def _jobs(tmp_path, name, text, **settings):
    path = tmp_path / name
    path.write_text(text)
    found = read_file(str(path), kind="auto")
    source = sources.detect(found.document)
    return source, list(source.jobs(found, settings))


def test_a_request_is_checked_as_written():
    job = Job(request={"DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {"save_interval": "0"}},
                       "AlgorithmSpecification": {"TrainingImage": IMAGE, "TrainingInputMode": "File"}})
    codes = sorted(f.code for f in check(job, REGION).findings)
    assert "SMD132" in codes and "SMD170" in codes  # two independent problems, one pass


def test_the_table_tries_documents_then_requests_then_config_files():
    assert list(sources.SOURCES)[-2:] == ["request", "config"]
    assert sources.detect({"StartAt": "T", "States": {}}) is None or sources.detect(
        {"StartAt": "T", "States": {}}).name == "stepfunctions"
    assert sources.detect({"TrainingJobName": "j"}).name == "request"
    assert sources.detect({"region": "us-east-1"}).name == "config"
    assert sources.detect(["a"]) is None and sources.not_debugger(["a"]).startswith("a list")
    assert sources.not_debugger({"name": "x"}) == "none of its keys (name) is a config-file or CreateTrainingJob key"


def test_a_config_file_refusal_leaves_every_other_finding(tmp_path):
    source, (job,) = _jobs(tmp_path, "job.yaml", (
        "region: us-east-1\n"
        "output_path: s3://b/out\n"
        "debugger_hook_config:\n"
        "  hook_parameters: {save_interval: '0'}\n"           # SMD132, refused at construction, kept as written
        "  collection_configs:\n"
        "    - name: gradiants\n"                              # SMD114: an unknown built-in collection
        "rules:\n"
        "  - builtin: VanishingGradient\n"
        "    rule_parameters: {threshhold: '0.1'}\n"           # SMD120
        "tensorboard_output_config: {s3_output_path: s3://b/tb, container_local_output_path: /opt/ml/output}\n"
    ))
    assert source.name == "config"
    found = check(job, {}).findings
    codes = [f.code for f in found]
    assert {"SMD132", "SMD120"} <= set(codes), codes
    assert all(f.line is not None for f in found if f.code in ("SMD132", "SMD120"))
    assert [f.line for f in found] == sorted(f.line for f in found if f.line is not None) + [
        None for f in found if f.line is None]


def test_a_document_job_per_request_each_placed(tmp_path):
    source, jobs = _jobs(tmp_path, "machine.asl.json", """{"StartAt": "A", "States": {
 "A": {"Type": "Task", "Resource": "arn:aws:states:::sagemaker:createTrainingJob", "Next": "B",
       "Parameters": {"DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {"save_interval": "0"}}}},
 "B": {"Type": "Task", "Resource": "arn:aws:states:::sagemaker:createTrainingJob", "End": true,
       "Parameters": {"DebugHookConfig": {"S3OutputPath": "b/o"}}}}}""")
    assert source.name == "stepfunctions" and [job.label for job in jobs] == ["state A", "state B"]
    first, second = (check(job, REGION).findings for job in jobs)
    assert [(f.code, f.pointer, f.line) for f in first] == [
        ("SMD132", "/States/A/Parameters/DebugHookConfig/HookParameters/save_interval", 3)]
    assert [f.code for f in second] == ["SMD100"] and second[0].message.endswith("(state B)")


def test_a_render_refused_as_a_whole_is_a_finding_not_a_stop():
    job = Job(render_kwargs={"rules": "VanishingGradient", "region": "us-east-1", "output_path": "s3://b/o"})
    found = check(job, {}).findings
    assert [f.severity for f in found] == ["error"] and found[0].code == "SMD002"


@pytest.mark.parametrize("setting", ["region: mars-1", "framework: jax"])
def test_a_setting_refused_is_left_out_and_the_rest_checked(tmp_path, setting):
    _, (job,) = _jobs(tmp_path, "job.yaml", f"{setting}\noutput_path: s3://b/out\n"
                                            "debugger_hook_config:\n  hook_parameters: {save_interval: '0'}\n")
    found = check(job, {}).findings
    assert [(f.code, f.line) for f in found] == [("SMD002", 1), ("SMD132", 4)]


def test_in_file_order_puts_findings_with_no_position_last():
    a, b, c = (engine.Finding("warning", "SMD120", "/x", m, line=line) for m, line in (("a", 3), ("b", None), ("c", 1)))
    assert [f.message for f in engine.in_file_order([a, b, c])] == ["c", "a", "b"]


def test_a_refusal_keeps_its_fix_and_the_source_places_each_change():
    """A constructor's refusal with a fix (ConfigError.fix) is a finding with that fix; the engine asks the job's
    source to place every change (Job.edit) and stores the edits, or None when one cannot be placed."""
    fix = Fix(UNSAFE, "remove the LocalPath", [Change(REMOVE, ("TensorBoardOutputConfig", "LocalPath"))])
    refused = ConfigError("reserved", code="SMD154", path=("TensorBoardOutputConfig", "LocalPath"), fix=fix)
    placed = Job(request={}, refused=[refused], edit=lambda change, rendered: [Edit(0, 4, "")])
    (finding,) = check(placed, REGION).findings
    assert finding.code == "SMD154" and finding.fix.changes == fix.changes and finding.fix.edits == (Edit(0, 4, ""),)
    (unplaced,) = check(Job(request={}, refused=[refused]), REGION).findings
    assert unplaced.fix.changes == fix.changes and unplaced.fix.edits is None
