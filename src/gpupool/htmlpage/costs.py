"""Capacity and cost of one pool after the simulation: nodes before and after the autoscaler, GPU resources
used and free (with their bars), hourly and monthly cost, and the idle GPU cost."""

from __future__ import annotations

from typing import Any

from gpupool.htmlpage import svg

BAR_W = 140


def money(x: float | None, digits: int = 2) -> str:
    return "unknown" if x is None else f"{x:,.{digits}f}"


def cost_bars(rows: list[dict[str, Any]], currency: str) -> None:
    """Each pool's hourly cost as a bar against the most expensive pool's, its idle GPU share marked."""
    top = max((r["cost_value"] or 0.0 for r in rows), default=0.0)
    for r in rows:
        cost, idle = r["cost_value"], r["idle_value"]
        if cost is None or top <= 0:
            r["cost_bar"] = None
            continue
        idle = min(idle or 0.0, cost)
        c = svg.Canvas(BAR_W, 16, f"cost of pool {r['pool']}: {cost:,.2f} {currency}/h, idle GPUs "
                       f"{idle:,.2f}", "bar")
        g = c.group("cost", f"{cost:,.2f} {currency}/h, of which idle GPU capacity {idle:,.2f}")
        svg.bar(g, 0, 2, BAR_W, 12, [(cost - idle, "seg-cost"), (idle, "seg-idle")], top)
        r["cost_bar"] = c


def capacity(pool: Any, sp: Any, hours: float) -> dict[str, Any]:
    if sp is None:  # pragma: no cover - simulate returns every pool
        return {}
    gpu = sp.gpu_resources()
    alloc = sum(float(v["allocatable"]) for v in gpu.values())
    used = sum(float(v["used"]) for v in gpu.values())
    free = alloc - used
    cost = sp.cost_per_hour
    idle = None
    if cost is not None:
        idle = cost * (free / alloc) if alloc else (cost if pool.is_gpu_pool and sp.nodes else 0.0)
    max_nodes = sp.max_nodes if sp.max_nodes is not None else sp.nodes
    nodes_bar = svg.Canvas(BAR_W, 16, f"nodes of pool {pool.name}: {sp.initial} before, {sp.nodes} after",
                           "bar")
    g = nodes_bar.group("nodes", f"{sp.initial} before the autoscaler, {sp.nodes} after, max {max_nodes}")
    kept = min(sp.initial, sp.nodes)
    svg.bar(g, 0, 2, BAR_W, 12, [(kept, "seg-base"), (max(0, sp.nodes - kept), "seg-added")],
            max(max_nodes, sp.nodes, 1))
    gpu_bar = None
    resources = []
    for name, v in gpu.items():
        resources.append({"name": name, "used": int(v["used"]), "free": int(v["free"]),
                          "allocatable": int(v["allocatable"])})
    if gpu:
        gpu_bar = svg.Canvas(BAR_W, 16, f"GPU resources of pool {pool.name}: {int(used)} used, "
                             f"{int(free)} free", "bar")
        g2 = gpu_bar.group("gpu", f"{int(used)} used, {int(free)} free of {int(alloc)}")
        svg.bar(g2, 0, 2, BAR_W, 12, [(used, "seg-used"), (free, "seg-free")], alloc)
    return {
        "pool": pool.name,
        "initial": sp.initial,
        "nodes": sp.nodes,
        "added": sp.added,
        "max": sp.max_nodes,
        "pods": sp.pods,
        "ds_pods": sp.daemonset_pods,
        "resources": resources,
        "gpu_used": int(used),
        "gpu_free": int(free),
        "gpu_alloc": int(alloc),
        "price": money(sp.price_per_node, 3),
        "cost_hour": money(cost),
        "cost_month": money(cost * hours if cost is not None else None, 0),
        "idle_hour": money(idle),
        "idle_month": money(idle * hours if idle is not None else None, 0),
        "cost_value": cost,
        "idle_value": idle,
        "nodes_bar": nodes_bar,
        "gpu_bar": gpu_bar,
        "scale_ups": [s.event for s in sp.scale_ups],
        "cordoned": sp.cordoned,
    }
