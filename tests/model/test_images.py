"""The training-image table (data/containers.json) and the verdicts model/images.py draws from it.

The table is checked for shape (every row has a source, ranges neither overlap nor leave
gaps, ``hook_runs`` agrees with the smdebug version check it cites); the URI parser is checked
against every training image URI the SageMaker Python SDK can produce; and issue 18's
examples are checked word for word.
"""
from __future__ import annotations

import functools
import json
import os
import re
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

from sm_debug_config.model import images
from tests.model.imagehelpers import key, py_versions, sdk_config, table
from tests.repo_scripts import script_path

FRAMEWORK_LINES = ("pytorch", "tensorflow", "mxnet", "xgboost")
HEX40 = re.compile(r"^[0-9a-f]{40}$")


# ----------------------------------------------------------------------------- the data


def test_provenance_names_the_snapshots_it_was_read_from() -> None:
    provenance = table()["_provenance"]
    assert re.match(r"^\d{4}-\d{2}-\d{2}$", provenance["built"])
    repos = {s.get("repo") for s in provenance["snapshots"]}
    assert {"aws/deep-learning-containers", "awslabs/sagemaker-debugger", "aws/sagemaker-xgboost-container"} <= repos
    for snapshot in provenance["snapshots"]:
        assert "url" in snapshot or HEX40.match(snapshot["commit"])


@pytest.mark.parametrize("row", table()["rows"], ids=lambda r: f"{r['line']}-{r['versions']['min']}")
def test_every_row_has_a_source_that_says_where(row: Dict[str, Any]) -> None:
    assert row["sources"], "a row without a source"
    sources = list(row["sources"]) + list(row.get("py2", {}).get("sources", []))
    for source in sources:
        if "url" in source:
            assert source["url"].startswith("https://")
        elif "repo" in source:
            assert "/" in source["repo"]
            if "path" in source or "commit" in source:
                assert HEX40.match(source["commit"]), source
        else:
            assert "smdebug" in source and source["says"], source
        assert source.get("says"), f"source without what it says: {source}"
    if "line" in sources[0]:
        assert isinstance(sources[0]["line"], int) and sources[0]["line"] > 0


@pytest.mark.parametrize("row", table()["rows"], ids=lambda r: f"{r['line']}-{r['versions']['min']}")
def test_row_fields_are_typed(row: Dict[str, Any]) -> None:
    assert row["line"] in table()["lines"]
    if "same_as" in row:
        assert row["same_as"] in FRAMEWORK_LINES
        return
    assert row["smdebug"] is None or images.version_key(row["smdebug"]) is not None
    for name in ("hook_runs", "hook_runs_if_installed", "framework_profiling"):
        assert row[name] in (True, False, None), name
    if row["smdebug"] is None:
        assert row["hook_runs"] is False, "no smdebug in the image, yet the hook runs?"
    if None in (row["hook_runs"], row["hook_runs_if_installed"], row["framework_profiling"]):
        assert row.get("unconfirmed") or row.get("action"), "unknown without saying why"


def line_rows(line: str) -> List[Dict[str, Any]]:
    return sorted((r for r in table()["rows"] if r["line"] == line), key=lambda r: key(r["versions"]["min"]))


@pytest.mark.parametrize("line", sorted(table()["lines"]))
def test_rows_of_a_line_neither_overlap_nor_leave_gaps(line: str) -> None:
    found = line_rows(line)
    assert found, f"line {line} has no rows"
    for row in found:
        if row["versions"]["max"] is not None:
            assert key(row["versions"]["min"]) < key(row["versions"]["max"]), row["versions"]
    for before, after in zip(found, found[1:]):
        assert before["versions"]["max"] is not None, f"{line}: an open row before another"
        assert key(before["versions"]["max"]) == key(after["versions"]["min"]), (before["versions"], after["versions"])


