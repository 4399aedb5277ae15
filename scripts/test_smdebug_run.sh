#!/usr/bin/env bash
# Proof against the real consumer (issue 18): runs tests/system/test_smdebug_run.py, which trains a tiny
# PyTorch model (and an XGBoost booster) on the CPU with smdebug's hook created from the DebugHookConfig that render()
# writes, then reads back with smdebug.trials what was saved, and tests/system/test_smdebug.py, which hands what
# render() writes to smdebug's config readers (the collection merge against add_collections_to_manager). Own venv
# (.venv-smdebug; override with VENV_SMDEBUG=path) because torch is large and smdebug pins old numpy. Extra arguments go to pytest.
#   torch==2.13.0: the CPU wheel lying on this machine's disk (plain "torch" downloads a CUDA build).
#   smdebug 1.0.34 imports requests, pandas and psutil without declaring them, and calls
#   ndarray.tostring (gone in numpy 2.3); its XGBoost hook imports pkg_resources (setuptools < 81) and
#   finds xgboost by the distribution name "xgboost" (not "xgboost-cpu").
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${VENV_SMDEBUG:-.venv-smdebug}
TORCH=${SMDEBUG_TORCH:-torch==2.13.0}
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
LOG="$VENV/install.log"
if ! { "$VENV/bin/python" -m pip install --upgrade pip \
       && "$VENV/bin/python" -m pip install -e ".[test]" "$TORCH" smdebug==1.0.34 requests pandas psutil "numpy<2.3" \
            xgboost "setuptools<81"; } >"$LOG" 2>&1; then
  tail -n 40 "$LOG" >&2
  echo "test_smdebug_run.sh: installing smdebug and $TORCH into $VENV failed (full log: $LOG)" >&2
  exit 1
fi
export SAGEMAKER_SUPPRESS_V2_WARNING=1 HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-dev}
echo "test_smdebug_run.sh: smdebug $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("smdebug"), "torch", m.version("torch"))')"
exec "$VENV/bin/python" -m pytest -p no:cacheprovider -q tests/system/test_smdebug_run.py tests/system/test_smdebug.py "$@"
