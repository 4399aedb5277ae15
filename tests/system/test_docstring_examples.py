"""Every docstring example in the package runs and prints what it says (the README's promise that
public entry points carry a working example). Alias modules (``sm_debug_config.events``...) are
the moved modules themselves, so each module is tested once, under its real name."""

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import rule_configs
import sm_debug_config


def _modules():
    seen = {}
    for info in pkgutil.walk_packages(sm_debug_config.__path__, "sm_debug_config."):
        if info.name == "sm_debug_config.__main__":
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError as err:  # the language server's modules need its extra; tests/server/test_examples too
            if (err.name or "").split(".")[0] in ("pygls", "lsprotocol"):
                continue
            raise
        seen.setdefault(module.__name__, module)
    seen["sm_debug_config"] = sm_debug_config
    seen["rule_configs"] = rule_configs
    return [seen[name] for name in sorted(seen)]


MODULES = _modules()
#: Modules whose examples call a package the core install does not have (scripts/test.sh installs it).
NEEDS = {"sm_debug_config.integrations.sagemaker_v2": ("sagemaker", 'the SageMaker Python SDK v2 (extra "sagemaker")'),
         "sm_debug_config.documents.hcl": ("hcl2", 'python-hcl2 (extra "terraform")')}


def test_the_examples_cover_the_public_entry_points():
    examples = sum(len(test.examples) for m in MODULES for test in doctest.DocTestFinder().find(m))
    assert examples > 40, examples


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    needed, what = NEEDS.get(module.__name__, (None, ""))
    if needed is not None and importlib.util.find_spec(needed) is None:
        pytest.skip(f"its examples call {what}, which is not installed here")
    # No filter of its own: an example that warns shows it (catches or collects it), or the run's error filter fails it
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=True)
    assert result.failed == 0, (
        f"{result.failed} of {result.attempted} examples in {module.__name__} failed (see the output above)"
    )
