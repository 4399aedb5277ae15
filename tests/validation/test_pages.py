"""The page of every check code (sm_debug_config/validation/pages.py, docs/checks/<CODE>.md), the address every output
carries, and one-line messages: every code's paired case (tests/checkpairs.py) makes findings whose messages are under
:data:`~sm_debug_config.findings.MESSAGE_LIMIT` characters. The pages' staleness test is test_validate.py's
``test_checks_doc_is_current`` (the generator's ``--check``)."""
import configparser
import json
import os
import pathlib
import re
import subprocess
import sys
import warnings

import pytest

from sm_debug_config import validate
from sm_debug_config.cli import main
from sm_debug_config.findings import CHECKS, DOCS_URL, MESSAGE_LIMIT, PROJECT_URL, page_url, project_url
from sm_debug_config.lint import lint_text
from sm_debug_config.validation.pages import check_page, examples

from tests.checkpairs import FAMILIES
from tests.pairhelpers import CONFIG_CASES, DOCUMENT_CASES, LINT_CASES
from tests.validation.valhelpers import good_options

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = ROOT / "docs" / "checks"


def test_every_declared_code_has_its_page_at_its_url():
    assert sorted(p.stem for p in PAGES.glob("*.md")) == sorted(CHECKS)
    for code, check in CHECKS.items():
        assert check.url == page_url(code) and check.url.endswith(f"/docs/checks/{code}.md")
        page = (PAGES / f"{code}.md").read_text(encoding="utf-8")
        assert page.startswith(f"# {code}: {check.description}\n") and check.evidence in page
        assert "## Example" in page and "## Suppress it" in page
        assert (f"--ignore {code}" in page) is (code != "SMD003")  # a file not read: nothing to suppress


def test_the_addresses_are_the_metadatas_and_its_fallback_the_same():
    # setup.cfg's project_urls (the installed Project-URL) and the constants used when not installed agree
    parser = configparser.ConfigParser()
    parser.read(ROOT / "setup.cfg")
    urls = dict(line.split(" = ", 1) for line in parser["metadata"]["project_urls"].strip().splitlines())
    assert urls["Source"] == PROJECT_URL == project_url()
    assert urls["Documentation"] + "/checks/{code}.md" == DOCS_URL
    assert page_url("SMD120") == DOCS_URL.format(code="SMD120")


