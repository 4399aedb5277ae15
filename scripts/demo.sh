#!/usr/bin/env bash
# Sets up .venv with the package (if needed), renders and validates a shipped example, then
# validates one with a mistake in it, to show a finding being caught. Exits 0: it is a demo.
# Usage: bash scripts/demo.sh [CONFIG]   (default: examples/tensorflow-builtin-rules.yaml)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/sm-debug-config ]; then
  "$PY" -m venv .venv
  .venv/bin/python -m pip install --quiet -e .
fi
CONFIG=${1:-examples/tensorflow-builtin-rules.yaml}
MISTAKE=examples/mistakes/typos.yaml
echo "# sm-debug-config render $CONFIG" >&2
.venv/bin/sm-debug-config render "$CONFIG"
echo "# sm-debug-config validate $CONFIG   (a clean file: 0 errors, 0 warnings)" >&2
.venv/bin/sm-debug-config validate "$CONFIG"
echo "# sm-debug-config validate $MISTAKE" >&2
echo "#   the same job with a misspelt rule parameter (threshhold): SageMaker would accept it and the" >&2
echo "#   rule would silently use its default; validate names the line and the parameter meant" >&2
status=0
.venv/bin/sm-debug-config validate "$MISTAKE" || status=$?
echo "# exit code $status (0: warnings only; 1 with --strict or on an error; CI can fail on either)" >&2
echo "# to run it yourself: source .venv/bin/activate   (then: sm-debug-config --help)" >&2
