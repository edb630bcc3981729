"""Names for rendered files and objects, derived from pool names (one place, so all outputs agree)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from gpupool.errors import InputError
from gpupool.spec.model import PoolSpec

_NOT_DNS = re.compile(r"[^a-z0-9-]+")
_SAFE = re.compile(r"^[A-Za-z0-9][-A-Za-z0-9_]{0,89}$")
_NOT_IDENT = re.compile(r"[^A-Za-z0-9_]+")

NAMESPACE = "gpu-resources"
"""Namespace of the rendered device plugin, exporter and smoke test (AKS docs use-nvidia-gpu.md)."""

POOL_LABEL = "kubernetes.azure.com/agentpool"
"""Node label AKS sets to the pool name (use-labels.md); every rendered pod selects its pool with it."""


def dns_label(text: str, limit: int = 63) -> str:
    """A Kubernetes DNS-1123 label made from ``text`` (lowercase, ``-`` for anything else)."""
    out = _NOT_DNS.sub("-", text.lower()).strip("-")
    out = out[:limit].rstrip("-")
    return out or "x"


def object_name(prefix: str, stem: str, limit: int = 63) -> str:
    """``prefix-stem`` as a DNS-1123 label, cut to ``limit`` characters."""
    return dns_label(f"{prefix}-{stem}", limit)


def tf_ident(text: str) -> str:
    """A Terraform identifier (letters, digits, ``_``; not starting with a digit)."""
    out = _NOT_IDENT.sub("_", text)
    if not out or out[0].isdigit():
        out = "p_" + out
    return out


def check_renderable(pools: Sequence[PoolSpec]) -> None:
    """Refuse names that could escape the output directory or a shell word, whoever built the PoolSpec.

    The spec loader already guarantees this; the check is for library callers that build specs in code.
    """
    for p in pools:
        for what, value in (("pool name", p.name), ("cluster name", p.cluster_name)):
            if not _SAFE.match(value):
                raise InputError(p.where.path, p.where.line_of("name"),
                                 f"{what} {value!r} cannot be rendered safely",
                                 "use letters, digits, '-' and '_' only")


def stems(pools: Sequence[PoolSpec]) -> list[str]:
    """A file-name stem per pool: the pool name, or ``cluster-pool`` where two clusters share a pool name.

    Compared case-insensitively so the output also works on case-insensitive file systems.
    """
    counts = Counter(p.name.lower() for p in pools)
    out = []
    for p in pools:
        out.append(p.name if counts[p.name.lower()] == 1 else f"{p.cluster_name}-{p.name}")
    seen: Counter[str] = Counter()
    unique = []
    for s in out:
        seen[s.lower()] += 1
        unique.append(s if seen[s.lower()] == 1 else f"{s}-{seen[s.lower()]}")
    return unique
