"""Writers of one ``CreateTrainingJob`` request in each format a user may write it in: a request's text in a state
machine, a pipeline definition, CloudFormation (a ``!Sub |`` body, a ``Fn::Sub`` JSON string, a training job's
properties), Terraform (HCL and JSON), an ACK manifest, the request itself (JSON, YAML), a config file (through
:func:`~sm_debug_config.reverse.from_request` and :func:`~sm_debug_config.configfile.dump`) and an SDK v2 launcher.

Each writer is deterministic and writes a bad request and its good request alike but where they differ, so a fix
applied to the bad file can be compared with the good file byte for byte (tests/documents/test_edits.py,
tests/test_fix_matrix.py).
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, Dict, List, Optional

import yaml

from sm_debug_config.configfile import dump
from sm_debug_config.documents import hcl, terraform
from sm_debug_config.findings import collecting
from sm_debug_config.reverse import from_request

#: A built-in rule's image in us-east-1 (the region the tests check in).
E2E_RULE = "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest"

Writer = Callable[[Dict[str, Any]], str]


def machine(request: Any) -> Any:
    """A Step Functions state machine whose one task sends ``request``."""
    return {"StartAt": "T", "States": {"T": {"Type": "Task", "End": True,
            "Resource": "arn:aws:states:::sagemaker:createTrainingJob.sync", "Parameters": request}}}


def pipeline(request: Any) -> Any:
    """A SageMaker Pipelines definition whose one training step sends ``request``."""
    return {"Version": "2020-12-01", "Steps": [{"Name": "T", "Type": "Training", "Arguments": request}]}


def indented(text: str, indent: str) -> str:
    return "".join(indent + line + "\n" for line in text.splitlines())


def hcl_job(request: Any) -> str:
    """A Terraform training job of one shape (a hook with parameters and one collection, one rule, a TensorBoard
    config), with a comment, written attribute by attribute with :func:`hcl.hcl_value`."""
    hook, (rule,), board = request["DebugHookConfig"], request["DebugRuleConfigurations"], \
        request["TensorBoardOutputConfig"]

    def attributes(values: Any, indent: str) -> str:
        return "".join(f"{indent}{key} = {hcl.hcl_value(value)}\n" for key, value in values.items())
    return (f'resource "aws_sagemaker_training_job" "t" {{\n  debug_hook_config {{ # the hook\n'
            f'    s3_output_path = {hcl.hcl_value(hook["S3OutputPath"])}\n'
            f'    hook_parameters = {{\n{attributes(hook["HookParameters"], "      ")}    }}\n'
            f'    collection_configurations {{\n      collection_name = '
            f'{hcl.hcl_value(hook["CollectionConfigurations"][0]["CollectionName"])}\n    }}\n  }}\n'
            f'  debug_rule_configurations {{\n    rule_configuration_name = "LossNotDecreasing"\n'
            f'    rule_evaluator_image    = "{E2E_RULE}"\n'
            f'    rule_parameters = {{\n{attributes(rule["RuleParameters"], "      ")}    }}\n  }}\n'
            f'  tensor_board_output_config {{\n{attributes(_snake(board), "    ")}  }}\n}}\n')


def _snake(values: Any) -> Any:
    return {{"S3OutputPath": "s3_output_path", "LocalPath": "local_path"}[key]: value for key, value in values.items()}


def _debugger_fields(request: Dict[str, Any]) -> Dict[str, Any]:
    """The request's Debugger fields in Terraform's JSON syntax, as :func:`terraform.to_terraform_json` writes them
    but without its check (a bad request's number or string where Terraform takes the other is what a user wrote,
    and what the checks are for)."""
    return {terraform.SHAPES[name][0]: terraform._terraform_value(value, terraform.SHAPES[name][1])
            for name, value in request.items() if name != "AlgorithmSpecification" and value != []}


class _DoubleQuoting(yaml.SafeDumper):
    """PyYAML's safe dumper, but a string that needs quotes gets double quotes (as most users write them)."""

    def choose_scalar_style(self) -> Any:
        style = super().choose_scalar_style()
        return '"' if style == "'" else style


def yaml_text(data: Any) -> str:
    """``data`` in block YAML, keys in their order, quoted strings in double quotes."""
    return yaml.dump(data, Dumper=_DoubleQuoting, sort_keys=False, allow_unicode=True)


def terraform_hcl(request: Dict[str, Any]) -> str:
    """Any request as an ``aws_sagemaker_training_job`` resource: the project's own HCL writer
    (:func:`terraform.to_terraform`, ``render --format terraform``) inside a resource with a comment, and the
    training image as ``algorithm_specification``."""
    image = request.get("AlgorithmSpecification", {}).get("TrainingImage")
    algorithm = (f'  algorithm_specification {{\n    training_image      = "{image}"\n'
                 '    training_input_mode = "File"\n  }\n\n') if image else ""
    return ('# the training job\nresource "aws_sagemaker_training_job" "t" {\n  name = "t"\n\n' + algorithm
            + "\n".join(line.rstrip() for line in terraform._hcl_body(_debugger_fields(request), "  ")) + "\n}\n")


