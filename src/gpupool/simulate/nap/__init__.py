"""Node Auto Provisioning in ``gpupool simulate``: Karpenter's provisioner for the pods left Pending.

When Karpenter NodePools (karpenter.sh/v1) are among simulate's inputs, the pods still Pending after placement
on the pools' nodes (and the cluster autoscaler's scale-ups, when pools are autoscaled) go to this model of
Karpenter's provisioner (kubernetes-sigs/karpenter ``pkg/controllers/provisioning/scheduling``; the facts
and the order of the loop in ``data/karpenter.yaml``):

* NodePools by weight (higher first, equal weights by name, later in the alphabet first); static NodePools and
  those whose requirements admit no size are left out;
* pods by CPU, then memory request, descending, then creation;
* a pod goes to a NodeClaim already planned in this pass (fewest pods first) when an instance type of it still
  fits all its pods, else to a new NodeClaim of the first NodePool whose limits, taints and requirements allow
  it. A NodeClaim keeps the instance types that fit everything put on it, so Karpenter packs pods onto the
  largest admitted size and launches the cheapest type that fits them all;
* a new NodeClaim charges its NodePool's limits with the largest capacity among its instance types;
* the launch: the cheapest fitting type by the price table (``--prices``), then Spot before on-demand, then
  the size name. Without a price for every fitting type the choice cannot be ranked: the fitting sizes are
  listed smallest first (fewest GPUs, vCPUs, memory: gpupool's order, not Karpenter's), none called chosen.

A pod no NodePool takes keeps Karpenter's ``FailedScheduling`` words ("Failed to schedule pod, ...", each
NodePool's error joined by "; "). The instance types are gpupool's catalog sizes as NAP offers them
(:mod:`gpupool.nap.sizes`); a size a requirement on an unknown label (zone, disks) may exclude is taken as
admitted and counted as assumed. Not modelled: the pools' nodes as targets for Karpenter (the pods are
Pending because they did not fit there), preferred node affinity and topology spreading (relaxed away by
Karpenter when they cannot be met), minValues, reserved capacity, DRA, volume topology, ephemeral-storage,
offerings per zone (availability, quota: every admitted size is taken as launchable), consolidation after
launch.

The parts: :mod:`.facts` (data/karpenter.yaml: words, well-known labels), :mod:`.requirements` (Karpenter's
requirement compatibility), :mod:`.templates` (what a NAP node offers, the NodePools as NodeClaimTemplates,
the NodeClaims planned), :mod:`.scheduler` (the loop: :func:`provision`), :mod:`.outcome` (the launch
choice, the result and its text).
"""

from __future__ import annotations

from gpupool.simulate.nap.outcome import Launch, Outcome, launch_choice, print_text
from gpupool.simulate.nap.requirements import incompatible, pod_requirement_sets, pool_requirements
from gpupool.simulate.nap.scheduler import provision
from gpupool.simulate.nap.templates import Claim, Template, allocatable, capacity, max_pods_of

__all__ = [
    "Claim",
    "Launch",
    "Outcome",
    "Template",
    "allocatable",
    "capacity",
    "incompatible",
    "launch_choice",
    "max_pods_of",
    "pod_requirement_sets",
    "pool_requirements",
    "print_text",
    "provision",
]
