"""Orchestration documents (``sm_debug_config.documents``): each kind read, its seeded mistake found at its line
end to end through ``validate``, run-time values never errors, ``--kind``, and ``render --into DOC --at POINTER``.

The documents are in ``tests/data/documents/`` (their README cites the public example each imitates).
"""
from __future__ import annotations

import json
import os
import re
from typing import List, Tuple

import pytest

from sm_debug_config.configfile import read_document
from sm_debug_config.configfile.jsonparse import JsonText
from sm_debug_config.documents import KINDS, Located, checking, detect_kind, merge_at, requests
from sm_debug_config.documents.base import Embedded
from sm_debug_config.documents.checks import position
from sm_debug_config.documents import cloudformation, pipeline, stepfunctions
from sm_debug_config.validation import validate
from sm_debug_config.apischema import is_pipeline_expression

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(TESTS, "data", "documents")
EXAMPLE = os.path.join(TESTS, "..", "examples", "tensorflow-builtin-rules.yaml")


def _path(name: str) -> str:
    return os.path.join("tests", "data", "documents", name)


def _line_of(name: str, marker: str, nth: int = 0) -> int:
    """The 1-based line of the ``nth`` line of the file holding ``marker``."""
    with open(os.path.join(DOCS, name), encoding="utf-8") as f:
        return [number for number, line in enumerate(f, 1) if marker in line][nth]


def _findings(out: str) -> List[Tuple[str, int, str, str, str]]:
    """``(file, line, severity, code, pointer)`` of each finding line of validate's text output."""
    rows = []
    for line in out.splitlines():
        m = re.match(r"(?P<file>[^:]+):(?P<line>\d+):\d+: (?P<sev>\w+) (?P<code>SMD\d+) (?:\[\*\] )?(?P<ptr>\S+):",
                     line)
        if m:
            rows.append((m["file"], int(m["line"]), m["sev"], m["code"], m["ptr"]))
    return rows


HOOK = "DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval"
TF_HOOK = "collection_configurations/0/collection_parameters/save_interval"

# name, kind, marker of the seeded mistake's line, the end of its pointer
SEEDED = [
    ("stepfunctions-nested.asl.json", "stepfunctions", '"save_interval": "0"',
     "/ItemProcessor/States/Train/Parameters/" + HOOK),
    ("stepfunctions-jsonata.asl.yaml", "stepfunctions", 'save_interval: "0"',
     "/States/Train/Arguments/DebugHookConfig/HookParameters/save_interval"),
    ("pipeline-definition.json", "pipeline", '"save_interval": "0"',
     "/Steps/0/Arguments/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval"),
    ("cloudformation-pipeline.yaml", "cloudformation", '"save_interval": "0"',
     "/PipelineDefinitionBody/Steps/0/Arguments/" + HOOK),
    ("cloudformation-pipeline-object.json", "cloudformation", '"save_interval": "0"',
     "/PipelineDefinitionBody/Steps/0/Arguments/" + HOOK),
    ("cloudformation-pipeline-string.json", "cloudformation", '\\"save_interval\\": \\"0\\"',
     "/StringPipeline/Properties/PipelineDefinition/PipelineDefinitionBody/Steps/0/Arguments/" + HOOK),
    ("cloudformation-statemachine.yaml", "cloudformation", '"save_interval": "0"',
     "/DefinitionString/States/Train/Parameters/DebugHookConfig/HookParameters/save_interval"),
    ("terraform-training.tf.json", "terraform", '"save_interval": "0"',
     "/resource/aws_sagemaker_training_job/train/debug_hook_config/" + TF_HOOK),
    ("terraform-plan.json", "terraform", '"save_interval": "0"',
     "/resource_changes/0/change/after/debug_hook_config/0/" + TF_HOOK),
]


@pytest.mark.parametrize("name, kind, marker, pointer", SEEDED, ids=[s[0] for s in SEEDED])
def test_each_kind_finds_its_seeded_mistake_at_its_line(cli, name, kind, marker, pointer):
    result = cli("validate", _path(name))
    errors = [row for row in _findings(result.stdout) if row[3] == "SMD132"]
    assert result.returncode == 1, result.stdout + result.stderr
    nth = 1 if name == "terraform-plan.json" else 0  # the plan's resource_changes come after planned_values
    assert errors and errors[0][1] == _line_of(name, marker, nth), result.stdout
    assert errors[0][4].endswith(pointer), errors
    assert detect_kind(read_document(os.path.join(DOCS, name), tags=cloudformation.YAML_TAGS)[0]) == kind


def test_the_template_reads_both_resources_and_the_training_job_at_its_key(cli):
    result = cli("validate", _path("cloudformation-pipeline.yaml"))
    rows = [row for row in _findings(result.stdout) if row[3] == "SMD132"]
    assert [row[1] for row in rows] == [_line_of("cloudformation-pipeline.yaml", '"save_interval": "0"'),
                                        _line_of("cloudformation-pipeline.yaml", 'save_interval: "0"')]
    assert "(resource LegacyJob)" in result.stdout and "(resource TrainPipeline, step Train)" in result.stdout


