"""Proof against the real consumer: smdebug's own PyTorch hook, created from the DebugHookConfig that
``render()`` writes, trains a tiny model on the CPU; ``smdebug.trials`` reads back what was saved,
and it must be exactly what the rendered config predicts.

The XGBoost test (optional: skipped without xgboost) runs the hook in script mode.

Each job runs in a subprocess (this file is also the worker: ``python test_smdebug_run.py JOB
RESULT``): smdebug keeps process-wide state (its error-handling agent switches smdebug off for
good after one caught error), and ``create_trial`` waits forever on a folder with nothing in it,
so the subprocess has a timeout. Needs torch and smdebug 1.0.34: ``scripts/test_smdebug_run.sh``
makes that venv; elsewhere the module is skipped.

The prediction is computed here from the rendered request (``explain()`` reports each
collection's steps as text only): per mode, a collection saves step ``s`` when ``s`` is in its
``save_steps``, or ``start_step <= s < end_step`` and ``s % save_interval == 0`` (smdebug
``SaveConfigMode.should_save_step``); a tensor is saved at the union of the steps of the
collections it belongs to; ``losses`` is always saved (PyTorch's hook always includes it);
gradients exist only in TRAIN here (no backward pass in the eval loop; smdebug also skips the
``gradients`` collection in EVAL/PREDICT).

What ``explain()`` should add so that it can be the prediction itself: per collection and mode,
the settings in effect as values (not only text) and the tensors' union across collections;
that ``losses`` (PyTorch, MXNet) and ``metrics`` (XGBoost) are always saved; that ``start_step``
does not shift the interval (``step % save_interval``, so "every 2 from step 3" saves 4, 6...).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any, Dict, List

import pytest

TRAIN_STEPS, EVAL_STEPS, ROUNDS = 9, 5, 7
#: Steps per mode that each framework's job runs (the XGBoost hook counts boosting rounds in GLOBAL).
MODES = {"pytorch": {"TRAIN": TRAIN_STEPS, "EVAL": EVAL_STEPS}, "xgboost": {"GLOBAL": ROUNDS}}
TIMEOUT = 300


# --- the worker (runs in the subprocess) -------------------------------------------------------

def _work(job_path: str, result_path: str) -> None:
    with open(job_path) as handle:
        job = json.load(handle)
    out_dir = job["out_dir"]
    config = dict(
        job["hook"], LocalPath=out_dir
    )  # the container's path: SageMaker writes the request's DebugHookConfig
    config_path = os.path.join(os.path.dirname(result_path), "debughookconfig.json")
    with open(config_path, "w") as handle:
        json.dump(config, handle)
    os.environ["SMDEBUG_CONFIG_FILE_PATH"] = config_path
    result: Dict[str, Any] = {}
    framework = job.get("framework", "pytorch")
    try:
        _train_xgboost() if framework == "xgboost" else _train()
    except Exception as err:  # noqa: BLE001 - any error is what the job would die of: the result reports it
        result["error"] = f"{type(err).__name__}: {err}"
    from smdebug.core.error_handling_agent import ErrorHandlingAgent

    result["disabled"] = ErrorHandlingAgent.get_error_handling_agent().disable_smdebug
    result["saved"] = _read(out_dir, MODES[framework]) if os.path.isdir(os.path.join(out_dir, "index")) else {}
    with open(result_path, "w") as handle:
        json.dump(result, handle)


def _train() -> None:
    import torch
    import smdebug.pytorch as smd

    class Net(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc1 = torch.nn.Linear(4, 8)
            self.relu = torch.nn.ReLU()
            self.fc2 = torch.nn.Linear(8, 2)

        def forward(self, x):  # type: ignore[no-untyped-def]
            return self.fc2(self.relu(self.fc1(x)))

    torch.manual_seed(0)
    net, loss_fn = Net(), torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    hook = smd.Hook.create_from_json_file()
    hook.register_module(net)
    hook.register_loss(loss_fn)
    x, y = torch.randn(16, 4), torch.randint(0, 2, (16,))
    hook.set_mode(smd.modes.TRAIN)
    for _ in range(TRAIN_STEPS):
        optimizer.zero_grad()
        loss_fn(net(x), y).backward()
        optimizer.step()
    hook.set_mode(smd.modes.EVAL)
    with torch.no_grad():
        for _ in range(EVAL_STEPS):
            loss_fn(net(x), y)
    hook.close()


def _train_xgboost() -> None:
    import numpy as np
    import xgboost as xgb
    from smdebug.xgboost import Hook

    features = np.random.default_rng(0).normal(size=(64, 4))
    train = xgb.DMatrix(features, label=(features[:, 0] > 0).astype(int))
    hook = Hook.create_from_json_file()
    hook.train_data = train
    xgb.train(
        {"objective": "binary:logistic", "max_depth": 2},
        train,
        num_boost_round=ROUNDS,
        evals=[(train, "train")],
        callbacks=[hook],
    )


def _read(out_dir: str, modes: Dict[str, int]) -> Dict[str, Dict[str, List[int]]]:
    from smdebug.core.modes import ModeKeys
    from smdebug.trials import create_trial

    trial = create_trial(out_dir)
    saved = {}
    for name in trial.tensor_names():
        steps = {mode: trial.tensor(name).steps(mode=ModeKeys[mode]) for mode in modes}
        saved[name] = {mode: s for mode, s in steps.items() if s}
    return saved


if __name__ == "__main__":
    _work(sys.argv[1], sys.argv[2])
    sys.exit(0)


# --- the tests ---------------------------------------------------------------------------------

pytest.importorskip("torch", reason="needs torch: scripts/test_smdebug_run.sh")
pytest.importorskip("smdebug", reason="needs smdebug: scripts/test_smdebug_run.sh")

from sm_debug_config import (  # noqa: E402 - for the tests, not the worker above
    CollectionConfig,
    DebuggerHookConfig,
    Rule,
    explain,
    render,
    rule_configs,
)
from sm_debug_config.explaining import effective_save_config  # noqa: E402 - for the tests, not the worker above
from sm_debug_config.validation import validate  # noqa: E402 - for the tests, not the worker above

US = {"region": "us-east-1", "output_path": "s3://bucket/out/"}

#: Every tensor the model above emits (smdebug's names), and the built-in collections it falls in.
PARAMETERS = ["Net_fc1.weight", "Net_fc1.bias", "Net_fc2.weight", "Net_fc2.bias"]
TENSORS = (
    PARAMETERS
    + [f"gradient/{p}" for p in PARAMETERS]
    + [f"{m}_{io}_0" for m in ("fc1", "relu", "fc2") for io in ("input", "output")]
    + ["CrossEntropyLoss_output_0"]
)
BUILTIN = {
    "weights": lambda t: t.startswith("Net_") and t.endswith(".weight"),
    "biases": lambda t: t.startswith("Net_") and t.endswith(".bias"),
    "gradients": lambda t: t.startswith("gradient/"),
    "losses": lambda t: t.startswith("CrossEntropyLoss_output"),
}


def run_job(where: Any, hook: Dict[str, Any], out_dir: Any = None, framework: str = "pytorch") -> Dict[str, Any]:
    """Train with ``hook`` in a subprocess working in ``where``; what it saved (or died of)."""
    job, result = where / "job.json", where / "result.json"
    job.write_text(json.dumps({"hook": hook, "out_dir": str(out_dir or where / "tensors"), "framework": framework}))
    subprocess.run([sys.executable, __file__, str(job), str(result)], check=True, timeout=TIMEOUT, capture_output=True)
    return json.loads(result.read_text())  # type: ignore[no-any-return]


def should_save(settings: Dict[str, Any], step: int) -> bool:
    """smdebug 1.0.34 core/save_config.py SaveConfigMode.should_save_step, from the string settings."""
    save_steps = [int(s) for s in settings["save_steps"].split(",")] if settings["save_steps"] else []
    start = int(settings["start_step"])
    end = None if settings["end_step"] is None else int(settings["end_step"])
    in_range = step >= start and (end is None or step < end)
    return step in save_steps or (in_range and step % int(settings["save_interval"]) == 0)


def predict(hook: Dict[str, Any]) -> Dict[str, Dict[str, List[int]]]:
    """Tensor -> mode -> steps, from the rendered DebugHookConfig."""
    hook_params = hook.get("HookParameters") or {}
    configured = {c["CollectionName"]: c.get("CollectionParameters") or {} for c in hook["CollectionConfigurations"]}
    configured.setdefault("losses", {})  # smdebug's PyTorch hook always includes losses
    predicted: Dict[str, Dict[str, List[int]]] = {}
    for tensor in TENSORS:
        for name, params in configured.items():
            regexes = [r.strip() for r in params["include_regex"].split(",")] if "include_regex" in params else []
            if not (BUILTIN.get(name, lambda t: False)(tensor) or any(re.search(r, tensor) for r in regexes)):
                continue
            per_mode = effective_save_config(params, hook_params, "pytorch")
            for mode, count in MODES["pytorch"].items():
                if mode != "TRAIN" and (name == "gradients" or tensor.startswith("gradient/")):
                    # the eval loop has no backward pass; smdebug also skips the gradients collection outside TRAIN
                    continue
                steps = [s for s in range(count) if should_save(per_mode[mode.lower()], s)]
                if steps:
                    merged = set(predicted.setdefault(tensor, {}).get(mode, [])) | set(steps)
                    predicted[tensor][mode] = sorted(merged)
    return predicted


def hook_config(*collections: CollectionConfig, **hook_parameters: str) -> DebuggerHookConfig:
    return DebuggerHookConfig(hook_parameters=hook_parameters or None, collection_configs=list(collections))


def hook_of(*collections: CollectionConfig, **hook_parameters: str) -> Dict[str, Any]:
    """The DebugHookConfig ``render()`` writes for these collections (validation is the tests' business)."""
    rendered = render(
        debugger_hook_config=hook_config(*collections, **hook_parameters),
        validate=False,
        defaults="explicit",
        framework="pytorch",
        **US,
    )
    return rendered["DebugHookConfig"]  # type: ignore[no-any-return]


def with_parameters(hook: Dict[str, Any], index: int, **parameters: str) -> Dict[str, Any]:
    """``hook`` with collection ``index``'s parameters updated: values the constructors refuse, sent as a boto3
    user could."""
    out = json.loads(json.dumps(hook))
    out["CollectionConfigurations"][index].setdefault("CollectionParameters", {}).update(parameters)
    return out  # type: ignore[no-any-return]


def codes(hook: Dict[str, Any]) -> Dict[str, str]:
    return {f.code: f.severity for f in validate({"DebugHookConfig": hook}, framework="pytorch")}


def test_saved_exactly_as_predicted(tmp_path):
    """Intervals per mode, include_regex, start/end steps, save_steps, a tensor in two collections, losses."""
    collections = (
        CollectionConfig("weights"),
        CollectionConfig("gradients", {"save_interval": "3", "eval.save_interval": "1"}),
        CollectionConfig("fc1_all", {"include_regex": "fc1", "save_interval": "4", "save_steps": "1,5"}),
        CollectionConfig(
            "relu", {"include_regex": "relu_output", "start_step": "3", "end_step": "8", "save_interval": "2"}
        ),
    )
    hook_parameters = {"save_interval": "2", "eval.save_interval": "3"}
    hook = hook_of(*collections, **hook_parameters)
    result = run_job(tmp_path, hook)
    assert "error" not in result and not result["disabled"]
    predicted = predict(hook)
    assert result["saved"] == predicted
    # the cases issue 18 names, spelled out
    assert predicted["Net_fc1.weight"]["TRAIN"] == [
        0,
        1,
        2,
        4,
        5,
        6,
        8,
    ]  # weights (every 2) ∪ fc1_all (every 4, plus 1 and 5)
    assert predicted["relu_output_0"]["TRAIN"] == [
        4,
        6,
    ]  # step % interval, from start_step 3, before end_step 8: not 3, 5, 7
    assert predicted["CrossEntropyLoss_output_0"] == {"TRAIN": [0, 2, 4, 6, 8], "EVAL": [0, 3]}  # never asked for
    assert "gradient/Net_fc2.bias" in predicted and "EVAL" not in predicted["gradient/Net_fc2.bias"]
    # explain() names the same collections and intervals; it reports steps as text, per mode only when they differ
    report = explain(
        debugger_hook_config=hook_config(*collections, **hook_parameters),
        defaults="explicit",
        framework="pytorch",
        **US,
    )
    steps = {c["name"]: c["steps"] for c in report["collections"]}
    assert list(steps) == ["weights", "gradients", "fc1_all", "relu"] and "losses" in report["saved_by_default"]
    assert steps["weights"].startswith("TRAIN: every 2 steps") and "EVAL: every 3 steps" in steps["weights"]
    assert "every 4 steps" in steps["fc1_all"] and "plus steps 1,5" in steps["fc1_all"]
    assert "every 2 steps from step 3 until step 8" in steps["relu"]  # saves 4 and 6: "from step 3" reads as 3, 5, 7


def test_save_steps_add_to_the_interval_and_end_step_zero_leaves_only_them(tmp_path):
    added = hook_of(CollectionConfig("weights", {"save_steps": "1,3"}), save_interval="4")
    (tmp_path / "added").mkdir()
    result = run_job(tmp_path / "added", added)
    assert result["saved"]["Net_fc1.weight"]["TRAIN"] == [0, 1, 3, 4, 8]  # the list and the inherited interval
    assert codes(added)["SMD174"] == "info"
    only = hook_of(CollectionConfig("weights", {"save_steps": "1,3", "end_step": "0"}), save_interval="4")
    (tmp_path / "only").mkdir()
    result = run_job(tmp_path / "only", only)
    assert result["saved"]["Net_fc1.weight"] == {"TRAIN": [1, 3], "EVAL": [1, 3]} == predict(only)["Net_fc1.weight"]
    assert "SMD173" not in codes(only) and "SMD174" not in codes(only)


def test_save_interval_minus_one_saves_every_step(tmp_path):
    hook = with_parameters(hook_of(CollectionConfig("weights")), 0, save_interval="-1")
    result = run_job(tmp_path, hook)
    assert result["saved"]["Net_fc1.weight"] == {"TRAIN": list(range(TRAIN_STEPS)), "EVAL": list(range(EVAL_STEPS))}
    assert result["saved"] == predict(hook)
    assert codes(hook)["SMD133"] == "warning"  # it runs (every step): a warning since issue 14
    # and the message says what smdebug did (issue 37: it said "saves no step")
    [finding] = [f for f in validate({"DebugHookConfig": hook}, framework="pytorch") if f.code == "SMD133"]
    assert "saves every step" in finding.message and "no step" not in finding.message


def test_negative_start_step_saves_from_step_zero_and_negative_end_step_nothing(tmp_path):
    """The other SMD133 claims about negative values, as smdebug runs them."""
    start = with_parameters(hook_of(CollectionConfig("weights", {"save_interval": "2"})), 0, start_step="-3")
    (tmp_path / "start").mkdir()
    assert run_job(tmp_path / "start", start)["saved"]["Net_fc1.weight"]["TRAIN"] == [0, 2, 4, 6, 8]
    assert "saves from step 0" in [f for f in validate({"DebugHookConfig": start}) if f.code == "SMD133"][0].message
    end = with_parameters(hook_of(CollectionConfig("weights", {"save_interval": "2"})), 0, end_step="-3")
    (tmp_path / "end").mkdir()
    assert "Net_fc1.weight" not in run_job(tmp_path / "end", end)["saved"]
    assert "saves no step" in [f for f in validate({"DebugHookConfig": end}) if f.code == "SMD133"][0].message


def test_two_rules_regexes_for_one_collection_are_both_saved(tmp_path):
    """Issue 37: two rules saving one collection with different include_regex were refused; the merged entry (the
    union) saves what each rule asked for, as smdebug does with the SDK v2's two entries."""
    rules = [
        Rule.sagemaker(rule_configs.overfit(), name=name,
                       collections_to_save=[CollectionConfig("layers", {"include_regex": regex, "save_interval": "2"})])
        for name, regex in (("First", "fc1_output"), ("Second", "fc2_output"))
    ]
    hook = render(rules, DebuggerHookConfig(), validate=False, defaults="explicit", framework="pytorch",
                  **US)["DebugHookConfig"]
    [layers] = [c for c in hook["CollectionConfigurations"] if c["CollectionName"] == "layers"]
    assert layers["CollectionParameters"] == {"include_regex": "fc1_output,fc2_output", "save_interval": "2"}
    result = run_job(tmp_path, hook)
    assert "error" not in result and result["saved"] == predict(hook)
    assert result["saved"]["fc1_output_0"]["TRAIN"] == result["saved"]["fc2_output_0"]["TRAIN"] == [0, 2, 4, 6, 8]


def test_save_interval_zero_crashes_a_configured_collection(tmp_path):
    hook = with_parameters(hook_of(CollectionConfig("weights")), 0, save_interval="0")
    result = run_job(tmp_path, hook)
    assert result["error"].startswith("ZeroDivisionError")
    assert codes(hook)["SMD132"] == "error"


def test_save_interval_zero_on_the_default_hook_switches_smdebug_off(tmp_path):
    hook = dict(hook_of(), HookParameters={"save_interval": "0"})
    result = run_job(tmp_path, hook)
    assert "error" not in result and result["disabled"] and result["saved"] == {}
    assert codes(hook)["SMD132"] == "error"


def test_comma_in_a_character_class_crashes_the_first_step(tmp_path):
    hook = with_parameters(hook_of(CollectionConfig("fc", {"include_regex": "fc1"})), 0, include_regex="fc[1,2]")
    result = run_job(tmp_path, hook)
    assert result["error"].startswith("error: unterminated character set")  # re.error
    assert codes(hook)["SMD130"] == "error"  # a comma-split piece does not compile


def test_comma_in_a_quantifier_is_split_into_patterns_that_match_nothing(tmp_path):
    hook = with_parameters(hook_of(CollectionConfig("fc", {"include_regex": "fc1"})), 0, include_regex="fc1{1,2}")
    result = run_job(tmp_path, hook)
    assert "error" not in result and sorted(result["saved"]) == ["CrossEntropyLoss_output_0"]  # only losses
    assert result["saved"] == predict(hook)
    assert "SMD131" in codes(hook)  # an error today; a warning would match what happens (see the report)


def test_unknown_collection_without_regex_raises_on_the_first_step(tmp_path):
    hook = hook_of(CollectionConfig("my_layers"))
    result = run_job(tmp_path, hook)
    assert result["error"].startswith("InvalidCollectionConfiguration")
    assert codes(hook)["SMD114"] == "error"


def test_reusing_the_local_path_of_a_finished_run_fails_misleadingly(tmp_path):
    """Not a request problem (each SageMaker job starts with an empty /opt/ml/output/tensors): local runs only."""
    hook = hook_of(CollectionConfig("weights"))
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    assert "error" not in run_job(first, hook, tmp_path / "tensors")
    assert run_job(second, hook, tmp_path / "tensors")["error"].startswith(
        "AttributeError"
    )  # 'Hook' object has no attribute 'prepared_collections'


def test_xgboost_saves_metrics_always_and_the_configured_collections(tmp_path):
    """smdebug's XGBoost hook (script mode) always adds ``metrics``; steps are boosting rounds."""
    pytest.importorskip("xgboost", reason="optional: pip install xgboost 'setuptools<81' into the smdebug venv")
    collections = [CollectionConfig("feature_importance"), CollectionConfig("predictions", {"save_interval": "3"})]
    hook = render(
        debugger_hook_config=DebuggerHookConfig(hook_parameters={"save_interval": "2"}, collection_configs=collections),
        validate=False,
        defaults="explicit",
        framework="xgboost",
        **US,
    )["DebugHookConfig"]
    result = run_job(tmp_path, hook, framework="xgboost")
    assert "error" not in result
    every_2 = {"GLOBAL": [s for s in range(ROUNDS) if s % 2 == 0]}
    by_collection = {
        name: [t for t in result["saved"] if t.startswith(prefix)]
        for name, prefix in (("feature_importance", "feature_importance/"), ("metrics", "train-"))
    }
    assert by_collection["feature_importance"] and by_collection["metrics"] == [
        "train-logloss"
    ]  # metrics: never asked for
    assert sorted(result["saved"]) == sorted(
        by_collection["feature_importance"] + by_collection["metrics"]
    )  # predictions need validation data
    assert all(steps == every_2 for steps in result["saved"].values())
    assert not [f for f in validate({"DebugHookConfig": hook}, framework="xgboost") if f.severity == "error"]
