"""GP127 pool-name: the node pool name breaks AKS's naming rules.

What it checks: `metadata.name` must be lowercase letters and digits only, start with a letter, and
be at most 12 characters on Linux or 6 characters on Windows.

Why: AKS rejects other names when the pool is created ("The name of a node pool may only contain
lowercase alphanumeric characters and must begin with a lowercase letter. For Linux node pools, the
length must be between 1 and 12 characters. For Windows node pools, the length must be between 1 and 6
characters."). Hyphens and underscores, common in Kubernetes names, are not allowed.

Fix: rename, e.g. `gpu-t4` -> `gput4`; the finding suggests a valid name.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-system-pools.md (Limitations), create-node-pools.md;
catalog/data/aks_limits.yaml; as of 2026-08-21.

Failing example:

    metadata:
      name: gpu-a100-pool

Passing example:

    metadata:
      name: gpua100
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP127"
NAME = "pool-name"
SEVERITY = Severity.ERROR
SUMMARY = "pool name must be lowercase alphanumeric, start with a letter, <= 12 chars (Linux) / 6 (Windows)"


def suggest(name: str, limit: int) -> str:
    cleaned = re.sub(r"[^a-z0-9]", "", name.lower())
    cleaned = cleaned.lstrip("0123456789")
    return (cleaned or "gpunp")[:limit]


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    limits = catalog.pool_limits()
    limit = limits.name_max[pool.os_type]
    name = pool.name
    problems = []
    if not re.match(limits.name_pattern, name):
        if not name[:1].isalpha():
            problems.append("must start with a letter")
        if name != name.lower():
            problems.append("must be lowercase")
        if re.search(r"[^A-Za-z0-9]", name):
            problems.append("may contain only letters and digits")
        if not problems:
            problems.append("may contain only lowercase letters and digits")
    if len(name) > limit:
        problems.append(f"is {len(name)} characters; {pool.os_type} pool names are at most {limit}")
    if not problems:
        return
    yield ctx.finding(
        ID,
        SEVERITY,
        f'pool name "{name}" ' + "; ".join(problems),
        at=("name",),
        fix=f"rename the pool, e.g. {suggest(name, limit)}",
    )
