"""Helpers shared by the configfile tests: positions in a text, errors and warnings of loading one."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, List

import pytest
from hypothesis import strategies as st

from sm_debug_config import configfile as cf
from sm_debug_config.configfile.textedit import _plain_ok
from sm_debug_config.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
EXAMPLE_NAMES = [
    "bert-attention-profiling.yaml",
    "custom-rule.yaml",
    "mxnet-realtime-hook.yaml",
    "rule-customisation.yaml",
    "tensorflow-builtin-rules.yaml",
    "xgboost-report.yaml",
]
CUSTOM_IMAGE = "864354269164.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rule-evaluator:latest"


def at(text, needle, occurrence=1):
    """1-based (line, column) of the start of ``needle`` (its n-th occurrence) in ``text``."""
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def error_of(text, filename="job.yaml", **kwargs) -> cf.ConfigFileError:
    with pytest.raises(ConfigError) as info:
        cf.loads(text, filename=filename, **kwargs)
    return info.value


def render_warnings_of(text, *codes, filename="job.yaml"):
    """The ConfigWarnings of ``codes`` that rendering ``text`` gives, as text: a rule's parameters are checked by the
    one pass over the request (issue 36), so their warnings come at render, each at its key in the file."""
    import warnings

    from sm_debug_config import ConfigWarning

    loaded = cf.loads(text, filename=filename)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConfigWarning)
        loaded.render(region=loaded.region or "us-east-1", output_path=loaded.output_path or "s3://bucket/out/")
    return [str(w.message) for w in caught if getattr(w.message, "code", None) in codes]


def warning_of(text, filename="job.yaml") -> str:
    """The one ConfigWarning loading ``text`` gives (what ran but is probably unintended, issue 14), as text."""
    import warnings

    from sm_debug_config import ConfigWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConfigWarning)
        cf.loads(text, filename=filename)
    messages = [str(w.message) for w in caught if issubclass(w.category, ConfigWarning)]
    assert len(messages) == 1, messages
    return messages[0]


def assert_clean(err: BaseException, prefix: str, position: bool = True) -> str:
    """One line, starts with file:line:col: (or file: when no position applies), no chained traceback."""
    text = str(err)
    assert isinstance(err, cf.ConfigFileError) and isinstance(err, ConfigError)
    assert len(text.splitlines()) == 1, text
    if position:
        assert re.match(rf"^{re.escape(prefix)}:\d+:\d+: \S", text), text
        assert err.line is not None and err.column is not None
    else:
        assert text.startswith(f"{prefix}: "), text
    assert err.__cause__ is None
    assert err.__context__ is None or err.__suppress_context__
    return text


class YamlEmitter:
    """YAML text of a document, each node's style drawn: block or flow, plain or quoted, comments here and there."""

    def __init__(self, draw: Any, newline: str) -> None:
        self.draw, self.nl = draw, newline

    def comment(self) -> str:
        return "  # note" if self.draw(st.integers(0, 4)) == 0 else ""

    def scalar(self, value: Any, flow: bool) -> str:
        if value is None:
            return self.draw(st.sampled_from(["null", "~"]))
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (int, float)):
            return repr(value)
        styles = ["'", '"'] + (["plain"] if _plain_ok(value, flow) else [])
        style = self.draw(st.sampled_from(styles))
        if style == "plain":
            return value
        if style == "'":
            return "'" + value.replace("'", "''") + "'"
        return json.dumps(value, ensure_ascii=False)

    def flow(self, value: Any, indent: int = 0) -> str:
        """``value`` in flow style; a non-empty collection sometimes one member a line, deeper than ``indent``."""
        if isinstance(value, (dict, list)):
            items = [f"{self.scalar(k, True)}: {self.flow(v, indent + 2)}" for k, v in value.items()] if isinstance(
                value, dict) else [self.flow(v, indent + 2) for v in value]
            opener, closer = "{}" if isinstance(value, dict) else "[]"
            if items and self.draw(st.integers(0, 3)) == 0:
                pad = self.nl + " " * (indent + 2)
                return opener + pad + ("," + pad).join(items) + self.nl + " " * (indent + 1) + closer
            return opener + ", ".join(items) + closer
        return self.scalar(value, True)

    def block(self, value: Any, indent: int) -> List[str]:
        """The lines of a non-empty mapping or list in block style at ``indent``."""
        pad, lines = " " * indent, []
        if self.draw(st.integers(0, 5)) == 0:
            lines.append(pad + "# a comment line")
        for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
            head = f"{pad}{self.scalar(key, False)}:" if isinstance(value, dict) else f"{pad}-"
            if isinstance(item, dict) and item and head.endswith("-") and self.draw(st.booleans()):
                inner = self.block(item, indent + 2)  # a compact mapping: its first key on the dash's line
                lines.append(f"{head} {inner[0].lstrip()}")
                lines.extend(inner[1:])
            elif isinstance(item, (dict, list)) and item and self.draw(st.booleans()):
                inner = self.block(item, indent + 2)
                lines.append(head + self.comment())
                lines.extend(inner)
            elif isinstance(item, str) and re.fullmatch(r"[a-z0-9]+( [a-z0-9]+)*", item) and self.draw(st.booleans()):
                lines.append(f"{head} |-{self.comment()}")  # a literal block scalar, its line break stripped
                lines.append(f"{pad}  {item}")
            elif isinstance(item, (dict, list)):
                lines.append(f"{head} {self.flow(item, indent)}{self.comment()}")
            else:
                lines.append(f"{head} {self.scalar(item, False)}{self.comment()}")
        return lines

    def document(self, value: Any) -> str:
        return self.nl.join(self.block(value, 0)) + self.draw(st.sampled_from([self.nl, ""]))