@pytest.mark.parametrize("line", [name for name in table()["lines"] if name not in FRAMEWORK_LINES])
def test_images_built_from_a_framework_image_are_inside_its_rows(line: str) -> None:
    for row in line_rows(line):
        base = line_rows(row["same_as"])
        assert key(base[0]["versions"]["min"]) <= key(row["versions"]["min"])
        last = base[-1]["versions"]["max"]
        assert last is None or key(row["versions"]["max"]) <= key(last)


def test_smdebug_checks_cover_every_release_once() -> None:
    checks = table()["smdebug_checks"]
    assert checks[0]["smdebug"]["min"] is None and checks[-1]["smdebug"]["max"] is None
    for before, after in zip(checks, checks[1:]):
        assert before["smdebug"]["max"] == after["smdebug"]["min"]
    for check in checks:
        assert check["sources"]
        for framework in ("mxnet", "xgboost"):
            assert check[framework] == {"min": None, "max": None}  # smdebug/core/utils.py: always supported


def sample_versions(row: Dict[str, Any]) -> List[str]:
    """The row's lower bound and the highest versions the SDK knows inside it."""
    inside = [v for v in sdk_versions(row["line"]) if within(v, row)]
    return [row["versions"]["min"]] + inside[-3:]


def within(version: str, row: Dict[str, Any]) -> bool:
    top = row["versions"]["max"]
    return key(row["versions"]["min"]) <= key(version) and (top is None or key(version) < key(top))


@pytest.mark.parametrize(
    "row",
    [r for r in table()["rows"] if r["line"] in ("pytorch", "tensorflow", "mxnet") and r["smdebug"] is not None],
    ids=lambda r: f"{r['line']}-{r['versions']['min']}",
)
def test_hook_runs_agrees_with_the_smdebug_check_the_row_cites(row: Dict[str, Any]) -> None:
    for version in sample_versions(row):
        assert images.smdebug_accepts(row["smdebug"], row["line"], version) is row["hook_runs"], version


@pytest.mark.parametrize(
    "row",
    [r for r in table()["rows"] if r["line"] in ("pytorch", "tensorflow", "mxnet")],
    ids=lambda r: f"{r['line']}-{r['versions']['min']}",
)
def test_hook_runs_if_installed_is_the_latest_smdebugs_check(row: Dict[str, Any]) -> None:
    latest = table()["_provenance"]["smdebug_latest"]
    for version in sample_versions(row):
        assert images.smdebug_accepts(latest, row["line"], version) is row["hook_runs_if_installed"], version


PROFILING_DOCUMENTED = {"pytorch": ("1.6", "2.0"), "tensorflow": ("2.3.1", "2.11")}


@pytest.mark.parametrize(
    "row", [r for r in table()["rows"] if "same_as" not in r], ids=lambda r: f"{r['line']}-{r['versions']['min']}"
)
def test_framework_profiling_only_where_documented(row: Dict[str, Any]) -> None:
    documented = PROFILING_DOCUMENTED.get(row["line"])
    inside = documented is not None and all(
        key(documented[0]) <= key(v) < key(documented[1]) for v in sample_versions(row)
    )
    if row["framework_profiling"]:
        assert inside and row["smdebug"] is not None
    elif row["smdebug"] is not None and documented is not None:
        assert not inside or row.get("unconfirmed")


# ----------------------------------------------------------------------------- the SDK's URIs


SDK_LINE = {"pytorch": "pytorch", "tensorflow": "tensorflow", "mxnet": "mxnet", "xgboost": "xgboost"}


def sdk_versions(line: str) -> List[str]:
    framework = {"huggingface-pytorch": "pytorch", "huggingface-tensorflow": "tensorflow"}.get(line, line)
    if framework not in SDK_LINE:
        return []
    found = [
        v for v in sdk_config(framework)["versions"] if images.version_key(v) and len(images.version_key(v) or ()) > 1
    ]
    return sorted(found, key=key)


def sdk_training_uris() -> Iterator[Tuple[str, str, str, Optional[str], str]]:
    """(sdk framework, line, framework version, py version, URI) for every training image the SDK knows."""
    from sagemaker import image_uris, utils

    # retrieve() re-reads botocore's endpoints file on every call (0.2 s): read it once here
    original = utils._botocore_resolver
    utils._botocore_resolver = functools.lru_cache(maxsize=None)(original)
    try:
        yield from _retrieve_all(image_uris)
    finally:
        utils._botocore_resolver = original


