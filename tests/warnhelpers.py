"""Warnings a test expects. pytest runs with ``filterwarnings = error`` (setup.cfg), so a warning no test
asked for fails the run; a test that expects ConfigWarnings says which, with :func:`config_warnings`, and a
step whose findings are not the point of the test takes them as values (``sm_debug_config.findings.collecting``).
"""
from __future__ import annotations

import contextlib
import os
from typing import Any, Dict, Iterator, Tuple, Union

import pytest

from sm_debug_config import ConfigWarning

#: The codes ``render`` of each example config file (examples/) warns, with the file's own settings.
EXAMPLE_WARNINGS: Dict[str, Tuple[str, ...]] = {
    # CreateXgboostReport brings the hook's collections with save_steps beside the hook's save_interval
    "xgboost-report.yaml": ("SMD174",),
}


def example_warnings(path: Union[str, "os.PathLike[str]"]) -> Tuple[str, ...]:
    """The codes rendering the example at ``path`` warns (:data:`EXAMPLE_WARNINGS`)."""
    return EXAMPLE_WARNINGS.get(os.path.basename(path), ())


@contextlib.contextmanager
def config_warnings(*codes: str) -> Iterator[Any]:
    """The block warns ConfigWarnings of exactly these codes (each at least once) and nothing else; with no
    codes, it warns nothing (the ``error`` filter fails it otherwise). Yields the recorded warnings:
    ``with config_warnings("SMD153"): TensorBoardOutputConfig("s3://b/tb", container_local_output_path="tb")``.
    """
    if not codes:
        yield []
        return
    with pytest.warns(ConfigWarning) as caught:  # pytest re-emits what does not match: another category fails
        yield caught
    found = sorted({w.message.code for w in caught if isinstance(w.message, ConfigWarning)}, key=str)
    assert found == sorted(set(codes)), [str(w.message) for w in caught]
