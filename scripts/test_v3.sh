#!/usr/bin/env bash
# Runs tests/v3 against sagemaker-core 2.x (the core of SageMaker Python SDK v3) in its own venv.
#
# SDK v2 (`sagemaker<3`, in .venv) and v3 cannot share one environment, so this creates
# .venv-v3 (once; override with VENV_V3=path) holding the package, sagemaker-core>=2, the
# `sagemaker` 3.x meta-package with sagemaker-train (ModelTrainer) and its Pipelines (and no
# `sagemaker<3`), pytest and moto, and runs tests/v3 there (with the README's and docs/' examples that need the
# SDK v3: tests/v3/test_doc_examples_v3.py). Extra arguments go to pytest.
# A fresh venv takes about 1-2 minutes to install (sagemaker-core pulls pandas, scipy...);
# later runs about 15 s.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${VENV_V3:-.venv-v3}
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
LOG="$VENV/install.log"
if ! { "$VENV/bin/python" -m pip install --upgrade pip \
       && "$VENV/bin/python" -m pip install -e . "sagemaker-core>=2,<3" "sagemaker>=3,<4" "sagemaker-train>=1,<2" "pytest>=7" "moto[server]>=5"; } >"$LOG" 2>&1; then
  tail -n 40 "$LOG" >&2
  echo "test_v3.sh: installing into $VENV failed (full log: $LOG)" >&2
  exit 1
fi
if "$VENV/bin/python" -c "import sagemaker.estimator" >/dev/null 2>&1; then
  echo "test_v3.sh: $VENV has SageMaker Python SDK v2 installed; it must hold sagemaker-core v2 (SDK v3) only" >&2
  exit 2
fi
export SM_DEBUG_CONFIG_EXPECT_V3=1
exec "$VENV/bin/python" -m pytest -p no:cacheprovider tests/v3 "$@"
