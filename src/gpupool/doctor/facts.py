"""doctor's facts (data/signals.yaml), loaded once."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Any

import yaml


@cache
def signals() -> dict[str, Any]:
    text = resources.files("gpupool.doctor").joinpath("data/signals.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


@cache
def compiled(section: str, group: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    rows = signals()[section][group]
    return tuple((re.compile(r["pattern"]), r.get("meaning", "")) for r in rows)


def label(name: str) -> Any:
    return signals()["labels"][name]
