"""The design-rule engine behind ``gpupool check``: pool specs in, findings out (GP1xx).

Every rule is a module in :mod:`gpupool.design.rules` (discovered by :mod:`gpupool.rules`) with a
``check(pool, ctx)`` generator. The engine looks up the pool's catalog facts once, hands each rule a
:class:`CheckContext` and collects what the rules yield. It never prints; it is pure and deterministic
(findings sorted by path, line, column, rule).

A rule's ``SEVERITY`` is the most severe level it reports. A rule may report a lower level for a case
that rests on an [INFERRED] or [UNVERIFIED] fact, or that is only worth knowing; its docstring says when.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from gpupool import catalog
from gpupool.catalog.aks import default_kubernetes_version
from gpupool.findings import Finding, Severity, about_pool, sort_key
from gpupool.rules import RuleInfo, family
from gpupool.spec.model import PoolSpec

RULES_PACKAGE = "gpupool.design.rules"


@dataclass(frozen=True)
class CheckContext:
    """What a rule may look at besides the pool itself.

    ``size`` and ``os`` are the catalog rows for the pool's VM size and OS SKU (None when unknown);
    ``pools`` are all pools being checked together (same order as given), for cross-pool rules;
    ``index`` is this pool's position in ``pools``.
    """

    pool: PoolSpec
    size: catalog.VmSize | None
    os: catalog.OsSku | None
    pools: tuple[PoolSpec, ...] = ()
    index: int = 0

    @property
    def kubernetes_version(self) -> str:
        """The pool's Kubernetes version, or AKS's default when the spec sets none (see
        :attr:`version_assumed`): the version every rule judges the pool on."""
        return self.pool.kubernetes_version or default_kubernetes_version().minor

    @property
    def version_assumed(self) -> bool:
        """True when the spec sets no kubernetesVersion and AKS's default is assumed: a finding that rests
        on the assumption alone is a warning, never an error (the cluster may run another version)."""
        return not self.pool.kubernetes_version

    @property
    def is_gpu_size(self) -> bool:
        return self.size is not None and self.size.is_gpu

    @property
    def gpu_pool_with_gpu_size(self) -> bool:
        """A GpuNodePool on a known GPU size: the case most GPU rules apply to."""
        return self.pool.is_gpu_pool and self.is_gpu_size

    @property
    def nvidia(self) -> bool:
        return self.is_gpu_size and self.size is not None and self.size.path == "nvidia"

    @property
    def earlier_pools(self) -> tuple[PoolSpec, ...]:
        return self.pools[: self.index]

    def finding(
        self,
        rule: str,
        severity: Severity,
        message: str,
        at: Iterable[str] = (),
        fix: str | None = None,
        **extra: Any,
    ) -> Finding:
        """A finding about this pool, at the first field of ``at`` the spec gave (else its document)."""
        return about_pool(self.pool, rule, severity, message, at, fix, **extra)


def design_rules() -> tuple[RuleInfo, ...]:
    """The GP1xx rules, sorted by ID."""
    return family(RULES_PACKAGE)


def contexts(pools: list[PoolSpec]) -> list[CheckContext]:
    """One context per pool, with its catalog rows looked up once."""
    all_pools = tuple(pools)
    return [
        CheckContext(
            pool=p,
            size=catalog.vm_size(p.vm_size),
            os=catalog.os_sku(p.os_sku),
            pools=all_pools,
            index=i,
        )
        for i, p in enumerate(all_pools)
    ]


def iter_findings(pools: list[PoolSpec]) -> Iterator[Finding]:
    rules = design_rules()
    for ctx in contexts(pools):
        for rule in rules:
            yield from rule.module.check(ctx.pool, ctx)


def check_pools(pools: list[PoolSpec], honour_ignores: bool = True) -> list[Finding]:
    """Run every design rule (GP1xx) on ``pools`` and return the findings, sorted by path and line; without
    those the pools' ``gpupool.io/ignore`` annotations name (``honour_ignores=False``: all of them, for a
    caller that leaves them out itself and counts them, as ``check`` does)."""
    found = sorted(iter_findings(pools), key=sort_key)
    if honour_ignores:
        from gpupool.spec.suppress import apply_pool_ignores

        found, _ = apply_pool_ignores(found, pools)
    return found


def assumed_version(pools: list[PoolSpec]) -> str | None:
    """The default-version note (``assuming Kubernetes 1.35, AKS's default on ...``) when a pool sets no
    kubernetesVersion; None when every pool sets one. check and plan print it in text and JSON."""
    if all(p.kubernetes_version for p in pools):
        return None
    return default_kubernetes_version().note()
