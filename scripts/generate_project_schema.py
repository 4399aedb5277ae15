#!/usr/bin/env python3
"""Generate ``sm_debug_config/data/project_config.schema.json``: the JSON Schema of ``[tool.sm-debug-config]``.

The schema is :func:`sm_debug_config.cli.project.json_schema`, written out for editors and schema
stores (a TOML editor validates ``pyproject.toml`` sections against such a file); the keys' one home
is ``KEYS`` in ``sm_debug_config/cli/project.py``.

Usage::

    python scripts/generate_project_schema.py            # rewrite the checked-in file
    python scripts/generate_project_schema.py --check    # exit 1 if the file is out of date
    python scripts/generate_project_schema.py --stdout   # print it instead

``tests/cli/test_project.py`` fails until the file is current.
"""
from __future__ import annotations

import os
import sys
from typing import List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from generate_api_schema import dumps, run_generator  # noqa: E402 - the same file format and command line

from sm_debug_config.cli.project import json_schema  # noqa: E402

OUTPUT = os.path.join(ROOT, "sm_debug_config", "data", "project_config.schema.json")


def main(argv: Optional[List[str]] = None) -> int:
    return run_generator(lambda: dumps(json_schema()), OUTPUT, __file__, __doc__ or "", argv)


if __name__ == "__main__":
    sys.exit(main())
