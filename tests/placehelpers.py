"""Where findings are and where they should be: the places of validate's text output, and the line and column
of a key's text in a file (so that a test computes each expected place from the fixture's text)."""
from __future__ import annotations

import json
import re
from typing import List, Optional, Tuple

FINDING = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): (?P<sev>\w+) (?P<code>SMD\d+) "
                     r"(?:\[\*\] )?(?P<ptr>\S+):")  # CODE [*]: --fix mends it


def places(out: str, code: str) -> List[Tuple[int, int]]:
    """``(line, column)`` of each finding of ``code`` in validate's text output."""
    return [(int(m["line"]), int(m["column"])) for m in map(FINDING.match, out.splitlines()) if m and m["code"] == code]


def place_of(text: str, key: str, nth: int = 0) -> Tuple[int, int]:
    """The line and column where the ``nth`` occurrence of ``key`` (as written) starts in ``text``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(key, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


#: A config file with four mistakes, one per step that finds them (validate of config files, --select/--ignore).
FOUR_MISTAKES = """\
region: us-east-1
output_path: s3://my-bucket/out/
debugger_hook_config:
  collection_configs:
    - name: gradients
      parameters: {save_interval: "0"}
    - name: my_custom
      parameters: {save_interval: "10"}
tensorboard_output_config:
  s3_output_path: s3://my-bucket/tb/
  container_local_output_path: /opt/ml/output/tensorboard
rules:
  - VanishingGradient
  - VanishingGradient
"""

#: (code, request pointer, line, column) of each of the four mistakes
EXPECTED = [
    ("SMD132", "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval", 6, 20),
    ("SMD114", "/DebugHookConfig/CollectionConfigurations/1", 7, 7),
    ("SMD154", "/TensorBoardOutputConfig/LocalPath", 11, 3),
    ("SMD101", "/DebugRuleConfigurations/1/RuleConfigurationName", 14, 5),
]

def cell_lines(path: str, cell: Optional[int]) -> List[str]:
    """The lines a finding's line counts in: the file's, or a notebook code cell's (cells count from 1)."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if cell is None:
        return text.splitlines()
    code = [c for c in json.loads(text)["cells"] if c["cell_type"] == "code"]
    return "".join(code[cell - 1]["source"]).splitlines()