def _retrieve_all(image_uris: Any) -> Iterator[Tuple[str, str, str, Optional[str], str]]:
    for framework in ("pytorch", "tensorflow", "mxnet", "xgboost", "huggingface"):
        for version, entry in sdk_config(framework)["versions"].items():
            if framework == "huggingface":
                variants = [(base, sub) for base, sub in entry.items() if base != "version_aliases"]
            else:
                variants = [(None, entry)]
            for base, sub in variants:
                for py in py_versions(sub):
                    for instance_type in ("ml.p3.2xlarge", "ml.c5.xlarge"):
                        try:
                            uri = image_uris.retrieve(
                                framework, "us-east-1", version=version, py_version=py, instance_type=instance_type,
                                image_scope="training", base_framework_version=base,
                            )
                        except ValueError as error:
                            assert "Unsupported processor" in str(error), (framework, version, base, py, error)
                            continue
                        if base is None:
                            yield framework, framework, version, py, uri
                        else:
                            base_framework, base_version = re.match(r"^([a-z]+)([\d.]+)$", base).groups()  # type: ignore[union-attr]
                            yield framework, "huggingface-" + base_framework, base_version, py, uri


@pytest.fixture(scope="module")
def sdk_uris() -> List[Tuple[str, str, str, Optional[str], str]]:
    return list(sdk_training_uris())


DECISION = ("line", "smdebug", "hook_runs", "hook_runs_if_installed", "framework_profiling", "action")


def decision(verdict: Optional[images.ImageVerdict]) -> Optional[Tuple[Any, ...]]:
    return None if verdict is None else tuple(getattr(verdict, name) for name in DECISION)


def test_every_training_image_uri_the_sdk_knows_is_placed(
    sdk_uris: List[Tuple[str, str, str, Optional[str], str]],
) -> None:
    assert len(sdk_uris) > 250
    unplaced = []
    for framework, line, version, py, uri in sdk_uris:
        if framework == "xgboost" and version == "1":
            assert images.place_image_uri(uri) is None, uri  # the legacy "xgboost" algorithm image
            continue
        ref = images.parse_image_uri(uri)
        verdict = images.place_image_uri(uri)
        if ref is None or verdict is None:
            unplaced.append(uri)
            continue
        assert ref.line == line and images.version_key(ref.version) == images.version_key(version), (uri, ref)
        assert ref.py_version == py or (py is None and framework == "xgboost"), (uri, ref)
    assert not unplaced, unplaced


def test_placing_by_version_agrees_with_placing_by_uri(
    sdk_uris: List[Tuple[str, str, str, Optional[str], str]],
) -> None:
    for framework, line, version, py, uri in sdk_uris:
        if framework == "xgboost" and version == "1":
            continue
        by_version = images.place(line, version, py_version=py)
        assert decision(by_version) == decision(images.place_image_uri(uri)), uri
        assert decision(images.image_verdict(framework=line, framework_version=version, image_uri=uri)) == decision(
            by_version
        )


def test_cn_and_other_partitions_parse_the_same() -> None:
    for host in (
        "727897471807.dkr.ecr.cn-north-1.amazonaws.com.cn",
        "763104351884.dkr.ecr.us-east-1.amazonaws.com",
        "",
    ):
        uri = (host + "/" if host else "") + "pytorch-training:2.3.0-gpu-py311-cu121-ubuntu20.04-sagemaker"
        ref = images.parse_image_uri(uri)
        assert ref is not None and (ref.line, ref.version, ref.py_version) == ("pytorch", "2.3.0", "py311")


