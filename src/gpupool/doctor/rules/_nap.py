"""Node Auto Provisioning (Karpenter) in the snapshot, for GP690-GP692 (not a rule: the registry skips ``_``
modules): the facts of ``data/nap.yaml``, NodeClaim conditions, Karpenter's events and NodePools as gpupool's
NAP model reads them."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml

from gpupool.doctor.context import Context
from gpupool.doctor.view import event_message, event_time
from gpupool.errors import InputError


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
