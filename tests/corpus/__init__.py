"""A corpus of real-world SageMaker Debugger configurations (issue 14).

Each entry is the Debugger part of a configuration that someone published: an AWS example
notebook, the SageMaker Python SDK's guide or tests, the AWS developer guide, a workshop.
The snippet is retyped (not copied) so that it runs under both ``from sagemaker.debugger
import ...`` and ``from sm_debug_config import ...``; placeholders of the source are
replaced by concrete values and the replacement is noted. ``tests/system/test_corpus.py`` sends
every snippet through the SDK v2 Estimator and through ``render()`` and compares.

A snippet may bind ``rules``, ``hook`` (the ``debugger_hook_config``), ``profiler_config``,
``tensorboard_output_config`` and ``disable_profiler``; anything it leaves unbound takes the
Estimator's default.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Mapping, Optional, Tuple

import attr

#: The names a snippet may use: they exist in ``sagemaker.debugger`` and in ``sm_debug_config``.
SHARED_NAMES = (
    "Rule", "ProfilerRule", "rule_configs", "CollectionConfig", "DebuggerHookConfig", "TensorBoardOutputConfig",
    "ProfilerConfig", "FrameworkProfile", "DetailedProfilingConfig", "DataloaderProfilingConfig",
    "PythonProfilingConfig", "HorovodProfilingConfig", "SMDataParallelProfilingConfig", "PythonProfiler",
    "cProfileTimer",
)
#: What a snippet may bind, and the Estimator argument each one becomes.
OUTPUTS = {
    "rules": "rules",
    "hook": "debugger_hook_config",
    "profiler_config": "profiler_config",
    "tensorboard_output_config": "tensorboard_output_config",
    "disable_profiler": "disable_profiler",
}
_ID = re.compile(r"^[a-z0-9](-?[a-z0-9])*$")


def _check_id(_entry: Any, _attribute: Any, value: str) -> None:
    if not _ID.match(value) or len(value) > 50:
        raise ValueError(
            f"entry id {value!r}: lower-case words joined by '-', at most 50 characters (it names a training job)"
        )


@attr.s(frozen=True, kw_only=True, slots=True)
class Entry:
    """One published configuration.

    ``expect`` is ``"renders"`` (the service accepts it, so ``render()`` must produce what the
    SDK v2 sends, up to the documented deliberate differences) or ``"refused: <evidence>"``
    (botocore or the service rejects it, or the rule/training container fails on it).
    ``xfail`` names what issue 14 (or a rendering difference) still has to fix; the test is
    ``xfail(strict=True)`` so that it turns red the day it starts passing.
    ``sdk_fails`` is set when the SDK v2 itself cannot send the request (botocore refuses it),
    with the reason; the comparison then uses the parameters the SDK handed to botocore.
    """

    id: str = attr.ib(validator=_check_id)
    source: str = attr.ib()
    code: str = attr.ib()
    framework: Optional[str] = attr.ib(default=None)
    region: str = attr.ib(default="us-west-2")
    instance_type: str = attr.ib(default="ml.m5.xlarge")
    expect: str = attr.ib(default="renders")
    xfail: str = attr.ib(default="")
    sdk_fails: str = attr.ib(default="")
    note: str = attr.ib(default="")
    #: For refused and xfail entries: a regex the ConfigError of render() matches today, so that
    #: an entry cannot pass or fail for a reason other than the one stated.
    refusal: str = attr.ib(default="")
    #: Local custom-rule sources the snippet names (relative paths); the test creates them.
    files: Tuple[str, ...] = attr.ib(default=())

    @expect.validator
    def _check_expect(self, _attribute: Any, value: str) -> None:
        if value != "renders" and not (value.startswith("refused: ") and len(value) > len("refused: ") + 10):
            raise ValueError(f"expect must be 'renders' or 'refused: <evidence>', not {value!r}")

    @refusal.validator
    def _check_refusal(self, _attribute: Any, value: str) -> None:
        if bool(value) != bool(self.xfail.startswith("issue 14") or self.expect != "renders"):
            raise ValueError(
                f"{self.id}: refusal (the expected ConfigError) goes with 'refused:' entries and issue-14 xfails"
            )

    @property
    def refused(self) -> bool:
        return self.expect != "renders"

    def run(self, names: Mapping[str, Any]) -> Dict[str, Any]:
        """Execute the snippet with ``names`` and return the Estimator arguments it binds."""
        scope: Dict[str, Any] = dict(names)
        exec(compile(self.code, f"<corpus {self.id}>", "exec"), scope)  # noqa: S102 - test data written in this repository
        return {argument: scope[name] for name, argument in OUTPUTS.items() if name in scope}


def family_entries() -> List[Tuple[str, Entry]]:
    """Every entry with the name of its source family (module), in a stable order."""
    from . import devguide, examples, sdk, workshops

    found: List[Tuple[str, Entry]] = []
    for module in (sdk, examples, devguide, workshops):
        family = module.__name__.rsplit(".", 1)[-1]
        found.extend((family, entry) for entry in module.ENTRIES)
    ids = [entry.id for _, entry in found]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"duplicate corpus ids: {duplicates}")
    return found
