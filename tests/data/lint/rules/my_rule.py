# A custom rule source for custom_rule_local.ipynb (lint only checks that it exists).
