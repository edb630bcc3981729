"""The changes against the current state (``--current``): diff's change table and the runbook's steps."""

from __future__ import annotations

from typing import Any


def diff_views(diffs: list[Any]) -> list[dict[str, Any]]:
    """Per diffed pool: the change table and, when a new pool is needed, the runbook's main steps."""
    out = []
    for d in diffs:
        changes = []
        for c in d.changes:
            cd = c.to_dict()
            changes.append({
                "field": c.field,
                "from": _show(cd["from"]),
                "to": _show(cd["to"]),
                "action": c.action,
                "reason": cd["reason"],
                "source": f"{cd['source']} (as of {cd['asOf']})",
                "command": cd.get("command") or "",
                "note": cd.get("note") or "",
            })
        steps = []
        if d.requires_new_pool and d.migration is not None:
            # diff's commands() are the migration's main steps, in order, spelled as the runbook runs them
            for argv, command in zip(d.migration.main_argvs(), d.commands(), strict=True):
                steps.append({"what": _step_title(argv), "command": command})
        out.append({
            "pool": d.target.name,
            "cluster": d.target.cluster_name,
            "new_pool": d.migration.new.name if d.migration is not None else None,
            "recreate": d.requires_new_pool,
            "changes": changes,
            "commands": [] if d.requires_new_pool else d.commands(),
            "steps": steps,
            "not_compared": list(d.not_compared),
        })
    return out


def _show(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return ", ".join(f"{k}={_show(v)}" for k, v in value.items()) or "(none)"
    if isinstance(value, list | tuple):
        return ", ".join(_show(v) for v in value) or "(none)"
    return str(value)


def _step_title(argv: list[str]) -> str:
    words = " ".join(argv[:4])
    if words.startswith("az aks nodepool add"):
        return "Create the new pool"
    if argv[:2] == ["kubectl", "wait"]:
        cond = next((a for a in argv if a.startswith("--for=")), "")
        if "jsonpath" in cond:
            return "Wait until the new nodes advertise their GPUs"
        return "Wait for the new nodes to be Ready"
    if "--disable-cluster-autoscaler" in argv:
        return "Turn the old pool's autoscaler off"
    if argv[:2] == ["kubectl", "cordon"]:
        return "Cordon the old pool"
    if argv[:2] == ["kubectl", "drain"]:
        return "Drain the old pool (PodDisruptionBudgets respected)"
    if words.startswith("az aks nodepool scale"):
        return "Scale the old pool to zero"
    if words.startswith("az aks nodepool delete"):
        return "Delete the old pool"
    return " ".join(argv[:3])
