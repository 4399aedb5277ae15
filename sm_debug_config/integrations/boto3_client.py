"""boto3: put rendered Debugger fields into a ``CreateTrainingJob`` request (:func:`training_job_request`)
and send it (:func:`create_training_job`); :func:`upload_rule_sources` uploads custom rules' local
``source`` files to S3 under content-addressed keys. boto3 is imported only when these are called.
"""
from __future__ import annotations

import copy
import hashlib
import os
from typing import Any, Collection, Dict, List, NoReturn, Optional, Sequence, Tuple, Union

import attrs

from sm_debug_config.checked import render_model
from sm_debug_config.errors import ConfigError, ConfigWarning, shorten, warn_user
from sm_debug_config.integrations.sdk_quirks import request_hook_conflicts
from sm_debug_config.limits import check_depth
from sm_debug_config.model import validators as v
from sm_debug_config.model.hook import DebuggerHookConfig, TensorBoardOutputConfig
from sm_debug_config.model.profiler import ProfilerConfig
from sm_debug_config.model.rules import ProfilerRule, Rule
from sm_debug_config.model.settings import DebuggerSetup, JobSettings, settings_of
from sm_debug_config.model.validators import revalidate
from sm_debug_config.rendering import FIELDS, refuse_tuning_request, request_image, settings_from
from sm_debug_config.reverse import REQUEST_SETTINGS, request_settings
from sm_debug_config.validation.installed_botocore import check_botocore

__all__ = [
    "RULE_SOURCES_PREFIX",
    "create_training_job",
    "training_job_request",
    "upload_rule_sources",
    "rule_source_uri",
]

#: Where uploaded rule sources go, under the output path:
# ``<output_path>/sm-debug-config/rule-sources/<sha256>/<file>``.
RULE_SOURCES_PREFIX = "sm-debug-config/rule-sources"


def _split_s3(uri: str, field: str) -> Tuple[str, str]:
    if not isinstance(uri, str) or not uri.startswith("s3://") or len(uri) <= 5:
        raise ConfigError(f"{shorten(uri)} is not an s3:// URI", field=field, allowed="an s3://bucket/prefix URI")
    bucket, _, key = uri[5:].partition("/")
    if not bucket:
        raise ConfigError(f"{shorten(uri)} has no bucket", field=field, allowed="an s3://bucket/prefix URI")
    return bucket, key.strip("/")


def local_source(rule: Any) -> Optional[str]:
    """The local file a custom rule's ``source`` names (None for S3 URIs and pipeline variables)."""
    source = (rule.rule_parameters or {}).get("source_s3_uri")
    if source is None or v.is_pipeline_variable(source) or not isinstance(source, str) or source.startswith("s3://"):
        return None
    return source[len("file://"):] if source.startswith("file://") else source


