#!/usr/bin/env bash
# Sets up .venv with the package (if needed), then renders and validates a shipped example.
# Usage: bash scripts/demo.sh [CONFIG]   (default: examples/tensorflow-builtin-rules.yaml)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/sm-debug-config ]; then
  "$PY" -m venv .venv
  .venv/bin/python -m pip install --quiet -e .
fi
CONFIG=${1:-examples/tensorflow-builtin-rules.yaml}
echo "# sm-debug-config render $CONFIG" >&2
.venv/bin/sm-debug-config render "$CONFIG"
echo "# sm-debug-config validate $CONFIG" >&2
.venv/bin/sm-debug-config validate "$CONFIG"
