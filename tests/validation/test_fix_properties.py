"""Fixes over generated requests with several mistakes at once (issue 38): applying the fixes one by one, as a caller
of ``validate`` or ``--fix`` does, never fails, ends (no fix undoes another), changes only the members its changes
name, and leaves no finding with a fix; a finding of a code whose row declares no fix never carries one."""
from __future__ import annotations

import copy

from hypothesis import given
from hypothesis import strategies as st

from sm_debug_config import validate
from sm_debug_config.findings import CHECKS
from sm_debug_config.model import catalogue, hookparams
from tests.strategies import examples
from tests.validation.valhelpers import IMAGE, OUT

_HOOK_KEYS = sorted(hookparams.spec()["parameters"])
_RULES = catalogue.all_names("debugger")[:8] + ["CPUBottleneck", "LowGPUUtilization"]


def _misspelt(draw, word):
    """``word``, or it with one character left out, doubled or capitalised (a typo)."""
    how = draw(st.sampled_from(["as is", "drop", "double", "upper"]))
    at = draw(st.integers(0, max(0, len(word) - 1)))
    if how == "drop" and len(word) > 3:
        return word[:at] + word[at + 1:]
    if how == "double":
        return word[:at] + word[at] + word[at:]
    return word.upper() if how == "upper" else word


def _value(draw):
    return draw(st.one_of(st.integers(-5, 500), st.booleans(), st.sampled_from(["10", "0", "true", "TRUE", "All",
                                                                                  "maxx,min", "5.5", "bucket/out"])))


@st.composite
def requests(draw):
    """A request with a handful of mistakes: typos in keys and collection names, numbers where strings go, a step
    range backwards, a reserved or relative LocalPath, an S3 URI without its scheme, a rule name twice."""
    params = {_misspelt(draw, key): _value(draw) for key in draw(st.lists(st.sampled_from(_HOOK_KEYS), max_size=4))}
    if draw(st.booleans()):
        params.update({"start_step": "50", "end_step": "5"})
    collections = [{"CollectionName": _misspelt(draw, name), "CollectionParameters": {}}
                   for name in draw(st.lists(st.sampled_from(["gradients", "weights", "losses", "biases"]),
                                             max_size=3, unique=True))]
    hook = {"S3OutputPath": draw(st.sampled_from([OUT, "bucket/out"])), "HookParameters": params,
            "CollectionConfigurations": collections}
    if draw(st.booleans()):
        hook["LocalPath"] = draw(st.sampled_from(["tensors", "/opt/ml/output/tensors"]))
    rules = []
    for name in draw(st.lists(st.sampled_from(_RULES), max_size=3)):
        known = list(catalogue.user_parameters(catalogue.find(name)[1]))
        rule_params = {_misspelt(draw, key): _value(draw) for key in draw(st.lists(st.sampled_from(known),
                                                                                   max_size=2))} if known else {}
        rules.append({"RuleConfigurationName": name, "RuleEvaluatorImage": IMAGE,
                      "RuleParameters": dict(rule_params, rule_to_invoke=name)})
    request = {"DebugHookConfig": hook,
               "DebugRuleConfigurations": [r for r in rules if r["RuleParameters"]["rule_to_invoke"] not in (
                   "CPUBottleneck", "LowGPUUtilization")],
               "ProfilerRuleConfigurations": [r for r in rules if r["RuleParameters"]["rule_to_invoke"] in (
                   "CPUBottleneck", "LowGPUUtilization")],
               "TensorBoardOutputConfig": {"S3OutputPath": OUT, "LocalPath": draw(st.sampled_from(
                   ["/tensorboard", "tb", "/opt/ml/output/tensorboard"]))}}
    if request["ProfilerRuleConfigurations"]:
        request["ProfilerConfig"] = {"S3OutputPath": OUT}
    return request


def _touched(changes, before, after):
    """Whether ``before`` and ``after`` differ only at or below (or, for a rename, beside) the changes' paths."""
    def strip(document, path):
        if not path:
            return None
        parent = document
        for part in path[:-1]:
            try:
                parent = parent[part]
            except (KeyError, IndexError, TypeError):
                return document
        if isinstance(parent, dict):
            parent.pop(path[-1], None)
        return document

    left, right = copy.deepcopy(before), copy.deepcopy(after)
    for change in changes:
        strip(left, change.path)
        strip(right, change.path)
        if change.kind == "rename":
            strip(left, change.path[:-1] + (change.value,))
            strip(right, change.path[:-1] + (change.value,))
    return left == right


@examples(200, deadline=None)
@given(requests())
def test_fixes_apply_one_by_one_end_and_change_only_what_they_name(request):
    fixed = request
    for _ in range(40):
        found = validate(fixed)
        for finding in found:
            assert finding.fix is None or CHECKS[finding.code].fixes, finding
        fixable = [f for f in found if f.fix is not None]
        if not fixable:
            break
        fix = fixable[0].fix
        after = fix.apply(fixed)
        assert after != fixed, fixable[0]  # a fix changes the request
        assert _touched(fix.changes, fixed, after)
        fixed = after
    else:
        raise AssertionError("fixes did not end")
