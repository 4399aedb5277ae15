"""Findings placed at the value they are about, inside JSON text that a template holds in a string (a pipeline
body, a state machine's DefinitionString), however the string is written (config files:
``tests/configfile/test_config_positions.py``).

Each expected place is computed from the file's text: the line holding the key and the column where the key's
text starts there (for a JSON string's escaped quote, its backslash).
"""
from __future__ import annotations

import json
import os
import re

import pytest

from tests.placehelpers import place_of, places

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(TESTS, "data", "documents")

# The pipeline body as users write it in a template: ${...} substitutions, one before the key on its line.
BODY_LINES = [
    "{",
    '  "Version": "2020-12-01",',
    '  "Steps": [{"Name": "Train", "Type": "Training", "Arguments": {',
    '    "RoleArn": "arn:aws:iam::${AWS::AccountId}:role/Train",',
    '    "ResourceConfig": {"InstanceType": "ml.m5.xlarge", "InstanceCount": ${Count}, "VolumeSizeInGB": 30},',
    '    "DebugHookConfig": {"S3OutputPath": "s3://${Bucket}/debug", "HookParameters": {"save_interval": "0"}}',
    "  }}]",
    "}",
]
KEY = '"save_interval"'


def _template(body_property: str) -> str:
    return (
        'AWSTemplateFormatVersion: "2010-09-09"\n'
        "Parameters:\n  Bucket: {Type: String}\n  Count: {Type: Number}\n"
        "Resources:\n  Pipe:\n    Type: AWS::SageMaker::Pipeline\n    Properties:\n      PipelineName: p\n"
        "      RoleArn: arn:aws:iam::123456789012:role/r\n      PipelineDefinition:\n"
        + body_property
    )


def _block(header: str, indent: int = 10) -> str:
    return header + "\n" + "".join(" " * indent + line + "\n" for line in BODY_LINES)


# name: the PipelineDefinitionBody property as written (YAML)
YAML_BODIES = {
    "!Sub |": _block("        PipelineDefinitionBody: !Sub |"),
    "!Sub |-": _block("        PipelineDefinitionBody: !Sub |-"),
    "!Sub |+ and trailing blank lines": _block("        PipelineDefinitionBody: !Sub |+") + "\n\n",
    "!Sub | with a comment on the header": _block("        PipelineDefinitionBody: !Sub |  # the pipeline"),
    "!Sub |2 (indentation indicator)": _block("        PipelineDefinitionBody: !Sub |2"),
    "!Sub > (folded)": _block("        PipelineDefinitionBody: !Sub >"),
    "!Sub >-": _block("        PipelineDefinitionBody: !Sub >-"),
    "Fn::Sub: | (long form)": "        PipelineDefinitionBody:\n" + _block("          Fn::Sub: |", 12),
    "Fn::Sub: [body, variables]": "        PipelineDefinitionBody:\n          Fn::Sub:\n"
                                  + _block("            - |", 14) + "            - Bucket: !Ref Bucket\n",
    "!Sub with a list": "        PipelineDefinitionBody: !Sub\n" + _block("          - |", 12)
                        + "          - {Bucket: !Ref Bucket}\n",
    "!Sub on its own line": "        PipelineDefinitionBody: !Sub\n" + _block("          |", 12),
    "a single-quoted line": "        PipelineDefinitionBody: !Sub '" + "".join(BODY_LINES) + "'\n",
    "a double-quoted string, escapes and folding": "        PipelineDefinitionBody: !Sub \"{\\\n"
        + "".join("          " + line.replace('"', '\\"') + "\n" for line in BODY_LINES[1:-1]) + '          }"\n',
}


@pytest.mark.parametrize("name", list(YAML_BODIES))
def test_a_finding_in_a_yaml_pipeline_body_is_at_its_key(cli, tmp_path, name):
    text = _template(YAML_BODIES[name])
    template = tmp_path / "template.yaml"
    template.write_text(text)
    result = cli("validate", str(template))
    written = KEY.replace('"', '\\"') if "double-quoted" in name else KEY
    assert places(result.stdout, "SMD132") == [place_of(text, written)], text + result.stdout


def test_crlf_line_ends_keep_the_place(cli, tmp_path):
    text = _template(YAML_BODIES["!Sub |"]).replace("\n", "\r\n")
    template = tmp_path / "template.yaml"
    template.write_bytes(text.encode())
    assert places(cli("validate", str(template)).stdout, "SMD132") == [place_of(text.replace("\r", ""), KEY)]


def test_a_body_without_sub_is_placed_too(cli, tmp_path):
    body = [re.sub(r"\$\{[^}]*\}", "x", line).replace(": x,", ": 1,") for line in BODY_LINES]
    text = _template("        PipelineDefinitionBody: |\n" + "".join(" " * 10 + line + "\n" for line in body))
    template = tmp_path / "template.yaml"
    template.write_text(text)
    assert places(cli("validate", str(template)).stdout, "SMD132") == [place_of(text, KEY)]


def test_an_unquoted_substitution_leaves_the_body_read_and_a_run_time_value(cli, tmp_path):
    """``"InstanceCount": ${Count}`` is JSON only once substituted: read all the same, the count unknown."""
    text = _template(YAML_BODIES["!Sub |"])
    template = tmp_path / "template.yaml"
    template.write_text(text)
    out = cli("validate", "--format", "json", str(template)).stdout
    findings = json.loads(out)["files"][0]["findings"]
    assert [(f["line"], f["column"]) for f in findings if f["code"] == "SMD132"] == [place_of(text, KEY)]
    assert not [f for f in findings if "InstanceCount" in f["path"] and f["severity"] == "error"]


