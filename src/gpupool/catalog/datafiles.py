"""Reading the catalog's data files (``catalog/data/*.yaml``: trusted package data, read once per process)
and ordering the versions they hold. :mod:`gpupool.catalog` and :mod:`gpupool.catalog.aks` both read
through here, so neither imports the other for it.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def load(name: str) -> Any:
    """The parsed data file ``catalog/data/<name>``."""
    text = resources.files("gpupool.catalog").joinpath("data", name).read_text(encoding="utf-8")
    return yaml.load(text, Loader=_Loader)  # trusted package data, safe loader


def version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for p in str(text).split("."):
        digits = "".join(ch for ch in p if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)
