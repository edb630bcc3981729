"""Helpers shared by the GP5xx simulation rules (not a rule: the registry skips ``_`` modules)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpupool.design.node import is_gpu_resource

if TYPE_CHECKING:
    from gpupool.design.nodeshape import NodeShape
    from gpupool.simulate.cost import Price
    from gpupool.simulate.model import Run, WorkloadInfo
    from gpupool.simulate.pods import Pod, Shape
    from gpupool.simulate.runner import Runner
    from gpupool.spec.model import PoolSpec


def pending_groups(sim: Runner, run: Run) -> list[tuple[WorkloadInfo, Shape, list[Pod]]]:
    """Pending pods that reached the scheduler (no DaemonSet pods), grouped by workload and shape."""
    groups: dict[tuple[int, int], list[Pod]] = {}
    for p in run.pending:
        if p.ds or p.status is not None:
            continue
        groups.setdefault((p.workload, p.shape.id), []).append(p)
    return [(sim.workloads[w], pods[0].shape, pods) for (w, _), pods in groups.items()]


def gpu_text(shape: NodeShape) -> str:
    """``nvidia.com/gpu: 8`` (the GPU resources of a node shape), or ``no GPU resource``."""
    items = [f"{k}: {v}" for k, v in sorted(shape.allocatable.items()) if is_gpu_resource(k) and v]
    return ", ".join(items) or "no GPU resource"


def hourly(price: Price, pool: PoolSpec) -> float:
    """A node's price per hour: the Spot price for a Spot pool when the table has one."""
    return price.hourly(pool.priority == "Spot")


def money(amount: float, currency: str) -> str:
    return f"{amount:,.2f} {currency}"
