"""The code examples of README.md and docs/*.md, as the tests run them (``tests/system/test_doc_examples.py``; the
SDK v3 ones in ``tests/v3/test_doc_examples_v3.py``, in the venv of ``scripts/test_v3.sh``).

A fenced block is one example. What it needs is said in an HTML comment on the line(s) just above its fence, which
GitHub does not show:

* ``<!-- not run: REASON -->``: not run, for the reason given (it must give one);
* ``<!-- run: WHAT[, WHAT] -->``: ``sdk-v2`` (needs the SageMaker Python SDK v2, ``scripts/test.sh``'s venv),
  ``sdk-v3`` (needs sagemaker-train: run only by ``scripts/test_v3.sh``), ``plan`` (the block is a whole launcher:
  run by ``sm_debug_config.operations.plan.plan`` against moto's in-process AWS, and it must start a job without an
  error), ``continued`` (runs in the namespace the file's previous Python block left; with ``plan``, after it in
  one launcher), ``warns`` (a block that shows a ``ConfigWarning``: it must warn one, which is not an error here).

A ``python`` block runs in a temporary directory that holds a copy of ``examples/`` and an empty ``train.py``; a
``yaml`` block whose first line is ``# NAME`` is written there as ``NAME`` for the blocks after it in the same file.
A block with ``>>>`` lines is a doctest (output compared, ``...`` matching anything). In ``sh``, ``console`` and
``text`` blocks, each ``sm-debug-config`` command is checked: a synopsis (``[`` options or placeholders in capitals)
names only options its command has; a whole command runs (in the same directory) without a usage error, and the lines
of output shown that place a finding (``FILE:LINE:COL: severity CODE``) are in what it prints.
"""
from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
import warnings
import shlex
import shutil
from pathlib import Path
from typing import Any, Dict, Iterator, List, NamedTuple, Tuple

ROOT = Path(__file__).resolve().parent.parent
#: The documents whose examples run: the README and the pages of docs/ (not docs/checks/, generated from the
#: tests' own paired cases).
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: What ``<!-- run: ... -->`` may say.
NEEDS = ("sdk-v2", "sdk-v3", "plan", "continued", "warns")
_FENCE = re.compile(r"^(`{3,})(\w*)[^\n]*$")
_DIRECTIVE = re.compile(r"^<!--\s*(not run|run)\s*:\s*(.*?)\s*-->$")
#: A placeholder in a synopsis: CONFIG, FILE|DIR, JOB_NAME... (a word of capitals, not an AWS or code name).
_PLACEHOLDER = re.compile(r"(?<![\w/.-])[A-Z][A-Z_]{2,}(?![\w/.-])")
#: A line of output that places a finding.
_PLACED = re.compile(r"^(\S+:\d+:\d+: (?:error|warning|info) SMD\d{3})\b")


class Example(NamedTuple):
    """One fenced block: its document, the line of its opening fence, its language, text and directives."""

    document: Path
    line: int
    language: str
    text: str
    not_run: str  # the reason, or "" when it runs
    needs: Tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.document.relative_to(ROOT)}:{self.line}"


def examples(document: Path) -> List[Example]:
    """The fenced blocks of ``document`` in order, each with the directives on the lines above its fence."""
    lines = document.read_text(encoding="utf-8").splitlines()
    out: List[Example] = []
    index = 0
    while index < len(lines):
        fence = _FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        end = next((n for n in range(index + 1, len(lines)) if lines[n].startswith(fence.group(1))
                    and not lines[n].strip("`")), len(lines))
        not_run, needs = "", []
        above = index - 1
        while above >= 0 and _DIRECTIVE.match(lines[above].strip()):
            kind, value = _DIRECTIVE.match(lines[above].strip()).groups()  # type: ignore[union-attr]
            if kind == "not run":
                not_run = value or "?"  # an empty reason is refused by the test
            else:
                needs += [part.strip() for part in value.split(",") if part.strip()]
            above -= 1
        out.append(Example(document, index + 1, fence.group(2), "\n".join(lines[index + 1:end]) + "\n", not_run,
                           tuple(needs)))
        index = end + 1
    return out


def every_example() -> List[Example]:
    return [example for document in DOCUMENTS for example in examples(document)]


def python_examples(*, v3: bool) -> List[Example]:
    """The Python blocks to run in this environment: those that need the SDK v3 (``v3``) or the others."""
    return [e for e in every_example() if e.language == "python" and ("sdk-v3" in e.needs) is v3]


