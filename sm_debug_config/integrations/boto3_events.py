"""Debugger fields for any boto3 launcher: a botocore event handler on ``CreateTrainingJob``.

SDK v3's ``ModelTrainer`` (like Airflow's ``SageMakerTrainingOperator`` or plain boto3) has no
Debugger parameters but sends its job through a boto3 SageMaker client, whose public
``before-parameter-build`` event lets the request that leaves carry exactly ``render()``'s fields.
No ``sagemaker`` import: trainers, sessions and clients are recognised by their attributes.
"""
from __future__ import annotations

import contextlib
import itertools
import sys
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional

from sm_debug_config.checked import render
from sm_debug_config.errors import ConfigError
from sm_debug_config.model.settings import DebuggerSetup, JobSettings
from sm_debug_config.rendering import FIELDS, request_image
from sm_debug_config.validation import raise_for_errors, validate

__all__ = ["EVENT", "DEBUGGER_FIELDS", "add_debugger_fields", "add_to_step_arguments", "attach", "debugger_handler"]

EVENT = "before-parameter-build.sagemaker.CreateTrainingJob"
DEBUGGER_FIELDS = FIELDS
_SETUP = DebuggerSetup.names()
_ids = itertools.count()


def _present(value: Any) -> bool:
    return value is not None and value != [] and value != {}


def add_debugger_fields(
    request: Dict[str, Any], *, region: Optional[str] = None, settings: Optional[JobSettings] = None, **arguments: Any
) -> Dict[str, Any]:
    """Add ``render()``'s Debugger fields to a ``CreateTrainingJob`` request, in place; return them.

    ``arguments`` are ``render``'s; the output path and job name come from ``request`` unless given.
    ``ConfigError`` rather than overwriting a field the launcher set, and before sending fields
    that CreateTrainingJob would refuse (e.g. v3 ``with_tensorboard_output_config()``'s ``LocalPath``).

    >>> from sm_debug_config import Rule, rule_configs
    >>> request = {"TrainingJobName": "job-1", "OutputDataConfig": {"S3OutputPath": "s3://b/out/"}}
    >>> added = add_debugger_fields(request, region="us-east-1", defaults="explicit",
    ...                             rules=[Rule.sagemaker(rule_configs.loss_not_decreasing())])
    >>> sorted(added), request["DebugHookConfig"]["S3OutputPath"]
    (['DebugHookConfig', 'DebugRuleConfigurations', 'ProfilerConfig'], 's3://b/out/')
    """
    setup = {name: arguments.pop(name) for name in _SETUP if name in arguments}
    from_request = {
        "output_path": (request.get("OutputDataConfig") or {}).get("S3OutputPath"),
        "job_name": request.get("TrainingJobName"),
        "region": region,
    }
    for name, value in from_request.items():
        if value is not None and arguments.get(name) is None:
            arguments[name] = value
    # the image the job runs: does the hook run there?
    image = request_image(request, JobSettings.build(settings, arguments))
    if image is not None:
        arguments["image_uri"] = image
    fields = render(settings=settings, **setup, **arguments)
    clashes = [name for name in fields if _present(request.get(name))]
    if clashes:
        raise ConfigError(
            f"the CreateTrainingJob request already has {', '.join(clashes)}; sm-debug-config does not overwrite "
            f"Debugger fields that the launcher set",
            field=clashes[0],
            allowed="configure these fields in one place: either the launcher or sm-debug-config",
        )
    combined = {name: request[name] for name in DEBUGGER_FIELDS if _present(request.get(name))}
    combined.update(fields)
    framework = (
        arguments.get("framework")
        if arguments.get("framework") is not None
        else (settings.framework if settings else None)
    )
    raise_for_errors(validate(combined, framework=framework, region=arguments.get("region")))
    request.update(fields)
    return fields


def debugger_handler(**arguments: Any) -> Callable[..., None]:
    """A ``before-parameter-build`` handler that calls :func:`add_debugger_fields` on each request."""
    def handler(params: Dict[str, Any], context: Optional[Mapping[str, Any]] = None, **_: Any) -> None:
        region = (context or {}).get("client_region")
        add_debugger_fields(params, region=region, **arguments)
    return handler


def _event_systems(target: Any) -> List[Any]:
    """The event emitters to register on, for a client, a boto3 Session, a trainer, or None."""
    meta = getattr(target, "meta", None)
    if meta is not None and hasattr(meta, "events"):  # a botocore client
        return [meta.events]
    if target is None:  # boto3's default session, as boto3.client(...) uses it
        import boto3  # type: ignore[import-untyped]

        target = boto3._get_default_session()  # noqa: SLF001 - the documented default session's getter
    sagemaker_session = getattr(target, "sagemaker_session", None)
    if sagemaker_session is not None:  # a ModelTrainer (or anything that holds a SageMaker Session)
        return _trainer_event_systems(sagemaker_session)
    if hasattr(target, "events") and hasattr(target, "client"):  # a boto3 Session
        return [target.events]
    if hasattr(target, "register") and hasattr(target, "unregister"):  # an emitter, e.g. a botocore session's
        return [target]
    raise ConfigError(
        f"cannot attach to a {type(target).__name__}",
        field="target",
        allowed="a boto3 SageMaker client, a boto3 Session, a ModelTrainer (or an object with .sagemaker_session), "
                "or None for boto3's default session",
    )


