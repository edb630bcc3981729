"""Karpenter's facts for simulate's NAP model (``data/karpenter.yaml``, each block with its source and asOf):
the words of its events and errors, and the labels it treats as well known."""

from __future__ import annotations

from functools import cache
from typing import Any

GIB = 2**30
MIB = 2**20
CAPACITY_TYPE = "karpenter.sh/capacity-type"


@cache
def facts() -> dict[str, Any]:
    from importlib import resources

    import yaml

    text = resources.files("gpupool.simulate").joinpath("data", "karpenter.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def error_words(key: str) -> str:
    return facts()["events"]["errors"][key]


@cache
def well_known() -> frozenset[str]:
    from gpupool import catalog

    return frozenset(facts()["scheduler"]["wellKnownLabels"]) | frozenset(
        catalog._data("nap.yaml")["labels"]["wellKnown"]
    )
