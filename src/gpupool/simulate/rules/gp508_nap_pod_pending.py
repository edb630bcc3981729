"""GP508 nap-pod-pending: pods Node Auto Provisioning (Karpenter) provisions no node for.

What it checks: when Karpenter NodePools (karpenter.sh/v1) are among simulate's inputs, the pods still Pending
after placement on the pools' nodes go to gpupool's model of Karpenter's provisioning scheduler (NodePools by
weight, each NodePool's limits, taints and requirements, then the instance types that fit the pod with the
DaemonSet overhead). The rule reports each workload whose pods no NodePool takes, with Karpenter's own words
for every NodePool it tried, as its `FailedScheduling` event writes them ("Failed to schedule pod, ...").

Why: NAP creates a node only for a pod some NodePool can take. A NodePool taint the pod does not tolerate
("did not tolerate taint"), a nodeSelector on a label the NodePool does not define ("incompatible
requirements, label ... does not have known values"), limits already spent by the nodes planned before it
("all available instance types exceed limits for nodepool") or requests no admitted size can hold ("no
instance type has enough resources") leave the pod Pending for good, while Karpenter keeps retrying and
logging.

Fix: what the message names: tolerate the NodePool's taint, select on a well-known label
(`karpenter.azure.com/sku-gpu-name`) or add the label to the NodePool's template, raise the NodePool's
`limits`, or admit a size large enough (`gpupool plan` lists what each NodePool can create).

Source: kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/scheduler.go (add,
addToNewNodeClaim, subtractMax, filterByRemainingResources), nodeclaim.go (CanAdd, InstanceTypeFilterError),
events.go (PodFailedToScheduleEvent), pkg/scheduling/requirements.go and taints.go @2266468104f3;
Azure/karpenter-provider-azure pkg/providers/instancetype/instancetype.go (capacity, kube-reserved)
@352646f59929; as of 2026-08-21. Error for pods requesting GPUs (the catalog holds every GPU size AKS
documents); warning for other pods (the catalog holds few general-purpose sizes), and where the reason
depends on sizes (limits, fit) while a NodePool admits sizes gpupool cannot fit (sizes of NAP's GPU registry
the catalog lacks, or sizes a requirement on an unknown label such as the zone may rule out).

Failing example:

    # NodePool gpu: taints [nvidia.com/gpu=true:NoSchedule], requirements sku-gpu-name In [A100]
    # a Deployment requesting nvidia.com/gpu: 1 without a toleration
    resources:
      limits: {nvidia.com/gpu: 1}

Passing example:

    # the same Deployment with the toleration
    tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
    resources:
      limits: {nvidia.com/gpu: 1}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.design.node import is_gpu_resource
from gpupool.findings import Finding, Severity, plural
from gpupool.simulate.rules._common import pending_groups

if TYPE_CHECKING:
    from gpupool.simulate.engine import RuleContext

ID = "GP508"
NAME = "nap-pod-pending"
SEVERITY = Severity.ERROR
SUMMARY = "Node Auto Provisioning (Karpenter) creates no node for these Pending pods"

_FIXES = (
    ("did not tolerate taint", "tolerate the NodePool's taint"),
    (
        "does not have known values",
        "select on a label the NodePool defines (its requirements or template labels) "
        "or on a well-known one such as karpenter.azure.com/sku-gpu-name",
    ),
    ("exceed limits", "raise the NodePool's limits"),
    ("node limits have been exhausted", "raise the NodePool's limits.nodes"),
    (
        "enough resources",
        "admit a larger size in a NodePool (gpupool plan lists what each can create), or request less",
    ),
    ("met all requirements", "make the pod's node selection match a size the NodePool admits"),
    ("not in", "make the pod's node selection agree with the NodePool's requirements"),
    ("filtered out all available instance types", "admit sizes NAP offers in some NodePool"),
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    nap = ctx.run.nap
    if nap is None:
        return
    unsure_sizes = any(t.unknown or t.assumed for t in nap.templates)
    for w, _shape, pods in pending_groups(ctx.simulation, ctx.run):
        msgs = [nap.messages[id(p)] for p in pods if id(p) in nap.messages]
        if not msgs:
            continue
        gpu = any(is_gpu_resource(k) or k.endswith(".com/gpu") for k in w.requests)
        msg = msgs[0]
        # taints and labels rule a NodePool out whatever its sizes; limits and fit depend on sizes gpupool
        # may lack
        unsure = unsure_sizes and "instance type" in msg
        severity = Severity.ERROR if gpu and not unsure else Severity.WARNING
        fixes = [f for words, f in _FIXES if words in msg]
        yield ctx.finding(
            ID,
            severity,
            f"Node Auto Provisioning creates no node for {plural(len(msgs), 'pod')} of {w.ref}: {msg}",
            workload=w,
            fix="; ".join(dict.fromkeys(fixes)) or None,
            pods=len(msgs),
        )
