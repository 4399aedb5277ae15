"""Warnings a test expects. pytest runs with ``filterwarnings = error`` (setup.cfg), so a warning no test
asked for fails the run; a test that expects ConfigWarnings says which, with :func:`config_warnings`, and a
step whose findings are not the point of the test takes them as values (``sm_debug_config.findings.collecting``).
"""
from __future__ import annotations

import contextlib
import os
import warnings
from typing import Dict, Iterator, List, Tuple, Union

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
def config_warnings(*codes: str) -> Iterator[List[ConfigWarning]]:
    """The block warns ConfigWarnings of exactly these codes (each at least once; none without codes), and every
    other warning meets the run's filters where it is warned (the ``error`` filter fails the test, at that line).
    Yields the ConfigWarnings, filled when the block has run (raised or not):
    ``with config_warnings("SMD153"): TensorBoardOutputConfig("s3://b/tb", container_local_output_path="tb")``.

    Not ``pytest.warns``: it re-emits the warnings it does not match as warned from the module ``warnings``
    (pytest-dev/pytest#11933), so that setup.cfg's filters by module (the SDK's own notices) miss them.
    """
    found: List[ConfigWarning] = []
    caught: List[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConfigWarning)
            yield found
    finally:  # a block that raises (inside pytest.raises) is checked too
        found.extend(w.message for w in caught if isinstance(w.message, ConfigWarning))
        assert len(found) == len(caught), [str(w.message) for w in caught]  # another warning a filter shows: none
        assert sorted({w.code for w in found}, key=str) == sorted(set(codes)), [str(w) for w in found]
