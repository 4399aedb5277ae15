#!/usr/bin/env bash
# Sets up .venv (if needed) with the package, its test (cfn-lint included) and sagemaker extras, and runs the tests.
#
# The linter goes first: `ruff check .` (settings in pyproject.toml [tool.ruff]; ruff is pinned in
# the "test" extra), over the package, tests, scripts and benchmarks.
# HYPOTHESIS_PROFILE selects the property-test budget (default here: ci; "long" for soak runs).
# The package is type-checked first (settings in setup.cfg [mypy]; mypy is pinned in the "test"
# extra to a version that still targets Python 3.8). Two runs, because rule_configs has both a
# runtime module and the generated stub importers see: the first checks the package with the stub
# (mypy prefers rule_configs/__init__.pyi when it walks the directory), the second the runtime
# module rule_configs/__init__.py itself.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
.venv/bin/python -m pip install --quiet -e ".[test,sagemaker]"
export SAGEMAKER_SUPPRESS_V2_WARNING=1
export HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci}
.venv/bin/ruff check .
.venv/bin/python -m mypy sm_debug_config rule_configs
.venv/bin/python -m mypy rule_configs/__init__.py
exec .venv/bin/python -m pytest "$@"
