"""A launcher that fails in its own code."""


def settings():
    return {}["missing"]


settings()