# name: a JSON template's PipelineDefinitionBody, and the key as written in the file
def _json_template(body: object) -> str:
    return json.dumps({"AWSTemplateFormatVersion": "2010-09-09", "Resources": {"Pipe": {
        "Type": "AWS::SageMaker::Pipeline", "Properties": {"PipelineName": "p", "RoleArn": "r",
                                                           "PipelineDefinition": {"PipelineDefinitionBody": body}}}}},
                      indent=2)


BODY_TEXT = "\n".join(BODY_LINES).replace("${Count}", "1")
JSON_BODIES = {
    "a string (the schema's form)": _json_template(BODY_TEXT),
    "Fn::Sub": _json_template({"Fn::Sub": BODY_TEXT}),
    "Fn::Sub [body, variables]": _json_template({"Fn::Sub": [BODY_TEXT, {"Bucket": {"Ref": "Bucket"}}]}),
    "a string with non-ASCII escapes": _json_template(BODY_TEXT.replace('"Train"', '"Tr\u00e4in \U0001F600"')),
}


@pytest.mark.parametrize("name", list(JSON_BODIES))
def test_a_finding_in_a_json_string_body_is_at_its_escaped_key(cli, tmp_path, name):
    text = JSON_BODIES[name]
    template = tmp_path / "template.json"
    template.write_text(text)
    result = cli("validate", str(template))
    assert places(result.stdout, "SMD132") == [place_of(text, '\\"save_interval\\"')], result.stdout


# --- the fixtures: each finding at its key -------------------------------------------------------------


def _fixture(name: str) -> str:
    with open(os.path.join(DOCS, name), encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("name, key, nth", [
    ("cloudformation-pipeline.yaml", KEY, 0),  # the !Sub | body
    ("cloudformation-pipeline.yaml", "save_interval:", 0),  # the TrainingJob resource's own YAML
    ("cloudformation-statemachine.yaml", KEY, 0),
    ("cloudformation-pipeline-string.json", '\\"save_interval\\"', 0),  # a string
    ("cloudformation-pipeline-string.json", '\\"save_interval\\"', 1),  # an Fn::Sub [body, variables]
])
def test_each_fixtures_seeded_mistake_is_at_its_key(cli, name, key, nth):
    result = cli("validate", os.path.join("tests", "data", "documents", name))
    assert place_of(_fixture(name), key, nth) in places(result.stdout, "SMD132"), result.stdout


def test_a_run_time_value_in_a_body_is_at_its_key(cli):
    result = cli("validate", os.path.join("tests", "data", "documents", "cloudformation-statemachine.yaml"))
    text = _fixture("cloudformation-statemachine.yaml")
    assert places(result.stdout, "SMD001") == [  # the image too: whether it runs the hook is not known
        place_of(text, '"TrainingImage": "${!Image}"'), place_of(text, '"S3OutputPath": "s3://${Bucket}/debug"')]


# --- state machines in templates --------------------------------------------------------------------------

MACHINE = {"StartAt": "Train", "States": {"Train": {
    "Type": "Task", "End": True, "Resource": "arn:${AWS::Partition}:states:::sagemaker:createTrainingJob.sync",
    "Parameters": {"TrainingJobName.$": "$.name",
                   "DebugHookConfig": {"S3OutputPath": "s3://${Bucket}/d", "HookParameters": {"save_interval": "0"}}}}}}


def test_a_state_machines_definition_string_is_read_and_placed(cli, tmp_path):
    text = json.dumps({"Resources": {"M": {"Type": "AWS::StepFunctions::StateMachine", "Properties": {
        "RoleArn": "r", "DefinitionString": {"Fn::Sub": json.dumps(MACHINE, indent=1)}}}}}, indent=1)
    template = tmp_path / "template.json"
    template.write_text(text)
    result = cli("validate", str(template))
    assert places(result.stdout, "SMD132") == [place_of(text, '\\"save_interval\\"')], result.stdout
    assert "(resource M, state Train)" in result.stdout
    assert places(result.stdout, "SMD001")  # the S3 path with ${Bucket}: a run-time value, not an error


@pytest.mark.parametrize("kind", ["AWS::StepFunctions::StateMachine", "AWS::Serverless::StateMachine"])
def test_a_state_machines_definition_object_is_read_at_its_keys(cli, tmp_path, kind):
    import yaml

    text = yaml.safe_dump({"Transform": "AWS::Serverless-2016-10-31", "Resources": {"M": {"Type": kind, "Properties": {
        "DefinitionSubstitutions": {"Bucket": "b"}, "Definition": MACHINE}}}}, sort_keys=False)
    template = tmp_path / "template.yaml"
    template.write_text(text)
    result = cli("validate", str(template))
    assert places(result.stdout, "SMD132") == [place_of(text, "save_interval:")], result.stdout
    assert not [line for line in result.stdout.splitlines() if " error " in line and "SMD132" not in line]


def test_a_definition_elsewhere_holds_no_request(cli, tmp_path):
    template = tmp_path / "template.yaml"
    template.write_text("Resources:\n  M:\n    Type: AWS::StepFunctions::StateMachine\n    Properties:\n"
                        "      DefinitionS3Location: {Bucket: b, Key: k}\n")
    result = cli("validate", "--verbose", str(template))
    assert result.returncode == 0 and "no CreateTrainingJob request" in result.stderr
