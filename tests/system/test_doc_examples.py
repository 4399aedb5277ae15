"""Every code example of README.md and docs/*.md runs against the versions installed here, so what a user copies works
(issue 37 §4): Python blocks run (doctest where they show ``>>>``), ``sm-debug-config`` commands run or, for a synopsis,
name only options their command has. How a block says what it needs: :mod:`tests.dochelpers`. The blocks that need
the SDK v3 run in ``scripts/test_v3.sh``'s venv (``tests/v3/test_doc_examples_v3.py``)."""
from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path
from typing import Any, List

import pytest

from tests.dochelpers import (
    NEEDS,
    Command,
    Example,
    commands,
    every_example,
    options_named,
    placed,
    python_examples,
    run_python,
    workdir,
)

EXAMPLES = python_examples(v3=False)
COMMANDS = [command for example in every_example() if not example.not_run for command in commands(example)]


def test_the_documents_have_examples_and_every_directive_is_known():
    found = every_example()
    assert len([e for e in found if e.language == "python"]) > 20 and len(COMMANDS) > 15
    for example in found:
        assert example.not_run != "?", f"{example.id}: <!-- not run: --> gives no reason"
        assert set(example.needs) <= set(NEEDS), (example.id, example.needs)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_python_example_runs(example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if example.not_run:
        pytest.skip(f"not run: {example.not_run}")
    _skip_unless_installed(example)
    monkeypatch.chdir(workdir(tmp_path, example))
    monkeypatch.setenv("NO_COLOR", "1")
    run_python(example, tmp_path)


def _skip_unless_installed(example: Example) -> None:
    if "sdk-v2" in example.needs and importlib.util.find_spec("sagemaker.estimator") is None:
        pytest.skip("needs the SageMaker Python SDK v2 (scripts/test.sh installs it)")
    if "plan" in example.needs and importlib.util.find_spec("moto") is None:
        pytest.skip('needs moto (the extra "plan")')


def _parser_of(argv: List[str]) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``argv`` starts with."""
    from sm_debug_config.cli import build_parser

    parser = build_parser(argv[0])
    for word in argv:
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        if sub is None or word not in sub.choices:
            break
        parser = sub.choices[word]
    return parser


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: f"{c.example.id}:{' '.join(c.argv)[:40]}")
def test_command_example(command: Command, cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _skip_unless_installed(command.example)
    if command.synopsis:
        parser = _parser_of(command.argv)
        assert command.argv[0] in _parser_of([command.argv[0]]).prog, command.argv
        unknown = [option for option in options_named(command.argv) if option not in parser._option_string_actions]
        assert not unknown, f"{command.example.id}: {' '.join(command.argv[:2])} has no {unknown}"
        return
    directory = workdir(tmp_path, command.example)
    result = cli(*command.argv)  # in the repository (the cli fixture's directory), where the examples' files are
    if result.returncode == 2 and "no such file" in result.stderr.lower():
        monkeypatch.chdir(directory)
        result = cli(*command.argv)
    assert result.returncode in (0, 1), result.stderr
    missing = [line for line in placed(command.shown) if line not in placed(result.stdout.splitlines())]
    assert not missing, f"{command.example.id}: shown but not printed: {missing}\n{result.stdout}"


def test_a_block_says_why_it_is_not_run(tmp_path: Path) -> None:
    from tests.dochelpers import examples

    page = tmp_path / "page.md"
    page.write_text("<!-- not run: talks to a real account -->\n```python\nimport boto3\n```\n"
                    "<!-- run: sdk-v3, plan -->\n```python\nx = 1\n```\n```sh\nsm-debug-config validate a.yaml\n```\n",
                    encoding="utf-8")
    first, second, third = examples(page)
    assert (first.not_run, first.needs, first.text) == ("talks to a real account", (), "import boto3\n")
    assert (second.not_run, second.needs) == ("", ("sdk-v3", "plan"))
    assert [(c.argv, c.synopsis) for c in commands(third)] == [(["validate", "a.yaml"], False)]
