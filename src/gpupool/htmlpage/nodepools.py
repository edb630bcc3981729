"""Karpenter NodePools (Node Auto Provisioning) on the page: what simulate's NAP model provisioned for each
(NodeClaims, the sizes that fit them, the size launched or why none can be named), as plain data.

The NodePool's chain itself is :func:`gpupool.htmlpage.chain.nodepool_stages`; which pods NAP placed comes
from simulate's placements (``pool`` is ``NodePool NAME`` there), the findings from check (GP8xx), lint and
simulate (GP508), attached in :mod:`gpupool.htmlpage.model`.
"""

from __future__ import annotations

from typing import Any

from gpupool.htmlpage.words import plural

FITTING_SHOWN = 6
"""Fitting size names listed per NodeClaim group (the rest counted)."""


def key(name: str) -> str:
    """A NodePool's key among the page's landing places (pools are keyed by their name, which has no space;
    simulate names NAP's placements the same way)."""
    return f"NodePool {name}"


def _names(names: list[str], n: int = FITTING_SHOWN) -> str:
    more = len(names) - n
    return ", ".join(names[:n]) + (f" and {more} more" if more > 0 else "")


def _money(x: float | None) -> str:
    return "unknown" if x is None else f"{x:,.4g}"


def provisioned(outcome: Any, name: str) -> dict[str, Any]:
    """What simulate's NAP model did with NodePool ``name``: {claims: [...], nodes, pods, skipped, admitted,
    assumed, not_fitted, cost_hour}. ``outcome``: :class:`gpupool.simulate.nap.Outcome` (None: NAP did not
    run)."""
    out: dict[str, Any] = {"claims": [], "nodes": 0, "pods": 0, "skipped": "", "admitted": None, "assumed": 0,
                           "not_fitted": 0, "cost_hour": "0.00", "currency": ""}
    if outcome is None:
        return out
    out["currency"] = outcome.currency
    for pool, why in outcome.skipped:
        if pool.name == name:
            out["skipped"] = why
    for t in outcome.templates:
        if t.pool.name == name:
            out["admitted"] = len(t.sizes)
            out["assumed"] = t.assumed
            out["not_fitted"] = len(t.unknown)
    total: float | None = 0.0
    for g in outcome.groups():
        if g["nodePool"] != name:
            continue
        per = sorted(set(g["podsPerNode"]))
        each = f"{per[0]} each" if len(per) == 1 else f"{per[0]}-{per[-1]} each"
        price = g["pricePerNodeHour"]
        if total is not None:
            total = None if price is None else total + price * g["nodes"]
        out["claims"].append({
            "nodes": g["nodes"],
            "head": f"{plural(g['nodes'], 'NodeClaim')}, {plural(g['pods'], 'pod')} ({each})",
            "workloads": [f"{n} × {ref}" for ref, n in g["workloads"].items()],
            "fitting": _names(g["fitting"]),
            "fitting_count": len(g["fitting"]),
            "chosen": g["chosen"] or "",
            "capacity_type": g["capacityType"] or "",
            "price": _money(price),
            "unpriced": _names(g["unpriced"], 3),
        })
        out["nodes"] += g["nodes"]
        out["pods"] += g["pods"]
    out["cost_hour"] = "unknown" if total is None else f"{total:,.2f}"
    return out


def box_lines(prov: dict[str, Any]) -> list[tuple[str, str]]:
    """The NodeClaim lines of a NodePool's workloads box (above the workloads)."""
    if prov["skipped"]:
        return [("left out by NAP", "warn")]
    if not prov["claims"]:
        return [("no NodeClaim", "dim")]
    lines = [(f"{plural(prov['nodes'], 'NodeClaim')} by NAP", "strong")]
    chosen = {c["chosen"] for c in prov["claims"]}
    if len(chosen) == 1 and "" not in chosen:
        lines.append((next(iter(chosen)), "mono"))
    elif "" in chosen:
        lines.append(("size not ranked: no prices", "dim"))
    return lines
