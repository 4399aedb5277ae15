"""`sm-debug-config validate` of config files: every finding in one run, one code and one request
path per problem whichever step finds it, and file:line:col in every output format (issue 22, items 3-4)."""
import json
import os

import pytest

from sm_debug_config import cli as cli_module
from sm_debug_config.configfile import load_with_errors
from sm_debug_config.validation import validate

from tests.pairhelpers import CONFIG_CASES
from tests.placehelpers import EXPECTED, FOUR_MISTAKES

ROOT_FOR_REGION = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

def run(capsys, *argv):
    code = cli_module.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def four(tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text(FOUR_MISTAKES)
    return path


def test_four_independent_mistakes_in_one_run(capsys, four):
    code, out, _ = run(capsys, "validate", "--format", "json", str(four))
    assert code == 1
    findings = json.loads(out)["files"][0]["findings"]
    assert [(f["code"], f["path"], f["line"], f["column"]) for f in findings] == EXPECTED
    assert all(f["severity"] == "error" for f in findings)


def test_a_construction_error_has_the_code_and_path_of_the_request_check(capsys, four):
    # the same mistakes written as a request: the config file's findings are the request's, positioned
    _, out, _ = run(capsys, "validate", "--format", "json", str(four))
    from_file = {(f["code"], f["path"]) for f in json.loads(out)["files"][0]["findings"]}
    config, _ = load_with_errors(four)
    request = config.render(validate=False)
    assert from_file == {(f.code, f.pointer) for f in validate(request) if f.severity == "error"}


def test_text_and_github_outputs_have_line_and_column(capsys, four):
    _, text, _ = run(capsys, "validate", str(four))
    lines = text.splitlines()
    source = FOUR_MISTAKES.splitlines()
    assert len(lines) == 3 * len(EXPECTED) + 1  # each finding, its source line and the carets under it
    for (code, pointer, line, column), (printed, shown, carets) in zip(EXPECTED, zip(*[iter(lines)] * 3)):
        assert printed.startswith(f"{four}:{line}:{column}: error {code} {pointer}: ")
        gutter = f"  {line} | "
        assert shown == gutter + source[line - 1] and carets.index("^") == len(gutter) + column - 1
    assert lines[-1] == "1 file: 4 errors, 0 warnings, 0 infos"
    _, github, _ = run(capsys, "validate", "--format", "github", str(four))
    for (code, pointer, line, column), printed in zip(EXPECTED, github.splitlines()):
        assert printed.startswith(f"::error file={four},line={line},col={column},title={code} {pointer}::")


def config_findings(capsys, tmp_path, text):
    """``validate --format json`` of a config file written with ``text``: its findings."""
    path = tmp_path / "job.yaml"
    path.write_text(text)
    _, out, _ = run(capsys, "validate", "--format", "json", str(path))
    return json.loads(out)["files"][0]["findings"]


@pytest.mark.parametrize("code, pointer, bad, good", CONFIG_CASES, ids=[c[0] for c in CONFIG_CASES])
def test_config_codes_fire_on_bad_and_not_on_near_identical_good(capsys, tmp_path, code, pointer, bad, good):
    assert (code, pointer) in {(f["code"], f["path"]) for f in config_findings(capsys, tmp_path, bad)}
    assert config_findings(capsys, tmp_path, good) == []

def test_an_error_no_request_check_sees_keeps_smd002_at_its_key(capsys, tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text(
        "region: us-east-1\ntensorboard_output_config: {s3_output_path: s3://b/tb, colour: red}\n"
        "rules: [Overfit, Overfit]\n"
    )
    _, out, _ = run(capsys, "validate", "--format", "json", str(path))
    found = [(f["code"], f["path"], f["line"], f["column"]) for f in json.loads(out)["files"][0]["findings"]]
    # the unknown key is left out, the rest is still rendered and checked
    assert found == [
        ("SMD002", "/TensorBoardOutputConfig/colour", 2, 56),
        ("SMD101", "/DebugRuleConfigurations/1/RuleConfigurationName", 3, 18),
    ]


def test_a_broken_collection_does_not_hide_its_neighbours(capsys, tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text(
        "region: us-east-1\ndebugger_hook_config:\n  collection_configs:\n    - {name: a, parameters: [1]}\n"
        "    - {name: b, parameters: {include_regex: '('}}\n"
    )
    _, out, _ = run(capsys, "validate", "--format", "json", str(path))
    codes = [(f["code"], f["line"]) for f in json.loads(out)["files"][0]["findings"]]
    assert codes == [("SMD002", 4), ("SMD130", 5)]


def test_unknown_top_level_key_does_not_hide_the_rest(capsys, tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text("region: us-east-1\nrulez: []\nrules: [Overfit, Overfit]\n")
    _, out, _ = run(capsys, "validate", "--format", "json", str(path))
    found = [(f["code"], f["path"], f["line"]) for f in json.loads(out)["files"][0]["findings"]]
    assert found == [("SMD002", "", 2), ("SMD101", "/DebugRuleConfigurations/1/RuleConfigurationName", 3)]


def test_a_bad_setting_is_reported_and_the_rest_validated(capsys, tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text("region: us-east-1\nframework: pytorc\nrules: [Overfit, Overfit]\n")
    _, out, _ = run(capsys, "validate", "--format", "json", str(path))
    found = [(f["code"], f["line"]) for f in json.loads(out)["files"][0]["findings"]]
    assert found[0][1] == 2 and ("SMD101", 3) in found


def test_the_python_loader_still_refuses_the_first_error_with_all_of_them(four):
    from sm_debug_config.configfile import ConfigFileError, load

    with pytest.raises(ConfigFileError) as caught:
        load(four)
    assert [e.code for e in caught.value.errors] == ["SMD132", "SMD154"]  # the request-level ones need a render


def test_load_with_errors_keeps_refused_values_as_written(four):
    config, errors = load_with_errors(four)
    assert [(e.line, e.column, e.code) for e in errors] == [(6, 20, "SMD132"), (11, 3, "SMD154")]
    assert config.tensorboard_output_config.container_local_output_path == "/opt/ml/output/tensorboard"


def test_request_json_findings_have_columns(capsys, tmp_path):
    path = tmp_path / "request.json"
    path.write_text(
        json.dumps(
            {"TrainingJobName": "j", "TensorBoardOutputConfig": {"S3OutputPath": "s3://b/o", "LocalPath": "/opt/ml/x"}},
            indent=2,
        )
    )
    _, out, _ = run(capsys, "validate", str(path))
    assert out.startswith(f"{path}:5:5: error SMD154 /TensorBoardOutputConfig/LocalPath: ")


@pytest.mark.parametrize(
    "content, position", [(b"rules: [Overfit\n", (2, 1)), (b'{"rules": [1,, 2]}', (1, 14))], ids=["yaml", "json"]
)
def test_unreadable_file_annotation_has_its_position(capsys, tmp_path, content, position):
    path = tmp_path / ("job.json" if content.startswith(b"{") else "job.yaml")
    path.write_bytes(content)
    code, out, _ = run(capsys, "validate", "--format", "github", str(path))
    assert code == 2
    line, column = position
    assert out.startswith(f"::error file={path},line={line},col={column},title=unreadable::")
    code, out, _ = run(capsys, "validate", "--format", "json", str(path))
    entry = json.loads(out)["files"][0]
    assert (entry["line"], entry["column"]) == position and entry["error"]


def test_missing_file_annotation_has_no_position(capsys, tmp_path):
    code, out, _ = run(capsys, "validate", "--format", "github", str(tmp_path / "missing.yaml"))
    assert code == 2 and out.startswith(f"::error file={tmp_path / 'missing.yaml'},title=unreadable::")


def test_a_bad_aws_region_stops_only_what_would_fall_back_to_it(monkeypatch, capsys):
    """--region wins over the environment: a junk AWS_REGION matters only where no region is given."""
    monkeypatch.setenv("AWS_REGION", "junk")
    example = os.path.join(ROOT_FOR_REGION, "examples", "tensorflow-builtin-rules.yaml")
    assert cli_module.main(["validate", "--region", "eu-west-1", example]) == 0
    assert cli_module.main(["lint", "--region", "eu-west-1", os.path.join(ROOT_FOR_REGION, "examples", "launchers",
                                                               "launch_v2.py")]) == 0
    capsys.readouterr()
    assert cli_module.main(["validate", example]) == 2 and "AWS_REGION" in capsys.readouterr().err
