"""model/images: the Python of an image (from its tag, else the SDK's list) and the remedy SMD170 gives per
framework and Python (issue 30). The image table itself is tested in test_images.py."""
from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional, Tuple

import pytest

from sm_debug_config.model import images
from tests.model.imagehelpers import DLC, MX_HOOK, PT_HOOK, SDK_FRAMEWORKS, key, py_versions, sdk_config, table

FRAMEWORK_LINES = ("pytorch", "tensorflow", "mxnet", "xgboost")
HEX40 = re.compile(r"^[0-9a-f]{40}$")


def test_python_of_each_version_is_what_the_sdk_lists() -> None:
    expected = {fw: {v: py_versions(e) for v, e in sdk_config(fw)["versions"].items()} for fw in SDK_FRAMEWORKS}
    expected = {fw: {v: [t for t in tags if t] for v, tags in by.items()} for fw, by in expected.items()}
    assert table()["python"]["versions"] == expected, "python.versions: refresh from the SDK's image_uri_config"


def test_a_bare_py3_tag_is_only_on_the_versions_the_data_names() -> None:
    """python_at_least takes a bare py3 for Python < 3.12 because only these old versions carry it."""
    bare = table()["python"]["bare_py3"]
    assert images.version_key(bare["below"]) == (3, 12)
    for framework, last in bare["last_versions"].items():
        carrying = [v for v, tags in table()["python"]["versions"][framework].items() if "py3" in tags]
        assert max(carrying, key=key) == last, framework


@pytest.mark.parametrize(
    "verdict, python",
    [
        (lambda: images.place_image_uri(DLC + "pytorch-training:2.6.0-gpu-py312-cu126-ubuntu22.04-sagemaker"),
         ("py312",)),
        (lambda: images.place("pytorch", "2.6"), ("py312",)),  # the SDK's only Python for 2.6.0
        (lambda: images.place("pytorch", "2.3.0"), ("py311",)),
        (lambda: images.place("pytorch", "2.9"), ()),  # the SDK lists no 2.9: not known
        (lambda: images.place("pytorch", "1.4"), ("py3", "py36")),  # py2 left out beside Python 3
        (lambda: images.place("tensorflow", "1.10"), ("py2",)),  # only py2 images
        (lambda: images.place_image_uri(
            DLC + "huggingface-pytorch-training:2.1.0-transformers4.36.0-gpu-py310-cu121-ubuntu20.04"), ("py310",)),
        (lambda: images.place("xgboost", "1.7-1"), ()),
    ],
)
def test_the_image_python_comes_from_the_tag_else_the_sdk(verdict: Any, python: Tuple[str, ...]) -> None:
    placed = verdict()
    assert placed is not None and placed.python == python
    assert placed.to_dict()["python"] == list(python)


@pytest.mark.parametrize(
    "tags, threshold, expected",
    [
        (("py312",), "3.12", True),
        (("py311",), "3.12", False),
        (("py310", "py312"), "3.12", None),
        (("py3", "py36"), "3.12", False),  # bare py3: an image older than Python 3.12
        (("py3",), "3.6", None),  # ... but which 3.x is not known
        (("py2",), "3.6", False),
        (("py36",), "3.6", True),
        ((), "3.12", None),
        (("python3",), "3.12", None),
    ],
)
def test_python_at_least(tags: Tuple[str, ...], threshold: str, expected: Optional[bool]) -> None:
    assert images.python_at_least(tags, threshold) is expected


