"""Node Auto Provisioning (Karpenter) in the snapshot, for GP690-GP692 (not a rule: the registry skips ``_``
modules): the facts of ``data/nap.yaml``, NodeClaim conditions, Karpenter's events and NodePools as gpupool's
NAP model reads them."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any
from weakref import WeakKeyDictionary

import yaml

from gpupool.doctor.context import Context
from gpupool.doctor.view import event_message, event_time
from gpupool.errors import InputError
from gpupool.k8s.taints import untolerated

# one Context -> its GPU NodePools (GP610 asks per Pending workload, GP692 once)
_GPU_POOLS: WeakKeyDictionary[Context, tuple[list[tuple[Any, set[str]]], list[str]]] = WeakKeyDictionary()


@cache
def facts() -> dict[str, Any]:
    text = resources.files("gpupool.doctor").joinpath("data/nap.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def nap_in_use(ctx: Context) -> bool:
    """Signs of NAP: a node or event of Karpenter's."""
    for n in ctx.view.nodes:
        labels = (n.obj.get("metadata") or {}).get("labels")
        if isinstance(labels, dict) and "karpenter.sh/nodepool" in labels:
            return True
    return any(_component(e) == facts()["events"]["component"] for e in ctx.view.snap.events)


def _component(e: dict) -> str:
    src = e.get("source")
    comp = src.get("component") if isinstance(src, dict) else None
    return str(comp or e.get("reportingComponent") or "")


def condition(obj: dict, type_: str) -> dict | None:
    conds = (obj.get("status") or {}).get("conditions")
    for c in conds if isinstance(conds, list) else []:
        if isinstance(c, dict) and c.get("type") == type_:
            return c
    return None


def karpenter_events(ctx: Context, pod: dict) -> list[dict]:
    """Karpenter's events on the pod, oldest first."""
    m = pod.get("metadata") or {}
    evs = ctx.view.events_for("Pod", str(m.get("namespace") or ""), str(m.get("name") or ""))
    comp = facts()["events"]["component"]
    return sorted((e for e in evs if _component(e) == comp), key=event_time)


def last_words(events: list[dict], reason: str) -> str | None:
    msgs = [event_message(e) for e in events if e.get("reason") == reason]
    return msgs[-1] if msgs else None


def node_pools(ctx: Context) -> tuple[list[Any], list[str]]:
    """The karpenter.sh NodePools of the snapshot as gpupool's model (NodePool), and the names it could not
    read (its reader follows the CRD strictly; the API server accepted them: skipped, not errors)."""
    from gpupool.nap.load import parse_document

    out, skipped = [], []
    for obj in ctx.view.snap.karpenter_nodepools or []:
        name = str((obj.get("metadata") or {}).get("name") or "?")
        data = {k: v for k, v in obj.items() if k in ("apiVersion", "kind", "metadata", "spec")}
        data["metadata"] = {"name": name}
        try:
            out.append(parse_document(data, "karpenter-nodepools.json"))
        except InputError:
            skipped.append(name)
    return out, skipped


def gpu_node_pools(ctx: Context) -> tuple[list[tuple[Any, set[str]]], list[str]]:
    """The NodePools that admit a GPU size, each with the GPU resources its admitted sizes advertise, and
    the names of the NodePools that could not be read (see :func:`node_pools`)."""
    if ctx in _GPU_POOLS:
        return _GPU_POOLS[ctx]
    from gpupool.nap.sizes import admitted

    pools, skipped = node_pools(ctx)
    out = []
    for pool in pools:
        a = admitted(pool, None)
        adv = {k for s in a.gpu for k in s.advertised()}
        if adv or any(s.manufacturer for s in a.maybe):
            out.append((pool, adv))
    _GPU_POOLS[ctx] = (out, skipped)
    return out, skipped


def why_not(pool: Any, pod: dict, requests: dict[str, int], advertised: set[str]) -> str | None:
    """Why Karpenter would not create a node of ``pool`` for ``pod`` (its taints, then its requirements,
    then the GPU resources its sizes advertise, as Karpenter's scheduler checks them); None: compatible."""
    from gpupool.simulate.nap.requirements import incompatible, pod_requirement_sets, pool_requirements

    spec = pod.get("spec") or {}
    bad = untolerated(pool.taints, spec.get("tolerations"))
    if bad:
        return f"taint {bad[0]} not tolerated"
    reqs = pool_requirements(pool, None)
    whys = [incompatible(reqs, alt) for alt in pod_requirement_sets(spec)]
    if all(w is not None for w in whys):
        return f"requirements: {whys[0]}"
    missing = sorted(set(requests) - advertised)
    if missing:
        return f"no admitted size advertises {', '.join(missing)}"
    return None


def compatible_pools(ctx: Context, pod: dict, requests: dict[str, int]) -> list[str]:
    """The GPU NodePools Karpenter could create a node from for ``pod`` (none without the NodePools)."""
    if ctx.view.snap.karpenter_nodepools is None:
        return []
    pools, _ = gpu_node_pools(ctx)
    return [pool.name for pool, adv in pools if why_not(pool, pod, requests, adv) is None]
