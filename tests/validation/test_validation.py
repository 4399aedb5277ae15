"""The registry as a whole: every code has a paired case (tests/checkpairs.py gathers them: each check family's
test module, test_api, test_hook, test_rules, test_profiler, test_paths, test_images, then tests/pairhelpers.py's
for lint, plan and config files) and a description. validate() as a whole (every finding, pointers, determinism,
the severity policy, ignore) is in test_validate.py."""

from sm_debug_config import list_checks
from sm_debug_config.findings import CHECKS

from tests.checkpairs import FAMILIES, examples, fix_cases


def test_every_registered_code_has_a_case_and_a_description():
    covered = {case[0] for family in FAMILIES for case in family.CASES}
    # paired in tests/pairhelpers.py: SMD002 (config-file build errors, never from a request: CONFIG_CASES, run by
    # tests/cli/test_validate.py), SMD116 (the merge's: two rules disagree, no request shows it; CONFIG_CASES),
    # SMD003 (a file that cannot be read, in --format sarif: UNREADABLE_CASES, run by
    # tests/cli/test_sarif.py), SMD180-SMD182 (lint's: LINT_CASES, tests/lint/test_lint.py), SMD190 (plan's:
    # PLAN_CASES, tests/operations/test_plan.py)
    # SMD103 (an ACK manifest's member the API server prunes: DOCUMENT_CASES, tests/sources/test_kubernetes.py)
    assert set(CHECKS) - covered == {"SMD002", "SMD003", "SMD103", "SMD116", "SMD180", "SMD181", "SMD182", "SMD190"}
    assert set(examples()) == set(CHECKS)
    for row in list_checks(verbose=True):
        assert row["severity"] in ("error", "warning", "info") and row["description"].endswith(".") and row["evidence"]
    assert "evidence" not in list_checks()[0]


def test_every_declared_kind_of_fix_has_a_fix_case_and_every_case_a_declared_kind():
    """A code's row names the fixes its findings carry (the page says them); each has a bad -> good request pair
    (tests/checkpairs.py fix_cases), and no pair is of a kind its code does not declare."""
    declared = {(code, kind) for code, check in CHECKS.items() for kind, _ in check.fixes}
    cased = {(case["code"], case["applicability"]) for case in fix_cases()}
    assert declared == cased
    assert {"SMD100", "SMD114", "SMD120"} <= {code for code, kind in declared if kind == "safe"}
    assert "SMD132" not in {code for code, _ in declared}  # save_interval "0": the intent is unknown