def test_a_fork_installed_with_its_own_project_urls_links_to_its_own_pages(tmp_path):
    # a distribution whose metadata names other addresses, first on the path: every output follows it
    info = tmp_path / "sm_debug_config-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sm-debug-config\nVersion: 0.1.0\n"
                                   "Project-URL: Source, https://git.example.com/ml/sm-debug-config\n"
                                   "Project-URL: Documentation, https://git.example.com/ml/sm-debug-config/-/blob/"
                                   "trunk/docs/\n\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    typos = str(ROOT / "examples" / "mistakes" / "typos.yaml")

    def run(*argv):
        return subprocess.run([sys.executable, "-m", "sm_debug_config", *argv], env=env, capture_output=True,
                              text=True, check=False, cwd=str(tmp_path)).stdout

    page = "https://git.example.com/ml/sm-debug-config/-/blob/trunk/docs/checks/SMD120.md"
    assert json.loads(run("validate", "--format", "json", typos))["files"][0]["findings"][0]["url"] == page
    driver = json.loads(run("validate", "--format", "sarif", typos))["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://git.example.com/ml/sm-debug-config"
    assert {rule["helpUri"] for rule in driver["rules"] if rule["id"] == "SMD120"} == {page}
    assert f"    {page}\n" in run("validate", "--verbose", typos)


def test_the_metadata_is_read_only_when_an_address_is_printed():
    # importing importlib.metadata costs about 20 ms: text output without --verbose never prints an address
    code = ("import sys\nfrom sm_debug_config.cli import main\n"
            "main(['validate', 'examples/mistakes/typos.yaml'])\n"
            "sys.stderr.write(str('importlib.metadata' in sys.modules))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=str(ROOT))
    assert done.stderr.endswith("False"), done.stderr


def test_the_installed_package_makes_the_same_pages():
    # check_page reads the examples shipped in sm_debug_config/data, not the tests
    assert set(examples()) == set(CHECKS)
    for code in CHECKS:
        assert check_page(code) == (PAGES / f"{code}.md").read_text(encoding="utf-8"), code


def test_a_page_shows_the_pair_the_tests_run():
    page = check_page("SMD132")
    bad = examples()["SMD132"]["bad"]["DebugHookConfig"]["HookParameters"]
    assert bad == {"save_interval": "0"} and '"save_interval": "0"' in page and '"save_interval": "1"' in page
    assert "Reported (`error SMD132` at `/DebugHookConfig/HookParameters/save_interval`)" in page
    # a pair that differs in an option: the same request once, with both command lines
    assert "not when checked with `sm-debug-config validate request.json`" in check_page("SMD151")
    assert "`validate(request, passthrough=" in check_page("SMD122")
    assert "```python" in check_page("SMD180") and "```yaml" in check_page("SMD002")
    assert "$ sm-debug-config plan --max-jobs 4 tests/data/launchers/boto3_jobs.py" in check_page("SMD190")
    # how to suppress: what applies to the code
    assert "validate(request, ignore=" not in check_page("SMD190") and "plan --ignore SMD190" in check_page("SMD190")
    assert "# sm-debug-config: ignore[SMD120]" in check_page("SMD120")


def config_findings(capsys, tmp_path, text):
    """``validate --format json`` of a config file written with ``text``: its findings."""
    path = tmp_path / "job.yaml"
    path.write_text(text)
    main(["validate", "--format", "json", str(path)])
    return json.loads(capsys.readouterr().out)["files"][0]["findings"]


def _messages():
    """(code, message) of every finding the paired cases make, bad and good."""
    found = []
    for family in FAMILIES:
        for code, _, bad, good, kwargs in family.CASES:
            for request, options in ((bad, kwargs), (good, good_options(code, kwargs))):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # a constructor's warning is the same finding, asserted below
                    found += [(f.code, f.message) for f in validate(request, **options)]
    for _, bad, good in LINT_CASES:
        for source in (bad, good):
            result = lint_text(source)
            found += [(f.code, f.message) for f in result["findings"]]
            found += [("SMD181", note[3]) for note in result["notes"]]  # --verbose prints them as SMD181
    return found


def test_every_code_has_a_one_line_message_under_the_limit(capsys, tmp_path):
    found = _messages()
    for _, _, bad, good in CONFIG_CASES + DOCUMENT_CASES:
        found += [(f["code"], f["message"]) for text in (bad, good) for f in config_findings(capsys, tmp_path, text)]
    # SMD190 is plan's (tests/operations/test_plan.py measures its message), SMD003 only in SARIF (test_sarif.py)
    assert {code for code, _ in found} == set(CHECKS) - {"SMD003", "SMD190"}
    long = [(code, len(message), message) for code, message in found if len(message) >= MESSAGE_LIMIT]
    assert long == []
    assert all("\n" not in message for _, message in found)


def test_a_long_list_of_allowed_keys_is_left_out_of_the_message(capsys, tmp_path):
    text = "region: us-east-1\nrulez: [Overfit]\n"
    (finding,) = config_findings(capsys, tmp_path, text)
    assert finding["code"] == "SMD002" and len(finding["message"]) < MESSAGE_LIMIT
    assert "did you mean 'rules'?" in finding["message"]


# --- the address in every output, and `checks CODE` ----------------------------------------------


@pytest.fixture
def bad_request(tmp_path):
    path = tmp_path / "request.json"
    path.write_text(json.dumps(examples()["SMD132"]["bad"]))
    return path


def test_json_findings_carry_the_url(cli, bad_request):
    payload = json.loads(cli("validate", "--format", "json", str(bad_request)).stdout)
    (finding,) = payload["files"][0]["findings"]
    assert finding["code"] == "SMD132" and finding["url"] == CHECKS["SMD132"].url


def test_verbose_text_prints_the_url_under_each_finding(cli, bad_request):
    plain = cli("validate", str(bad_request)).stdout
    assert CHECKS["SMD132"].url not in plain
    lines = cli("validate", "--verbose", str(bad_request)).stdout.splitlines()
    assert re.search(r": error SMD132 /DebugHookConfig/HookParameters/save_interval: ", lines[0])
    # the finding, its source line with the carets, then its page
    assert lines[1].lstrip().startswith("1 |") and "^" in lines[2]
    assert lines[3] == f"    {CHECKS['SMD132'].url}" and lines[4].startswith("1 file: 1 error")


def test_checks_code_prints_the_page(cli):
    out = cli("checks", "smd120")
    assert out.returncode == 0 and out.stdout == (PAGES / "SMD120.md").read_text(encoding="utf-8")
    as_json = json.loads(cli("checks", "SMD120", "--format", "json").stdout)
    assert as_json["url"] == CHECKS["SMD120"].url and as_json["page"] == out.stdout
    rows = json.loads(cli("checks", "--format", "json").stdout)
    assert [row["url"] for row in rows] == [CHECKS[row["code"]].url for row in rows]


def test_checks_lists_the_table_of_codes(cli):
    rows = json.loads(cli("checks", "--format", "json").stdout)
    assert [row["code"] for row in rows] == sorted(CHECKS)
    assert all(list(row) == ["code", "name", "severity", "lifecycle", "applies_to", "description", "fixes", "url"]
               for row in rows)
    by_code = {row["code"]: row for row in rows}
    assert [fix["applicability"] for fix in by_code["SMD100"]["fixes"]] == ["safe", "unsafe"]
    assert by_code["SMD132"]["fixes"] == []  # save_interval "0": which value was meant is not known
    assert by_code["SMD120"]["name"] == "unknown-rule-parameter" and by_code["SMD120"]["lifecycle"] == "stable"
    assert by_code["SMD180"]["applies_to"] == ["lint"] and by_code["SMD190"]["applies_to"] == ["plan"]
    assert len(by_code["SMD132"]["applies_to"]) == 6  # every input
    text = cli("checks").stdout.splitlines()
    assert len(text) == len(rows) and re.match(r"SMD120  warning  unknown-rule-parameter +A built-in rule", text[
        [row["code"] for row in rows].index("SMD120")])
    assert "applies to: lint" in cli("checks", "--verbose").stdout
    page = json.loads(cli("checks", "SMD180", "--format", "json").stdout)
    assert (page["name"], page["applies_to"]) == ("hook-config-none-is-default", ["lint"])


def test_checks_takes_a_name_and_a_page_shows_the_row(cli):
    out = cli("checks", "unknown-rule-parameter")
    assert out.returncode == 0 and out.stdout == (PAGES / "SMD120.md").read_text(encoding="utf-8")
    assert "Name: `unknown-rule-parameter` · Severity: **warning** · Lifecycle: stable" in out.stdout
    assert "Applies to: `lint`, Python sources and notebooks" in check_page("SMD181")


def test_checks_a_letter_o_is_read_as_a_zero_in_the_did_you_mean(cli):
    out = cli("checks", "SMD12O")
    assert out.returncode == 2 and "did you mean 'SMD120'?" in out.stderr and "SMD182" not in out.stderr


def test_checks_unknown_code_is_a_usage_error_with_a_did_you_mean(cli):
    out = cli("checks", "SMD12")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("sm-debug-config: code: unknown check code 'SMD12'; did you mean 'SMD120'?")
    assert out.stderr.count("\n") == 1


def test_each_page_says_whether_and_how_its_code_is_fixed():
    for code, check in CHECKS.items():
        section = check_page(code).split("## Fix\n", 1)[1].split("\n## ", 1)[0]
        if check.fixes:
            assert all(what in section for _, what in check.fixes), code
            assert ("--unsafe-fixes" in section) == any(kind == "unsafe" for kind, _ in check.fixes), code
        else:
            assert section.strip().startswith("No automatic fix"), code
