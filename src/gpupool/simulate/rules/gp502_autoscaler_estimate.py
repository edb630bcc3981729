"""GP502 autoscaler-overestimate: the autoscaler adds nodes the pods don't need, or can't use.

What it checks: for every autoscaled pool, whether the cluster autoscaler as it behaves on AKS adds more nodes
than it would if its template knew what a real node offers (gpupool runs both and compares).

Why: scaling from zero, the autoscaler's template has the SKU's physical GPUs as `nvidia.com/gpu`,
allocatable = capacity and 110 pods. With MIG strategy Single (`nvidia.com/gpu` counts MIG instances, e.g.
56 on Standard_ND96asr_v4 with MIG1g) or time-slicing without renaming (devices x replicas) a real node takes
many more one-GPU pods than the template, so the first scale-up adds several times the nodes needed (billed
until scale-down removes them, 10 minutes or more later). The other way round, a pod that fits the template
but not a real node (its cpu or memory needs the AKS reservations, or the pool's maxPods is below 110) makes
the autoscaler add a node the pod then can't use.

Fix: keep `autoscaler.minCount: 1` so the template is a real node; or size the requests to what a node
really offers (allocatable after reservations, maxPods).

Source: kubernetes/autoscaler cluster-autoscaler/cloudprovider/azure/azure_template.go ("TODO: set real
allocatable"), estimator/binpacking_estimator.go; MicrosoftDocs/azure-aks-docs
articles/aks/node-resource-reservations.md; NVIDIA/k8s-device-plugin README (MIG strategies, time-slicing);
as of 2026-08-21.

Failing example:

    # pool: Standard_ND96asr_v4, MIG1g (Single: 56 nvidia.com/gpu per node), nodeCount 0, maxCount 4
    # 40 pods each requesting nvidia.com/gpu: 1 -> the autoscaler adds 4 nodes; 1 would do

Passing example:

    # the same pool with autoscaler {minCount: 1, maxCount: 4}: the real node is the template, nothing added
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity, plural
from gpupool.simulate.rules._common import gpu_text, hourly, money

if TYPE_CHECKING:
    from gpupool.simulate.engine import RuleContext

ID = "GP502"
NAME = "autoscaler-overestimate"
SEVERITY = Severity.WARNING
SUMMARY = "The autoscaler on AKS adds more nodes than the pods need (or nodes they can't use)"


def check(ctx: RuleContext) -> Iterator[Finding]:
    if ctx.aks is None or ctx.exact is None:
        return
    sim = ctx.simulation
    for i, pool in enumerate(sim.pools):
        if pool.autoscaler is None:
            continue
        a, e = ctx.aks.added(i), ctx.exact.added(i)
        if a <= e:
            continue
        tmpl = sim.template_of(ctx.aks, i, "aks-template").shape
        real = sim.shapes_real[i]
        why = []
        if gpu_text(tmpl) != gpu_text(real):
            why.append(f"its template has {gpu_text(tmpl)} where a node offers {gpu_text(real)}")
        else:
            ta, ra = tmpl.allocatable, real.allocatable
            if (ta["cpu"], ta["memory"]) != (ra["cpu"], ra["memory"]):
                why.append(
                    f"it assumes allocatable = capacity ({ta['cpu'] / 1000:g} CPU, "
                    f"{ta['memory'] / 2**30:.1f} GiB) where a node has {ra['cpu'] / 1000:g} CPU, "
                    f"{ra['memory'] / 2**30:.1f} GiB after AKS reservations"
                )
            if ta["pods"] != ra["pods"]:
                why.append(f"it assumes {ta['pods']} pods per node where the pool allows {ra['pods']}")
        price = ctx.prices.get(pool.vm_size)
        extra = f" ({money((a - e) * hourly(price, pool), price.currency)}/h more)" if price else ""
        useless = "" if e else " that the Pending pods can't use"
        yield ctx.finding(
            ID,
            SEVERITY,
            f"the cluster autoscaler as it runs on AKS adds {plural(a, 'node')} "
            f"to pool {pool.name}{useless}, where "
            f"{e} would do{extra}: scaling from zero, "
            + "; ".join(why or ["its template differs from a node"]),
            at_pool=pool,
            fix=f"set autoscaler.minCount: 1 on pool {pool.name} so the autoscaler copies a real node",
            nodesAddedAks=a,
            nodesAddedExact=e,
        )
