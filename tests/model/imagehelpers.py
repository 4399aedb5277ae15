"""Helpers of the image tests (test_images.py, test_images_python.py): the table, version keys, the SDK's image
configuration, and image URIs."""
from __future__ import annotations

import functools
import json
import os
import re
from typing import Any, Dict, List, Optional, Tuple

from sm_debug_config.model import images

SDK_FRAMEWORKS = ("pytorch", "tensorflow", "mxnet")
DLC = "763104351884.dkr.ecr.us-east-1.amazonaws.com/"
PT_HOOK = "smdebug.pytorch.Hook.create_from_json_file(), hook.register_module(model)"
MX_HOOK = "smdebug.mxnet.Hook.create_from_json_file(), hook.register_block(net)"


def table() -> Dict[str, Any]:
    return images.table()


def key(text: Optional[str]) -> Tuple[int, ...]:
    parsed = images.version_key(text)
    assert parsed is not None, text
    return parsed + (0,) * (6 - len(parsed))


@functools.lru_cache(maxsize=None)
def sdk_config(framework: str) -> Dict[str, Any]:
    import sagemaker

    path = os.path.join(os.path.dirname(sagemaker.__file__), "image_uri_config", framework + ".json")
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)["training"]  # type: ignore[no-any-return]


def py_versions(entry: Dict[str, Any]) -> List[Optional[str]]:
    listed = entry.get("py_versions") or [k for k in entry if re.match(r"^py\d+$", k)]
    return list(listed) or [None]