def terraform_json(request: Dict[str, Any]) -> str:
    """Any request as an ``aws_sagemaker_training_job`` of Terraform's JSON syntax (``render --format
    terraform-json``)."""
    body = _debugger_fields(request)
    image = request.get("AlgorithmSpecification", {}).get("TrainingImage")
    if image:
        body = dict({"algorithm_specification": [{"training_image": image, "training_input_mode": "File"}]}, **body)
    return json.dumps({"resource": {"aws_sagemaker_training_job": {"t": body}}}, indent=2) + "\n"


def cloudformation_job(request: Dict[str, Any]) -> str:
    """A CloudFormation template (YAML) whose ``AWS::SageMaker::TrainingJob`` properties are ``request``."""
    return ("Resources:\n  J:\n    Type: AWS::SageMaker::TrainingJob\n    Properties:  # the request\n"
            + indented(yaml_text(request), "      "))


#: The request members that are maps (their keys are the user's): an ACK manifest keeps their keys as written.
_MAPS = ("RuleParameters", "HookParameters", "CollectionParameters", "ProfilingParameters")


def _manifest_spec(value: Any, in_map: bool = False) -> Any:
    if isinstance(value, dict):
        return {(key if in_map else key[:1].lower() + key[1:]): _manifest_spec(item, key in _MAPS and not in_map)
                for key, item in value.items()}
    if isinstance(value, list):
        return [_manifest_spec(item) for item in value]
    return value


def manifest(request: Dict[str, Any]) -> str:
    """An ACK SageMaker ``TrainingJob`` manifest (YAML) whose spec is ``request``, members in lower camel case."""
    document = {"apiVersion": "sagemaker.services.k8s.aws/v1alpha1", "kind": "TrainingJob",
                "metadata": {"name": "job"}, "spec": _manifest_spec(request)}
    return "# the training job\n" + yaml_text(document)


def config_data(request: Dict[str, Any]) -> Dict[str, Any]:
    """The config file that renders ``request`` (``sm-debug-config from-request``: :func:`from_request`, then
    :func:`dump`)."""
    with collecting():  # the bad request's warnings: findings of the file the test checks, not of writing it
        rebuilt = from_request(request, region="us-east-1", output_path="s3://bucket/out/")
    return dump(**rebuilt.render_kwargs())


# --- an SDK v2 launcher -------------------------------------------------------------------------------------------

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_IMAGE = re.compile(r"/pytorch-training:(?P<version>[0-9.]+)-(?P<device>cpu|gpu)-(?P<py>py[0-9]+)")


def _snake_case(name: str) -> str:
    return _CAMEL.sub("_", name).lower()


def _rule(entry: Dict[str, Any], profiler: bool) -> str:
    """A built-in rule as SDK v2 writes it: ``Rule.sagemaker(rule_configs.overfit(), rule_parameters={...})``; a
    profiler rule's parameters are its class's arguments: ``ProfilerRule.sagemaker(rule_configs.LowGPUUtilization(
    window='5'))``."""
    parameters = dict(entry.get("RuleParameters") or {})
    builtin = parameters.pop("rule_to_invoke")
    if profiler:
        arguments = [f"rule_configs.{builtin}(" + ", ".join(f"{key}={value!r}" for key, value in parameters.items())
                     + ")"]
    else:
        arguments = [f"rule_configs.{_snake_case(builtin)}()"]
        if parameters:
            arguments.append(f"rule_parameters={parameters!r}")
    if entry["RuleConfigurationName"] != builtin:
        arguments.append(f"name={entry['RuleConfigurationName']!r}")
    return f"{'ProfilerRule' if profiler else 'Rule'}.sagemaker({', '.join(arguments)})"


def _collection(entry: Dict[str, Any]) -> str:
    if "CollectionParameters" in entry:
        return f"CollectionConfig(name={entry['CollectionName']!r}, parameters={entry['CollectionParameters']!r})"
    return f"CollectionConfig(name={entry['CollectionName']!r})"


