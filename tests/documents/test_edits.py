"""A fix's change to a request of an orchestration document, placed as edits of the document's text
(:mod:`sm_debug_config.documents.edits`): per document kind and change kind, the edited text byte for byte; the
edited text read again holds the request :meth:`Fix.apply` gives; comments, indentation and line endings kept;
a ``set`` over a run-time value not placed. The end-to-end cases check real findings (SMD100, SMD120) of files as
users write them: their fixes' edits give the good file byte for byte.
"""
from __future__ import annotations

import os
from typing import Any, List, Optional

import pytest

from sm_debug_config import sources
from sm_debug_config.cli.files import read
from sm_debug_config.documents import hcl
from sm_debug_config.engine import check
from sm_debug_config.fixes import PREFIX, REMOVE, RENAME, SAFE, SET, Change, Fix, apply_edits

needs_hcl2 = pytest.mark.skipif(not hcl.has_hcl2(), reason="python-hcl2 is not installed (the 'terraform' extra)")

RULE = ("DebugRuleConfigurations", 0, "RuleParameters")


def _write(tmp_path: Any, name: str, text: str) -> str:
    path = os.path.join(str(tmp_path), name)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    return path


def _jobs(path: str) -> List[Any]:
    found = read(path, "auto")
    source = sources.detect(found.document)
    assert source is not None
    return list(source.jobs(found, {}))


def _edited(tmp_path: Any, name: str, text: str, change: Change, job: int = 0) -> Optional[str]:
    """``text`` (a file named ``name``) with ``change`` to its ``job``-th request made as edits; None when the
    source could not place it. Made, the text read again holds the request the fix gives (but for a value of the
    document's own syntax the request reads differently: checked by the caller)."""
    path = _write(tmp_path, name, text)
    jobs = _jobs(path)
    edits = jobs[job].edit(change, None)
    if edits is None:
        return None
    new, count = apply_edits(text, [edits])
    assert count == 1
    return new


def _rereads_as_fixed(tmp_path: Any, name: str, text: str, new: str, change: Change, job: int = 0) -> None:
    before = _jobs(_write(tmp_path, "before-" + name, text))[job].request
    after = _jobs(_write(tmp_path, "after-" + name, new))[job].request
    assert after == Fix(SAFE, "t", (change,)).apply(before)


STATE_MACHINE_JSON = """{
  "StartAt": "Train",
  "States": {
    "Train": {
      "Type": "Task",
      "Resource": "arn:aws:states:::sagemaker:createTrainingJob.sync",
      "Parameters": {
        "TrainingJobName.$": "$.name",
        "DebugHookConfig": {"S3OutputPath": "bucket/debug", "LocalPath.$": "$.local"},
        "DebugRuleConfigurations": [
          {
            "RuleConfigurationName": "loss",
            "RuleEvaluatorImage": "img",
            "RuleParameters": {
              "num_steps": 20,
              "diff_percnt": "0.1"
            }
          }
        ]
      },
      "End": true
    }
  }
}
"""

STATE_MACHINE_YAML = """# a state machine
StartAt: Train
States:
  Train:
    Type: Task
    Resource: arn:aws:states:::sagemaker:createTrainingJob.sync
    Parameters:
      TrainingJobName.$: $.name   # from the input
      DebugHookConfig:
        S3OutputPath: 'bucket/debug'
        LocalPath.$: $.local
      DebugRuleConfigurations:
        - RuleConfigurationName: loss
          RuleEvaluatorImage: img
          RuleParameters:
            num_steps: 20   # twenty
            diff_percnt: "0.1"
    End: true
""".replace("\n", "\r\n")

PIPELINE_JSON = """{"Version": "2020-12-01", "Steps": [{"Name": "Train", "Type": "Training", "Arguments": {
  "DebugHookConfig": {"S3OutputPath": "bucket/debug"},
  "DebugRuleConfigurations": [{"RuleConfigurationName": "loss", "RuleEvaluatorImage": "img",
                               "RuleParameters": {"num_steps": 20, "diff_percnt": "0.1"}}]
}}]}
"""


