"""The CLI's command table, its parser per command, the static setting flags, ``render --format``'s table,
the shared findings report, and what starting a command costs (one parse per file, no model import to parse
arguments)."""
import argparse
import json
import os
import subprocess
import sys

import attrs
import pytest

from sm_debug_config import cli
from sm_debug_config.cli import common, report
from sm_debug_config.model import catalogue
from sm_debug_config.model.settings import DEFAULTS_MODES, JobSettings
from sm_debug_config.patterns import LazyPattern
from sm_debug_config.reports import FileReport, Report, Unreadable

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "tensorflow-builtin-rules.yaml")


def _subparsers(parser):
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


def test_every_subparser_has_a_handler_and_every_handler_a_subparser():
    assert list(_subparsers(cli.build_parser())) == list(cli.COMMANDS)
    for name, command in cli.COMMANDS.items():
        assert callable(command.run) and callable(command.add_arguments), name


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_the_parser_of_one_command_is_the_whole_parsers_subparser(name):
    alone = _subparsers(cli.build_parser(name))
    assert list(alone) == [name]
    assert alone[name].format_help() == _subparsers(cli.build_parser())[name].format_help()


def test_setting_flags_are_the_job_settings_fields():
    fields = [f for f in attrs.fields(JobSettings) if f.name != "validate"]  # render validates always
    assert list(common.SETTING_FLAGS) == [f.name for f in fields]
    for field in fields:
        flag = common.SETTING_FLAGS[field.name]
        expected = "switch" if field.default is False else "append" if isinstance(field.default, tuple) else flag.kind
        assert flag.kind == expected, field.name
        assert (flag.kind == "choice") == (field.name in ("defaults", "framework")), field.name


def test_the_flags_choices_are_the_models():
    assert common.FRAMEWORKS == catalogue.FRAMEWORKS
    assert common.KINDS == catalogue.KINDS
    assert common.DEFAULTS_MODES == DEFAULTS_MODES
    assert common.SETTING_FLAGS["framework"].choices == catalogue.FRAMEWORKS
    assert common.SETTING_FLAGS["defaults"].choices == DEFAULTS_MODES


def test_render_formats_are_a_table_of_functions():
    from sm_debug_config.documents import cloudformation, stepfunctions, terraform

    fields = {"DebugHookConfig": {"S3OutputPath": "s3://b/o/"}}
    from sm_debug_config.cli.render import RENDER_FORMATS

    assert list(RENDER_FORMATS) == ["json", "cloudformation", "terraform", "terraform-json",
                                        "cloudformation-pipeline", "stepfunctions"]
    assert RENDER_FORMATS["json"](fields, "us-east-1") == fields
    assert RENDER_FORMATS["cloudformation"](fields, "us-east-1") == cloudformation.to_cloudformation(fields)
    assert RENDER_FORMATS["terraform"](fields, "us-east-1") == terraform.to_terraform(fields)
    assert RENDER_FORMATS["terraform-json"](fields, "us-east-1") == terraform.to_terraform_json(fields)
    pipeline_template = cloudformation.to_cloudformation_pipeline(fields)
    assert RENDER_FORMATS["cloudformation-pipeline"](fields, "us-east-1") == pipeline_template
    assert RENDER_FORMATS["stepfunctions"](fields, "cn-north-1") == stepfunctions.to_step_functions_task(
        fields, partition="aws-cn")


@pytest.mark.parametrize("argv", [["schema"], ["checks"], ["rules", "list", "--kind", "profiler"],
                                  ["events", "pattern", "--rule", "Overfit"]])
def test_handlers_write_their_output_and_return_the_exit_code(argv, capsys):
    args = cli.build_parser(argv[0]).parse_args(argv)
    assert cli.COMMANDS[argv[0]].run(args) == 0
    assert capsys.readouterr().out


@pytest.mark.parametrize("argv", [["validate", EXAMPLE], ["render", EXAMPLE, "--region", "us-east-1"],
                                  ["explain", EXAMPLE, "--region", "us-east-1"]])
