"""Shared fixtures: a local AWS (moto server on 127.0.0.1) for the integration tests.

* ``moto_server`` (session scope): a ``moto.server.ThreadedMotoServer`` on 127.0.0.1 and a free
  port, started on first use; its value is the endpoint URL. State persists for the whole
  session, so tests use their own bucket and job names.
* ``cli`` (function scope): runs ``sm_debug_config.cli.main(argv)`` in this process, the way the
  ``sm-debug-config`` command would (cwd = the repository, ``AWS_REGION=us-east-1``), and returns
  a ``CliResult`` (``returncode``, ``stdout``, ``stderr``). Warnings the command emits are added
  to ``stderr`` as a real process would print them. Tests that need a real process (the console
  script, ``python -m``, hash seeds) use ``subprocess`` themselves; everything else uses this.
* ``aws`` (function scope): points every boto3/botocore client the test creates at that server
  (``AWS_ENDPOINT_URL``), with dummy credentials, no profile or shared config, no instance
  metadata look-ups. Its value has ``endpoint_url``, ``region``, ``session(region=None)`` (a
  ``boto3.Session``) and ``bucket(name)`` (creates the bucket, returns its name).

Nothing here reaches beyond 127.0.0.1.
"""
from __future__ import annotations

import contextlib
import logging
import os
import warnings
from typing import Any, Callable, Dict, Iterator, Optional

import pytest

REGION = "us-west-2"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Hypothesis profiles: "ci" (fixed seed; scripts/test.sh selects it), "dev" (the default, quick),
# "deps" (fixed seed, 20 examples; scripts/test_deps_range.sh) and "long" for soak runs:
#   HYPOTHESIS_PROFILE=long python -m pytest tests/system/test_properties.py
# A property states its own ci budget with strategies.examples(N) (an example of one property can
# cost 100 times one of another); the ci profile's 200 is for properties that state none.
# (The sagemaker-core venv of scripts/test_v3.sh has no hypothesis; nothing there needs it.)
try:
    from hypothesis import HealthCheck, settings
except ImportError:  # pragma: no cover - only in the v3 venv
    settings = None
if settings is not None:
    _SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]
    settings.register_profile(
        "ci", derandomize=True, max_examples=200, deadline=None, suppress_health_check=_SLOW_OK, print_blob=True
    )
    settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=_SLOW_OK)
    settings.register_profile("long", max_examples=5000, deadline=None, suppress_health_check=_SLOW_OK)
    # scripts/test_deps_range.sh: reproducible and short, the properties run at each end of the range
    settings.register_profile(
        "deps", derandomize=True, max_examples=20, deadline=None, suppress_health_check=_SLOW_OK, print_blob=True
    )
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


# Oracles: tests compare with the SageMaker Python SDK v2 and smdebug, which scripts/test.sh installs
# and scripts/test_deps_range.sh (the oldest and newest Python and dependencies) does not, and
# smdebug's profiler imports distutils, gone since Python 3.12. A test that fails because one of
# these is not installed here skips, naming it; with the module installed, nothing changes.
_ORACLES = {
    "sagemaker": "the SageMaker Python SDK v2 (extra \"sagemaker\"), this test's oracle, is not installed here",
    "smdebug": "smdebug, this test's oracle, is not installed here",
    "distutils": "smdebug, this test's oracle, imports distutils, gone since Python 3.12",
}


def _missing_oracle(excinfo: Any) -> Optional[str]:
    import importlib.util

    err = excinfo.value if excinfo is not None else None
    if not isinstance(err, ModuleNotFoundError) or not err.name:
        return None
    top = err.name.split(".")[0]
    if top not in _ORACLES or importlib.util.find_spec(top) is not None:
        return None
    return _ORACLES[top]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    reason = _missing_oracle(call.excinfo) if report.failed and call.when in ("setup", "call") else None
    if reason is not None:
        report.outcome = "skipped"
        report.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: {reason}")


@pytest.fixture(scope="session")
def moto_server() -> Iterator[str]:
    moto_server_module = pytest.importorskip("moto.server")
    with warnings.catch_warnings():  # imported now, not inside a test: on Python 3.8 cryptography warns at import
        warnings.simplefilter("ignore")
        with contextlib.suppress(ImportError):
            import cryptography  # noqa: F401 - moto's dependency, imported lazily by the server
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = moto_server_module.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()


class LocalAWS:
    """What the ``aws`` fixture gives a test."""

    def __init__(self, endpoint_url: str, region: str) -> None:
        self.endpoint_url = endpoint_url
        self.region = region

    def session(self, region: Optional[str] = None) -> Any:
        import boto3

        return boto3.Session(region_name=region or self.region)

    def bucket(self, name: str, region: Optional[str] = None) -> str:
        region = region or self.region
        s3 = self.session(region).client("s3")
        extra = {} if region == "us-east-1" else {"CreateBucketConfiguration": {"LocationConstraint": region}}
        with contextlib.suppress(s3.exceptions.BucketAlreadyOwnedByYou):
            s3.create_bucket(Bucket=name, **extra)
        return name


@pytest.fixture
def aws(moto_server: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> LocalAWS:
    for name in list(os.environ):
        if name.startswith("AWS_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_server)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-aws-credentials"))
    return LocalAWS(moto_server, REGION)


class CliResult:
    """What a run of the command gave: exit code and the text written to stdout and stderr."""

    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr

    def __repr__(self) -> str:
        return f"CliResult(returncode={self.returncode!r}, stdout={self.stdout[:200]!r}, stderr={self.stderr!r})"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> Callable[..., CliResult]:
    from sm_debug_config.cli import main

    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    monkeypatch.setenv("SAGEMAKER_SUPPRESS_V2_WARNING", "1")

    def run(*args: str, env: Optional[Dict[str, Optional[str]]] = None) -> CliResult:
        for name, value in (env or {}).items():
            if value is None:
                monkeypatch.delenv(name, raising=False)
            else:
                monkeypatch.setenv(name, value)
        capsys.readouterr()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")
            warnings.filterwarnings("ignore", category=DeprecationWarning)
            code = main(list(args))
        out, err = capsys.readouterr()
        err += "".join(warnings.formatwarning(w.message, w.category, w.filename, w.lineno, w.line) for w in caught)
        assert "Traceback" not in err and "Traceback" not in out, err
        return CliResult(code, out, err)

    return run
