"""Karpenter's provisioning loop for the pods simulate leaves Pending (kubernetes-sigs/karpenter
``pkg/controllers/provisioning/scheduling``): pods in its order onto planned NodeClaims or new ones, instance
types filtered by requirements and fit, NodePool limits charged with the largest option."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from gpupool.findings import plural
from gpupool.k8s.taints import untolerated
from gpupool.nap.model import NapInputs, Requirement
from gpupool.nap.sizes import NapSize, match
from gpupool.simulate.nap.facts import GIB, MIB, error_words, facts
from gpupool.simulate.nap.outcome import Outcome, launch_choice
from gpupool.simulate.nap.requirements import incompatible, pod_requirement_sets
from gpupool.simulate.nap.templates import (
    Claim,
    Template,
    add_requests,
    default_node_class,
    fits_in,
    templates,
)

if TYPE_CHECKING:
    from gpupool.simulate.cost import PriceTable
    from gpupool.simulate.model import Run
    from gpupool.simulate.pods import Pod
    from gpupool.simulate.runner import Runner as Simulation


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
    nc = t.node_class or default_node_class()
    keep, met, fit, met_only, fit_only = [], False, False, False, False
    for s in options:
        compat = match(s, reqs, nc) is not False
        fits = fits_in(add_requests(total, t.overhead.get(s.name, {})), t.alloc[s.name])
        met, fit = met or compat, fit or fits
        met_only = met_only or (compat and not fits)
        fit_only = fit_only or (fits and not compat)
        if compat and fits:
            keep.append(s)
    if keep:
        return keep, None
    if not met and not fit:
        words = error_words("noneMetNorFits")
    elif not met:
        words = error_words("noneMet")
    elif not fit:
        words = error_words("noneFits")
    elif fit_only:
        words = error_words("fitsNotMet")
    else:
        words = error_words("metNotFits")
    shown = sorted(str(r) for r in reqs if r.key != "karpenter.sh/nodepool")
    return [], f"{words}, requirements={', '.join(shown)}, resources={_requests_text(pod_req)}"


def _try(
    claim: Claim, pod_reqs: list[Requirement], pod_req: dict[str, int], spec: dict
) -> tuple[list[NapSize], list[Requirement]] | str:
    t = claim.template
    bad = untolerated(t.pool.taints, spec.get("tolerations"))
    if bad:
        return "; ".join(f"{error_words('taint')} (taint={b})" for b in bad)
    why = incompatible(claim.requirements, pod_reqs)
    if why is not None:
        return f"{error_words('incompatible')}, {why}"
    reqs = claim.requirements + pod_reqs
    opts, err = _filter(t, claim.options, reqs, add_requests(claim.requests, pod_req), pod_req)
    if err is not None:
        return err
    return opts, reqs


def _limit_filter(t: Template, remaining: dict[str, Fraction]) -> tuple[list[NapSize], str | None]:
    tag = f" (NodePool={t.pool.name})"
    if "nodes" in remaining and remaining["nodes"] <= 0:
        return [], error_words("nodesExhausted") + tag
    keep = []
    for s in t.sizes:
        cap = t.cap[s.name]
        if all(_cap_value(cap, k) <= v for k, v in remaining.items() if k != "nodes"):
            keep.append(s)
    if not keep:
        return [], error_words("limits") + tag
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
            c.requests = add_requests(c.requests, pod_req)
            c.pods.append(pod)
            return True, ""
    if not tpls:
        return False, error_words("noNodePool")
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
