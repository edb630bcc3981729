"""The report page's own facts (``data/page.yaml``), each with its source and date."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml


@cache
def _data() -> dict[str, Any]:
    text = resources.files("gpupool.htmlpage").joinpath("data", "page.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def hours_per_month() -> float:
    """Hours a monthly cost is priced for (Azure's 730)."""
    return float(_data()["hoursPerMonth"]["value"])


def hours_text() -> str:
    row = _data()["hoursPerMonth"]
    return f"{row['value']:g} hours per month ({row['source']}, as of {row['asOf']})"