def workdir(where: Path, example: Example) -> Path:
    """A directory for ``example`` to run in: ``examples/``, an empty ``train.py``, and the files named by the
    ``# NAME`` yaml blocks before it in its document."""
    shutil.copytree(ROOT / "examples", where / "examples")
    (where / "train.py").write_text("", encoding="utf-8")
    for earlier in examples(example.document):
        if earlier.line >= example.line:
            break
        first = earlier.text.split("\n", 1)[0]
        if earlier.language == "yaml" and re.match(r"^# [\w.-]+\.(ya?ml|json)$", first):
            (where / first[2:]).write_text(earlier.text, encoding="utf-8")
    return where


def previous_python(example: Example) -> List[Example]:
    """The Python blocks of ``example``'s document that a ``continued`` chain before it runs, first first."""
    chain: List[Example] = []
    blocks = [e for e in examples(example.document) if e.language == "python" and e.line < example.line]
    needs = example.needs
    while "continued" in needs and blocks:
        chain.insert(0, blocks.pop())
        needs = chain[0].needs
    return chain


class Command(NamedTuple):
    """An ``sm-debug-config`` command of a shell or console block, with the output lines shown after it."""

    example: Example
    argv: List[str]
    synopsis: bool
    shown: List[str]


def commands(example: Example) -> Iterator[Command]:
    """The ``sm-debug-config`` commands of a ``sh``, ``console`` or ``text`` block (continuation lines joined)."""
    if example.language not in ("sh", "console", "text", "bash"):
        return
    lines = example.text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        prompt = line.startswith("$ ")
        command = line[2:] if prompt else line
        index += 1
        if not command.startswith("sm-debug-config ") or (example.language in ("console", "text") and not prompt):
            continue
        command = command.split("  #", 1)[0].split(" # ", 1)[0]
        while index < len(lines) and lines[index].startswith(" ") and not prompt:  # a synopsis goes on indented
            command += " " + lines[index].strip()
            index += 1
        shown = []
        while prompt and index < len(lines) and not lines[index].startswith("$ "):
            shown.append(lines[index])
            index += 1
        synopsis = "[" in command or "..." in command or bool(_PLACEHOLDER.search(command))
        yield Command(example, shlex.split(command)[1:] if not synopsis else command.split()[1:], synopsis, shown)


def options_named(argv: List[str]) -> List[str]:
    """The ``--options`` a synopsis names (``[--format text|json]``, ``[--kind [GLOB=]KIND]...``)."""
    return sorted({match for part in argv for match in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", part)})


def placed(lines: List[str]) -> List[str]:
    """The ``FILE:LINE:COL: severity CODE`` of each line of ``lines`` that places a finding."""
    return [m.group(1) for m in map(_PLACED.match, lines) if m]


def run_python(example: Example, where: Path) -> None:
    """Run a Python ``example`` in the current directory (``where``), after the blocks it continues: a doctest where
    it shows ``>>>``; a launcher (``plan``) by :func:`sm_debug_config.operations.plan.plan`, which must start a job
    and find no error. An example that fails raises (an ``AssertionError`` naming it for a doctest or a plan)."""
    if "plan" in example.needs:  # in a process of its own, as a user runs it (the SDKs keep clients between runs)
        script = where / "launch.py"
        script.write_text("\n".join(block.text for block in previous_python(example) + [example]), encoding="utf-8")
        path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
        done = subprocess.run([sys.executable, "-m", "sm_debug_config", "plan", "--format", "json", str(script)],
                              capture_output=True, text=True, timeout=600, check=False,
                              env=dict(os.environ, PYTHONPATH=path))
        assert done.stdout.startswith("{"), f"{example.id}: {done.stderr}"
        result = json.loads(done.stdout)
        failed = result["error"] or result["exit_status"] or result["timed_out"]
        assert not failed and result["jobs"] and not result["errors"], f"{example.id}: {done.stdout}\n{done.stderr}"
        return
    namespace: Dict[str, Any] = {"__name__": "__main__"}
    if "warns" in example.needs:
        from sm_debug_config.errors import ConfigWarning

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConfigWarning)
            _run_blocks(previous_python(example) + [example], namespace)
        assert any(issubclass(w.category, ConfigWarning) for w in caught), f"{example.id}: no ConfigWarning"
        return
    _run_blocks(previous_python(example) + [example], namespace)


def _run_blocks(blocks: List[Example], namespace: Dict[str, Any]) -> None:
    for block in blocks:
        if ">>> " not in block.text:
            exec(compile(block.text, block.id, "exec"), namespace)  # noqa: S102 - the documents' own examples
            continue
        test = doctest.DocTestParser().get_doctest(block.text, namespace, block.id, str(block.document), block.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        runner.run(test, clear_globs=False)
        assert not runner.failures, f"{block.id}: {runner.failures} of {runner.tries} lines failed (output above)"
