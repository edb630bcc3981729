"""The running cluster's Pending GPU pods (doctor, from ``--snapshot``) as page rows."""

from __future__ import annotations

from typing import Any

from gpupool.htmlpage.words import plural

MAX_PENDING = 200
"""Pending entries (workload and reason) shown; the rest are counted."""


def cluster_pending(res: Any) -> list[dict[str, Any]]:
    """Pending GPU pods on the running cluster (doctor, from --snapshot): the real scheduler's words and
    what simulate's filters say on the real nodes."""
    if res.doctor is None:
        return []
    out = []
    for p in res.doctor.pending[:MAX_PENDING]:
        pools = []
        for name, v in (p.get("pools") or {}).items():
            reasons = ", ".join(f"{n} {r}" for r, n in (v.get("reasons") or {}).items())
            nodes = v.get("nodes")
            count = plural(nodes, "node") if isinstance(nodes, int) else f"{nodes} nodes"
            pools.append(f"{name}: {count}" + (f"; {reasons}" if reasons else "")
                         + ("; fits" if v.get("fit") else ""))
        out.append({
            "pod": str(p.get("pod") or ""),
            "owner": str(p.get("owner") or ""),
            "scheduler": str(p.get("scheduler") or ""),
            "autoscaler": str(p.get("autoscaler") or ""),
            "simulated": str(p.get("simulated") or ""),
            "would_land": str(p.get("wouldLandOn") or ""),
            "pools": pools,
        })
    return out
