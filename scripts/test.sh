#!/usr/bin/env bash
# Sets up .venv (if needed) with the package, its test and sagemaker extras, and runs the tests.
#
# HYPOTHESIS_PROFILE selects the property-test budget (default here: ci; "long" for soak runs).
# SM_DEBUG_CONFIG_MYPY=1 type-checks the package first (python -m mypy sm_debug_config rule_configs,
# settings in setup.cfg [mypy]). Off by default until the package is clean.
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
if [ "${SM_DEBUG_CONFIG_MYPY:-0}" = "1" ]; then
  .venv/bin/python -m mypy sm_debug_config rule_configs
fi
exec .venv/bin/python -m pytest "$@"
