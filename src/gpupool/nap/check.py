"""The NodePool rule engine (GP8xx): Karpenter NodePools and AKSNodeClasses in, findings out.

Every rule is a module in :mod:`gpupool.nap.rules` (discovered by :mod:`gpupool.rules`) with a ``check(ctx)``
generator over a :class:`NapContext`: one per NodePool, with its AKSNodeClass (when among the inputs), the
sizes
it admits (:func:`gpupool.nap.sizes.admitted`, computed once) and the pool specs checked beside it (rules
about a
cluster that has both). Pure and deterministic: findings sorted by path and line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gpupool.findings import Finding, Severity, sort_key
from gpupool.nap.model import NapInputs, NodeClass, NodePool
from gpupool.nap.sizes import Admitted, admitted
from gpupool.rules import RuleInfo, family

RULES_PACKAGE = "gpupool.nap.rules"


@dataclass(frozen=True)
class NapContext:
    pool: NodePool
    node_class: NodeClass | None  # None: not among the inputs (the CRD's defaults are assumed)
    admitted: Admitted
    inputs: NapInputs
    pool_specs: tuple[Any, ...] = field(default=())  # gpupool pool specs checked in the same run
    clusters: tuple[Any, ...] = field(default=())  # nap.cluster.ClusterNap from az aks show (check --cluster)

    @property
    def gpu(self) -> bool:
        """The NodePool can create GPU nodes (a GPU size is admitted, or may be)."""
        return self.admitted.any_gpu

    def finding(self, rule: str, severity: Severity, message: str, at: Iterable[str] = (),
                fix: str | None = None, **extra: Any) -> Finding:
        return Finding(rule=rule, severity=severity, message=message, path=self.pool.where.path,
                       line=self.pool.where.line_of(*at, "metadata.name"), object=self.pool.label, fix=fix,
                       extra=dict(extra))


def nap_rules() -> tuple[RuleInfo, ...]:
    return family(RULES_PACKAGE)


def contexts(
    inputs: NapInputs, pool_specs: Iterable[Any] = (), clusters: Iterable[Any] = ()
) -> list[NapContext]:
    specs, known = tuple(pool_specs), tuple(clusters)
    out = []
    for p in inputs.node_pools:
        nc = inputs.node_class_of(p)
        out.append(NapContext(p, nc, admitted(p, nc), inputs, specs, known))
    return out


def check_nap(
    inputs: NapInputs, pool_specs: Iterable[Any] = (), clusters: Iterable[Any] = ()
) -> list[Finding]:
    """Run every GP8xx rule over the NodePools of ``inputs``; sorted by path and line. ``clusters``: what
    ``az aks show`` says of NAP (:mod:`gpupool.nap.cluster`); rules about the cluster itself
    (``check_clusters(clusters, pool_specs)``) run once, NodePools or not."""
    rules = nap_rules()
    specs, known = tuple(pool_specs), tuple(clusters)
    found: list[Finding] = []
    for ctx in contexts(inputs, specs, known):
        for rule in rules:
            found.extend(rule.module.check(ctx))
    if known:
        for rule in rules:
            if hasattr(rule.module, "check_clusters"):
                found.extend(rule.module.check_clusters(known, specs))
    return sorted(found, key=sort_key)