def _trainer_event_systems(sagemaker_session: Any) -> List[Any]:
    """A trainer's boto3 Session and the SageMaker clients already made from it (botocore copies
    a session's handlers into a client only when it is created), including sagemaker-core's cached
    client that ``ModelTrainer.train`` uses (fetched, or created with the handler, in :func:`attach`)."""
    boto_session = sagemaker_session.boto_session
    systems = [boto_session.events]
    client = getattr(sagemaker_session, "sagemaker_client", None)
    if client is not None and hasattr(client, "meta"):
        systems.append(client.meta.events)
    for module_name in ("sagemaker.core.utils.utils", "sagemaker_core.main.utils"):
        module = sys.modules.get(module_name)
        factory = getattr(module, "SageMakerClient", None)
        if factory is not None:
            for region in {None, boto_session.region_name}:
                systems.append(("lazy", factory, boto_session, region))
    return systems


@contextlib.contextmanager
def attach(target: Any = None, **arguments: Any) -> Iterator[Callable[..., None]]:
    """Add Debugger fields to every ``CreateTrainingJob`` sent through ``target`` in the block.

    ``target``: a ``ModelTrainer`` (SDK v3), a boto3 SageMaker client, a boto3 ``Session`` (its
    clients created afterwards) or ``None`` (boto3's default session); ``arguments`` are ``render``'s.

    >>> import boto3
    >>> from sm_debug_config import Rule, rule_configs
    >>> client = boto3.client("sagemaker", region_name="us-east-1")
    >>> with attach(client, rules=[Rule.sagemaker(rule_configs.loss_not_decreasing())], defaults="explicit"):
    ...     pass  # client.create_training_job(...) here carries the fields
    """
    settings = arguments.pop("settings", None)
    JobSettings.build(settings, {k: v for k, v in arguments.items() if k not in _SETUP})  # fail now, not at train()
    handler = debugger_handler(settings=settings, **arguments)
    unique_id = f"sm-debug-config-{next(_ids)}"
    registered: List[Any] = []
    try:
        for system in _event_systems(target):
            if isinstance(system, tuple):  # sagemaker-core's cached client, fetched once the session has the handler
                _, factory, boto_session, region = system
                system = factory(session=boto_session, region_name=region).sagemaker_client.meta.events
            system.register(EVENT, handler, unique_id=unique_id)
            registered.append(system)
        yield handler
    finally:
        for system in registered:
            system.unregister(EVENT, unique_id=unique_id)


def add_to_step_arguments(step_args: Any, **arguments: Any) -> Any:
    """Make a v3 Pipeline step built from ``trainer.train()`` (a request built each time it is read,
    under a ``PipelineSession``) carry the Debugger fields. Pipelines name jobs at run time: give
    ``job_name`` only if a rule needs it (``StopTraining()`` without a prefix does). The region is
    the trainer's boto3 session's unless given.

    >>> # step = TrainingStep(name="Train", step_args=add_to_step_arguments(
    >>> #     trainer.train(), rules=[...], defaults="explicit"))
    """
    func = getattr(step_args, "func", None)
    func_args = getattr(step_args, "func_args", None)
    if not callable(func) or not func_args or getattr(func_args[0], "sagemaker_session", None) is None:
        raise ConfigError(
            "expected the step arguments that trainer.train() returns under a PipelineSession, "
            f"got {type(step_args).__name__}",
            field="step_args",
        )
    if getattr(func, "_sm_debug_config", False):
        raise ConfigError(
            "these step arguments already carry Debugger fields from add_to_step_arguments", field="step_args"
        )
    session = func_args[0].sagemaker_session
    settings = arguments.pop("settings", None)
    region = arguments.pop("region", None) or getattr(getattr(session, "boto_session", None), "region_name", None)
    JobSettings.build(settings, {k: v for k, v in arguments.items() if k not in _SETUP})

    def build(*args: Any, **kwargs: Any) -> Any:
        result = func(*args, **kwargs)
        context = getattr(session, "context", None)
        request = getattr(context, "args", None)
        if not isinstance(request, dict):
            raise ConfigError("the pipeline session captured no training request", field="step_args")
        add_debugger_fields(request, region=region, settings=settings, **dict(arguments))
        return result

    build._sm_debug_config = True  # type: ignore[attr-defined]  # noqa: SLF001 - our mark on our own function
    step_args.func = build
    return step_args

