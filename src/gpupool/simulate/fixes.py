"""The fix lint would give a Pending workload: lint's own GPU rules (GP212, GP3xx), called, not copied.

``gpupool.lint.gpu.check_workload(workload, pools)`` is lint's public entry point for one workload against a
set of pools (diff's runbook uses it too). Simulate keeps the findings that carry a fix and are warnings or
errors: the reason the scheduler gives ("Insufficient nvidia.com/gpu", "untolerated taint") then comes with
lint's advice on what to change in the workload or the pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpupool.findings import Severity
from gpupool.k8s.workloads import Workload
from gpupool.spec.model import PoolSpec


class LintFixes:
    """Lint's fixes per workload, against the simulated pools (the pool index is built once)."""

    def __init__(self, pools: Sequence[PoolSpec], kubernetes_version: str | None = None) -> None:
        self.pools = tuple(pools)
        self.kubernetes_version = kubernetes_version  # the simulated scheduler's: lint quotes its words
        self._index: Any = None
        self._cache: dict[int, list[dict[str, str]]] = {}

    def of(self, workload: Workload, path: str | None = None) -> list[dict[str, str]]:
        key = id(workload)
        found = self._cache.get(key)
        if found is None:
            from gpupool.lint.gpu import PoolIndex, check_workload

            if self._index is None:
                self._index = PoolIndex(self.pools, self.kubernetes_version)
            found = [
                {"rule": f.rule, "severity": f.severity.value, "message": f.message, "fix": f.fix}
                for f in check_workload(workload, self._index, path=path)
                if f.fix and f.severity in (Severity.ERROR, Severity.WARNING)
            ]
            self._cache[key] = found
        return found
