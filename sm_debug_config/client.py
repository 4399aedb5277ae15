"""Public import path of the boto3 integration: the same module object as :mod:`sm_debug_config.integrations.boto3_client`."""
import sys

from sm_debug_config.integrations.boto3_client import *  # noqa: F401,F403  (for type checkers)
from sm_debug_config.integrations import boto3_client as _module

sys.modules[__name__] = _module