@pytest.mark.parametrize(
    "uri",
    [
        "123456789012.dkr.ecr.us-east-1.amazonaws.com/my-training:2.3.0",
        "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training@sha256:" + "0" * 64,
        "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:latest",
        "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training",
        "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training-neuronx:2.1.2-neuronx-py310-sdk2.20.0-ubuntu20.04",
        "811284229777.dkr.ecr.us-east-1.amazonaws.com/xgboost:1",
        "",
        "::::",
    ],
)
def test_an_image_it_cannot_place_is_none(uri: str) -> None:
    assert images.place_image_uri(uri) is None


@pytest.mark.parametrize(
    "args",
    [
        ("pytorch", "custom"),
        ("pytorch", ""),
        ("jax", "0.4"),
        ("xgboost", "1"),
        ("xgboost", "latest"),
        (None, "2.3"),
        ("pytorch", None),
        ("pytorch", 2.3),
    ],
)
def test_a_version_it_cannot_place_is_none(args: Tuple[Any, Any]) -> None:
    assert images.place(*args) is None
    assert images.image_verdict(framework=args[0], framework_version=args[1], image_uri=None) is None


def test_a_custom_image_is_not_guessed_from_the_framework_version() -> None:
    custom = "123456789012.dkr.ecr.us-east-1.amazonaws.com/my-pytorch:2.3.0"
    assert images.image_verdict(framework="pytorch", framework_version="2.3", image_uri=custom) is None
    assert images.image_verdict(framework="pytorch", framework_version="2.3") is not None


def test_non_string_uris_are_none() -> None:
    for value in (None, 3, b"pytorch-training:2.3.0", ["x"]):
        assert images.parse_image_uri(value) is None and images.place_image_uri(value) is None


# ----------------------------------------------------------------------------- issue 18's examples


def test_pytorch_2_3_has_no_smdebug_but_the_hook_would_run_if_installed() -> None:
    verdict = images.image_verdict(
        image_uri="763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.3.0-gpu-py311-cu121-ubuntu20.04-sagemaker"
    )
    assert verdict is not None
    assert (verdict.smdebug, verdict.hook_runs, verdict.hook_runs_if_installed, verdict.framework_profiling) == (
        None,
        False,
        True,
        False,
    )
    assert verdict.action == (
        "add smdebug to requirements.txt; in the script: smdebug.pytorch.Hook.create_from_json_file(), "
        "hook.register_module(model)"
    )
    assert "#3432" in verdict.reason and "deep-learning-containers@" in verdict.reason
    assert (verdict.python, verdict.hook_off) == (("py311",), "has no smdebug")


def test_tensorflow_2_12_ships_smdebug_1_0_33_that_disables_itself() -> None:
    verdict = images.place("tensorflow", "2.12.0")
    assert verdict is not None
    assert (verdict.smdebug, verdict.hook_runs, verdict.hook_runs_if_installed) == ("1.0.33", False, False)
    assert "version check" in verdict.reason
    assert verdict.action == (
        "smdebug 1.0.34 rejects TensorFlow >= 2.12: use a TensorFlow >= 1.15, < 2.12 image, or TensorBoard"
    )
    assert verdict.hook_off == "has smdebug 1.0.33, which switches itself off"
    assert any("smdebug/tensorflow/utils.py#L20" in s for s in verdict.sources)


def test_tensorflow_2_15_nothing_runs() -> None:
    verdict = images.place("tensorflow", "2.15")
    assert verdict is not None
    assert (verdict.smdebug, verdict.hook_runs, verdict.hook_runs_if_installed, verdict.framework_profiling) == (
        None,
        False,
        False,
        False,
    )
    assert verdict.action.startswith("smdebug 1.0.34 rejects TensorFlow >= 2.12: use a TensorFlow >= 1.15, < 2.12")


def test_xgboost_1_7_1_runs() -> None:
    verdict = images.place_image_uri("683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-xgboost:1.7-1")
    assert verdict is not None
    assert (verdict.smdebug, verdict.hook_runs, verdict.framework_profiling, verdict.action) == (
        "1.0.29",
        True,
        False,
        "",
    )


