"""lint's columns on lines after characters that ``str.splitlines`` takes for line ends and Python does not (a form
feed, U+2028...): the finding stays at its value (issue 39: an editor shows it there)."""

from __future__ import annotations

import pytest

from sm_debug_config.lint import lint_text

RULE = "rules = [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={'threshhold': '0.1'})]\n"


@pytest.mark.parametrize("separator", ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_a_finding_after_a_character_splitlines_breaks_at_keeps_its_column(separator):
    text = f"from sagemaker.debugger import Rule, rule_configs\n# page {separator}break\n{RULE}"
    (finding,) = lint_text(text)["findings"]
    assert (finding.code, finding.line, finding.column) == ("SMD120", 3, RULE.index("'threshhold'") + 1)
