"""Properties of fixes in generated config files (YAML in every style, JSON) with mistakes put in (an S3 path
without its scheme, a misspelt rule parameter, a plain number where a hook takes a string): every fix's edits
change nothing outside their spans and leave a file that parses; applying them pass after pass ends with no fix
left, and one more pass changes nothing."""
from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from sm_debug_config.configfile import dump, read_text
from sm_debug_config.fixes import apply_edits
from tests.configfile.cfhelpers import YamlEmitter
from tests.sources.sourcehelpers import findings_of
from tests.strategies import configurations, examples

MISSPELT = {"threshold": "thresold", "num_steps": "num_stpes", "tensor_regex": "tensor_regx"}


@st.composite
def config_files(draw):
    """A config file's text (YAML or JSON, LF or CRLF), made from a valid configuration with mistakes put in."""
    kwargs = draw(configurations())
    kwargs.pop("framework")
    if kwargs["debugger_hook_config"] is True:
        kwargs["debugger_hook_config"] = None
    mapping = dump(**kwargs)
    board = mapping.get("tensorboard_output_config")
    if isinstance(board, dict) and draw(st.booleans()):
        board["s3_output_path"] = board["s3_output_path"][len("s3://"):]
    for rule in mapping.get("rules") or []:
        parameters = rule.get("rule_parameters") if isinstance(rule, dict) else None
        for right, wrong in MISSPELT.items():
            if isinstance(parameters, dict) and right in parameters and draw(st.booleans()):
                parameters[wrong] = parameters.pop(right)
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    if draw(st.booleans()):
        return YamlEmitter(draw, newline).document(mapping), "job.yaml"
    return json.dumps(mapping, indent=draw(st.sampled_from([None, 2]))).replace("\n", newline), "job.json"


@examples(100)
@given(file=config_files())
def test_fixes_keep_the_rest_and_end(file):
    text, name = file
    for _ in range(10):
        found, findings = findings_of(text, name)
        fixes = [f.fix.edits for f in findings if f.fix is not None and f.fix.edits]
        for edits in fixes:
            one, _ = apply_edits(found.text, [edits])
            edit = edits[0]
            assert one[:edit.start] == found.text[:edit.start]
            last = edits[-1]
            assert one[len(one) - (len(found.text) - last.end):] == found.text[last.end:]
            read_text(one, name)  # parses
        text, count = apply_edits(found.text, fixes)
        if count == 0:
            break
    else:
        raise AssertionError("fixes left after 10 passes")
    assert apply_edits(text, [f.fix.edits for f in findings_of(text, name)[1]
                              if f.fix is not None and f.fix.edits]) == (text, 0)
