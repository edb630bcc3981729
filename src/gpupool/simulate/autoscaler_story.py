"""One sentence per Pending pod on how the scheduler's and the autoscaler's verdicts fit together.

The scheduler's message describes the final cluster; the autoscaler acted earlier, in its own loop, with its
own picture of the pools (templates built from the VM size, young unready GPU nodes counted as upcoming).
When the two could read as a contradiction (a pod "triggered scale-up" and is still Pending) or the
autoscaler did nothing at all, these sentences say why. Rule modules GP505-GP507 document the behaviours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpupool.design.nodeshape import group_id
from gpupool.findings import agree, plural
from gpupool.simulate.rules._common import gpu_text

if TYPE_CHECKING:
    from gpupool.simulate.autoscaler import ScaleUp
    from gpupool.simulate.model import Run
    from gpupool.simulate.pods import Pod
    from gpupool.simulate.runner import Runner


def blocked(sim: Runner, run: Run) -> str:
    assert run.ca_blocked is not None
    kind, idx = run.ca_blocked
    ca = sim.ca
    if kind == "no-node-info":
        assert idx is not None
        pool = sim.pools[idx]
        err = ca.no_node_info.format(group=group_id(pool))
        return (
            f'no scale-up anywhere in the cluster: every scale-up fails with "{err}" because pool '
            f"{pool.name} has no node and {pool.vm_size} is not in the autoscaler's static size table (GP507)"
        )
    if kind == "unready-unmanaged":
        assert idx is not None
        pool = sim.pools[idx]
        return (
            f"no scale-up anywhere in the cluster: pool {pool.name} is not autoscaled and its nodes carry "
            f"{ca.gpu_label} without {ca.gpu_resource}, which aborts the autoscaler's scale-up from 1.35 "
            f'("{ca.unmanaged_error}") (GP506)'
        )
    bad, total = sim.unready_nodes(run), run.cluster.num_nodes
    return (
        f"no scale-up anywhere in the cluster: the autoscaler counts {bad} of {total} nodes as unready "
        f"({ca.gpu_label} without {ca.gpu_resource}), more than {ca.ok_total_unready} and "
        f"{ca.max_unready_percent:g}% of the nodes, so it calls the cluster unhealthy (GP506)"
    )


def triggered_but_pending(sim: Runner, run: Run, pod: Pod, up: ScaleUp) -> str:
    idx = next(i for i, p in enumerate(sim.pools) if p.name == up.pool)
    real = sim.template_of(run, idx, "node")
    reasons = real.reasons(pod.shape)
    head = f"it triggered the scale-up of pool {up.pool} ({up.current}->{up.new}), but "
    if reasons:
        tmpl = sim.template(run, idx, run.mode)
        return (
            head + f"a real node of the pool rejects it ({', '.join(reasons)}): the autoscaler planned "
            f"with a template built from the VM size ({gpu_text(tmpl.shape)}) while the nodes advertise "
            f"{gpu_text(real.shape)}" + (" (GP506)" if sim.gpu_unready[idx] else " (GP501)")
        )
    return head + (
        "the scheduler gave the new nodes' room to other pods first (it takes pods by priority and "
        "creation, the autoscaler packs them largest first)"
    )


def counted_on_unready(sim: Runner, run: Run, idx: int) -> str:
    pool = sim.pools[idx]
    n = sim.upcoming_unready(run, idx)
    tmpl = sim.template(run, idx, "aks")
    kind = " from the VM size" if tmpl.kind == "aks-template" else ""
    minutes = sim.ca.max_node_startup_s / 60
    return (
        f"no scale-up for it yet: pool {pool.name}'s {plural(n, 'node')} {agree(n, 'is', 'are')} "
        f"younger than {minutes:g} minutes and "
        f"carry {sim.ca.gpu_label} without {sim.ca.gpu_resource}, so the autoscaler counts them as still "
        f"starting and expects them, as its template{kind} ({gpu_text(tmpl.shape)}), to take it; they never "
        f"will, and {minutes:g} minutes after their creation it scales the pool up again from the VM size "
        "(GP506)"
    )


def not_triggered(sim: Runner, run: Run, pod: Pod, autoscaled: list[int]) -> str | None:
    """Why a pod did not trigger a scale-up that a real node of an autoscaled pool would have taken: the
    pool's nodes are unready to the autoscaler (GP506), or its zero-node template carries a kube-proxy pod
    (GP505). None when neither is the reason."""
    for i in autoscaled:
        pool = sim.pools[i]
        if not sim.gpu_unready[i] or not run.cluster.spec_nodes(i) or pool.autoscaler is None:
            continue
        if run.cluster.spec_nodes(i) >= pool.autoscaler.max_count:
            continue
        tmpl = sim.template(run, i, run.mode)
        blind = tmpl.reasons(pod.shape)
        if blind and not sim.template_of(run, i, "node").reasons(pod.shape):
            return (
                f"pool {pool.name} has nodes, but the autoscaler counts them as unready ({sim.ca.gpu_label} "
                f"without {sim.ca.gpu_resource}) and plans with a template from the VM size "
                f"({gpu_text(tmpl.shape)}) that rejects it: {', '.join(blind)} (GP506)"
            )
    return kube_proxy(sim, run, pod, autoscaled)


def kube_proxy(sim: Runner, run: Run, pod: Pod, autoscaled: list[int]) -> str | None:
    """Why a pod did not trigger a scale-up that an empty zero-node template would have made: the kube-proxy
    pod the autoscaler puts on its template (GP505). None when that is not the reason."""
    for i in autoscaled:
        pool = sim.pools[i]
        if run.cluster.spec_nodes(i) or pool.autoscaler is None or pool.autoscaler.max_count == 0:
            continue
        with_proxy = sim.template_of(run, i, "aks-template").reasons(pod.shape)
        if with_proxy and not sim.template_of(run, i, "aks-template-bare").reasons(pod.shape):
            return (
                f"pool {pool.name}'s zero-node template ({pool.vm_size}) would take it but for the "
                f"kube-proxy pod the autoscaler puts on it ({sim.ca.kube_proxy_cpu_milli}m CPU): "
                f"{', '.join(with_proxy)} (GP505)"
            )
    return None
