"""Write a :class:`~gpupool.cluster.Snapshot` as a snapshot directory, atomically (temp dir + rename).

The files are what kubectl prints (``{"apiVersion": "v1", "items": [...], "kind": "List"}``, each item
with its ``kind``), so ``doctor --snapshot`` and ``simulate --snapshot`` read them back unchanged. Secrets
are never written; ConfigMaps only from kube-system and the GPU stack's namespaces. Items lose
``metadata.managedFields``; the JSON is compact. Node Auto Provisioning's NodeClaims and NodePools go to
``nodeclaims.json`` and ``karpenter-nodepools.json`` (:data:`~gpupool.cluster.snapshot.KARPENTER_FILES`;
``nodepools.json`` is az's list of agent pools) when the cluster serves them. meta.json keeps the notes, their
causes, the kinds that could not be read (their files are written empty or not at all, so doctor must not take
them for "none") and the optional APIs the cluster does not serve (``notInstalled``).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from gpupool.cluster.live import gpu_namespaces
from gpupool.cluster.snapshot import Snapshot, log_file_name
from gpupool.errors import InputError

_KINDS = {
    "nodes.json": ("v1", "Node"),
    "pods.json": ("v1", "Pod"),
    "daemonsets.json": ("apps/v1", "DaemonSet"),
    "events.json": ("v1", "Event"),
    "configmaps.json": ("v1", "ConfigMap"),
    "clusterpolicies.json": ("nvidia.com/v1", "ClusterPolicy"),
    "nodeclaims.json": ("karpenter.sh/v1", "NodeClaim"),
    "karpenter-nodepools.json": ("karpenter.sh/v1", "NodePool"),
}


def _list(items: list[dict], api_version: str, kind: str) -> dict[str, Any]:
    out = []
    for item in items:
        if item.get("kind") not in (None, kind):
            continue  # never a Secret or anything else in a file of another kind
        meta = item.get("metadata")
        if isinstance(meta, dict) and "managedFields" in meta:  # a third of a pod's bytes; nothing reads it
            item = {**item, "metadata": {k: v for k, v in meta.items() if k != "managedFields"}}
        out.append({"apiVersion": item.get("apiVersion") or api_version, "kind": kind, **item})
    return {"apiVersion": "v1", "items": out, "kind": "List", "metadata": {"resourceVersion": ""}}


def write_snapshot(snap: Snapshot, directory: str | Path) -> Path:
    target = Path(directory)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InputError(
            str(directory), None, "already exists; --collect writes a new directory", "choose a new name"
        )
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(str(directory), None, "its parent directory does not exist")
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
    try:
        allowed = set(gpu_namespaces(snap.pods, snap.daemonsets))
        files = {
            "nodes.json": snap.nodes,
            "pods.json": snap.pods,
            "daemonsets.json": snap.daemonsets,
            "events.json": snap.events,
            "configmaps.json": None
            if snap.configmaps is None
            else [c for c in snap.configmaps if (c.get("metadata") or {}).get("namespace") in allowed],
            "clusterpolicies.json": snap.clusterpolicies,
            "nodeclaims.json": snap.nodeclaims,
            "karpenter-nodepools.json": snap.karpenter_nodepools,
        }
        for name, items in files.items():
            if items is None:
                continue
            api_version, kind = _KINDS[name]
            _write_json(tmp / name, _list(items, api_version, kind))
        if snap.nodepools is not None:
            _write_json(tmp / "nodepools.json", snap.nodepools)
        meta = dict(snap.meta or {})
        meta["notes"] = list(snap.notes)
        if snap.unread:
            meta["unread"] = dict(snap.unread)  # an unread kind's file is written empty: doctor must know
        if snap.causes:
            meta["noteCauses"] = dict(snap.causes)
        _write_json(tmp / "meta.json", meta)
        if snap.logs:
            (tmp / "logs").mkdir()
            for key, text in sorted(snap.logs.items()):
                (tmp / "logs" / log_file_name(key)).write_text(text, encoding="utf-8", errors="replace")
        if target.exists():
            target.rmdir()  # empty (checked above)
        os.replace(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target


def _write_json(path: Path, doc: Any) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        # compact: indentation made a 20,000-pod pods.json a third larger, towards the reader's limit
        json.dump(doc, fh, separators=(",", ":"), ensure_ascii=False)
        fh.write("\n")
