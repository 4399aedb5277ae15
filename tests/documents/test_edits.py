"""A fix's change to a request of an orchestration document, placed as edits of the document's text
(:mod:`sm_debug_config.documents.edits`): per document kind and change kind, the edited text byte for byte; the
edited text read again holds the request :meth:`Fix.apply` gives; comments, indentation and line endings kept;
a ``set`` over a run-time value not placed. The end-to-end cases check real findings (SMD100, SMD120) of files as
users write them: their fixes' edits give the good file byte for byte.
"""
from __future__ import annotations

import json
import os
import tempfile
from typing import Any, List, Optional, Tuple

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from sm_debug_config import sources
from sm_debug_config.cli.files import read
from sm_debug_config.documents import hcl, terraform
from sm_debug_config.documents.base import step_into
from sm_debug_config.engine import check
from sm_debug_config.fixes import PREFIX, REMOVE, RENAME, SAFE, SET, Change, Fix, apply_edits
from tests.fixwriters import E2E_RULE, WRITERS, indented, machine, pipeline
from tests.strategies import examples

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


def _replaced(tmp_path: Any, name: str, text: str, change: Change, old: str, new: str, job: int = 0) -> str:
    """``change`` made as edits of ``text`` gives ``text`` with ``old`` (written once) replaced by ``new``, byte for
    byte; a set, rename or removal of a plain value reads back as the request :meth:`Fix.apply` gives."""
    assert text.count(old) == 1
    edited = _edited(tmp_path, name, text, change, job)
    assert edited == text.replace(old, new)
    plain = not str(change.value).endswith(("Local", "Output"))  # (a Key.$ rename reads back as a run-time value)
    before = _jobs(_write(tmp_path, "before-" + name, text))[job].request
    prefixed = change.kind == PREFIX and isinstance(step_into(before, change.path), str)  # (not a Fn::Sub object)
    if change.kind in (SET, RENAME, REMOVE) and plain or prefixed:
        _rereads_as_fixed(tmp_path, name, text, edited, change, job)
    return edited


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
    _replaced(tmp_path, name, text, change, old, new)


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
    _replaced(tmp_path, "template.json", TEMPLATE_JSON, change, old, new)


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
    edited = _replaced(tmp_path, "template.yaml", TEMPLATE_YAML, change, old, new, job)
    assert "# the definition, substituted at deployment" in edited and "# substituted" in edited


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
    (0, Change(RENAME, RULE + ("diff_percnt",), "diff_percent"), '"diff_percnt"   =', '"diff_percent"  ='),
    (0, Change(REMOVE, RULE + ("num_steps",), None), "      num_steps       = 20 # steps\n", ""),
    (0, Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"), '"bucket/${var.prefix}/debug"',
     '"s3://bucket/${var.prefix}/debug"'),
    (0, Change(SET, ("TensorBoardOutputConfig", "LocalPath"), "/opt/ml/${x}/tb"),
     '    s3_output_path = "s3://bucket/tb"\n',
     '    s3_output_path = "s3://bucket/tb"\n    local_path = "/opt/ml/$${x}/tb"\n'),
    (0, Change(SET, RULE + ("mode",), "TRAIN"), '"diff_percnt"   = "0.1"\n',
     '"diff_percnt"   = "0.1"\n      mode = "TRAIN"\n'),
    (0, Change(REMOVE, ("TensorBoardOutputConfig",), None),
     '\n  tensor_board_output_config {\n    s3_output_path = "s3://bucket/tb"\n  }\n', "\n"),
    (0, Change(SET, ("DebugHookConfig",), {"S3OutputPath": "s3://b"}), "", ""),  # a block: no value to set
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
    if not old:
        assert _edited(tmp_path, "main.tf", TERRAFORM_HCL, change, job) is None
        return
    edited = _replaced(tmp_path, "main.tf", TERRAFORM_HCL, change, old, new, job)
    assert "# Training with Debugger" in edited and "# where tensors go" in edited


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
    _replaced(tmp_path, "main.tf.json", TERRAFORM_JSON, change, old, new)


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
        '"diff_percnt"   =', '"diff_percent"  =').replace("num_steps = 20 }", 'num_steps = "20" }').replace(
        '"num_steps": 20}', '"num_steps": "20"}')
    assert bad.count("LossNotDecreasing") == 3 and bad != good
    assert _fixed(_write(tmp_path, "main.tf", bad)) == good


