"""Terraform HCL (``.tf``, read with python-hcl2, the ``terraform`` extra): a ``.tf`` file gets the findings of its
``.tf.json`` twin (codes, pointers, messages; lines differ), each at its attribute; expressions are run-time values,
counted as not checked; without python-hcl2, a one-line error naming the extra (exit 2).

The twins are ``tests/data/documents/terraform-debugger.tf`` and ``.tf.json`` (their comments cite their source).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from sm_debug_config.documents import hcl

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TWIN = os.path.join("tests", "data", "documents", "terraform-debugger")

needs_hcl2 = pytest.mark.skipif(
    not hcl.has_hcl2(), reason=f"python-hcl2 is not installed (the '{hcl.EXTRA}' extra, which the test extra pulls in)"
)


def _validate(cli: Any, *args: str) -> Tuple[int, Dict[str, Any]]:
    result = cli("validate", "--format", "json", *args)
    assert result.stderr == "" and result.stdout, result.stderr
    return result.returncode, json.loads(result.stdout)


def _said(out: Dict[str, Any]) -> List[Tuple[str, str, str, str]]:
    return [(f["severity"], f["code"], f["path"], f["message"]) for f in out["files"][0]["findings"]]


@needs_hcl2
def test_a_tf_file_gets_the_findings_of_its_tf_json_twin(cli):
    code, hcl_out = _validate(cli, TWIN + ".tf")
    twin_code, json_out = _validate(cli, TWIN + ".tf.json")
    assert _said(hcl_out) == _said(json_out) and code == twin_code == 1
    codes = {said[1] for said in _said(hcl_out)}
    assert {"SMD001", "SMD125", "SMD132", "SMD133", "SMD144", "SMD153"} <= codes  # each seeded mistake
    pointers = {said[2] for said in _said(hcl_out)}
    assert any("/aws_sagemaker_pipeline/encoded/pipeline_definition/Steps/0/" in p for p in pointers)  # jsonencode
    assert any("/aws_sagemaker_pipeline/heredoc/pipeline_definition/Steps/0/" in p for p in pointers)  # heredoc
    summary = ("errors", "warnings", "infos", "not_checked", "skipped")
    assert {key: hcl_out[key] for key in summary} == {key: json_out[key] for key in summary}
    assert hcl_out["not_checked"] == hcl_out["infos"] > 0  # each reference an SMD001 info, counted as not checked


@needs_hcl2
def test_each_finding_is_at_its_attribute(cli):
    with open(os.path.join(TESTS, "..", TWIN + ".tf"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    _, out = _validate(cli, TWIN + ".tf")
    for finding in out["files"][0]["findings"]:
        text = lines[finding["line"] - 1][finding["column"] - 1:]
        names = [part for part in finding["path"].split("/") if part and not part.isdigit()]
        # the attribute, object key or block the pointer names, or (past what the file has) its deepest part
        assert any(text.startswith((name, f'"{name}"')) for name in names), (finding["path"], text)


@needs_hcl2
def test_kind_terraform_reads_tf_and_explain_explains_it(cli):
    code, out = _validate(cli, "--kind", "terraform", TWIN + ".tf")
    assert code == 1 and out["errors"] == 1
    explained = cli("explain", TWIN + ".tf")
    assert explained.returncode == 1 and "== aws_sagemaker_training_job.train" in explained.stdout


@needs_hcl2
def test_a_tf_file_without_a_training_job_is_skipped_as_terraform(cli, tmp_path):
    path = tmp_path / "variables.tf"
    path.write_text('variable "bucket" {\n  type = string\n}\n')
    result = cli("validate", "--verbose", str(path))
    assert result.returncode == 0 and "Terraform" in result.stderr and "skipped" in result.stderr


@needs_hcl2
@pytest.mark.parametrize("text, line", [
    ('resource "aws_sagemaker_training_job" "t" {\n  debug_hook_config {\n    s3_output_path = \n  }\n}\n', 3),
    ('resource "aws_sagemaker_training_job" "t" {\n  debug_hook_config {\n', 3),
    ("locals {\n  x = " + "[" * 300 + "]" * 300 + "\n}\n", 2),  # nested past the guard: refused before parsing
])
def test_a_file_that_is_no_hcl_is_one_positioned_line(cli, tmp_path, text, line):
    path = tmp_path / "main.tf"
    path.write_text(text)
    result = cli("validate", str(path))
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"main.tf:{line}:" in result.stderr


def test_without_python_hcl2_the_error_names_the_extra(cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "hcl2", None)  # an import of it raises ImportError
    result = cli("validate", TWIN + ".tf")
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"'{hcl.EXTRA}' extra" in result.stderr and "python-hcl2" in result.stderr
    assert cli("validate", TWIN + ".tf.json").returncode == 1  # Terraform JSON needs no extra


@needs_hcl2
def test_expressions_are_run_time_values_and_jsonencode_is_its_argument():
    found = hcl.read_hcl_text(
        'resource "aws_sagemaker_training_job" "t" {\n'
        '  debug_hook_config {\n'
        '    s3_output_path  = var.bucket\n'
        '    hook_parameters = { save_interval = local.every, "include.regex" = "a\\\\.b" }\n'
        '  }\n'
        '  profiler_config {\n'
        '    profiling_interval_in_milliseconds = 10 * 50\n'
        '    disable_profiler                   = false\n'
        '  }\n'
        '}\n'
        'resource "aws_sagemaker_pipeline" "p" {\n'
        '  pipeline_definition = jsonencode({ Steps = [{ Type = "Training", Arguments = {} }] })\n'
        '}\n', "main.tf")
    job = found.document["resource"]["aws_sagemaker_training_job"]["t"]
    assert job["debug_hook_config"] == [{"s3_output_path": "${var.bucket}",
                                         "hook_parameters": {"save_interval": "${local.every}",
                                                             "include.regex": "a\\.b"}}]
    assert job["profiler_config"] == [{"profiling_interval_in_milliseconds": "${10 * 50}", "disable_profiler": False}]
    definition = found.document["resource"]["aws_sagemaker_pipeline"]["p"]["pipeline_definition"]
    assert definition == {"Steps": [{"Type": "Training", "Arguments": {}}]}
    step = ("resource", "aws_sagemaker_pipeline", "p", "pipeline_definition", "Steps", 0)
    assert found.locate(step) == (12, len('  pipeline_definition = jsonencode({ Steps = [{'))  # the step's brace


def test_render_into_a_tf_file_is_refused_with_the_way_to_do_it(cli):
    example = os.path.join("examples", "tensorflow-builtin-rules.yaml")
    result = cli("render", example, "--output-path", "s3://b/o/", "--into", TWIN + ".tf",
                 "--at", "/resource/aws_sagemaker_training_job/train")
    assert result.returncode == 2 and result.stdout == "" and "--format terraform" in result.stderr


def test_pipeline_resources_of_terraform_json_and_plans():
    """aws_sagemaker_pipeline's definition: a JSON string is read (also from a plan), an expression is not."""
    from sm_debug_config.documents import requests

    definition = json.dumps({"Steps": [{"Name": "Train", "Type": "Training", "Arguments": {
        "DebugHookConfig": {"S3OutputPath": "s3://${var.bucket}/d"}}}]})
    configuration = {"resource": {"aws_sagemaker_pipeline": {
        "p": {"pipeline_definition": definition},
        "from_file": {"pipeline_definition": '${file("definition.json")}'}}}}
    (found,) = requests(configuration)
    assert found.label == "aws_sagemaker_pipeline.p, step Train" and found.embedded is not None
    assert found.request["DebugHookConfig"]["S3OutputPath"] == {"Terraform": "s3://${var.bucket}/d"}
    plan = {"format_version": "1.2", "resource_changes": [{
        "address": "aws_sagemaker_pipeline.p", "type": "aws_sagemaker_pipeline", "mode": "managed",
        "change": {"actions": ["create"], "after": {"pipeline_definition": definition}, "after_unknown": {}}}]}
    (found,) = requests(plan)
    assert found.base == ("resource_changes", 0, "change", "after", "pipeline_definition", "Steps", 0, "Arguments")


