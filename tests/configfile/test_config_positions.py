"""A config file's findings at the key of the value they are about (validate), not at the enclosing object; the
expected place computed from the file's text (``tests/placehelpers.py``).
"""
from __future__ import annotations

import json

from tests.placehelpers import place_of, places

CONFIG_YAML = """\
region: us-east-1
output_path: s3://bucket/out/
framework: pytorch
debugger_hook_config:
  hook_parameters:
    save_interval: "0"
  collection_configs:
    - name: gradients
      parameters: {end_step: "-3", save_interval: "0"}
rules:
  - builtin: VanishingGradient
    rule_parameters: {threshold: "abc"}
  - builtin: LossNotDecreasing
    collections_to_save:
      - name: losses
        parameters:
          save_interval: "0"
"""


def test_a_config_files_findings_are_at_their_keys(cli, tmp_path):
    for name, text in (("job.yaml", CONFIG_YAML), ("job.json", json.dumps(_yaml(CONFIG_YAML), indent=2))):
        config = tmp_path / name
        config.write_text(text)
        result = cli("validate", str(config))
        key = (lambda k: f'"{k}"') if name.endswith(".json") else (lambda k: f"{k}:")
        assert sorted(places(result.stdout, "SMD132")) == sorted(
            place_of(text, key("save_interval"), n) for n in range(3)), result.stdout
        assert places(result.stdout, "SMD133") == [place_of(text, key("end_step"))]
        assert places(result.stdout, "SMD121") == [place_of(text, key("threshold"))]


def _yaml(text: str) -> object:
    import yaml

    return yaml.safe_load(text)


def test_a_rules_default_collection_is_not_reported_the_users_own_is_at_its_key(cli, tmp_path):
    """The report rule's default ``hyperparameters`` collection (``save_steps: "0"``) is written nowhere in the
    file: the rule's own choice, not reported (issue 37: SMD173/SMD174 fired on it); the same collection written with
    other steps in the hook config is reported at its key."""
    text = ("region: us-east-1\noutput_path: s3://bucket/out/\nframework: xgboost\n"
            "debugger_hook_config:\n  hook_parameters:\n    save_interval: \"5\"\n"
            "rules:\n  - builtin: LossNotDecreasing\n  - builtin: CreateXgboostReport\n")
    config = tmp_path / "job.yaml"
    config.write_text(text)
    result = cli("validate", str(config))
    assert places(result.stdout, "SMD174") == [], result.stdout
    own = text.replace("    save_interval: \"5\"\n", "    save_interval: \"5\"\n  collection_configs:\n"
                       "    - name: hyperparameters\n      parameters: {save_steps: \"0,1\"}\n")
    config.write_text(own)
    result = cli("validate", str(config))
    assert places(result.stdout, "SMD174") == [place_of(own, "save_steps")], result.stdout


def test_a_finding_about_one_action_of_a_list_is_at_that_item(cli, tmp_path):
    """Issue 37: SMD155 of the third action pointed at ``rule_parameters:``; it is at the ``- sms:`` item (its request
    pointer names the action's index in action_json)."""
    text = ("region: us-east-1\noutput_path: s3://my-bucket/out/\njob_name: my-job\nrules:\n"
            "  - builtin: Overtraining\n    rule_parameters:\n      patience_validation: 5\n    actions:\n"
            "      - stop_training: {}\n      - email: ml-team@example.com\n      - sms: \"4155550100\"\n")
    config = tmp_path / "job.yaml"
    config.write_text(text)
    result = cli("validate", "--format", "json", str(config))
    [finding] = json.loads(result.stdout)["files"][0]["findings"]
    assert (finding["code"], finding["path"]) == ("SMD155", "/DebugRuleConfigurations/0/RuleParameters/action_json/2")
    assert (finding["line"], finding["column"]) == place_of(text, "sms:")
    one = text.replace("    actions:\n      - stop_training: {}\n      - email: ml-team@example.com\n      - sms:",
                       "    actions:\n      sms:")  # one action alone: at actions (the whole action_json)
    config.write_text(one)
    [alone] = json.loads(cli("validate", "--format", "json", str(config)).stdout)["files"][0]["findings"]
    assert alone["path"] == "/DebugRuleConfigurations/0/RuleParameters/action_json"
    assert (alone["line"], alone["column"]) == place_of(one, "actions:")
