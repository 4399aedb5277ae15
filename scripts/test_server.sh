#!/usr/bin/env bash
# Runs tests/server (the language server of issue 39) in its own venv, .venv-server (override with VENV_SERVER=path):
# the package with its "server" extra (pygls, lsprotocol) and "terraform" (.tf documents), pytest and pytest-lsp
# (the end-to-end client). Neovim (Debian's package, for tests/server/test_neovim.py) is installed by
# scripts/install_neovim.sh when missing and this runs as root with apt-get; elsewhere that test skips, saying why.
# The fuzz test (1,000 edits, marked slow) runs here. A fresh venv takes under a minute to install (pip's cache
# warm), the tests about 1-2 minutes on 2 cores. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${VENV_SERVER:-.venv-server}
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
LOG="$VENV/install.log"
if ! { "$VENV/bin/python" -m pip install --upgrade pip \
       && "$VENV/bin/python" -m pip install -e ".[server,terraform]" "pytest>=7" "pytest-lsp>=1,<2"; } >"$LOG" 2>&1; then
  tail -n 40 "$LOG" >&2
  echo "test_server.sh: installing into $VENV failed (full log: $LOG)" >&2
  exit 1
fi
bash scripts/install_neovim.sh
export SAGEMAKER_SUPPRESS_V2_WARNING=1
exec "$VENV/bin/python" -m pytest -p no:cacheprovider tests/server "$@"
