"""Issue 14: real-world Debugger configurations, the SDK v2 Estimator against ``render()``.

For every entry of ``tests/corpus/`` the snippet runs twice:

(a) with ``sagemaker.debugger``'s names, handed to a real SDK v2 ``Estimator`` whose
    ``fit(wait=False)`` goes to a moto server on 127.0.0.1; the ``CreateTrainingJob``
    parameters are captured as the SDK hands them to botocore;
(b) with ``sm_debug_config``'s names, through ``render()`` with the same region,
    ``output_path``, job name and instance type.

The Debugger fields must be equal after ``normalise()``, which removes only the deliberate
differences that README.md documents. Entries that botocore or the service reject must be
refused by ``render()``; entries that the package still refuses wrongly (issue 14) are
``xfail(strict=True)``.
"""
from __future__ import annotations

import copy
import functools
import json
import math
import os
import re
from typing import Any, Dict, Iterator, List, Sequence

import pytest

import sm_debug_config
from sm_debug_config.errors import ConfigError
from sm_debug_config.findings import collecting
from sm_debug_config.rendering import FIELDS

from tests.corpus import SHARED_NAMES, Entry, family_entries

os.environ.setdefault("SAGEMAKER_SUPPRESS_V2_WARNING", "1")
pytestmark = pytest.mark.sagemaker
sagemaker = pytest.importorskip("sagemaker")
pytest.importorskip("sagemaker.estimator")

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
NO_TELEMETRY = {"SchemaVersion": "1.0", "SageMaker": {"PythonSDK": {"Modules": {"TelemetryOptOut": True}}}}
BUCKET = "smdc-corpus"
DETAILED_PROFILER_RULE = "DetailedProfilerProcessingJobConfig"
ENTRIES = family_entries()


def _names(module: Any) -> Dict[str, Any]:
    return {name: getattr(module, name) for name in SHARED_NAMES}


def output_path(entry: Entry) -> str:
    return f"s3://{BUCKET}-{entry.region}/corpus/"


# --- (a) the SDK v2 Estimator --------------------------------------------------------------


class SDK:
    """SageMaker sessions on moto (one per region), capturing every CreateTrainingJob."""

    def __init__(self) -> None:
        self.aws: Any = None  # the conftest ``aws`` fixture of the running test
        self.sessions: Dict[str, Any] = {}
        self.captured: List[Dict[str, Any]] = []

    def session(self, region: str) -> Any:
        if region not in self.sessions:
            bucket = self.aws.bucket(f"{BUCKET}-{region}", region)
            session = sagemaker.Session(
                boto_session=self.aws.session(region), sagemaker_config=NO_TELEMETRY, default_bucket=bucket
            )
            # The parameters as the SDK hands them to botocore, before botocore's own validation
            # (so that a request botocore refuses can still be compared).
            session.sagemaker_client.meta.events.register(
                "provide-client-params.sagemaker.CreateTrainingJob",
                lambda params, **_: self.captured.append(copy.deepcopy(params)),
            )
            self.sessions[region] = session
        return self.sessions[region]

    def send(self, entry: Entry) -> Dict[str, Any]:
        """The Debugger fields of the CreateTrainingJob request the SDK builds for ``entry``."""
        import botocore.exceptions
        from sagemaker.estimator import Estimator

        kwargs = entry.run(_names(sagemaker.debugger))
        estimator = Estimator(
            image_uri=f"123456789012.dkr.ecr.{entry.region}.amazonaws.com/train:1",
            role=ROLE,
            instance_count=1,
            instance_type=entry.instance_type,
            output_path=output_path(entry),
            sagemaker_session=self.session(entry.region),
            **kwargs,
        )
        self.captured.clear()
        try:
            estimator.fit(wait=False, job_name=entry.id)
        except botocore.exceptions.ParamValidationError as error:
            if not entry.sdk_fails:
                raise
            assert self.captured, f"the SDK failed before building the request: {error}"
        else:
            assert not entry.sdk_fails, f"the SDK sent {entry.id} although the corpus says: {entry.sdk_fails}"
        [params] = self.captured
        return {field: params[field] for field in FIELDS if field in params}


@pytest.fixture(scope="module")
def sdk_sessions() -> Iterator[SDK]:
    with pytest.MonkeyPatch.context() as patch:
        # Speed only, same results: the SDK validates its config on each of ~20 look-ups per fit
        # and re-reads botocore's endpoint data for every rule image (tests/integrations/test_sagemaker_v2.py).
        validated = set()
        validate = sagemaker.utils.validate_sagemaker_config

        def validate_once(config: Any = None) -> None:
            key = json.dumps(config, sort_keys=True, default=str)
            if key not in validated:
                validate(config)
                validated.add(key)

        patch.setattr(sagemaker.utils, "validate_sagemaker_config", validate_once)
        patch.setattr(
            sagemaker.utils, "_botocore_resolver", functools.lru_cache(maxsize=None)(sagemaker.utils._botocore_resolver)
        )
        yield SDK()