# --- more places a request is written --------------------------------------------------------------------------

TEMPLATE_FORMS = """{
  "Resources": {
    "Machine": {
      "Type": "AWS::StepFunctions::StateMachine",
      "Properties": {
        "Definition": {"StartAt": "T", "States": {"T": {"Type": "Task", "End": true,
          "Resource": "arn:aws:states:::sagemaker:createTrainingJob.sync",
          "Parameters": {"DebugHookConfig": {"S3OutputPath.$": "$.out", "LocalPath": "/opt/x"},
                         "DebugRuleConfigurations": [{"RuleConfigurationName": "r", "RuleEvaluatorImage": "i",
                                                      "RuleParameters": {"num_steps": 20}}]}}}}
      }
    },
    "Pipe": {
      "Type": "AWS::SageMaker::Pipeline",
      "Properties": {
        "PipelineDefinition": {"PipelineDefinitionBody": {"Fn::Sub": [
          "{\\"Steps\\": [{\\"Name\\": \\"T\\", \\"Type\\": \\"Training\\", \\"Arguments\\": {\\"ResourceConfig\\": {\\"InstanceCount\\": ${Count}}, \\"DebugRuleConfigurations\\": [{\\"RuleConfigurationName\\": \\"r\\", \\"RuleEvaluatorImage\\": \\"i\\", \\"RuleParameters\\": {\\"num_steps\\": 20}}]}}]}",
          {"Count": 2}]}}
      }
    }
  }
}
"""  # noqa: E501 - a body written on one line, as users write it


@pytest.mark.parametrize("job, change, old, new", [
    (0, Change(SET, RULE + ("num_steps",), "20"), '"num_steps": 20}}]}}}}', '"num_steps": "20"}}]}}}}'),
    (0, Change(RENAME, ("DebugHookConfig", "S3OutputPath"), "S3Output"), '"S3OutputPath.$"', '"S3Output.$"'),
    (0, Change(REMOVE, ("DebugHookConfig", "LocalPath"), None), ', "LocalPath": "/opt/x"', ""),
    (1, Change(SET, RULE + ("num_steps",), "20"), r'\"num_steps\": 20}', r'\"num_steps\": \"20\"}'),
])
def test_a_template_definition_object_and_a_sub_list_body_take_edits(tmp_path, job, change, old, new):
    _replaced(tmp_path, "template.json", TEMPLATE_FORMS, change, old, new, job)


HEREDOC_CRLF = ('resource "aws_sagemaker_pipeline" "p" {\n  pipeline_name = "p"\n  pipeline_definition = <<EOT\n'
                '{"Steps": [{"Name": "T", "Type": "Training", "Arguments": {\n'
                '  "DebugHookConfig": {"S3OutputPath": "bucket/o"}\n}}]}\nEOT\n}\n').replace("\n", "\r\n")