@pytest.mark.parametrize(
    "place, action",
    [
        # an image without smdebug on Python < 3.12: install it and create the hook in the script
        (lambda: images.place_image_uri(DLC + "pytorch-training:2.1.0-gpu-py310-cu121-ubuntu20.04-sagemaker"),
         f"add smdebug to requirements.txt; in the script: {PT_HOOK}"),
        # Python 3.12: smdebug imports distutils from setuptools, which torch requires there: the same remedy
        (lambda: images.place_image_uri(DLC + "pytorch-training:2.6.0-gpu-py312-cu126-ubuntu22.04-sagemaker"),
         f"add smdebug to requirements.txt; in the script: {PT_HOOK}"),
        (lambda: images.place("pytorch", "2.9"), f"add smdebug to requirements.txt; in the script: {PT_HOOK}"),
        # a framework whose package is not known to bring setuptools: named on 3.12, and when the Python is unknown
        (lambda: images.place_image_uri(DLC + "mxnet-training:1.5.0-cpu-py312"),
         f"add smdebug and setuptools to requirements.txt; in the script: {MX_HOOK}"),
        (lambda: images.place("mxnet", "1.5.0"),
         f"add smdebug (+ setuptools on Python 3.12+) to requirements.txt; in the script: {MX_HOOK}"),
        (lambda: images.place_image_uri(DLC + "sagemaker-mxnet:1.4.1-cpu-py3"),
         f"add smdebug to requirements.txt; in the script: {MX_HOOK}"),
        (lambda: images.place("mxnet", "1.4.1"), f"add smdebug to requirements.txt; in the script: {MX_HOOK}"),
        (lambda: images.place_image_uri(DLC + "sagemaker-mxnet:1.4.1-cpu-py2"),
         "smdebug needs Python 3 (python_requires >= 3.6): use the py3 image of this version"),
    ],
)
def test_the_remedy_depends_on_the_framework_and_the_python(place: Any, action: str) -> None:
    verdict = place()
    assert verdict is not None and (verdict.hook_runs, verdict.hook_off) == (False, "has no smdebug")
    assert verdict.action == action


def test_the_reason_says_where_distutils_comes_from_on_python_3_12() -> None:
    new = images.place_image_uri(DLC + "pytorch-training:2.6.0-gpu-py312-cu126-ubuntu22.04-sagemaker")
    old = images.place_image_uri(DLC + "pytorch-training:2.1.0-gpu-py310-cu121-ubuntu20.04-sagemaker")
    assert new is not None and old is not None
    assert "image Python py312: on Python >= 3.12 smdebug imports distutils from setuptools (required by" in new.reason
    assert "image Python py310" in old.reason and "distutils" not in old.reason
    # explain's sources carry the evidence the one-line message leaves out
    assert "smdebug 1.0.34 smdebug/core/config_validator.py#L3 (from distutils.util import strtobool)" in new.sources
    assert any(s.startswith("torch 2.6.0 (Requires-Dist: setuptools") for s in new.sources)
    assert any(s.startswith("measured 2026-11-27 (") for s in new.sources)
    assert any("register_module" in s for s in old.sources) and not any("distutils" in s for s in old.sources)


def test_where_nothing_in_smdebug_runs_the_images_that_do_are_named() -> None:
    old = images.place("pytorch", "1.2")
    assert old is not None and old.action == (
        "smdebug 1.0.34 rejects PyTorch < 1.5: use a PyTorch >= 1.3, < 2.1 image, or TensorBoard"
    )


def test_every_framework_has_a_script_hook() -> None:
    hooks = table()["script_hooks"]
    assert set(hooks) == set(images.FRAMEWORK_TITLES)
    for framework, hook in hooks.items():
        assert hook["create"].startswith(f"smdebug.{framework}.")
        assert hook["create"].endswith(".create_from_json_file()")
        assert hook["setuptools_on_py312"] in (True, None) and hook["sources"] and hook["register"]


def fact_sources() -> List[Dict[str, Any]]:
    return list(table()["smdebug_imports"]["sources"]) + [
        s for hook in table()["script_hooks"].values() for s in hook["sources"]
    ]


def test_the_smdebug_facts_have_sources_that_say_what() -> None:
    for source in fact_sources():
        assert source.get("says"), source
        assert {"smdebug", "package", "url", "note", "repo"} & set(source), source
        assert images.format_source(source)


def test_the_smdebug_lines_the_facts_quote_are_in_the_installed_smdebug() -> None:
    """The oracle: smdebug 1.0.34's own files (skipped where smdebug is not installed)."""
    import importlib.metadata
    import importlib.util

    spec = importlib.util.find_spec("smdebug")
    if spec is None or spec.origin is None:
        pytest.skip("smdebug, this test's oracle, is not installed here")
    facts = table()["smdebug_imports"]
    assert importlib.metadata.version("smdebug") == facts["smdebug"] == table()["_provenance"]["smdebug_latest"]
    assert importlib.metadata.metadata("smdebug")["Requires-Python"] == ">=" + facts["requires_python"]
    root = os.path.dirname(os.path.dirname(spec.origin))
    quoted = [s for s in fact_sources() if "smdebug" in s and "line" in s]
    assert len(quoted) >= 6
    for source in quoted:
        with open(os.path.join(root, source["path"]), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        assert lines[source["line"] - 1].strip() == source["says"], source