def test_condition_branches_of_a_pipeline_are_read(cli):
    result = cli("validate", _path("pipeline-definition.json"))
    branch = [row for row in _findings(result.stdout) if row[3] == "SMD133"]
    assert branch and branch[0][4].startswith("/Steps/1/Arguments/IfSteps/0/Arguments/DebugHookConfig"), result.stdout
    assert branch[0][1] == _line_of("pipeline-definition.json", '"save_interval": "-5"')


@pytest.mark.parametrize("name", [s[0] for s in SEEDED])
def test_run_time_values_are_never_errors(name):
    document = read_document(os.path.join(DOCS, name), tags=cloudformation.YAML_TAGS)[0]
    found = list(requests(document))
    assert found
    for located in found:
        with checking(detect_kind(document)):
            errors = [f for f in validate(located.request, region="us-east-1") if f.severity == "error"]
        assert {f.code for f in errors} <= {"SMD132"}, (located.label, errors)


def test_each_kinds_run_time_values_are_what_validation_skips():
    machine = {"StartAt": "T", "States": {"T": {"Type": "Task", "End": True,
               "Resource": "arn:aws-cn:states:::sagemaker:createTrainingJob",
               "Parameters": {"DebugHookConfig": {"S3OutputPath.$": "$.out",
                                                  "LocalPath": "{% $states.input.local %}"}}}}}
    (found,) = requests(machine)
    hook = found.request["DebugHookConfig"]
    assert not any(is_pipeline_expression(value) for value in hook.values())  # outside a state machine: plain values
    assert {f.severity for f in validate(found.request, region="cn-north-1")} == {"error"}
    with checking("stepfunctions"):
        assert all(is_pipeline_expression(value) for value in hook.values())
        assert {f.severity for f in validate(found.request, region="cn-north-1")} == {"info"}
    assert found.document_path(("DebugHookConfig", "S3OutputPath"))[-2:] == ("DebugHookConfig", "S3OutputPath.$")


def test_other_task_resources_and_hpt_are_not_training_jobs():
    def task(resource: str) -> bool:
        return stepfunctions.is_training_task({"Type": "Task", "Resource": resource})

    assert not task("arn:aws:states:::sagemaker:createTransformJob.sync")
    assert not task("arn:aws:states:::sagemaker:createTrainingJob.waitForTaskToken")
    assert task("arn:aws-us-gov:states:::sagemaker:createTrainingJob.sync")


def test_pipeline_training_steps_reads_a_create_pipeline_string():
    with open(os.path.join(DOCS, "pipeline-definition.json"), encoding="utf-8") as f:
        text = f.read()
    paths = [path for path, _ in pipeline.training_steps(text)]
    assert paths == [("Steps", 0, "Arguments"), ("Steps", 1, "Arguments", "IfSteps", 0, "Arguments")]
    assert list(pipeline.training_steps("not json")) == []


