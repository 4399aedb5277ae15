#!/usr/bin/env bash
# Runs the SDK v2 integration tests against the oldest SageMaker Python SDK that setup.cfg allows
# (the `sagemaker` extra's lower bound), in its own venv (.venv-sdk-oldest; override with
# VENV_SDK_OLDEST=path): the post-import hook wraps private SDK methods, so both ends of the
# supported range are tested (that SDK imports pytz without declaring it). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${VENV_SDK_OLDEST:-.venv-sdk-oldest}
OLDEST=$(sed -n 's/^ *sagemaker>=\([0-9.]*\),<3 *$/\1/p' setup.cfg)
[ -n "$OLDEST" ] || { echo "test_sdk_oldest.sh: no 'sagemaker>=X,<3' line in setup.cfg" >&2; exit 2; }
case "$OLDEST" in *.*.*) ;; *) OLDEST="$OLDEST.0" ;; esac
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
LOG="$VENV/install.log"
if ! { "$VENV/bin/python" -m pip install --upgrade pip \
       && "$VENV/bin/python" -m pip install -e ".[test]" "sagemaker==$OLDEST" pytz; } >"$LOG" 2>&1; then
  tail -n 40 "$LOG" >&2
  echo "test_sdk_oldest.sh: installing sagemaker==$OLDEST into $VENV failed (full log: $LOG)" >&2
  exit 1
fi
export SAGEMAKER_SUPPRESS_V2_WARNING=1 HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-dev}
echo "test_sdk_oldest.sh: sagemaker $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("sagemaker"))')"
exec "$VENV/bin/python" -m pytest -p no:cacheprovider -q \
  tests/integrations/test_sdk_patch.py tests/integrations/test_sagemaker_v2.py \
  tests/integrations/test_sagemaker_v2_objects.py tests/integrations/test_pipelines.py "$@"
