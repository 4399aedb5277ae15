"""Public import path of the boto3 integration: the same module object as :mod:`sm_debug_config.integrations.boto3_client`."""
import sys

from sm_debug_config.integrations.boto3_client import *  # noqa: F401,F403  (for type checkers)

sys.modules[__name__] = sys.modules["sm_debug_config.integrations.boto3_client"]