def test_yaml_tags_are_cloudformation_only(cli, tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("region: !Ref Region\n")
    result = cli("validate", str(config))
    assert result.returncode == 2 and "YAML tag" in result.stderr
    template = tmp_path / "t.yaml"
    template.write_text("Resources:\n  J:\n    Type: AWS::SageMaker::TrainingJob\n    Properties:\n"
                        "      DebugHookConfig:\n        S3OutputPath: !Sub 's3://${B}/d'\n")
    assert cli("validate", str(template)).returncode == 0


def test_kind_forcing(cli, tmp_path):
    body = tmp_path / "body.json"  # a pipeline definition without a Version: not recognised on its own
    body.write_text(json.dumps({"Steps": [{"Name": "T", "Type": "Training", "Arguments": {
        "DebugHookConfig": {"S3OutputPath": "s3://b/d", "HookParameters": {"save_interval": "0"}}}}], "Metadata": {}}))
    assert cli("validate", str(body)).returncode == 1  # steps with Type and Arguments: detected
    forced = cli("validate", "--kind", "pipeline", str(body))
    assert forced.returncode == 1 and "/Steps/0/Arguments/DebugHookConfig/HookParameters/save_interval" in forced.stdout
    as_request = cli("validate", "--kind", "request", str(body))
    assert as_request.returncode == 0, as_request.stdout  # read as a request, it has no Debugger field
    nothing = cli("validate", "--kind", "stepfunctions", "--verbose", str(body))
    assert nothing.returncode == 0 and "skipped" in nothing.stderr


def test_unknown_kind_is_a_usage_error(cli):
    result = cli("validate", "--kind", "ansible", _path("pipeline-definition.json"))
    assert result.returncode == 2 and "--kind" in result.stderr


def test_kinds_table_covers_the_cli_choices():
    from sm_debug_config.cli.common import DOCUMENT_KINDS

    from sm_debug_config.sources import SOURCES

    assert set(KINDS) <= set(SOURCES)
    assert DOCUMENT_KINDS[1:] == tuple(sorted(SOURCES, key=list(DOCUMENT_KINDS).index))  # every source, no other


# --- render --into DOC --at POINTER ------------------------------------------------------------------


@pytest.mark.parametrize("name, at", [
    ("stepfunctions-jsonata.asl.yaml", "/States/Train/Arguments"),
    ("cloudformation-pipeline.yaml", "/Resources/LegacyJob/Properties"),
    ("terraform-training.tf.json", "/resource/aws_sagemaker_training_job/train"),
    ("pipeline-definition.json", "/Steps/0/Arguments"),
])
def test_render_into_a_document_at_a_pointer(cli, tmp_path, name, at):
    result = cli("render", EXAMPLE, "--output-path", "s3://bucket/out/", "--into", _path(name), "--at", at)
    assert result.returncode == 2 and "--replace" in result.stderr  # each already has a hook
    result = cli("render", EXAMPLE, "--output-path", "s3://bucket/out/", "--into", _path(name), "--at", at, "--replace")
    assert result.returncode == 0, result.stderr
    merged = tmp_path / ("merged" + (".json" if name.endswith(".json") else ".yaml"))
    merged.write_text(result.stdout)
    checked = cli("validate", str(merged))
    assert checked.returncode in (0, 1), checked.stdout + checked.stderr  # other requests may keep their seeded mistake
    assert not [row for row in _findings(checked.stdout) if row[3] == "SMD132" and row[4].startswith(at + "/")]
    assert "gradients" in json.dumps(read_document(str(merged), tags=cloudformation.YAML_TAGS)[0])


def test_render_at_needs_into_and_an_object(cli):
    assert cli("render", EXAMPLE, "--output-path", "s3://b/o/", "--at", "/States").returncode == 2
    into = _path("pipeline-definition.json")
    result = cli("render", EXAMPLE, "--output-path", "s3://b/o/", "--into", into, "--at", "/Version")
    assert result.returncode == 2 and "not an object" in result.stderr


def test_merge_at_the_root_and_a_bad_pointer():
    fields = {"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/t"}}
    assert merge_at({}, "", fields) == fields
    with pytest.raises(ValueError):
        merge_at({}, "States", {})


def test_a_request_in_a_string_is_placed_in_it_else_at_the_string():
    text = JsonText('{"Steps": [{"Arguments": {"DebugHookConfig": {}}}]}')
    found = Located(("Resources", "P", "Body", "Steps", 0, "Arguments"), {}, "step",
                    embedded=Embedded(("Resources", "P", "Body"), text, ("Steps", 0, "Arguments")))
    assert found.document_path(("DebugHookConfig",))[-2:] == ("Arguments", "DebugHookConfig")
    assert found.embedded.index(("DebugHookConfig", "S3OutputPath")) == text.text.index('"DebugHookConfig"')
    # a locator that cannot place the string's characters: the string's own place
    assert position(found, ("DebugHookConfig",), lambda path: (3, 5) if path == ("Resources", "P", "Body") else None) \
        == (3, 5)


# --- explain ---------------------------------------------------------------------------------------------


def test_explain_reads_each_request_of_a_document(cli, tmp_path):
    rendered = cli("render", EXAMPLE, "--output-path", "s3://bucket/out/", "--format", "stepfunctions")
    machine = tmp_path / "machine.asl.json"
    machine.write_text(json.dumps({"StartAt": "Train", "States": {"Train": json.loads(rendered.stdout)}}))
    result = cli("explain", str(machine), "--format", "json")
    assert result.returncode == 0, result.stderr
    (report,) = json.loads(result.stdout)
    assert report["request"] == "/States/Train/Parameters" and report["label"] == "state Train"
    assert "gradients" in json.dumps(report["explanation"])
    assert cli("explain", str(machine)).stdout.startswith("== state Train (/States/Train/Parameters)")


def test_explain_of_a_refused_value_reports_validates_error_at_the_value(cli):
    result = cli("explain", _path("stepfunctions-nested.asl.json"))
    line = _line_of("stepfunctions-nested.asl.json", '"save_interval": "0"')
    assert result.returncode == 1 and "Not explained" in result.stdout
    assert ("tests/data/documents/stepfunctions-nested.asl.json", line, "error", "SMD132") in {
        row[:4] for row in _findings(result.stderr)}, result.stderr


def test_explain_kind_config_reads_a_config_file(cli):
    assert cli("explain", "--kind", "config", EXAMPLE, "--output-path", "s3://b/o/").returncode == 0
    assert cli("explain", "--kind", "request", EXAMPLE).returncode == 2


def test_a_plain_request_keeps_document_values_an_error():
    request = {"DebugHookConfig": {"S3OutputPath": {"Ref": "Bucket"}}}
    assert [f.severity for f in validate(request)] == ["error"]
    with checking("cloudformation"):
        assert [f.code for f in validate(request)] == ["SMD001"]
    assert [f.severity for f in validate(request)] == ["error"]
