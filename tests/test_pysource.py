"""pysource: users' text parsed by Python without a warning, with the tree, values and positions Python gives."""
import ast
import contextlib
import re
import sys
import warnings

import pytest

from sm_debug_config import pysource

SOURCES = [
    'x = "conv\\d+"\n',
    'rule = f(regex="a\\.b\\d", other="\\n\\w")  # two on a line\ny = 1\n',
    's = """first \\d\nsecond \\w and \\q"""; z = f(1, "\\s")\n',
    'b = b"\\N{x}\\d" + "é\\d"; c = "é"\n',
    'f"{x}\\d{y!r:>{w}}\\w" + rf"\\d" + r"\\d" + "ok\\\\d"\n',
    'v = ("\\d"\n     "\\e")\n',
    'no_escape = 1\n',
    'x = "a\\\r\ndef\\d"\r\ny = "\\w"\r\n',  # CRLF, a line continued inside a string
]


def _dump(tree):
    return ast.dump(tree, include_attributes=True)


def _python(text):
    with warnings.catch_warnings():  # the test's reference: Python's own tree, its warning ignored
        warnings.simplefilter("ignore")
        return ast.parse(text)


@pytest.mark.parametrize("text", SOURCES)
def test_the_tree_is_pythons_and_nothing_warns(text):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning would be a SyntaxError
        tree = pysource.parse(text)
    assert _dump(tree) == _dump(_python(text))


def test_lone_cr_line_ends_are_parsed_as_written():
    text = 'x = "\\d"\ry = "\\w"\r'  # the tokenizer and the parser would count these lines differently
    assert pysource._doubled_backslashes(text) == (text, {})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _dump(pysource.parse(text)) == _dump(_python(text))


def test_a_syntax_error_after_a_doubled_backslash_keeps_its_position():
    text = 'x = "\\d" + "\\w" + )\n'
    with pytest.raises(SyntaxError) as python:
        _python(text)
    with pytest.raises(SyntaxError) as ours:
        pysource.parse(text)
    assert (ours.value.lineno, ours.value.offset, ours.value.text) == (
        python.value.lineno, python.value.offset, python.value.text)


def test_literal_is_literal_eval():
    assert pysource.literal('"a\\d\\n"') == "a\\d\n"
    with pytest.raises(ValueError):
        pysource.literal("f(1)")


PATTERNS = ["[[a]", "[a--z]", "[!--]", "[a&&b]", "[a||b~~c]", "[&&&]", "[^[x]", "[]]", "[a-]", "[\\[--]",
            "x[a-z--0]y", "[[:alpha:]]", "[\\N{HYPHEN-MINUS}--]", "a|b[||]", "[z--]", "[--x]", "([a--b]"]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_patterns_compile_as_python_reads_them_and_nothing_warns(pattern):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            python = re.compile(pattern)
        except re.error as err:
            python = err
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        re.purge()
        try:
            ours = pysource.compile_pattern(pattern)
        except re.error as err:
            ours = err
    if isinstance(python, re.error):
        assert isinstance(ours, re.error) and (ours.msg, ours.pos, ours.pattern) == (python.msg, python.pos, pattern)
        return
    assert not isinstance(ours, re.error), ours
    for text in ["[", "a", "-", "&", "|", "~", "b", "z", "0", "!", "]", "x", ":", "x-y", "xzy", "x0y"]:
        assert bool(ours.search(text)) == bool(python.search(text)), (pattern, text)


def test_python_still_warns_about_the_patterns_tested():
    """The cases above are the ones Python warns about (else the test tests nothing)."""
    warned = 0
    for pattern in PATTERNS:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            re.purge()  # a pattern compiled before warns no more
            with contextlib.suppress(re.error):
                re.compile(pattern)
        warned += bool(caught)
    assert warned >= 10
    if sys.version_info < (3, 12):
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ast.parse(SOURCES[0])
    assert caught


def test_a_comment_in_a_pattern_holds_no_set():
    """Review of issue 36: '[[' inside (?#...) was escaped as if it opened a set, so the real nested set after it
    warned (a FutureWarning on stderr, and no verdict under -W error)."""
    import re
    import warnings

    from sm_debug_config.pysource import compile_pattern

    for pattern in ("(?#[[)[[a]", "a(?#x)[[b]", "(?#[)[a]"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert compile_pattern(pattern).pattern != "" and re.compile(pattern.replace("[[", "[\\\\["))