def launcher(request: Dict[str, Any]) -> Optional[str]:
    """An SDK v2 ``PyTorch`` launcher that sends ``request``'s Debugger fields, written as users write it (a hook,
    rules, profiler and TensorBoard objects as keywords, literals in place), or None for what it cannot write
    (a rule's image: the SDK picks it from the session's region; a profiler config with its own S3 path)."""
    lines = ["from sagemaker.debugger import (CollectionConfig, DebuggerHookConfig, ProfilerConfig, ProfilerRule,",
             "                                Rule, TensorBoardOutputConfig, rule_configs)",
             "from sagemaker.pytorch import PyTorch", ""]
    arguments: List[str] = []
    image = request.get("AlgorithmSpecification", {}).get("TrainingImage")
    if image:
        arguments.append(f"    image_uri={image!r},")
    else:
        arguments += ["    framework_version='1.13.1',", "    py_version='py39',"]
    hook = request.get("DebugHookConfig")
    if hook is not None:
        hook_arguments = [f"s3_output_path={hook['S3OutputPath']!r}"]
        if "LocalPath" in hook:
            hook_arguments.append(f"container_local_output_path={hook['LocalPath']!r}")
        if hook.get("HookParameters"):
            hook_arguments.append(f"hook_parameters={hook['HookParameters']!r}")
        collections = [_collection(entry) for entry in hook.get("CollectionConfigurations", [])]
        if collections:
            hook_arguments.append("collection_configs=[" + ", ".join(collections) + "]")
        lines.append("hook = DebuggerHookConfig(" + ", ".join(hook_arguments) + ")")
        arguments.append("    debugger_hook_config=hook,")
    rules = request.get("DebugRuleConfigurations", []) + request.get("ProfilerRuleConfigurations", [])
    if any(rule.get("RuleEvaluatorImage") != E2E_RULE for rule in rules):
        return None
    if rules:
        written = [_rule(rule, False) for rule in request.get("DebugRuleConfigurations", [])]
        written += [_rule(rule, True) for rule in request.get("ProfilerRuleConfigurations", [])]
        lines.append("rules = [\n" + "".join(f"    {rule},\n" for rule in written) + "]")
        arguments.append("    rules=rules,")
    profiler = request.get("ProfilerConfig")
    if profiler is not None:
        if set(profiler) - {"S3OutputPath", "DisableProfiler", "ProfilingParameters",
                            "ProfilingIntervalInMilliseconds"} or profiler.get("ProfilingParameters"):
            return None
        profiler_arguments = [f"s3_output_path={profiler['S3OutputPath']!r}"]
        if "ProfilingIntervalInMilliseconds" in profiler:
            profiler_arguments.append(f"system_monitor_interval_millis={profiler['ProfilingIntervalInMilliseconds']!r}")
        lines.append("profiler = ProfilerConfig(" + ", ".join(profiler_arguments) + ")")
        arguments.append("    profiler_config=profiler,")
        if profiler.get("DisableProfiler") not in (None, False):
            arguments.append(f"    disable_profiler={profiler['DisableProfiler']!r},")
    board = request.get("TensorBoardOutputConfig")
    if board is not None:
        board_arguments = [f"s3_output_path={board['S3OutputPath']!r}"]
        if "LocalPath" in board:
            board_arguments.append(f"container_local_output_path={board['LocalPath']!r}")
        lines.append("board = TensorBoardOutputConfig(" + ", ".join(board_arguments) + ")")
        arguments.append("    tensorboard_output_config=board,")
    lines += ["estimator = PyTorch(", "    entry_point='train.py',", "    role='arn:aws:iam::111122223333:role/sm',",
              "    instance_count=1,", "    instance_type='ml.p3.2xlarge',", "    output_path='s3://bucket/out/',",
              *arguments, ")", "estimator.fit('s3://bucket/data/')"]
    return "\n".join(lines) + "\n"


#: Every format a request is written in here, by file name: the writer of the file's text from the request.
WRITERS: Dict[str, Writer] = {
    "sm.json": lambda request: json.dumps(machine(request), indent=2) + "\n",
    "sm.yaml": lambda request: "# a state machine\n" + yaml_text(machine(request)),
    "pipe.json": lambda request: json.dumps(pipeline(request), indent=2) + "\n",
    "cfn.yaml": lambda request: (
        "Resources:\n  P:\n    Type: AWS::SageMaker::Pipeline\n    Properties:\n      PipelineDefinition:\n"
        "        PipelineDefinitionBody: !Sub |  # the body\n"
        + indented(json.dumps(pipeline(request), indent=2), "          ")),
    "cfn.json": lambda request: json.dumps({"Resources": {"M": {"Type": "AWS::StepFunctions::StateMachine",
        "Properties": {"DefinitionString": {"Fn::Sub": json.dumps(machine(request))}}}}}, indent=2) + "\n",
    "main.tf": hcl_job,
}


def notebook(request: Dict[str, Any]) -> Optional[str]:
    """:func:`launcher` as a Jupyter notebook (nbformat 4, written as Jupyter writes it: one-space indent): a
    markdown cell, the imports, the objects, then the estimator in a cell with an output and an execution count."""
    text = launcher(request)
    if text is None:
        return None
    head, _, rest = text.partition("\n\n")
    objects, _, estimator = rest.partition("estimator = PyTorch(")

    def code(source: str, count: int, outputs: List[Any]) -> Dict[str, Any]:
        lines = source.splitlines(keepends=True)
        lines[-1] = lines[-1].rstrip("\n")  # Jupyter's last line has no line end
        return {"cell_type": "code", "execution_count": count, "metadata": {}, "outputs": outputs, "source": lines}
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# Training with Debugger"]},
             code(head + "\n", 1, [])]
    if objects.strip():
        cells.append(code(objects, 2, []))
    cells.append(code("estimator = PyTorch(" + estimator, 3,
                      [{"name": "stdout", "output_type": "stream", "text": ["2024-01-01 Starting - training job\n"]}]))
    document = {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                            "name": "python3"}},
                "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