@pytest.mark.parametrize("name, text, change, old, new", [
    ("sm.json", STATE_MACHINE_JSON, Change(SET, RULE + ("num_steps",), "20"), '"num_steps": 20,', '"num_steps": "20",'),
    ("sm.json", STATE_MACHINE_JSON, Change(RENAME, RULE + ("diff_percnt",), "diff_percent"), '"diff_percnt"',
     '"diff_percent"'),
    ("sm.json", STATE_MACHINE_JSON, Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"), '"bucket/debug"',
     '"s3://bucket/debug"'),
    ("sm.json", STATE_MACHINE_JSON, Change(REMOVE, RULE + ("diff_percnt",), None),
     '"num_steps": 20,\n              "diff_percnt": "0.1"', '"num_steps": 20'),
    ("sm.json", STATE_MACHINE_JSON, Change(REMOVE, RULE + ("num_steps",), None),
     '"num_steps": 20,\n              "diff_percnt"', '"diff_percnt"'),
    ("sm.json", STATE_MACHINE_JSON, Change(SET, RULE + ("mode",), "TRAIN"),
     '"diff_percnt": "0.1"\n', '"diff_percnt": "0.1",\n              "mode": "TRAIN"\n'),
    ("sm.yaml", STATE_MACHINE_YAML, Change(SET, RULE + ("num_steps",), "20"), "num_steps: 20   # twenty",
     'num_steps: "20"   # twenty'),
    ("sm.yaml", STATE_MACHINE_YAML, Change(RENAME, RULE + ("diff_percnt",), "diff_percent"), "diff_percnt:",
     "diff_percent:"),
    ("sm.yaml", STATE_MACHINE_YAML, Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"), "'bucket/debug'",
     "'s3://bucket/debug'"),
    ("sm.yaml", STATE_MACHINE_YAML, Change(REMOVE, RULE + ("num_steps",), None),
     "            num_steps: 20   # twenty\r\n", ""),
    ("sm.yaml", STATE_MACHINE_YAML, Change(SET, RULE + ("mode",), "TRAIN"), 'diff_percnt: "0.1"\r\n',
     'diff_percnt: "0.1"\r\n            mode: TRAIN\r\n'),
    ("sm.yaml", STATE_MACHINE_YAML, Change(RENAME, ("DebugHookConfig", "LocalPath"), "Local"), "LocalPath.$:",
     "Local.$:"),
    ("pipe.json", PIPELINE_JSON, Change(SET, RULE + ("num_steps",), "20"), '"num_steps": 20,', '"num_steps": "20",'),
    ("pipe.json", PIPELINE_JSON, Change(REMOVE, RULE + ("diff_percnt",), None), ', "diff_percnt": "0.1"', ""),
    ("pipe.json", PIPELINE_JSON, Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"), '"bucket/debug"',
     '"s3://bucket/debug"'),
])
def test_a_change_to_a_state_machine_or_pipeline_is_an_edit_at_its_span(tmp_path, name, text, change, old, new):
    assert text.count(old) == 1
    expected = text.replace(old, new)
    edited = _edited(tmp_path, name, text, change)
    assert edited == expected
    if not (change.kind == RENAME and change.path[-1] == "LocalPath"):
        _rereads_as_fixed(tmp_path, name, text, edited, change)


def test_a_set_over_a_run_time_value_is_not_placed(tmp_path):
    assert _edited(tmp_path, "sm.json", STATE_MACHINE_JSON, Change(SET, ("DebugHookConfig", "LocalPath"), "/x")) \
        is None
    assert _edited(tmp_path, "sm.yaml", STATE_MACHINE_YAML, Change(SET, ("TrainingJobName",), "job")) is None


def test_a_member_the_text_does_not_have_nor_its_parent_is_not_placed(tmp_path):
    assert _edited(tmp_path, "sm.json", STATE_MACHINE_JSON, Change(SET, ("ProfilerConfig", "S3OutputPath"), "s3://b")) \
        is None
    assert _edited(tmp_path, "sm.json", STATE_MACHINE_JSON, Change(REMOVE, RULE + ("absent",), None)) is None


# --- CloudFormation: requests in JSON text inside strings (!Sub, Fn::Sub), with their escaping --------------------

