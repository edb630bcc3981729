"""What Karpenter's pass comes to: the instance type the Azure provider launches per NodeClaim (the cheapest
fitting one by the price table, or an unranked list), the outcome simulate reports (JSON) and its text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gpupool.findings import plural
from gpupool.nap.model import NodePool, Requirement
from gpupool.nap.sizes import NapSize, _accepts
from gpupool.simulate.nap.facts import CAPACITY_TYPE

if TYPE_CHECKING:
    from gpupool.simulate.cost import PriceTable
    from gpupool.simulate.nap.templates import Claim, Template
    from gpupool.simulate.pods import Pod


@dataclass(frozen=True)
class Launch:
    """What gets launched for one NodeClaim: the chosen size (None: cannot rank without prices)."""

    chosen: str | None
    capacity_type: str | None
    price: float | None
    ranked: list[str]  # fitting sizes, in the order used (price, or gpupool's fallback)
    by_price: bool
    unpriced: list[str]


@dataclass
class Outcome:
    """Karpenter's part of a simulate run."""

    templates: list[Template]
    claims: list[Claim]
    launches: list[Launch]
    placed: list[Pod]
    messages: dict[int, str]  # id(pod) -> Karpenter's FailedScheduling message
    skipped: list[tuple[NodePool, str]]  # NodePools left out, and why
    currency: str
    refs: dict[int, str] = field(default_factory=dict)  # id(pod) -> its workload
    notes: list[str] = field(default_factory=list)

    @property
    def cost_per_hour(self) -> float | None:
        if any(launch.price is None for launch in self.launches):
            return None
        return round(sum(launch.price or 0.0 for launch in self.launches), 6)

    def groups(self) -> list[dict[str, Any]]:
        """NodeClaims grouped by NodePool and launch (what the text and JSON show)."""
        out: dict[tuple, dict[str, Any]] = {}
        for c, launch in zip(self.claims, self.launches, strict=True):
            key = (c.template.pool.name, launch.chosen, tuple(launch.ranked))
            g = out.get(key)
            if g is None:
                g = out[key] = {
                    "nodePool": c.template.pool.name,
                    "nodes": 0,
                    "chosen": launch.chosen,
                    "capacityType": launch.capacity_type,
                    "pricePerNodeHour": launch.price,
                    "rankedByPrice": launch.by_price,
                    "fitting": list(launch.ranked),
                    "unpriced": list(launch.unpriced),
                    "pods": 0,
                    "podsPerNode": [],
                    "workloads": {},
                }
            g["nodes"] += 1
            g["pods"] += len(c.pods)
            g["podsPerNode"].append(len(c.pods))
            for p in c.pods:
                ref = self.refs.get(id(p), p.name)
                g["workloads"][ref] = g["workloads"].get(ref, 0) + 1
        return list(out.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "nodePools": [
                {
                    "name": t.pool.name,
                    "weight": t.weight,
                    "admitted": [s.name for s in t.sizes],
                    "assumed": t.assumed,
                    "notFitted": t.unknown,
                    "maxPods": t.max_pods,
                }
                for t in self.templates
            ],
            "skipped": [{"name": p.name, "why": why} for p, why in self.skipped],
            "nodeClaims": self.groups(),
            "placed": len(self.placed),
            "costPerHour": self.cost_per_hour,
            "currency": self.currency,
            "notes": self.notes,
        }


def _capacity_types(reqs: list[Requirement]) -> list[str]:
    on = [r for r in reqs if r.key == CAPACITY_TYPE]
    return [ct for ct in ("spot", "on-demand") if all(_accepts(r, ct) for r in on)]


def _fallback_key(s: NapSize) -> tuple:
    return (s.gpu_count, s.vcpu or 0, s.memory_gib or 0, s.name)


def launch_choice(claim: Claim, prices: PriceTable) -> Launch:
    """The instance type the cloud provider launches for the NodeClaim: the cheapest fitting one by the price
    table, Spot before on-demand at equal price, then by name; without a price for every fitting size, no
    choice (the sizes in gpupool's fallback order)."""
    kinds = _capacity_types(claim.requirements) or ["on-demand"]
    offers: list[tuple[float, int, str, str]] = []
    unpriced = []
    for s in claim.options:
        price = prices.get(s.name)
        found = False
        for rank, ct in enumerate(("spot", "on-demand")):
            if ct not in kinds or price is None:
                continue
            amount = price.spot if ct == "spot" else price.per_hour
            if amount is None:
                continue
            offers.append((amount, rank, s.name, ct))
            found = True
        if not found:
            unpriced.append(s.name)
    if offers and not unpriced:
        offers.sort()
        best = offers[0]
        ranked = list(dict.fromkeys(o[2] for o in offers))
        return Launch(best[2], best[3], best[0], ranked, True, [])
    ranked = [s.name for s in sorted(claim.options, key=_fallback_key)]
    return Launch(None, None, None, ranked, False, unpriced)


# ---- text ---------------------------------------------------------------------------------------------

SHOWN = 6  # sizes named per line in text (JSON has all)


def _names(names: list[str], n: int = SHOWN) -> str:
    more = len(names) - n
    return ", ".join(names[:n]) + (f" and {more} more" if more > 0 else "")


def print_text(outcome: Outcome, con: Any) -> None:
    """simulate's "Node Auto Provisioning" section: per NodePool the sizes it admits, per NodeClaim group the
    fitting sizes, the launch choice and the pods."""
    from rich.markup import escape

    con.print()
    con.print("[bold]Node Auto Provisioning (Karpenter)[/]")
    for t in outcome.templates:
        extra = f" ({t.assumed} assumed)" if t.assumed else ""
        con.print(
            escape(
                f"  NodePool {t.pool.name} (weight {t.weight}): admits {plural(len(t.sizes), 'size')}"
                f"{extra}: {_names([s.name for s in t.sizes])}"
            )
        )
    for pool, why in outcome.skipped:
        con.print(escape(f"  NodePool {pool.name}: left out: {why}"), style="dim")
    if not outcome.claims:
        con.print("  no NodeClaim: Karpenter provisions nothing for the Pending pods")
    for g in outcome.groups():
        who = ", ".join(f"{n} x {ref}" for ref, n in g["workloads"].items())
        per = sorted(set(g["podsPerNode"]))
        each = f"{per[0]} each" if len(per) == 1 else f"{min(per)}-{max(per)} each"
        con.print(
            escape(
                f"  {g['nodePool']}: {plural(g['nodes'], 'NodeClaim')} ({plural(g['pods'], 'pod')}, "
                f"{each}): {who}"
            )
        )
        con.print(escape(f"    fitting: {_names(g['fitting'])}"))
        if g["chosen"]:
            con.print(
                escape(
                    f"    launches: {g['chosen']} ({g['capacityType']}, "
                    f"{g['pricePerNodeHour']:,.4g} {outcome.currency}/h per node): the cheapest that fits"
                )
            )
        else:
            con.print(
                escape(
                    f"    launches: the cheapest of these, which gpupool cannot tell: no price for "
                    f"{_names(g['unpriced'], 3)} (listed smallest first, not by price)"
                )
            )
