"""Sizes by kind (limits.MAX_FILE_BYTES): a file is held to the limit of what it is, once that is known; a large
file that is no Debugger document is skipped, not failed. The large files are made here, never committed."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import pytest

from sm_debug_config.cli.common import DOCUMENT_KINDS
from sm_debug_config.limits import MAX_DOCUMENT_BYTES, MAX_FILE_BYTES, MiB

IMAGE = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.0.0-gpu-py310"


def _padded_request(size: int) -> Dict[str, Any]:
    """A CreateTrainingJob request of about ``size`` bytes, as `describe-training-job` scripts write them: its bulk
    in hyperparameters, its mistake a hook save_interval of "0" (SMD132)."""
    request: Dict[str, Any] = {
        "TrainingJobName": "large-request",
        "RoleArn": "arn:aws:iam::123456789012:role/SageMakerRole",
        "AlgorithmSpecification": {"TrainingImage": IMAGE, "TrainingInputMode": "File"},
        "DebugHookConfig": {"S3OutputPath": "s3://bucket/debug", "HookParameters": {"save_interval": "0"}},
        "HyperParameters": {},
    }
    count = size // 2048 + 1
    request["HyperParameters"] = {f"embedding_{i}": "0.1," * 510 for i in range(count)}
    return request


def _write(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value, indent=1))
    return path


def _validate(cli: Any, *args: str) -> Any:
    result = cli("validate", "--format", "json", *args)
    return result, json.loads(result.stdout) if result.stdout else None


def test_every_document_kind_has_a_limit():
    assert set(DOCUMENT_KINDS) - {"auto"} <= set(MAX_FILE_BYTES)
    assert max(MAX_FILE_BYTES[kind] for kind in DOCUMENT_KINDS if kind != "auto") == MAX_DOCUMENT_BYTES


@pytest.mark.parametrize("kind", ["auto", "request"])
def test_a_6_mib_request_is_validated(cli, tmp_path, kind):
    path = _write(tmp_path / "request.json", _padded_request(6 * MiB))
    assert 6 * MiB <= path.stat().st_size <= MAX_FILE_BYTES["request"]
    result, out = _validate(cli, "--kind", kind, str(path))
    (finding,) = out["files"][0]["findings"]
    assert result.returncode == 1 and finding["code"] == "SMD132"
    assert finding["path"] == "/DebugHookConfig/HookParameters/save_interval" and finding["line"] is not None


def test_a_6_mib_unrelated_json_is_skipped(cli, tmp_path):
    path = _write(tmp_path / "data.json", {"rows": [{"id": i, "label": "x" * 90} for i in range(60_000)]})
    assert path.stat().st_size >= 6 * MiB
    result, out = _validate(cli, str(path))
    assert result.returncode == 0 and out["skipped"] == 1 and out["errors"] == 0


def test_a_3_mib_terraform_plan_is_validated(cli, tmp_path):
    plan = json.loads((Path(__file__).parents[1] / "data" / "documents" / "terraform-plan.json").read_text())
    plan["prior_state"] = {"values": {"padding": ["x" * 1024] * 3 * 1024}}  # a plan carries the state it changes
    path = _write(tmp_path / "plan.json", plan)
    assert path.stat().st_size >= 3 * MiB
    result, out = _validate(cli, str(path))
    assert result.returncode == 1 and {f["code"] for f in out["files"][0]["findings"]} >= {"SMD132"}


def test_a_config_file_is_held_to_1_mib(cli, tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text("rules: [VanishingGradient]\n" + "# padding\n" * (MiB // 5))
    result, out = _validate(cli, str(path))
    assert result.returncode == 2 and "a config file may be at most 1 MiB" in out["files"][0]["error"]


def test_a_state_machine_is_held_to_its_service_limit(cli, tmp_path):
    machine = json.loads((Path(__file__).parents[1] / "data" / "documents" / "stepfunctions-nested.asl.json")
                         .read_text())
    machine["Comment"] = "x" * (MiB + 1)
    result, out = _validate(cli, str(_write(tmp_path / "machine.asl.json", machine)))
    assert result.returncode == 2 and "1 MiB" in out["files"][0]["error"]


def test_larger_than_any_document_is_skipped_unless_its_kind_is_given(cli, tmp_path):
    path = tmp_path / "huge.json"
    path.write_bytes(b'{"rows": "' + b"x" * MAX_DOCUMENT_BYTES + b'"}')
    result, out = _validate(cli, str(path))
    assert result.returncode == 0 and out["skipped"] == 1
    result, out = _validate(cli, "--kind", "request", str(path))
    assert result.returncode == 2 and "may be at most 16 MiB" in out["files"][0]["error"]
