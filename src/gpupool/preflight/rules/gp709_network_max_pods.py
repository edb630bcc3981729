"""GP709 network-max-pods: the pool's pods per node, given the cluster's network plugin.

What it checks: the cluster's network (`az aks show` networkProfile.networkPlugin /
networkPluginMode, and pod subnets) gives a pool without `maxPods` its default: Azure CNI Overlay 250,
Azure CNI with a pod subnet 110, Azure CNI node subnet (legacy) 30, kubenet 110. Info with the value the
pool gets; a warning when that default is 30 (few pods per GPU node once AKS's and the GPU stack's
DaemonSets run) or when `maxPods` is above what the network allows.

Why: max pods also sets the memory AKS reserves on each node (20 MiB per pod on 1.29+), and cannot be
changed on an existing pool.

Fix: set `maxPods` explicitly (30-250).

Source: MicrosoftDocs/azure-aks-docs articles/aks/concepts-network-ip-address-planning.md (Maximum pods
per node), azure-cni-overlay.md (default plugin), node-resource-reservations.md @fb060abe6a8f; as of
2026-08-21.

Failing example (cluster networkPlugin azure, no overlay, no pod subnet):

    spec:
      vmSize: Standard_NC4as_T4_v3

Passing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
      maxPods: 110
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.catalog.aks import max_pods
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP709"
NAME = "network-max-pods"
SEVERITY = Severity.WARNING
SUMMARY = "Pods per node the pool gets from the cluster's network plugin"

_NAMES = {
    "overlay": "Azure CNI Overlay",
    "podSubnet": "Azure CNI with a pod subnet",
    "nodeSubnet": "Azure CNI node subnet (legacy)",
    "kubenet": "kubenet",
    "none": "no network plugin (bring your own CNI)",
}


def check(ctx: PoolContext) -> Iterator[Finding]:
    if ctx.cluster is None:
        return
    m = max_pods()
    net = ctx.cluster.network
    if net is None:  # a plugin gpupool does not know: named among the checks not made
        return
    default = m.defaults.get(net, m.default)
    name = _NAMES.get(net, net)
    if ctx.pool.max_pods is not None:
        if ctx.pool.max_pods > m.max:
            yield ctx.finding(
                ID,
                SEVERITY,
                f"maxPods {ctx.pool.max_pods} is above {m.max} ({name})",
                at=("maxPods",),
                fix=f"set maxPods <= {m.max}",
            )
        return
    severity = Severity.WARNING if default <= 30 else Severity.INFO
    yield ctx.finding(
        ID,
        severity,
        f"the cluster uses {name}: the pool gets {default} pods per node (no maxPods in the spec)",
        at=("vmSize",),
        fix="set maxPods explicitly" if severity is Severity.WARNING else None,
        network=net,
        maxPods=default,
    )
