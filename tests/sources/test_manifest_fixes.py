"""The fixes of what an ACK manifest's source finds itself (SMD103): at the manifest's paths, applied to the document
as a caller applies a request's (tests/pairhelpers.py DOCUMENT_FIX_CASES)."""
from __future__ import annotations

import json

import pytest

from sm_debug_config.configfile import read_file
from sm_debug_config.engine import check
from sm_debug_config.sources import kubernetes
from tests.pairhelpers import DOCUMENT_FIX_CASES


def _findings(tmp_path, document):
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(document))
    found = read_file(str(path), kind="auto")
    return [f for job in kubernetes.jobs(found, {}) for f in check(job, {"region": "us-east-1"}).findings]


@pytest.mark.parametrize("code, applicability, bad, good", DOCUMENT_FIX_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(DOCUMENT_FIX_CASES)])
def test_fix_makes_the_good_document_of_the_bad(tmp_path, code, applicability, bad, good):
    fixed = bad
    for _ in range(10):
        fixable = [f for f in _findings(tmp_path, fixed) if f.code == code and f.fix is not None]
        if not fixable:
            break
        assert fixable[0].fix.applicability == applicability
        fixed = fixable[0].fix.apply(fixed)
    assert fixed == good
    assert code not in {f.code for f in _findings(tmp_path, good)}


def test_no_rename_onto_a_member_the_spec_has(tmp_path):
    document = {"apiVersion": "sagemaker.services.k8s.aws/v1alpha1", "kind": "TrainingJob",
                "spec": {"debugHookConfig": {"s3OutputPath": "s3://b/o", "S3OutputPath": "s3://b/p"}}}
    found = [f for f in _findings(tmp_path, document) if f.code == "SMD103"]
    assert found and all(f.fix is None for f in found)
