"""The paired cases of the codes no request check makes: a bad input that gets the code and a near-identical good
one that does not, for config files (``CONFIG_CASES``, run by tests/cli/test_validate.py), files that cannot be
read (``UNREADABLE_CASES``, tests/cli/test_sarif.py), documents (``DOCUMENT_CASES``), lint
(``LINT_CASES``, tests/lint/test_lint.py) and plan (``PLAN_CASES``, tests/operations/test_plan.py). The request
checks' pairs are each family's ``CASES`` (tests/validation/test_<family>.py); tests/checkpairs.py gathers them
all, the registry drift test wants one for every code, and the pages under docs/checks/ show them."""
import os

#: The launchers plan's tests run (relative: the tests run from the repository's root).
LAUNCHERS = os.path.join("tests", "data", "launchers")


def launcher(name: str) -> str:
    return os.path.join(LAUNCHERS, name)


_TWO_RULES = (
    "region: us-east-1\noutput_path: s3://bucket/out/\nrules:\n"
    "  - builtin: LossNotDecreasing\n    collections_to_save:\n      - name: losses\n"
    "        parameters: {{reductions: max}}\n"
    "  - builtin: Overtraining\n    collections_to_save:\n      - name: losses\n"
    "        parameters: {{reductions: {}}}\n"
)

#: The config-file codes' paired cases: code, request pointer, bad file, near-identical good file.
CONFIG_CASES = [
    (
        "SMD002",
        "/TensorBoardOutputConfig/container_local_output_pth",
        "region: us-east-1\noutput_path: s3://bucket/out/\ntensorboard_output_config:\n"
        "  s3_output_path: s3://bucket/tb/\n  container_local_output_pth: /tensorboard\n",
        "region: us-east-1\noutput_path: s3://bucket/out/\ntensorboard_output_config:\n"
        "  s3_output_path: s3://bucket/tb/\n  container_local_output_path: /tensorboard\n",
    ),
    (  # the merge's: one entry per collection, so no request check sees two rules disagree
        "SMD116",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/reductions",
        _TWO_RULES.format("min"),
        _TWO_RULES.format("max"),
    ),
]

#: The codes a document's source makes about what it read (never in a request): code, document pointer, bad file,
#: near-identical good file (validate of each, tests/sources/test_kubernetes.py).
DOCUMENT_CASES = [
    (  # an ACK manifest: a member in the API's case is pruned by the API server
        "SMD103",
        "/spec/DebugHookConfig",
        "apiVersion: sagemaker.services.k8s.aws/v1alpha1\nkind: TrainingJob\nmetadata: {name: job}\nspec:\n"
        "  DebugHookConfig: {s3OutputPath: s3://bucket/debug/}\n",
        "apiVersion: sagemaker.services.k8s.aws/v1alpha1\nkind: TrainingJob\nmetadata: {name: job}\nspec:\n"
        "  debugHookConfig: {s3OutputPath: s3://bucket/debug/}\n",
    ),
]

_MANIFEST = {"apiVersion": "sagemaker.services.k8s.aws/v1alpha1", "kind": "TrainingJob", "metadata": {"name": "job"}}
#: The fixes of the codes a document's source makes (tests/sources/test_manifest_fixes.py): code, applicability, bad
#: document, the document its fix makes of it (exactly). Their changes are at the document's paths (``/spec/...``),
#: not a request's; tests/checkpairs.py ``fix_cases()`` has the request checks' pairs.
DOCUMENT_FIX_CASES = [
    (
        "SMD103", "safe",
        dict(_MANIFEST, spec={"DebugHookConfig": {"s3OutputPath": "s3://bucket/debug/"},
                              "tensorBoardOutputConfig": {"S3OutputPath": "s3://bucket/tb/"}}),
        dict(_MANIFEST, spec={"debugHookConfig": {"s3OutputPath": "s3://bucket/debug/"},
                              "tensorBoardOutputConfig": {"s3OutputPath": "s3://bucket/tb/"}}),
    ),
]

#: A file validate cannot read, a result in ``--format sarif``: code, bad file, near-identical good file.
UNREADABLE_CASES = [
    (
        "SMD003",
        "region: us-east-1\nrules: [Overfit, VanishingGradient\n",
        "region: us-east-1\nrules: [Overfit, VanishingGradient]\n",
    ),
]

_EST = "from sagemaker.debugger import Rule, rule_configs\nfrom sagemaker.pytorch import PyTorch\n"
#: lint's own codes: code, bad source, near-identical good source.
LINT_CASES = [
    (
        "SMD180",
        _EST + "PyTorch(framework_version='1.13.1', debugger_hook_config=None)\n",
        _EST + "PyTorch(framework_version='1.13.1', debugger_hook_config=False)\n",
    ),
    (
        "SMD181",
        _EST + "import os\nPyTorch(framework_version='1.13.1', rules=[Rule.sagemaker(rule_configs.overfit(), "
        "name=os.environ['N'])])\n",
        _EST + "PyTorch(framework_version='1.13.1', rules=[Rule.sagemaker(rule_configs.overfit(), name='N')])\n",
    ),
    (
        "SMD182",
        _EST + "r = Rule.sagemaker(rule_configs.overfit())  # sm-debug-config: ignore[SMD12O]\n",
        _EST + "r = Rule.sagemaker(rule_configs.overfit())  # sm-debug-config: ignore[SMD120]\n",
    ),
]

#: plan's own codes, each with a bad and a near-identical good run: boto3_jobs.py makes 5 job requests.
PLAN_CASES = [
    (
        "SMD190",
        ["plan", "--format", "json", "--max-jobs", "4", launcher("boto3_jobs.py")],
        ["plan", "--format", "json", "--max-jobs", "5", launcher("boto3_jobs.py")],
    ),
]