def rule_source_uri(path: str, output_path: str) -> str:
    """The content-addressed S3 URI a local rule source is uploaded to.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix="_rule.py", delete=False) as f:
    ...     _ = f.write("x = 1\\n")
    >>> rule_source_uri(f.name, "s3://bucket/out/").startswith("s3://bucket/out/sm-debug-config/rule-sources/")
    True
    >>> os.unlink(f.name)
    """
    bucket, prefix = _split_s3(output_path, "output_path")
    with open(path, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    key = "/".join(p for p in (prefix, RULE_SOURCES_PREFIX, digest, os.path.basename(path)) if p)
    return f"s3://{bucket}/{key}"


def _exists(s3_client: Any, bucket: str, key: str) -> bool:
    from botocore.exceptions import ClientError

    try:
        s3_client.head_object(Bucket=bucket, Key=key)
    except ClientError as err:
        if str(err.response.get("Error", {}).get("Code")) in ("404", "NoSuchKey", "NotFound"):
            return False
        raise
    return True


def upload_rule_sources(
    rules: Optional[Sequence[Union[Rule, ProfilerRule]]],
    *,
    output_path: str,
    s3_client: Any = None,
    session: Any = None,
) -> Optional[List[Union[Rule, ProfilerRule]]]:
    """Copies of the rules, every local custom-rule ``source`` uploaded (once, see :func:`rule_source_uri`)
    and replaced by its S3 URI; rules without a local source come back as they are.

    >>> upload_rule_sources([], output_path="s3://bucket/out/")
    []
    """
    if rules is None:
        return None
    if isinstance(rules, (str, bytes, dict)) or not isinstance(rules, (list, tuple)):
        raise ConfigError(f"expected a list of rules, got {v.type_name(rules)}", field="rules")
    out: List[Any] = []
    for index, rule in enumerate(rules):
        path = local_source(rule) if isinstance(rule, (Rule, ProfilerRule)) else None
        if path is None:
            out.append(rule)
            continue
        field = f"rules[{index}].source"
        if not os.path.isfile(path):
            raise ConfigError(
                f"{shorten(path)} is not a file",
                field=field,
                allowed="the path of an existing Python file, or an s3:// URI",
            )
        uri = rule_source_uri(path, output_path)
        bucket, key = _split_s3(uri, field)
        if s3_client is None:
            import boto3

            s3_client = (session or boto3.Session()).client("s3")
        if not _exists(s3_client, bucket, key):
            with open(path, "rb") as handle:
                s3_client.put_object(Bucket=bucket, Key=key, Body=handle.read())
        out.append(attrs.evolve(rule, rule_parameters=dict(rule.rule_parameters or {}, source_s3_uri=uri)))
    return out


#: What the request must hold for Debugger (setting -> what it is for), besides what ``render`` checks.
_REQUIRED = {
    "job_name": "the training job's name",
    "output_path": "an s3://bucket/prefix URI (Debugger paths default to it)",
}


def _request_settings(request: Any, settings: JobSettings) -> JobSettings:
    """``settings`` with the job name, output path, instance type and training image of ``request`` (a dict by now),
    in one copy: the image the job runs tells whether the hook runs there."""
    found = request_settings(request)
    for name, allowed in _REQUIRED.items():
        if name not in found:
            where = ".".join(REQUEST_SETTINGS[name])
            raise ConfigError(f"the request has no {where}", field=f"request.{where}", allowed=allowed)
    image = request_image(request, settings)  # None where settings name the image or version
    return settings_from(settings, found if image is None else dict(found, image_uri=image), "the request")


def training_job_request(
    request: Dict[str, Any],
    *,
    rules: Optional[Sequence[Union[Rule, ProfilerRule]]] = None,
    debugger_hook_config: Union[DebuggerHookConfig, bool, None] = None,
    profiler_config: Optional[ProfilerConfig] = None,
    tensorboard_output_config: Optional[TensorBoardOutputConfig] = None,
    disable_profiler: bool = False,
    s3_client: Any = None,
    session: Any = None,
    settings: Optional[JobSettings] = None,
    region: Optional[str] = None,
    output_path: Any = None,
    job_name: Any = None,
    instance_type: Optional[str] = None,
    rule_image_uri: Optional[str] = None,
    defaults: Optional[str] = None,
    validate: Optional[bool] = None,
    framework: Optional[str] = None,
    disable_debugger: Optional[bool] = None,
    ignore: Optional[Collection[str]] = None,
    framework_version: Optional[str] = None,
    image_uri: Optional[str] = None,
    **unknown: NoReturn,
) -> Dict[str, Any]:
    """A copy of ``request`` with the rendered Debugger fields merged in (no API call).

    Settings as for ``render`` (``region`` required); job name, output path and instance type come
    from the request. Local custom-rule sources are uploaded first. A Debugger field already in
    ``request`` with a different value is a ``ConfigError``: nothing is overwritten silently.

    >>> request = {"TrainingJobName": "job-1", "OutputDataConfig": {"S3OutputPath": "s3://bucket/out/"}}
    >>> sorted(training_job_request(request, region="us-east-1"))
    ['DebugHookConfig', 'OutputDataConfig', 'ProfilerConfig', 'TrainingJobName']
    """
    setup = DebuggerSetup(
        rules=rules,
        debugger_hook_config=debugger_hook_config,
        profiler_config=profiler_config,
        tensorboard_output_config=tensorboard_output_config,
        disable_profiler=disable_profiler,
    )
    job = settings_of(
        settings, unknown, region=region, output_path=output_path, job_name=job_name, instance_type=instance_type,
        rule_image_uri=rule_image_uri, defaults=defaults, validate=validate, framework=framework,
        disable_debugger=disable_debugger, ignore=ignore, framework_version=framework_version, image_uri=image_uri,
    )
    return _merged_request(request, setup, job, s3_client, session)


def _merged_request(
    request: Dict[str, Any], setup: DebuggerSetup, settings: JobSettings, s3_client: Any, session: Any
) -> Dict[str, Any]:
    refuse_tuning_request(request)
    for key, item in request.items():  # before deepcopy and the walks below, which recurse
        check_depth(item, path=(key,))
    revalidate(setup.rules)  # upload_rule_sources reads them before render does
    job = _request_settings(request, settings)
    uploaded = upload_rule_sources(setup.rules, output_path=job.output_path, s3_client=s3_client, session=session)
    fields = render_model(attrs.evolve(setup, rules=uploaded), job).request
    merged = copy.deepcopy(request)
    clashes = [name for name in FIELDS if name in request and name in fields and request[name] != fields[name]]
    if clashes:
        raise ConfigError(
            f"the request already has {', '.join(clashes)}, and the Debugger objects render "
            f"{'it' if len(clashes) == 1 else 'them'} differently",
            field=f"request.{clashes[0]}",
            allowed="leave Debugger fields out of the request and pass objects (sm_debug_config.reverse(request) "
                    "rebuilds them)",
        )
    merged.update(fields)
    reason = request_hook_conflicts(merged) if merged.get("DebugHookConfig") else None
    if reason:
        warn_user(ConfigWarning(f"{reason}; the hook is sent as asked (pass debugger_hook_config=False to leave it "
                                "out)"))
    return merged


def create_training_job(
    request: Dict[str, Any],
    *,
    rules: Optional[Sequence[Union[Rule, ProfilerRule]]] = None,
    debugger_hook_config: Union[DebuggerHookConfig, bool, None] = None,
    profiler_config: Optional[ProfilerConfig] = None,
    tensorboard_output_config: Optional[TensorBoardOutputConfig] = None,
    disable_profiler: bool = False,
    session: Any = None,
    client: Any = None,
    s3_client: Any = None,
    settings: Optional[JobSettings] = None,
    region: Optional[str] = None,
    output_path: Any = None,
    job_name: Any = None,
    instance_type: Optional[str] = None,
    rule_image_uri: Optional[str] = None,
    defaults: Optional[str] = None,
    validate: Optional[bool] = None,
    framework: Optional[str] = None,
    disable_debugger: Optional[bool] = None,
    ignore: Optional[Collection[str]] = None,
    framework_version: Optional[str] = None,
    image_uri: Optional[str] = None,
    **unknown: NoReturn,
) -> Dict[str, Any]:
    """Call ``CreateTrainingJob`` with ``request`` plus the rendered Debugger fields; returns the response.

    The region is the ``client``'s (a boto3 SageMaker client) or ``session``'s (default: a new
    ``boto3.Session``); the other settings are as for :func:`training_job_request`. With
    ``validate`` (on by default) the whole merged request is also checked against the client's
    API model, so mistakes are a ``ConfigError`` before anything is sent.

    >>> # create_training_job({"TrainingJobName": "job-1", "RoleArn": ..., "AlgorithmSpecification": ...,
    >>> #                      "OutputDataConfig": {"S3OutputPath": "s3://bucket/out/"}, ...},
    >>> #                     rules=[Rule.sagemaker(rule_configs.vanishing_gradient())])
    """
    setup = DebuggerSetup(
        rules=rules,
        debugger_hook_config=debugger_hook_config,
        profiler_config=profiler_config,
        tensorboard_output_config=tensorboard_output_config,
        disable_profiler=disable_profiler,
    )
    given = settings_of(
        settings, unknown, region=region, output_path=output_path, job_name=job_name, instance_type=instance_type,
        rule_image_uri=rule_image_uri, defaults=defaults, validate=validate, framework=framework,
        disable_debugger=disable_debugger, ignore=ignore, framework_version=framework_version, image_uri=image_uri,
    )
    if client is None:
        import boto3

        session = session or boto3.Session()
        client = session.client("sagemaker")
    client_region = client.meta.region_name
    if not isinstance(client_region, str):
        raise ConfigError(
            "the SageMaker client has no region",
            field="region",
            allowed="a client or session with a region (e.g. boto3.Session(region_name='us-east-1'))",
        )
    job = settings_from(given, {"region": client_region}, "the SageMaker client")
    if s3_client is None and session is None:
        import boto3

        session = boto3.Session(region_name=client_region)
    merged = _merged_request(request, setup, job, s3_client, session)
    if job.validate:
        from botocore.validate import ParamValidator

        check_botocore(merged, service_model=client.meta.service_model)
        report = ParamValidator().validate(
            merged, client.meta.service_model.operation_model("CreateTrainingJob").input_shape
        )
        if report.has_errors():
            raise ConfigError(
                report.generate_report(),
                field="request",
                allowed="a CreateTrainingJob request the SageMaker API accepts",
            )
    return client.create_training_job(**merged)
