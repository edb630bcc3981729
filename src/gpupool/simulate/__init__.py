"""``gpupool simulate``: will the workloads fit the pools? Placement, Pending messages, scale-up, cost.

Pure engine (data in, data out; only the CLI prints)::

    from gpupool.simulate import Options, load_inputs, simulate
    result = simulate(load_inputs(["pools.yaml", "workloads.yaml"]), Options(kubernetes_version="1.35"))
    result.to_dict()        # the JSON payload (without "version", which the reporter adds)
    result.exit_code        # 0 all placed, 1 something Pending

Modelled: kube-scheduler's queue order (priority, then creation); the default profile's filters in order
with the first failure per node (NodeUnschedulable, TaintToleration, NodeAffinity with nodeSelector and the
metadata.name PreFilter, NodeResourcesFit for pods/cpu/memory/extended resources) and its scores
(LeastAllocated and BalancedAllocation on cpu and memory, PreferNoSchedule taints, preferred node affinity,
PodTopologySpread's system default spreading of ReplicaSet/StatefulSet-owned pods); DefaultPreemption
(messages, and evictions of lower-priority pods); FitError and PostFilter text by version; DaemonSets
(one pod per eligible node, the controller's tolerations); AKS allocatable (reservations, maxPods); GPU
resources from :func:`gpupool.design.node.advertised`; the cluster autoscaler on AKS (template at zero
nodes with its kube-proxy pod, GPU nodes without nvidia.com/gpu unready to it, sizes missing from its static
table, first-fit-decreasing estimate, maxCount, one scale-up per loop, expanders random/most-pods/least-waste)
and its events; cost.

Starting from a real cluster (``Options(start=...)``, :mod:`.start`): its nodes and running pods.

Not modelled: inter-pod (anti-)affinity, the pods' own topologySpreadConstraints, volumes
and ports, ephemeral-storage, DRA, percentageOfNodesToScore and random tie-breaking (gpupool scores every
feasible node and takes the lowest node index among equals), PodDisruptionBudgets and start times in victim
selection, scale-down, node provisioning time and failures (quota, capacity), max-nodes-total,
balance-similar-node-groups.

Modules: :mod:`.inputs` (reading), :mod:`gpupool.design.nodeshape` (node shapes, AKS reservations, CA
template), :mod:`.pods` (pod shapes), :mod:`.cluster` (filters, scores, binding; its data in
:mod:`.nodestate`, FitError and preemption in :mod:`.diagnosis`, spreading in :mod:`.spread`),
:mod:`.autoscaler` (CA scale-up),
:mod:`.cost` (prices), :mod:`.messages` (texts), :mod:`.model` (options, a run), :mod:`.runner` (the placement
loop), :mod:`.explain` (a run's words), :mod:`.result`, :mod:`.engine` (the whole), ``rules/`` (GP5xx).
"""

from gpupool.k8s.facts import Reservations, default_reservations, load_reservations
from gpupool.simulate.cost import PriceTable, bundled, fetch_prices, load_prices
from gpupool.simulate.engine import Options, SimulationResult, simulate
from gpupool.simulate.inputs import Inputs, load_inputs

__all__ = [
    "Inputs",
    "Options",
    "PriceTable",
    "Reservations",
    "SimulationResult",
    "bundled",
    "default_reservations",
    "fetch_prices",
    "load_inputs",
    "load_prices",
    "load_reservations",
    "simulate",
]