def test_xgboost_3_0_5_ships_smdebug_but_no_longer_adds_the_hook() -> None:
    verdict = images.place("xgboost", "3.0-5")
    assert verdict is not None
    assert (verdict.smdebug, verdict.hook_runs) == ("1.0.32", False)
    assert "1.7-1" in verdict.action


def test_pytorch_1_13_runs_and_profiles_2_0_runs_without_framework_profiling() -> None:
    old, new = images.place("pytorch", "1.13"), images.place("pytorch", "2.0.1")
    assert old is not None and new is not None
    assert (old.smdebug, old.hook_runs, old.framework_profiling, old.action) == ("1.0.34", True, True, "")
    assert (new.smdebug, new.hook_runs, new.framework_profiling) == ("1.0.34", True, False)
    assert "not supported" in new.reason


def test_huggingface_images_take_the_row_of_the_image_they_are_built_from() -> None:
    uri = (
        "763104351884.dkr.ecr.us-east-1.amazonaws.com/"
        "huggingface-pytorch-training:2.1.0-transformers4.36.0-gpu-py310-cu121-ubuntu20.04"
    )
    verdict, base = images.place_image_uri(uri), images.place("pytorch", "2.1.0")
    assert verdict is not None and base is not None
    assert verdict.line == "huggingface-pytorch" and verdict.framework == "pytorch"
    assert (verdict.smdebug, verdict.hook_runs, verdict.hook_runs_if_installed) == (
        base.smdebug,
        base.hook_runs,
        base.hook_runs_if_installed,
    )
    assert verdict.reason.startswith("Hugging Face PyTorch training images are built FROM")
    old_tf = images.place("huggingface-tensorflow", "2.6.3")
    assert old_tf is not None and old_tf.hook_runs is True


def test_python2_images_have_no_smdebug() -> None:
    py2 = images.place_image_uri("763104351884.dkr.ecr.us-east-1.amazonaws.com/tensorflow-training:2.1.0-gpu-py2")
    py3 = images.place_image_uri("763104351884.dkr.ecr.us-east-1.amazonaws.com/tensorflow-training:2.1.0-gpu-py3")
    assert py2 is not None and py3 is not None
    assert (py2.smdebug, py2.hook_runs, py2.hook_runs_if_installed) == (None, False, False)
    assert "Python 3" in py2.action
    assert (py3.smdebug, py3.hook_runs) == ("0.9.3", True)


def test_a_short_version_shared_by_rows_that_disagree_is_unknown_where_they_differ() -> None:
    short, full = images.place("tensorflow", "2.3"), images.place("tensorflow", "2.3.2")
    assert short is not None and full is not None
    assert short.hook_runs is True and short.framework_profiling is None and short.smdebug == "0.9.3 or 1.0.9"
    assert "full version" in short.reason
    assert (full.framework_profiling, full.smdebug) == (True, "1.0.9")


def test_verdict_is_plain_data() -> None:
    verdict = images.place("mxnet", "1.9.0")
    assert verdict is not None
    as_dict = verdict.to_dict()
    assert json.loads(json.dumps(as_dict)) == as_dict
    assert as_dict["sources"] and as_dict["line"] == "mxnet"


def test_importing_the_module_loads_no_data_and_nothing_heavy() -> None:
    import subprocess
    import sys

    code = (
        "import sys; import sm_debug_config.model.images as m; "
        "from sm_debug_config import datafiles; "
        "assert datafiles.load.cache_info().currsize == 0, 'loaded at import'; "
        "heavy = [n for n in ('boto3', 'botocore', 'sagemaker', 'jsonschema', 'yaml') if n in sys.modules]; "
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=dict(os.environ))


DLC_CLONE = os.environ.get("SM_DEBUG_CONFIG_DLC_CLONE", "/work/.mirror/aws+deep-learning-containers/repo")


@pytest.mark.skipif(
    not os.path.isdir(DLC_CLONE), reason="no aws/deep-learning-containers clone (set SM_DEBUG_CONFIG_DLC_CLONE)"
)
def test_the_cited_dockerfile_lines_still_say_what_the_table_quotes() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, script_path("refresh_containers"), DLC_CLONE, "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
