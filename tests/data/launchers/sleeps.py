"""A launcher that hangs, and catches what would wake it (for --timeout)."""

import time

while True:
    try:
        time.sleep(1e6)
    except Exception:
        pass
