"""Shared text of the GP8xx rules."""

from __future__ import annotations

from gpupool.nap.sizes import NapSize

KARPENTER_SRC = "Azure/karpenter-provider-azure @352646f59929 (2026-08-21)"


def size_text(s: NapSize) -> str:
    gpus = s.advertised()
    res = ", ".join(f"{k} {v}" for k, v in gpus.items())
    return f"{s.name} ({res})" if res else s.name


def names(sizes: tuple[NapSize, ...] | list[NapSize], n: int = 4) -> str:
    shown = [s.name for s in list(sizes)[:n]]
    more = len(sizes) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")
