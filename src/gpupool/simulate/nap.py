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
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

from gpupool.findings import plural
from gpupool.k8s.taints import untolerated
from gpupool.nap.model import NapInputs, NodeClass, NodePool, Requirement
from gpupool.nap.sizes import NapSize, _accepts, admitted, match

if TYPE_CHECKING:
    from gpupool.simulate.cost import PriceTable
    from gpupool.simulate.model import Run
    from gpupool.simulate.pods import Pod
    from gpupool.simulate.runner import Runner as Simulation

GIB = 2**30
MIB = 2**20
CAPACITY_TYPE = "karpenter.sh/capacity-type"
_NEGATIVE = ("NotIn", "DoesNotExist")


@cache
def facts() -> dict[str, Any]:
    from importlib import resources

    import yaml

    text = resources.files("gpupool.simulate").joinpath("data", "karpenter.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def _words(key: str) -> str:
    return facts()["events"]["errors"][key]


@cache
def well_known() -> frozenset[str]:
    from gpupool import catalog

    return frozenset(facts()["scheduler"]["wellKnownLabels"]) | frozenset(
        catalog._data("nap.yaml")["labels"]["wellKnown"]
    )


# ---- what a NAP node offers ---------------------------------------------------------------------------


def _brackets(amount: float, tiers: list) -> float:
    total, left = 0.0, amount
    for width, rate in tiers:
        take = left if width is None else min(left, width)
        total += take * rate
        left -= take
        if left <= 0:
            break
    return total


def capacity(size: NapSize, max_pods: int) -> dict[str, int]:
    """Karpenter's capacity of the size: cpu (millicores), memory (bytes), GPUs, pods."""
    assert size.size is not None
    a = facts()["allocatable"]
    mem = int(size.size.memory_gib) * GIB
    mem -= math.ceil(mem * a["vmMemoryOverheadPercent"])
    out = {"cpu": size.size.vcpu * 1000, "memory": mem, "pods": max_pods}
    out.update(size.advertised())
    return out


def allocatable(size: NapSize, max_pods: int) -> dict[str, int]:
    """Capacity less kube-reserved and the eviction threshold (karpenter-provider-azure instancetype.go)."""
    assert size.size is not None
    a = facts()["allocatable"]
    cap = capacity(size, max_pods)
    cpu_reserved = int(1000 * _brackets(size.size.vcpu, a["cpuTaxPerCore"]))
    mem_reserved = int(1024 * _brackets(size.size.memory_gib, a["memoryTaxGiB"])) * MIB
    cap["cpu"] -= cpu_reserved
    cap["memory"] -= mem_reserved + a["evictionMemoryMiB"] * MIB
    return cap


def max_pods_of(nc: NodeClass | None) -> int:
    if nc is not None and nc.max_pods is not None:
        return nc.max_pods
    return int(facts()["allocatable"]["defaultMaxPods"])


# ---- requirements -------------------------------------------------------------------------------------


def pod_requirement_sets(spec: dict) -> list[list[Requirement]]:
    """The pod's requirement alternatives: nodeSelector plus one required node affinity term each (Karpenter
    takes the first term and relaxes to the next when it cannot be met)."""
    base = []
    sel = spec.get("nodeSelector")
    if isinstance(sel, dict):
        base = [Requirement(str(k), "In", (str(v),)) for k, v in sel.items()]
    aff = spec.get("affinity") if isinstance(spec.get("affinity"), dict) else {}
    na = aff.get("nodeAffinity") if isinstance(aff.get("nodeAffinity"), dict) else {}
    req = na.get("requiredDuringSchedulingIgnoredDuringExecution")
    terms = req.get("nodeSelectorTerms") if isinstance(req, dict) else None
    if not isinstance(terms, list) or not terms:
        return [base]
    out = []
    for term in terms:
        exprs = term.get("matchExpressions") if isinstance(term, dict) else None
        reqs = list(base)
        for e in exprs if isinstance(exprs, list) else ():
            if isinstance(e, dict) and isinstance(e.get("key"), str):
                vals = tuple(str(v) for v in e.get("values") or ())
                reqs.append(Requirement(e["key"], str(e.get("operator")), vals))
        out.append(reqs)
    return out


def _by_key(reqs: list[Requirement]) -> dict[str, list[Requirement]]:
    out: dict[str, list[Requirement]] = {}
    for r in reqs:
        out.setdefault(r.key, []).append(r)
    return out


def _satisfiable(reqs: list[Requirement]) -> bool:
    """Whether some value (or the label's absence) satisfies every requirement on one key."""
    cands: set[str | None] = {None, "\x00other"}
    for r in reqs:
        cands.update(r.values)
        if r.operator in ("Gt", "Lt", "Gte", "Lte") and r.values and r.values[0].isdigit():
            n = int(r.values[0])
            cands.update(str(x) for x in (n - 1, n, n + 1) if x >= 0)
    return any(all(_accepts(r, c) for r in reqs) for c in cands)


def _req_text(reqs: list[Requirement]) -> str:
    return " ".join(str(r) for r in reqs)


def incompatible(pool_reqs: list[Requirement], pod_reqs: list[Requirement]) -> str | None:
    """Karpenter's ``Requirements.Compatible`` (undefined well-known labels allowed): None, or its error."""
    mine, theirs = _by_key(pool_reqs), _by_key(pod_reqs)
    known = well_known()
    for key, reqs in theirs.items():
        if key in known or key in mine or all(r.operator in _NEGATIVE for r in reqs):
            continue
        return _words("undefinedLabel").replace("%q", f'"{key}"')
    for key, reqs in theirs.items():
        if key not in mine:
            continue
        if all(r.operator in _NEGATIVE for r in reqs + mine[key]):
            continue
        if not _satisfiable(mine[key] + reqs):
            return _words("badKey") % (key, _req_text(reqs), _req_text(mine[key]))
    return None


def pool_requirements(pool: NodePool, nc: NodeClass | None) -> list[Requirement]:
    """A NodePool's requirements as Karpenter's NodeClaimTemplate holds them: spec requirements, template
    labels, the NodePool and node class labels."""
    reqs = list(pool.requirements)
    reqs += [Requirement(k, "In", (v,)) for k, v in pool.labels.items()]
    reqs.append(Requirement("karpenter.sh/nodepool", "In", (pool.name,)))
    reqs.append(Requirement("karpenter.azure.com/aksnodeclass", "In", (pool.node_class[2],)))
    return reqs


# ---- the model ----------------------------------------------------------------------------------------


def _merge(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


def _fits(requests: dict[str, int], alloc: dict[str, int]) -> bool:
    return all(v <= alloc.get(k, 0) for k, v in requests.items() if v > 0)


@dataclass
class Template:
    """One NodePool as Karpenter's NodeClaimTemplate: its instance types and DaemonSet overhead per type."""

    pool: NodePool
    node_class: NodeClass | None
    requirements: list[Requirement]
    sizes: list[NapSize]  # admitted and offered, with catalog facts
    assumed: int  # of those, sizes admitted only if a label gpupool cannot know matches
    unknown: list[str]  # admitted sizes gpupool cannot fit (NAP's registry sizes the catalog lacks)
    max_pods: int
    alloc: dict[str, dict[str, int]] = field(default_factory=dict)  # size name -> allocatable
    cap: dict[str, dict[str, int]] = field(default_factory=dict)  # size name -> capacity
    overhead: dict[str, dict[str, int]] = field(default_factory=dict)  # size name -> DaemonSet requests

    @property
    def weight(self) -> int:
        return self.pool.weight or 0


@dataclass
class Claim:
    """A NodeClaim planned in this pass."""

    template: Template
    options: list[NapSize]
    requirements: list[Requirement]
    requests: dict[str, int] = field(default_factory=dict)
    pods: list[Pod] = field(default_factory=list)
    name: str = ""


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


def _daemon_overhead(sim: Simulation, t: Template) -> None:
    daemons = [w for w in sim.workloads if w.ds_shape is not None and w.problem is None]
    for s in t.sizes:
        total: dict[str, int] = {}
        for w in daemons:
            spec = w.input.workload.pod_spec
            if untolerated(t.pool.taints, spec.get("tolerations")):
                continue
            ok = False
            for reqs in pod_requirement_sets(spec):
                if (
                    incompatible(t.requirements, reqs) is None
                    and match(s, t.requirements + reqs, t.node_class or _default_nc()) is not False
                ):
                    ok = True
                    break
            if ok:
                total = _merge(total, {**w.requests, "pods": 1})
        t.overhead[s.name] = total


def _default_nc() -> NodeClass:
    from gpupool.nap.model import DEFAULT_NODE_CLASS

    return DEFAULT_NODE_CLASS


def templates(sim: Simulation, nap: NapInputs) -> tuple[list[Template], list[tuple[NodePool, str]]]:
    """The NodePools Karpenter provisions from, in its order, and those it leaves out."""
    out, skipped = [], []
    for pool in nap.node_pools:
        nc = nap.node_class_of(pool)
        if pool.replicas is not None:
            skipped.append(
                (pool, "a static NodePool (replicas set): Karpenter does not provision for pods there")
            )
            continue
        a = admitted(pool, nc)
        sizes = [s for s in a.sure if s.size is not None]
        assumed = [s for s in a.maybe if s.size is not None]
        unknown = [s.name for s in list(a.sure) + list(a.maybe) if s.size is None]
        if not sizes and not assumed:
            skipped.append(
                (
                    pool,
                    facts()["events"]["noCompatibleInstanceTypes"]["message"]
                    + " (no size gpupool knows is admitted)",
                )
            )
            continue
        t = Template(
            pool, nc, pool_requirements(pool, nc), sizes + assumed, len(assumed), unknown, max_pods_of(nc)
        )
        for s in t.sizes:
            t.alloc[s.name] = allocatable(s, t.max_pods)
            t.cap[s.name] = capacity(s, t.max_pods)
        _daemon_overhead(sim, t)
        out.append(t)
    out.sort(key=lambda t: t.pool.name, reverse=True)
    out.sort(key=lambda t: t.weight, reverse=True)
    return out, skipped


def _requests_text(req: dict[str, int]) -> str:
    def q(k: str, v: int) -> str:
        if k == "cpu":
            return f"{v}m" if v % 1000 else str(v // 1000)
        if k == "memory":
            return f"{v // MIB}Mi" if v % GIB else f"{v // GIB}Gi"
        return str(v)

    return "{" + ",".join(f'"{k}":"{q(k, v)}"' for k, v in sorted(req.items())) + "}"


def _filter(
    t: Template,
    options: list[NapSize],
    reqs: list[Requirement],
    total: dict[str, int],
    pod_req: dict[str, int],
) -> tuple[list[NapSize], str | None]:
    """Karpenter's filterInstanceTypesByRequirements: the options that meet the requirements and fit ``total``
    with their DaemonSet overhead; or none and InstanceTypeFilterError's words."""
    nc = t.node_class or _default_nc()
    keep, met, fit, met_only, fit_only = [], False, False, False, False
    for s in options:
        compat = match(s, reqs, nc) is not False
        fits = _fits(_merge(total, t.overhead.get(s.name, {})), t.alloc[s.name])
        met, fit = met or compat, fit or fits
        met_only = met_only or (compat and not fits)
        fit_only = fit_only or (fits and not compat)
        if compat and fits:
            keep.append(s)
    if keep:
        return keep, None
    if not met and not fit:
        words = _words("noneMetNorFits")
    elif not met:
        words = _words("noneMet")
    elif not fit:
        words = _words("noneFits")
    elif fit_only:
        words = _words("fitsNotMet")
    else:
        words = _words("metNotFits")
    shown = sorted(str(r) for r in reqs if r.key != "karpenter.sh/nodepool")
    return [], f"{words}, requirements={', '.join(shown)}, resources={_requests_text(pod_req)}"


def _try(
    claim: Claim, pod_reqs: list[Requirement], pod_req: dict[str, int], spec: dict
) -> tuple[list[NapSize], list[Requirement]] | str:
    t = claim.template
    bad = untolerated(t.pool.taints, spec.get("tolerations"))
    if bad:
        return "; ".join(f"{_words('taint')} (taint={b})" for b in bad)
    why = incompatible(claim.requirements, pod_reqs)
    if why is not None:
        return f"{_words('incompatible')}, {why}"
    reqs = claim.requirements + pod_reqs
    opts, err = _filter(t, claim.options, reqs, _merge(claim.requests, pod_req), pod_req)
    if err is not None:
        return err
    return opts, reqs


def _limit_filter(t: Template, remaining: dict[str, Fraction]) -> tuple[list[NapSize], str | None]:
    tag = f" (NodePool={t.pool.name})"
    if "nodes" in remaining and remaining["nodes"] <= 0:
        return [], _words("nodesExhausted") + tag
    keep = []
    for s in t.sizes:
        cap = t.cap[s.name]
        if all(_cap_value(cap, k) <= v for k, v in remaining.items() if k != "nodes"):
            keep.append(s)
    if not keep:
        return [], _words("limits") + tag
    return keep, None


def _cap_value(cap: dict[str, int], resource: str) -> Fraction:
    """A capacity in the unit of NodePool limits (cpu in cores; others as counted)."""
    v = cap.get(resource, 0)
    return Fraction(v, 1000) if resource == "cpu" else Fraction(v)


def provision(sim: Simulation, run: Run, nap: NapInputs, prices: PriceTable) -> Outcome:
    """Run Karpenter's provisioning for ``run``'s Pending pods; the pods it places leave ``run.pending``."""
    tpls, skipped = templates(sim, nap)
    remaining = {t.pool.name: dict(t.pool.limits) for t in tpls}
    pods = [p for p in run.pending if not p.ds and p.status is None]

    def order(p: Pod) -> tuple[int, int, int]:
        r = sim.workloads[p.workload].requests
        return (-r.get("cpu", 0), -r.get("memory", 0), p.seq)

    claims: list[Claim] = []
    messages: dict[int, str] = {}
    placed: list[Pod] = []
    for pod in sorted(pods, key=order):
        w = sim.workloads[pod.workload]
        spec = w.input.workload.pod_spec
        pod_req = {**w.requests, "pods": 1}
        alternatives = pod_requirement_sets(spec)
        err = ""
        for pod_reqs in alternatives:
            done, err = _place(claims, tpls, remaining, pod, pod_reqs, pod_req, spec)
            if done:
                placed.append(pod)
                break
        else:
            messages[id(pod)] = facts()["events"]["failedScheduling"]["prefix"] + err
    taken = {id(p) for p in placed}
    run.pending = [p for p in run.pending if id(p) not in taken]
    for i, c in enumerate(claims):
        c.name = f"{c.template.pool.name}-{i + 1}"
    launches = [launch_choice(c, prices) for c in claims]
    notes = []
    if any(t.node_class is None or t.node_class.max_pods is None for t in tpls):
        notes.append(
            f"NAP nodes allow {facts()['allocatable']['defaultMaxPods']} pods unless the AKSNodeClass sets "
            "maxPods (Azure CNI Overlay, NAP's networking, assumed)"
        )
    assumed = sum(t.assumed for t in tpls)
    if assumed:
        notes.append(
            f"{plural(assumed, 'size')} taken as admitted although a requirement on a label gpupool "
            "cannot know per size (zone, region, disks) may rule it out"
        )
    if launches and not any(launch.by_price for launch in launches):
        notes.append(
            "no price for the sizes Karpenter may launch: the choice among the fitting sizes cannot be "
            "ranked by price (Karpenter launches the cheapest); use --prices FILE"
        )
    refs = {id(p): sim.workloads[p.workload].ref for p in placed}
    return Outcome(tpls, claims, launches, placed, messages, skipped, prices.currency, refs, notes)


def _place(
    claims: list[Claim],
    tpls: list[Template],
    remaining: dict[str, dict[str, Fraction]],
    pod: Pod,
    pod_reqs: list[Requirement],
    pod_req: dict[str, int],
    spec: dict,
) -> tuple[bool, str]:
    """Put the pod on a planned NodeClaim or a new one; (placed, Karpenter's error when not)."""
    for c in sorted(claims, key=lambda c: len(c.pods)):
        got = _try(c, pod_reqs, pod_req, spec)
        if not isinstance(got, str):
            c.options, c.requirements = got
            c.requests = _merge(c.requests, pod_req)
            c.pods.append(pod)
            return True, ""
    if not tpls:
        return False, _words("noNodePool")
    errs = []
    for t in tpls:
        left = remaining[t.pool.name]
        options, err = _limit_filter(t, left) if left else (list(t.sizes), None)
        if err is not None:
            errs.append(err)
            continue
        claim = Claim(t, options, list(t.requirements))
        got = _try(claim, pod_reqs, pod_req, spec)
        if isinstance(got, str):
            errs.append(got)
            continue
        claim.options, claim.requirements = got
        claim.requests = dict(pod_req)
        claim.pods.append(pod)
        claims.append(claim)
        for k in list(left):
            if k == "nodes":
                left[k] -= 1
            else:
                left[k] -= max(_cap_value(t.cap[s.name], k) for s in claim.options)
        return True, ""
    return False, "; ".join(errs)


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
