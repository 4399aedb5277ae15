#!/usr/bin/env bash
# Sets up .venv (if needed) with the package, its test and sagemaker extras, and runs the tests.
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
exec .venv/bin/python -m pytest "$@"