TEMPLATE_JSON = r"""{
  "AWSTemplateFormatVersion": "2010-09-09",
  "Resources": {
    "Machine": {
      "Type": "AWS::StepFunctions::StateMachine",
      "Properties": {
        "DefinitionString": {"Fn::Sub": "{\"StartAt\": \"T\", \"States\": {\"T\": {\"Type\": \"Task\", \"End\": true, \"Resource\": \"arn:${AWS::Partition}:states:::sagemaker:createTrainingJob.sync\", \"Parameters\": {\"DebugHookConfig\": {\"S3OutputPath\": \"${Bucket}/debug\"}, \"DebugRuleConfigurations\": [{\"RuleConfigurationName\": \"loss\", \"RuleEvaluatorImage\": \"img\", \"RuleParameters\": {\"num_steps\": 20, \"diff_percnt\": \"0.1\"}}]}}}}"}
      }
    }
  }
}
"""  # noqa: E501 - a template's DefinitionString is one line, as users write it

TEMPLATE_YAML = """AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  Bucket: {Type: String}
Resources:
  Pipe:
    Type: AWS::SageMaker::Pipeline
    Properties:
      PipelineName: p
      PipelineDefinition:
        # the definition, substituted at deployment
        PipelineDefinitionBody: !Sub |
          {
            "Version": "2020-12-01",
            "Steps": [{"Name": "Train", "Type": "Training", "Arguments": {
              "DebugHookConfig": {"S3OutputPath": "${Bucket}/debug"},
              "DebugRuleConfigurations": [{
                "RuleConfigurationName": "loss", "RuleEvaluatorImage": "img",
                "RuleParameters": {"num_steps": 20, "diff_percnt": "0.1"}
              }]
            }}]
          }
  Job:
    Type: AWS::SageMaker::TrainingJob
    Properties:
      DebugHookConfig:
        S3OutputPath: !Sub "${Bucket}/job"   # substituted
      DebugRuleConfigurations:
        - RuleConfigurationName: loss
          RuleEvaluatorImage: img
          RuleParameters: {num_steps: 20, diff_percnt: "0.1"}
"""


@pytest.mark.parametrize("change, old, new", [
    (Change(SET, RULE + ("num_steps",), "20"), r'\"num_steps\": 20,', r'\"num_steps\": \"20\",'),
    (Change(RENAME, RULE + ("diff_percnt",), "diff_percent"), r'\"diff_percnt\"', r'\"diff_percent\"'),
    (Change(REMOVE, RULE + ("diff_percnt",), None), r', \"diff_percnt\": \"0.1\"', ""),
    (Change(SET, RULE + ("mode",), "${TRAIN}"), r'\"diff_percnt\": \"0.1\"',
     r'\"diff_percnt\": \"0.1\", \"mode\": \"${!TRAIN}\"'),
    (Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"), r'\"${Bucket}/debug\"',
     r'\"s3://${Bucket}/debug\"'),
])
def test_a_change_inside_a_json_template_fn_sub_string_is_written_with_its_escapes(tmp_path, change, old, new):
    assert TEMPLATE_JSON.count(old) == 1
    edited = _edited(tmp_path, "template.json", TEMPLATE_JSON, change)
    assert edited == TEMPLATE_JSON.replace(old, new)
    if change.kind in (SET, RENAME, REMOVE) and change.path[-1] != "mode":
        _rereads_as_fixed(tmp_path, "template.json", TEMPLATE_JSON, edited, change)