BODY = ('{"Steps": [{"Name": "T", "Type": "Training", "Arguments": {\n'
        '  "DebugHookConfig": {"S3OutputPath": "s3://b/d",\n    "HookParameters": {"save_interval": "0"}}}}]}')


@needs_hcl2
@pytest.mark.parametrize("written", [
    "<<EOF\n" + BODY + "\nEOF",
    "<<-EOT\n" + "".join("    " + line + "\n" for line in BODY.splitlines()) + "  EOT",  # indented, trimmed
    json.dumps(BODY),  # a quoted string, with \\" and \\n escapes
])
def test_a_definition_written_as_a_string_is_placed_inside_it(cli, tmp_path, written):
    text = f'resource "aws_sagemaker_pipeline" "p" {{\n  pipeline_definition = {written}\n}}\n'
    (tmp_path / "main.tf").write_text(text)
    _, out = _validate(cli, str(tmp_path / "main.tf"))
    (finding,) = out["files"][0]["findings"]
    line = text.splitlines()[finding["line"] - 1]
    assert finding["code"] == "SMD132" and line[finding["column"] - 1:].lstrip("\\").startswith('"save_interval')


def test_terraform_state_is_read_as_a_plan_s_planned_values(cli, tmp_path):
    """``terraform show -json`` of the state: ``values.root_module``, as in a plan's ``planned_values``."""
    plan = json.loads((Path(TESTS) / "data" / "documents" / "terraform-plan.json").read_text())
    state = {"format_version": plan["format_version"], "terraform_version": "1.9.8",
             "values": plan["planned_values"]}
    (tmp_path / "state.json").write_text(json.dumps(state, indent=2))
    code, out = _validate(cli, str(tmp_path / "state.json"))
    findings = out["files"][0]["findings"]
    assert code == 1 and "SMD132" in {f["code"] for f in findings}
    assert all(f["path"].startswith("/values/root_module/") and f["line"] for f in findings)