def test_each_file_is_read_and_parsed_once(argv, monkeypatch, capsys):
    import sm_debug_config.cli.files  # the modules below, not the functions of their names
    import sm_debug_config.configfile

    read, parsed = [], []
    load = sys.modules["sm_debug_config.configfile.load"]
    real_read, real_parse = load.read_bytes, load.parse_text
    for module in (load, sm_debug_config.cli.files):  # the config-file loader's, and the commands' reading
        monkeypatch.setattr(module, "read_bytes", lambda path, *a, **k: read.append(path) or real_read(path, *a, **k))
        monkeypatch.setattr(module, "parse_text",
                            lambda text, source, *a, **k: parsed.append(source) or real_parse(text, source, *a, **k))
    assert cli.main(argv) == 0, capsys.readouterr().err
    assert read == [EXAMPLE] and parsed == [EXAMPLE]


def test_report_prints_an_unreadable_file_on_stderr_and_exits_2(capsys):
    args = argparse.Namespace(format="text", verbose=False, strict=False)
    unreadable = FileReport("a.yaml", error=Unreadable("a.yaml:1:1: not YAML", 1, 1))
    assert report.report(Report([unreadable]), args) == 2
    out, err = capsys.readouterr()
    assert err == "sm-debug-config: a.yaml:1:1: not YAML\n" and out == "1 file: 1 error, 0 warnings, 0 infos\n"


def test_report_json_counts_skipped_files(capsys):
    args = argparse.Namespace(format="json", verbose=False, strict=True)
    assert report.report(Report([FileReport("x.yaml", skipped="empty document")]), args) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["skipped"] == 1 and payload["files"] == [
        {"file": "x.yaml", "findings": [], "skipped": "empty document"}
    ]


def test_lazy_pattern_matches_as_re_does():
    pattern = LazyPattern(r"^(s3)://([^/]+)/?(.*)$")
    assert pattern._compiled is None
    assert pattern.match("s3://b/k").groups() == ("s3", "b", "k")
    assert pattern.search("x") is None and pattern.fullmatch("s3://b") is not None
    assert pattern.pattern == r"^(s3)://([^/]+)/?(.*)$"


def test_only_the_command_asked_for_is_imported():
    # issue 31: the command table names each command's module (pip's commands/__init__.py); importing the CLI
    # imports no command module and no model, and running one command imports no other command's module
    code = ("import sys, io, contextlib; from sm_debug_config import cli; "
            "before = sorted(m for m in sys.modules if m.startswith(('sm_debug_config.cli.', 'sm_debug_config.model',"
            " 'sm_debug_config.validation')) and m != 'sm_debug_config.cli.common'); "
            "out = io.StringIO(); ctx = contextlib.redirect_stdout(out); ctx.__enter__(); cli.main(['checks']); "
            "ctx.__exit__(None, None, None); "
            "after = sorted(m for m in sys.modules if m.startswith('sm_debug_config.cli.') and m.rsplit('.', 1)[1] "
            "in [c.module.rsplit('.', 1)[1] for c in cli.COMMANDS.values()]); print(before, after)")
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "[] ['sm_debug_config.cli.checks']", (out.stdout, out.stderr)


@pytest.mark.parametrize("columns", ["50", "120", "0", "x"])
def test_help_is_as_wide_as_argparse_makes_it(columns, monkeypatch):
    monkeypatch.setenv("COLUMNS", columns)
    sub = _subparsers(cli.build_parser("validate"))["validate"]
    assert sub.format_help() == _argparse_help(sub)


def _argparse_help(parser):
    """``parser``'s help as argparse's own formatter (terminal width from shutil) formats it."""
    formatter = argparse.ArgumentParser._get_formatter(parser)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    formatter.add_text(parser.description)
    for group in parser._action_groups:
        formatter.start_section(group.title)
        formatter.add_text(group.description)
        formatter.add_arguments(group._group_actions)
        formatter.end_section()
    formatter.add_text(parser.epilog)
    return formatter.format_help()


def test_the_command_list_imports_no_command_module():
    # `sm-debug-config --help` (and an unknown or missing command) lists the table's summaries: no module imported
    code = ("import sys, io, contextlib; from sm_debug_config import cli; out = io.StringIO(); "
            "ctx = contextlib.redirect_stdout(out); ctx.__enter__(); code = cli.main(['--help']); "
            "ctx.__exit__(None, None, None); "
            "print(code, [m for m in sys.modules if m.startswith('sm_debug_config.cli.') and m.rsplit('.', 1)[1] "
            "in [c.module.rsplit('.', 1)[1] for c in cli.COMMANDS.values()]], "
            "all(n in out.getvalue() for n in cli.COMMANDS))")
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "0 [] True", (out.stdout, out.stderr)