@pytest.fixture
def sdk(sdk_sessions: SDK, aws: Any) -> SDK:
    """The module's SDK sessions, used under this test's local AWS (conftest ``aws``)."""
    sdk_sessions.aws = aws
    return sdk_sessions


# --- (b) sm_debug_config ---------------------------------------------------------------------


def ours(entry: Entry, session: Any = None) -> Dict[str, Any]:
    # What a real-world configuration warns is not compared here (the SDK says nothing): findings are kept as values.
    with collecting():
        return _ours(entry, session)


def _ours(entry: Entry, session: Any) -> Dict[str, Any]:
    kwargs = entry.run(_names(sm_debug_config))
    rules = kwargs.get("rules")
    if entry.files:
        # Local custom-rule sources: the SDK uploads them in fit(); render() takes S3 URIs only, so
        # they go through the package's own uploader first (README: Integrations, boto3).
        rules = sm_debug_config.upload_rule_sources(rules, output_path=output_path(entry), session=session)
    return sm_debug_config.render(
        rules, kwargs.get("debugger_hook_config"), kwargs.get("profiler_config"),
        kwargs.get("tensorboard_output_config"), kwargs.get("disable_profiler", False),
        region=entry.region, output_path=output_path(entry), job_name=entry.id, instance_type=entry.instance_type,
        framework=entry.framework,
    )


# --- (c) the documented deliberate differences -------------------------------------------------


def _api_string(value: Any) -> Any:
    # README "What is deliberately different": integer and boolean hook/collection parameters are
    # converted to the API's strings (the SDK passes them on and botocore refuses them).
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return value


def _merge_collections(
    sdk_entries: List[Dict[str, Any]], hook_names: Dict[str, Dict[str, str]]
) -> List[Dict[str, Any]]:
    """The SDK's collection list as README "How collections are merged" would send it.

    The SDK sends one entry per distinct (name, parameters) in ``set`` order; we send one per
    name. Per key: the hook's own value wins; otherwise ``save_interval`` keys take the greatest
    common divisor and any other key must agree (it is left as a list when it does not, so the
    comparison fails and names it).
    """
    by_name: Dict[str, List[Dict[str, str]]] = {}
    for item in sdk_entries:
        by_name.setdefault(item["CollectionName"], []).append(item.get("CollectionParameters") or {})
    merged = []
    for name in sorted(by_name):
        variants = by_name[name]
        hook_params = hook_names.get(name, {})
        parameters: Dict[str, Any] = {}
        for key in sorted({k for v in variants for k in v}):
            if key in hook_params:
                parameters[key] = hook_params[key]
                continue
            values = sorted({v[key] for v in variants if key in v})
            if len(values) > 1 and key.split(".")[-1] == "save_interval" and all(x.isdigit() for x in values):
                parameters[key] = str(functools.reduce(math.gcd, (int(x) for x in values)))
            else:
                parameters[key] = values[0] if len(values) == 1 else values
        entry: Dict[str, Any] = {"CollectionName": name}
        if parameters:
            entry["CollectionParameters"] = parameters
        merged.append(entry)
    return merged


def normalise(
    fields: Dict[str, Any], *, hook_collections: Dict[str, Dict[str, str]], uploaded: Sequence[str] = ()
) -> Dict[str, Any]:
    """Remove the differences README.md documents as deliberate; nothing else.

    ``hook_collections``: the collection parameters of the entry's own DebuggerHookConfig;
    ``uploaded``: the file names of the local rule sources the entry uploads.
    """
    fields = copy.deepcopy(fields)
    for kind in ("DebugRuleConfigurations", "ProfilerRuleConfigurations"):
        for rule in fields.get(kind, []):
            source = rule.get("RuleParameters", {}).get("source_s3_uri", "")
            if source.startswith("s3://") and source.rsplit("/", 1)[-1] in uploaded:
                # Where a local rule source is uploaded: the SDK picks s3://<default bucket>/<rule
                # name>/<uuid4>/, we a content-addressed key under output_path (README: Integrations).
                rule["RuleParameters"]["source_s3_uri"] = "<uploaded>/" + source.rsplit("/", 1)[-1]
    hook = fields.get("DebugHookConfig")
    if hook:
        # Integer/boolean hook and collection parameters become the API's strings.
        if "HookParameters" in hook:
            hook["HookParameters"] = {k: _api_string(v) for k, v in hook["HookParameters"].items()}
        for item in hook.get("CollectionConfigurations", []):
            if item.get("CollectionParameters") is not None:
                item["CollectionParameters"] = {k: _api_string(v) for k, v in item["CollectionParameters"].items()}
            elif "CollectionParameters" in item:
                del item["CollectionParameters"]
        # One merged entry per collection (the SDK sends one per distinct parameter set, in set
        # order), sorted by name; our own order is checked separately (see test_entry).
        hook["CollectionConfigurations"] = _merge_collections(
            hook.get("CollectionConfigurations", []), hook_collections
        )
    parameters = (fields.get("ProfilerConfig") or {}).get("ProfilingParameters") or {}
    for key, value in parameters.items():
        # Time ranges: the SDK writes "Duration", which the container never reads; we write
        # "DurationInSeconds".
        if isinstance(value, str):
            parameters[key] = value.replace('"Duration":', '"DurationInSeconds":')
    for rule in fields.get("ProfilerRuleConfigurations", []):
        # The detailed-profiler processing rule: the SDK names it from the clock, we from the job.
        if rule["RuleConfigurationName"].startswith(DETAILED_PROFILER_RULE + "-"):
            rule["RuleConfigurationName"] = DETAILED_PROFILER_RULE + "-<job>"
    return fields


