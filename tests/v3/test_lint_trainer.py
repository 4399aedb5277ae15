"""lint's table of ``ModelTrainer`` builder methods (issue 37) against the installed SDK (sagemaker-train for
SDK v3, in scripts/test_v3.sh; ``sagemaker.modules.train`` of SDK v2.257+ in the main environment): every
``with_*`` method returns the trainer, and lint knows each of them."""

from __future__ import annotations

import importlib
import inspect

import pytest

from sm_debug_config.lint.names import TRAINER_BUILDERS


@pytest.mark.parametrize("module", ["sagemaker.train", "sagemaker.modules.train"])
def test_every_with_method_of_the_trainer_is_known_to_lint(module):
    pytest.importorskip(module, reason=f"{module} is not installed")
    trainer = importlib.import_module(module).ModelTrainer
    methods = {name for name, _ in inspect.getmembers(trainer, inspect.isfunction) if name.startswith("with_")}
    assert methods == set(TRAINER_BUILDERS)
    for name in methods:  # each says it returns the trainer
        assert "ModelTrainer" in str(inspect.signature(getattr(trainer, name)).return_annotation), name