@needs_hcl2
def test_a_heredoc_in_a_crlf_file_is_edited_in_its_lines(tmp_path):
    change = Change(SET, ("DebugHookConfig", "LocalPath"), "/opt/${x}")
    edited = _edited(tmp_path, "main.tf", HEREDOC_CRLF, change)
    assert edited == HEREDOC_CRLF.replace('"bucket/o"}', '"bucket/o", "LocalPath": "/opt/$${x}"}')
    prefix = _edited(tmp_path, "main.tf", HEREDOC_CRLF, Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"))
    assert prefix == HEREDOC_CRLF.replace('"bucket/o"', '"s3://bucket/o"')


TERRAFORM_JSON_PIPELINE = json.dumps({"resource": {"aws_sagemaker_pipeline": {"p": {
    "pipeline_name": "p",
    "pipeline_definition": json.dumps({"Steps": [{"Name": "T", "Type": "Training", "Arguments": {
        "DebugHookConfig": {"S3OutputPath": "bucket/${var.x}"}}}]}),
}}}}, indent=2) + "\n"


def test_a_pipeline_definition_string_of_terraform_json_is_edited_with_its_escapes(tmp_path):
    change = Change(SET, ("DebugHookConfig", "LocalPath"), "/opt/${x}")
    edited = _edited(tmp_path, "main.tf.json", TERRAFORM_JSON_PIPELINE, change)
    assert edited == TERRAFORM_JSON_PIPELINE.replace(r'${var.x}\"}', r'${var.x}\", \"LocalPath\": \"/opt/$${x}\"}')
    assert _edited(tmp_path, "main.tf.json", TERRAFORM_JSON_PIPELINE,
                   Change(SET, ("DebugHookConfig", "S3OutputPath"), "s3://b")) is None  # over a reference


def test_terraform_plan_output_gets_no_edits(tmp_path):
    plan = {"format_version": "1.2", "planned_values": {"root_module": {"resources": [{
        "address": "aws_sagemaker_training_job.t", "type": "aws_sagemaker_training_job",
        "values": {"debug_hook_config": [{"s3_output_path": "bucket/o"}]}}]}}}
    text = json.dumps(plan, indent=2)
    assert _edited(tmp_path, "plan.json", text, Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://")) is None


# --- one request with many mistakes, in every format: every fix is placed, and fixing leaves none -------------

MANY = {
    "DebugHookConfig": {"S3OutputPath": "bucket/debug", "HookParameters": {"include_workers": "All"},
                        "CollectionConfigurations": [{"CollectionName": "gradient"}]},
    "DebugRuleConfigurations": [
        {"RuleConfigurationName": "LossNotDecreasing", "RuleEvaluatorImage": E2E_RULE,
         "RuleParameters": {"rule_to_invoke": "LossNotDecreasing", "num_steps": 20, "diff_percnt": "0.1"}}],
    "TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb", "LocalPath": "tb"},
}
#: SMD100 (twice: a number, no s3://), SMD114, SMD115, SMD120, SMD153
MANY_CODES = ["SMD100", "SMD100", "SMD114", "SMD115", "SMD120", "SMD153"]


MANY_FILES = {
    "sm.json": json.dumps(machine(MANY), indent=2) + "\n",
    "sm.yaml": "# a state machine\n" + yaml.safe_dump(machine(MANY), sort_keys=False),
    "pipe.json": json.dumps(pipeline(MANY), indent=2) + "\n",
    "cfn.yaml": ("AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  P:\n    Type: AWS::SageMaker::Pipeline\n"
                 "    Properties:\n      PipelineDefinition:\n        PipelineDefinitionBody: !Sub |  # the body\n"
                 + indented(json.dumps(pipeline(MANY), indent=2), "          ")),
    "cfn.json": json.dumps({"Resources": {"M": {"Type": "AWS::StepFunctions::StateMachine", "Properties": {
        "DefinitionString": {"Fn::Sub": json.dumps(machine(MANY))}}}}}, indent=2) + "\n",
    "job.yaml": ("Resources:\n  J:\n    Type: AWS::SageMaker::TrainingJob\n    Properties:  # the request\n"
                 + indented(yaml.safe_dump(MANY, sort_keys=False), "      ")),
    "main.tf.json": json.dumps({"resource": {"aws_sagemaker_pipeline": {"p": {
        "pipeline_definition": json.dumps(pipeline(MANY), indent=2)}}}}, indent=2) + "\n",
    "main.tf": f"""resource "aws_sagemaker_training_job" "t" {{
  debug_hook_config {{
    s3_output_path = "bucket/debug" # a comment
    hook_parameters = {{
      include_workers = "All"
    }}
    collection_configurations {{
      collection_name = "gradient"
    }}
  }}
  debug_rule_configurations {{
    rule_configuration_name = "LossNotDecreasing"
    rule_evaluator_image    = "{E2E_RULE}"
    rule_parameters = {{
      rule_to_invoke = "LossNotDecreasing"
      num_steps      = 20
      diff_percnt    = "0.1"
    }}
  }}
  tensor_board_output_config {{
    s3_output_path = "s3://b/tb"
    local_path     = "tb"
  }}
}}
""",
}


@pytest.mark.parametrize("name", sorted(MANY_FILES))
def test_every_fix_of_many_mistakes_is_placed_and_fixing_leaves_none(tmp_path, name):
    if name.endswith(".tf") and not hcl.has_hcl2():
        pytest.skip("python-hcl2 is not installed (the 'terraform' extra)")
    path = _write(tmp_path, name, MANY_FILES[name])
    found = [f for job in _jobs(path) for f in check(job, {"region": "us-east-1"}).findings if f.fix is not None]
    assert sorted(f.code for f in found) == MANY_CODES
    assert all(f.fix.edits for f in found), [f.code for f in found if not f.fix.edits]
    text = MANY_FILES[name]
    for _ in range(5):  # safe and unsafe, pass after pass
        fixes = [f.fix.edits for job in _jobs(path) for f in check(job, {"region": "us-east-1"}).findings
                 if f.fix is not None and f.fix.edits]
        if not fixes:
            break
        text, _count = apply_edits(text, fixes)
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    left = [f.code for job in _jobs(path) for f in check(job, {"region": "us-east-1"}).findings]
    assert not set(left) & set(MANY_CODES), left
    assert [line[line.index("#"):] for line in text.splitlines() if "#" in line] == [
        line[line.index("#"):] for line in MANY_FILES[name].splitlines() if "#" in line]  # comments kept


# --- any change at any path of the request, in every format: edits read back as the fix, or no edits ----------

_SCRATCH = tempfile.mkdtemp(prefix="test-edits-")


def _request_paths(value: Any, path: Tuple[Any, ...] = ()) -> List[Tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _request_paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _request_paths(item, path + (index,))
    return out


@examples(100)
@given(st.sampled_from(sorted(MANY_FILES)), st.data())
def test_any_change_in_any_format_reads_back_as_the_fix_or_has_no_edits(name, data):
    if name.endswith(".tf") and not hcl.has_hcl2():
        return
    text = MANY_FILES[name]
    path = _write(_SCRATCH, name, text)
    (job,) = _jobs(path)
    where = data.draw(st.sampled_from(_request_paths(job.request)))
    kind = data.draw(st.sampled_from([SET, RENAME, REMOVE, PREFIX]))
    value = data.draw(st.one_of(st.text("ab1_-/:${}%", min_size=1, max_size=6), st.integers(0, 9), st.booleans())
                      if kind == SET else st.text("ab1_", min_size=1, max_size=6) if kind == RENAME
                      else st.just("s3://") if kind == PREFIX else st.none())
    change = Change(kind, where, value)
    new_key = kind == RENAME or kind == SET and where[-1] not in (step_into(job.request, where[:-1]) or {})
    if name == "main.tf" and new_key and terraform.kind_at(where[:-1]) != "map":
        return  # a block's member Terraform has no name for: written, and not read back (it is no Debugger field)
    try:
        expected = Fix(SAFE, "t", (change,)).apply(job.request)
    except (LookupError, TypeError):
        expected = None  # a change Fix.apply cannot make (a prefix before a number): edits or not, no check
    edits = job.edit(change, None)
    if edits is None or expected is None:
        return
    new, count = apply_edits(text, [edits])
    assert count == 1
    (after,) = _jobs(_write(_SCRATCH, "after-" + name, new))
    if name == "main.tf":
        expected = _no_empty_lists(expected)  # no blocks of a name is what Terraform has for an empty list
    assert after.request == expected


def _no_empty_lists(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _no_empty_lists(item) for key, item in value.items() if item != []}
    if isinstance(value, list):
        return [_no_empty_lists(item) for item in value]
    return value


DEFINITION_FORMS = """Resources:
  M:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      DefinitionString: !Sub
        - |
          {"StartAt": "T", "States": {"T": {"Type": "Task", "End": true,
            "Resource": "arn:${AWS::Partition}:states:::sagemaker:createTrainingJob",
            "Parameters": {"DebugRuleConfigurations": [{"RuleConfigurationName": "r", "RuleEvaluatorImage": "i",
                                                         "RuleParameters": {"num_steps": 20}}]}}}}
        - {Unused: x}
  N:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      DefinitionSubstitutions: {Bucket: b}
      DefinitionString: >-
        {"StartAt": "T", "States": {"T": {"Type": "Task", "End": true,
        "Resource": "arn:aws:states:::sagemaker:createTrainingJob",
        "Parameters": {"DebugHookConfig": {"S3OutputPath": "${Bucket}/n"}}}}}
  O:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      DefinitionSubstitutions: {Bucket: b}
      DefinitionString: '{"StartAt": "T", "States": {"T": {"Type": "Task", "End": true, "Resource": "arn:aws:states:::sagemaker:createTrainingJob", "Parameters": {"DebugHookConfig": {"S3OutputPath": "${Bucket}/x"}}}}}'
"""  # noqa: E501 - a definition on one line, as users write it


def test_a_sub_list_body_a_folded_definition_and_definition_substitutions(tmp_path):
    name = "template.yaml"
    _replaced(tmp_path, name, DEFINITION_FORMS, Change(SET, RULE + ("num_steps",), "20"), '"num_steps": 20}',
              '"num_steps": "20"}', 0)
    folded = Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://")
    assert _edited(tmp_path, name, DEFINITION_FORMS, folded, 1) is None  # a folded scalar: no host
    _replaced(tmp_path, name, DEFINITION_FORMS, folded, '"${Bucket}/x"', '"s3://${Bucket}/x"', 2)
    _replaced(tmp_path, name, DEFINITION_FORMS, Change(SET, ("DebugHookConfig", "LocalPath"), "/opt/x"),
              '"${Bucket}/x"}', '"${Bucket}/x", "LocalPath": "/opt/x"}', 2)
    # DefinitionSubstitutions' ${...} have no literal form: text holding one is not written there
    assert _edited(tmp_path, name, DEFINITION_FORMS, Change(SET, ("DebugHookConfig", "LocalPath"), "/opt/${x}"),
                   2) is None


# --- generated documents with several mistakes: fixed in passes, nothing left, a second run changes nothing ---

#: Each mistake: its code, and how it is made in a request (a copy of MANY's shape, each field right by default).
MISTAKES = {
    "no-scheme": ("SMD100", ("DebugHookConfig", "S3OutputPath"), "bucket/debug"),
    "number": ("SMD100", RULE + ("num_steps",), 20),
    "misspelt-parameter": ("SMD120", RULE + ("diff_percnt",), "0.1"),
    "workers": ("SMD115", ("DebugHookConfig", "HookParameters", "include_workers"), "All"),
    "collection": ("SMD114", ("DebugHookConfig", "CollectionConfigurations", 0, "CollectionName"), "gradient"),
    "relative-path": ("SMD153", ("TensorBoardOutputConfig", "LocalPath"), "tb"),
}


def _request_with(mistakes: Any) -> Any:
    hook_parameters = {"include_workers": "all"}
    rule_parameters = {"rule_to_invoke": "LossNotDecreasing", "num_steps": "20", "diff_percent": "0.1"}
    request = {
        "DebugHookConfig": {"S3OutputPath": "s3://bucket/debug", "HookParameters": hook_parameters,
                            "CollectionConfigurations": [{"CollectionName": "gradients"}]},
        "DebugRuleConfigurations": [{"RuleConfigurationName": "LossNotDecreasing", "RuleEvaluatorImage": E2E_RULE,
                                     "RuleParameters": rule_parameters}],
        "TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb", "LocalPath": "/logs/tb"},
    }
    for name in mistakes:
        _code, path, value = MISTAKES[name]
        parent = step_into(request, path[:-1])
        if name == "misspelt-parameter":
            del parent["diff_percent"]
        parent[path[-1]] = value
    return request


@examples(30)
@given(st.sampled_from(sorted(WRITERS)), st.sets(st.sampled_from(sorted(MISTAKES)), min_size=1))
def test_generated_documents_with_several_mistakes_are_fixed_and_stay_fixed(name, mistakes):
    if name.endswith(".tf") and not hcl.has_hcl2():
        return
    text = WRITERS[name](_request_with(mistakes))
    path = _write(_SCRATCH, "generated-" + name, text)
    codes = {MISTAKES[mistake][0] for mistake in mistakes}

    def findings() -> List[Any]:
        return [f for job in _jobs(path) for f in check(job, {"region": "us-east-1"}).findings]

    assert codes <= {f.code for f in findings()}
    for _ in range(len(mistakes) + 1):
        fixes = [f.fix.edits for f in findings() if f.fix is not None and f.fix.edits]
        if not fixes:
            break
        text, count = apply_edits(text, fixes)
        assert count >= 1
        _write(_SCRATCH, "generated-" + name, text)
    left = findings()  # the file still reads
    assert not codes & {f.code for f in left}, [f.code for f in left]
    assert not [f for f in left if f.fix is not None and f.fix.edits]  # a second run changes nothing
    good = _request_with(())
    if "relative-path" in mistakes:  # (its fix removes the LocalPath: SageMaker's default)
        del good["TensorBoardOutputConfig"]["LocalPath"]
    assert text == WRITERS[name](good)  # byte for byte what the writer gives of the request without the mistakes