@pytest.mark.parametrize("job, change, old, new", [
    (0, Change(SET, RULE + ("num_steps",), "20"), '"num_steps": 20,', '"num_steps": "20",'),
    (0, Change(RENAME, RULE + ("diff_percnt",), "diff_percent"), '"diff_percnt"', '"diff_percent"'),
    (0, Change(REMOVE, RULE + ("num_steps",), None), '"num_steps": 20, ', ""),
    (0, Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"), '"${Bucket}/debug"', '"s3://${Bucket}/debug"'),
    (0, Change(REMOVE, ("DebugHookConfig",), None),
     '\n              "DebugHookConfig": {"S3OutputPath": "${Bucket}/debug"},', ""),
    (0, Change(SET, ("DebugRuleConfigurations", 0, "Extra"), {"a": "b"}),
     '"RuleConfigurationName": "loss", "RuleEvaluatorImage": "img",\n'
     '                "RuleParameters": {"num_steps": 20, "diff_percnt": "0.1"}\n',
     '"RuleConfigurationName": "loss", "RuleEvaluatorImage": "img",\n'
     '                "RuleParameters": {"num_steps": 20, "diff_percnt": "0.1"},\n'
     '                "Extra": {"a": "b"}\n'),
    (1, Change(SET, RULE + ("num_steps",), "20"), "{num_steps: 20,", '{num_steps: "20",'),
    (1, Change(REMOVE, RULE + ("diff_percnt",), None), ', diff_percnt: "0.1"', ""),
    (1, Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"), '!Sub "${Bucket}/job"',
     '!Sub "s3://${Bucket}/job"'),
])
def test_a_change_to_a_yaml_template_keeps_its_block_and_comments(tmp_path, job, change, old, new):
    assert TEMPLATE_YAML.count(old) == 1
    edited = _edited(tmp_path, "template.yaml", TEMPLATE_YAML, change, job)
    assert edited == TEMPLATE_YAML.replace(old, new)
    assert "# the definition, substituted at deployment" in edited and "# substituted" in edited
    if change.kind in (SET, RENAME, REMOVE):
        _rereads_as_fixed(tmp_path, "template.yaml", TEMPLATE_YAML, edited, change, job)


def test_a_set_over_a_substituted_value_is_not_placed(tmp_path):
    change = Change(SET, ("DebugHookConfig", "S3OutputPath"), "s3://b/job")
    assert _edited(tmp_path, "template.yaml", TEMPLATE_YAML, change, 1) is None
    assert _edited(tmp_path, "template.yaml", TEMPLATE_YAML, change, 0) is None


# --- Terraform: HCL and JSON ------------------------------------------------------------------------------------

TERRAFORM_HCL = """# Training with Debugger
resource "aws_sagemaker_training_job" "train" {
  name     = "train-${var.run}"
  role_arn = var.role

  debug_hook_config {
    s3_output_path = "bucket/${var.prefix}/debug" # where tensors go
    local_path     = var.local
  }

  debug_rule_configurations {
    rule_configuration_name = "loss"
    rule_evaluator_image    = "img"
    rule_parameters = {
      num_steps       = 20 # steps
      "diff_percnt"   = "0.1"
    }
  }

  tensor_board_output_config {
    s3_output_path = "s3://bucket/tb"
  }
}

resource "aws_sagemaker_pipeline" "encoded" {
  pipeline_name = "p"
  pipeline_definition = jsonencode({
    Version = "2020-12-01"
    Steps = [{
      Name = "Train"
      Type = "Training"
      Arguments = {
        DebugRuleConfigurations = [{ RuleConfigurationName = "loss", RuleEvaluatorImage = "img",
                                     RuleParameters = { num_steps = 20 } }]
      }
    }]
  })
}

resource "aws_sagemaker_pipeline" "heredoc" {
  pipeline_name       = "q"
  pipeline_definition = <<-EOT
    {
      "Steps": [{"Name": "T", "Type": "Training", "Arguments": {
        "DebugHookConfig": {"S3OutputPath": "bucket/${var.x}"},
        "DebugRuleConfigurations": [{"RuleConfigurationName": "loss", "RuleEvaluatorImage": "img",
                                     "RuleParameters": {"num_steps": 20}}]
      }}]
    }
  EOT
}
"""


@needs_hcl2
@pytest.mark.parametrize("job, change, old, new", [
    (0, Change(SET, RULE + ("num_steps",), "20"), "num_steps       = 20 # steps", 'num_steps       = "20" # steps'),
    (0, Change(RENAME, RULE + ("diff_percnt",), "diff_percent"), '"diff_percnt"   =', '"diff_percent"   ='),
    (0, Change(REMOVE, RULE + ("num_steps",), None), "      num_steps       = 20 # steps\n", ""),
    (0, Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"), '"bucket/${var.prefix}/debug"',
     '"s3://bucket/${var.prefix}/debug"'),
    (0, Change(SET, ("TensorBoardOutputConfig", "LocalPath"), "/opt/ml/${x}/tb"),
     '    s3_output_path = "s3://bucket/tb"\n',
     '    s3_output_path = "s3://bucket/tb"\n    local_path = "/opt/ml/$${x}/tb"\n'),
    (0, Change(SET, RULE + ("mode",), "TRAIN"), '"diff_percnt"   = "0.1"\n',
     '"diff_percnt"   = "0.1"\n      mode = "TRAIN"\n'),
    (1, Change(SET, RULE + ("num_steps",), "20"), "RuleParameters = { num_steps = 20 }",
     'RuleParameters = { num_steps = "20" }'),
    (1, Change(SET, RULE + ("mode",), "TRAIN"), "RuleParameters = { num_steps = 20 }",
     'RuleParameters = { num_steps = 20, mode = "TRAIN" }'),
    (1, Change(SET, ("DebugRuleConfigurations", 0, "Extra"), {"a": "b", "c": 1}),
     '"img",\n                                     RuleParameters = { num_steps = 20 } }]',
     '"img",\n                                     RuleParameters = { num_steps = 20 }, Extra = { a = "b", c = 1 } }]'),
    (2, Change(SET, RULE + ("num_steps",), "20"), '{"num_steps": 20}', '{"num_steps": "20"}'),
    (2, Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"), '"bucket/${var.x}"', '"s3://bucket/${var.x}"'),
    (2, Change(REMOVE, ("DebugHookConfig",), None),
     '\n        "DebugHookConfig": {"S3OutputPath": "bucket/${var.x}"},', ""),
    (2, Change(SET, ("DebugHookConfig", "LocalPath"), "${x}"), '"bucket/${var.x}"}',
     '"bucket/${var.x}", "LocalPath": "$${x}"}'),
])
def test_a_change_to_terraform_hcl_is_written_in_hcl(tmp_path, job, change, old, new):
    assert TERRAFORM_HCL.count(old) == 1
    edited = _edited(tmp_path, "main.tf", TERRAFORM_HCL, change, job)
    assert edited == TERRAFORM_HCL.replace(old, new)
    assert "# Training with Debugger" in edited and "# where tensors go" in edited
    if change.kind in (SET, RENAME, REMOVE) and "${" not in str(change.value):
        _rereads_as_fixed(tmp_path, "main.tf", TERRAFORM_HCL, edited, change, job)


@needs_hcl2
def test_a_set_over_a_terraform_reference_is_not_placed(tmp_path):
    assert _edited(tmp_path, "main.tf", TERRAFORM_HCL, Change(SET, ("DebugHookConfig", "LocalPath"), "/x")) is None
    change = Change(SET, ("DebugHookConfig", "S3OutputPath"), "s3://b/x")
    assert _edited(tmp_path, "main.tf", TERRAFORM_HCL, change) is None


TERRAFORM_JSON = """{
  "resource": {
    "aws_sagemaker_training_job": {
      "train": {
        "debug_hook_config": {"s3_output_path": "bucket/${var.prefix}"},
        "debug_rule_configurations": [{
          "rule_configuration_name": "loss",
          "rule_evaluator_image": "img",
          "rule_parameters": {"num_steps": 20, "diff_percnt": "0.1"}
        }]
      }
    }
  }
}
"""


@pytest.mark.parametrize("change, old, new", [
    (Change(SET, RULE + ("num_steps",), "20"), '"num_steps": 20,', '"num_steps": "20",'),
    (Change(RENAME, RULE + ("diff_percnt",), "diff_percent"), '"diff_percnt"', '"diff_percent"'),
    (Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"), '"bucket/${var.prefix}"',
     '"s3://bucket/${var.prefix}"'),
    (Change(SET, ("DebugHookConfig", "LocalPath"), "/opt/${x}"), '"bucket/${var.prefix}"}',
     '"bucket/${var.prefix}", "local_path": "/opt/$${x}"}'),
    (Change(REMOVE, ("DebugRuleConfigurations", 0, "RuleEvaluatorImage"), None),
     '\n          "rule_evaluator_image": "img",', ""),
])
def test_a_change_to_terraform_json_names_its_blocks(tmp_path, change, old, new):
    assert TERRAFORM_JSON.count(old) == 1
    edited = _edited(tmp_path, "main.tf.json", TERRAFORM_JSON, change)
    assert edited == TERRAFORM_JSON.replace(old, new)
    if change.kind in (SET, RENAME, REMOVE) and "${" not in str(change.value):
        _rereads_as_fixed(tmp_path, "main.tf.json", TERRAFORM_JSON, edited, change)


# --- end to end: the findings of files as users write them carry edits that give the good file ----------------

def _fixed(path: str) -> str:
    """The file's text with every safe fix of its findings applied, pass after pass, until none is left."""
    with open(path, encoding="utf-8", newline="") as handle:
        text = handle.read()
    for _ in range(10):
        findings = [f for job in _jobs(path) for f in check(job, {"region": "us-east-1"}).findings]
        fixes = [f.fix.edits for f in findings if f.fix is not None and f.fix.safe and f.fix.edits]
        if not fixes:
            return text
        text, count = apply_edits(text, fixes)
        assert count >= 1
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    raise AssertionError("fixes never settled")


E2E_RULE = "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest"


def test_end_to_end_a_state_machine_is_fixed_byte_for_byte(tmp_path):
    bad = STATE_MACHINE_JSON.replace('"img"', f'"{E2E_RULE}"').replace(
        '"RuleConfigurationName": "loss"', '"RuleConfigurationName": "LossNotDecreasing"').replace(
        '"num_steps": 20,', '"rule_to_invoke": "LossNotDecreasing", "num_steps": 20,').replace(
        '"bucket/debug"', '"s3://bucket/debug"')
    good = bad.replace('"num_steps": 20,', '"num_steps": "20",').replace('"diff_percnt"', '"diff_percent"')
    assert bad != good
    assert _fixed(_write(tmp_path, "sm.json", bad)) == good


def test_end_to_end_a_cloudformation_template_with_sub_is_fixed_byte_for_byte(tmp_path):
    bad = TEMPLATE_YAML.replace('"img"', f'"{E2E_RULE}"').replace("img\n", E2E_RULE + "\n").replace(
        '"RuleParameters": {"num_steps"', '"RuleParameters": {"rule_to_invoke": "LossNotDecreasing", "num_steps"'
    ).replace("RuleParameters: {num_steps", "RuleParameters: {rule_to_invoke: LossNotDecreasing, num_steps").replace(
        '"${Bucket}/debug"', '"s3://${Bucket}/debug"').replace('"${Bucket}/job"', '"s3://${Bucket}/job"')
    good = bad.replace('"num_steps": 20,', '"num_steps": "20",').replace('"diff_percnt"', '"diff_percent"').replace(
        "num_steps: 20,", 'num_steps: "20",').replace("diff_percnt:", "diff_percent:")
    assert bad != good
    assert _fixed(_write(tmp_path, "template.yaml", bad)) == good


@needs_hcl2
def test_end_to_end_a_terraform_file_is_fixed_byte_for_byte(tmp_path):
    bad = TERRAFORM_HCL.replace('"img"', f'"{E2E_RULE}"').replace(
        "      num_steps       = 20 # steps\n",
        '      rule_to_invoke  = "LossNotDecreasing"\n      num_steps       = 20 # steps\n').replace(
        '"bucket/${var.prefix}/debug"', '"s3://bucket/${var.prefix}/debug"').replace(
        '"bucket/${var.x}"', '"s3://bucket/${var.x}"').replace(
        "RuleParameters = { num_steps = 20 }",
        'RuleParameters = { rule_to_invoke = "LossNotDecreasing", num_steps = 20 }').replace(
        '"RuleParameters": {"num_steps": 20}',
        '"RuleParameters": {"rule_to_invoke": "LossNotDecreasing", "num_steps": 20}')
    good = bad.replace("num_steps       = 20 # steps", 'num_steps       = "20" # steps').replace(
        '"diff_percnt"   =', '"diff_percent"   =').replace("num_steps = 20 }", 'num_steps = "20" }').replace(
        '"num_steps": 20}', '"num_steps": "20"}')
    assert bad.count("LossNotDecreasing") == 3 and bad != good
    assert _fixed(_write(tmp_path, "main.tf", bad)) == good
