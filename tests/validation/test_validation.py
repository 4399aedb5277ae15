"""The registry as a whole: every code has a paired case in its family's test module (test_api, test_hook,
test_rules, test_profiler, test_paths, test_images) and a description. validate() as a whole (every finding,
pointers, determinism, the severity policy, ignore) is in test_validate.py."""

from sm_debug_config import list_checks
from sm_debug_config.findings import CHECKS

from tests.validation import test_api, test_hook, test_images, test_paths, test_profiler, test_rules

#: The test module of each check family (validation/<family>.py), each with its paired cases.
FAMILIES = (test_api, test_hook, test_rules, test_profiler, test_paths, test_images)


def test_every_registered_code_has_a_case_and_a_description():
    covered = {case[0] for family in FAMILIES for case in family.CASES}
    all_codes = set(CHECKS)
    # SMD002: config-file build errors, tested in test_cli.py; it cannot come from a request
    # SMD003: a file validate or lint cannot read, in --format sarif: tests/cli/test_sarif.py (broken and good files)
    # SMD180-SMD182: lint's codes about Python sources, paired bad/good in tests/lint/test_lint.py (LINT_CASES)
    # SMD190: plan's code about a launcher's run, paired bad/good in tests/operations/test_plan.py (PLAN_CASES)
    assert all_codes - covered == {"SMD002", "SMD003", "SMD180", "SMD181", "SMD182", "SMD190"}
    for row in list_checks(verbose=True):
        assert row["severity"] in ("error", "warning", "info") and row["description"].endswith(".") and row["evidence"]
    assert "evidence" not in list_checks()[0]