def _hook_collections(entry: Entry) -> Dict[str, Dict[str, str]]:
    """The collection parameters the entry's own DebuggerHookConfig sets (they win the merge)."""
    with collecting():
        hook = entry.run(_names(sm_debug_config)).get("debugger_hook_config")
    if not hook or hook is True:
        return {}
    return {
        c.name: {k: _api_string(v) for k, v in (c.parameters or {}).items()} for c in (hook.collection_configs or [])
    }


def _param(family: str, entry: Entry) -> Any:
    # "issue 14: ..." entries fail today because render() refuses them; the others because the
    # rendering differs from the SDK's (a likely bug). Any other failure is a failure.
    raises = ConfigError if entry.xfail.startswith("issue 14") else AssertionError
    marks = [pytest.mark.xfail(strict=True, raises=raises, reason=entry.xfail)] if entry.xfail else []
    return pytest.param(entry, id=f"{family}/{entry.id}", marks=marks)


@pytest.mark.parametrize("entry", [_param(family, entry) for family, entry in ENTRIES])
def test_entry(entry: Entry, sdk: SDK, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    if entry.files:
        monkeypatch.chdir(tmp_path)
        for name in entry.files:
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(f"# {name}: a custom rule source of the corpus\n")
    sent = sdk.send(entry)
    session = sdk.session(entry.region).boto_session
    if entry.refused:
        with pytest.raises(ConfigError, match=entry.refusal):
            ours(entry, session)
        return
    try:
        rendered = ours(entry, session)
    except ConfigError as error:
        if entry.refusal and not re.search(entry.refusal, str(error)):
            raise AssertionError(f"refused, but not for {entry.refusal!r}: {error}") from error
        raise
    uploaded = [name.rsplit("/", 1)[-1] for name in entry.files]
    hook_collections = _hook_collections(entry)
    assert normalise(rendered, hook_collections=hook_collections, uploaded=uploaded) == normalise(
        sent, hook_collections=hook_collections, uploaded=uploaded
    )
    # The comparison above sorts by name; our own order is README's: the hook's collections as
    # given, then new names in rule order.
    names = [c["CollectionName"] for c in rendered.get("DebugHookConfig", {}).get("CollectionConfigurations", [])]
    assert names == _expected_order(entry)


def _expected_order(entry: Entry) -> List[str]:
    with collecting():
        kwargs = entry.run(_names(sm_debug_config))
    hook = kwargs.get("debugger_hook_config")
    names = [c.name for c in (hook.collection_configs or [])] if hook and hook is not True else []
    for rule in kwargs.get("rules") or []:
        names.extend(c.name for c in getattr(rule, "collection_configs", None) or [])
    return list(dict.fromkeys(names))


#: Built-in rules no public configuration uses on their own (searched: AWS examples, SDK guide and
#: tests, developer guide, GitHub code); ProfilerReport runs them, and several entries have it.
NOT_FOUND_STANDALONE = {"Dataloader", "OverallFrameworkMetrics"}


def test_the_corpus_covers_every_built_in_rule() -> None:
    from sm_debug_config.model.catalogue import all_names

    used = set()
    for _, entry in ENTRIES:
        for rule in entry.run(_names(sagemaker.debugger)).get("rules") or []:
            if rule.image_uri == "DEFAULT_RULE_EVALUATOR_IMAGE":  # a built-in rule (SDK v2's marker)
                used.add(rule.rule_parameters["rule_to_invoke"])
    assert used | NOT_FOUND_STANDALONE == set(all_names())
    assert not used & NOT_FOUND_STANDALONE
