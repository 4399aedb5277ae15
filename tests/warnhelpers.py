"""Warnings a test expects. pytest runs with ``filterwarnings = error`` (setup.cfg), so a warning no test
asked for fails the run; a test that expects ConfigWarnings says which, with :func:`config_warnings`, and a
step whose findings are not the point of the test takes them as values (``sm_debug_config.findings.collecting``).
"""
from __future__ import annotations

import contextlib
import os
import warnings
from typing import Any, Dict, Iterator, List, Tuple, Union

from sm_debug_config import ConfigWarning

#: The codes ``render`` of each example config file (examples/) warns, with the file's own settings.
EXAMPLE_WARNINGS: Dict[str, Tuple[str, ...]] = {
    # none: CreateXgboostReport's hyperparameters (save_steps beside the hook's save_interval) are the rule's own
    # default collection, not reported since issue 37
}


def example_warnings(path: Union[str, "os.PathLike[str]"]) -> Tuple[str, ...]:
    """The codes rendering the example at ``path`` warns (:data:`EXAMPLE_WARNINGS`)."""
    return EXAMPLE_WARNINGS.get(os.path.basename(path), ())


@contextlib.contextmanager
def config_warnings(*codes: str) -> Iterator[List[ConfigWarning]]:
    """The block warns ConfigWarnings of exactly these codes (each at least once; none without codes); every other
    warning meets the run's filters as without this block (``error``: the test fails, at the line that warned).
    Yields the ConfigWarnings, filled as they are warned; checked when the block ends (raised or not):
    ``with config_warnings("SMD153"): TensorBoardOutputConfig("s3://b/tb", container_local_output_path="tb")``.

    Not ``pytest.warns``: it re-emits the warnings it does not match as warned from the module ``warnings``
    (pytest-dev/pytest#11933), so that setup.cfg's filters by module (the SDK's own notices) miss them.
    """
    found: List[ConfigWarning] = []
    shown = warnings.showwarning  # pytest's recorder, while a test runs

    def show(message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Any = None) -> None:
        if isinstance(message, ConfigWarning):
            found.append(message)
        else:
            shown(message, category, filename, lineno, file, line)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", ConfigWarning)
            warnings.showwarning = show
            yield found
    finally:  # a block that raises (inside pytest.raises) is checked too
        assert sorted({w.code for w in found}, key=str) == sorted(set(codes)), [str(w) for w in found]
