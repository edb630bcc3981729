"""GP712 version-skew: the pool's Kubernetes version is newer than the cluster's, or too far behind it.

What it checks: `spec.kubernetesVersion` against the cluster's current version (`az aks show`
`currentKubernetesVersion`): a node pool can't be newer than the control plane (major.minor.patch),
and the control plane can be at most three minor versions ahead of a node pool.

Why: AKS rejects `az aks nodepool add --kubernetes-version` outside that window.

Fix: upgrade the cluster first (`az aks upgrade --control-plane-only`), or pick a version within the
window.

Source: MicrosoftDocs/azure-aks-docs articles/aks/upgrade-node-pools.md ("The node pool version can't be
greater than the control major.minor.patch version"), upgrade-aks-control-plane.md ("the control plane can
be up to three minor versions ahead of node pools") @fb060abe6a8f; as of 2026-08-21.

Failing example (cluster on 1.35.2):

    spec:
      kubernetesVersion: "1.36"

Passing example (cluster on 1.35.2):

    spec:
      kubernetesVersion: "1.34"
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.catalog import version_tuple
from gpupool.findings import Finding, Severity
from gpupool.preflight.inputs import facts

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP712"
NAME = "version-skew"
SEVERITY = Severity.ERROR
SUMMARY = "Pool's Kubernetes version newer than the control plane, or more than 3 minors behind it"


def check(ctx: PoolContext) -> Iterator[Finding]:
    want, cluster = ctx.pool.kubernetes_version, ctx.cluster
    if not want or cluster is None or not cluster.kubernetes_version:
        return
    have = cluster.kubernetes_version
    w, c = version_tuple(want), version_tuple(have)
    if w[:2] > c[:2] or (len(w) > 2 and len(c) > 2 and w[:3] > c[:3]):
        yield ctx.finding(
            ID,
            SEVERITY,
            f"kubernetesVersion {want} is newer than the control plane ({have})",
            at=("kubernetesVersion",),
            fix=f"upgrade the cluster first, or use {have} or older",
            clusterVersion=have,
        )
        return
    limit = int(facts()["versionSkew"]["maxMinorsBehind"])
    if w[0] == c[0] and c[1] - w[1] > limit:
        yield ctx.finding(
            ID,
            SEVERITY,
            f"kubernetesVersion {want} is {c[1] - w[1]} minor versions behind the control plane ({have}); "
            f"AKS allows {limit}",
            at=("kubernetesVersion",),
            fix=f"use {c[0]}.{c[1] - limit} or newer",
            clusterVersion=have,
        )
