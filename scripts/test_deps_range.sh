#!/usr/bin/env bash
# The tests at both ends of the range setup.cfg declares, each in its own venv:
#   oldest  the oldest Python python_requires allows (3.8) with the lower bound of every runtime
#           dependency in install_requires pinned (PyYAML, attrs, boto3), and botocore pinned to
#           the lowest that boto3 version accepts (boto3 pins a botocore range, pip would take its newest)
#   newest  the newest Python here (3.13) with the newest release of each
# Only the runtime dependencies move; the test tools (pytest, hypothesis, jsonschema, moto,
# smdebug-rulesconfig) are whatever pip resolves beside them. The SDK v2 (sagemaker) tests skip here
# (scripts/test.sh and scripts/test_sdk_oldest.sh run them); so do tests whose oracle cannot run
# on that Python, each saying why. A focused run: no "slow" tests, the "deps" Hypothesis profile
# (fixed seed, 20 examples per property), and not tests/system/test_junk.py (fuzzing our own code with
# junk; half the run's time, and scripts/test.sh runs it with the full budget).
#
#   bash scripts/test_deps_range.sh            both ends
#   bash scripts/test_deps_range.sh oldest     one end (extra arguments go to pytest)
# Pythons: PY_OLDEST / PY_NEWEST, else pyenv's 3.8.x / 3.13.x. Venvs: .venv-oldest, .venv-newest
# (filled once per setup.cfg; a fresh one takes a minute or two to install).
set -euo pipefail
cd "$(dirname "$0")/.."
PYENV_ROOT=${PYENV_ROOT:-$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")}
newest_patch() { ls -d "$PYENV_ROOT"/versions/"$1".*/bin/python 2>/dev/null | sort -V | tail -n 1; }
PY_OLDEST=${PY_OLDEST:-$(newest_patch 3.8)}
PY_NEWEST=${PY_NEWEST:-$(newest_patch 3.13)}
# moto without its [server] extra: that pulls cfn-lint, which refuses PyYAML 5.4; ThreadedMotoServer needs flask
TEST_TOOLS=("pytest>=7" "hypothesis>=6" "jsonschema>=4.0" "moto>=5" "flask" "flask-cors" "smdebug-rulesconfig==1.0.1")
# The optional extras installed at both ends: "terraform" (python-hcl2), so that .tf files are read there too.
PACKAGE=".[terraform]"

setup_venv() {  # end python venv: installs once per setup.cfg and test tools (a stamp in the venv)
  local end=$1 py=$2 venv=$3
  if [ -z "$py" ] || [ ! -x "$py" ]; then
    echo "test_deps_range.sh: no Python for the $end end (set PY_${end^^})" >&2
    exit 1
  fi
  [ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
  local log="$venv/install.log" constraints="$venv/constraints.txt"
  local stamp; stamp=$(cat setup.cfg scripts/deps_lower_bounds.py <(echo "${TEST_TOOLS[*]} $PACKAGE") | cksum)
  [ "$(cat "$venv/installed" 2>/dev/null)" = "$stamp" ] && return 0
  : >"$constraints"
  [ "$end" = oldest ] && "$venv/bin/python" scripts/deps_lower_bounds.py setup.cfg >"$constraints"
  if ! { "$venv/bin/python" -m pip install --upgrade pip \
         && "$venv/bin/python" -m pip install -c "$constraints" -e "$PACKAGE" "${TEST_TOOLS[@]}" \
         && if [ "$end" = oldest ]; then  # boto3 pins a botocore range, and pip takes its newest
              "$venv/bin/python" scripts/deps_lower_bounds.py --botocore >>"$constraints" \
              && "$venv/bin/python" -m pip install -c "$constraints" "$(tail -n 1 "$constraints")"
            else
              "$venv/bin/python" -m pip install --upgrade PyYAML attrs boto3 botocore
            fi; } >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "test_deps_range.sh: installing into $venv failed (full log: $log)" >&2
    exit 1
  fi
  echo "$stamp" >"$venv/installed"
}

run_end() {  # end [pytest args...]
  local end=$1 py venv; shift
  if [ "$end" = oldest ]; then py=$PY_OLDEST; venv=${VENV_OLDEST:-.venv-oldest}; else py=$PY_NEWEST; venv=${VENV_NEWEST:-.venv-newest}; fi
  setup_venv "$end" "$py" "$venv"
  echo "== test_deps_range.sh: $end end: $("$venv/bin/python" scripts/deps_lower_bounds.py --versions)"
  if [ "$end" = oldest ] && ! "$venv/bin/python" scripts/deps_lower_bounds.py --check setup.cfg; then
    exit 1  # pip took something else than the lower bounds: the test would prove nothing
  fi
  SAGEMAKER_SUPPRESS_V2_WARNING=1 HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-deps} \
    "$venv/bin/python" -m pytest -p no:cacheprovider -q -m "not slow" --ignore=tests/system/test_junk.py "$@"
}

case "${1:-both}" in
  oldest|newest) end=$1; shift; run_end "$end" "$@" ;;
  both) shift $(( $# > 0 ? 1 : 0 )); run_end oldest "$@"; run_end newest "$@" ;;
  *) run_end oldest "$@"; run_end newest "$@" ;;
esac
