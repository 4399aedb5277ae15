"""placeholder"""
from . import Entry

ENTRIES: list = []
