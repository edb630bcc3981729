"""Read a snapshot directory: what ``kubectl get ... -o json`` and ``az aks nodepool list -o json`` print.

Every file is bounded (:data:`MAX_JSON_BYTES`, :data:`MAX_LOG_BYTES`), must be a regular file, and must hold
what its command prints: a ``List`` (or ``<Kind>List``) whose items are of the expected kind. Anything else is
an :class:`~gpupool.errors.InputError` naming the file (exit 2). Logs keep their last bytes only and are
decoded with replacement characters, so any bytes are readable.
"""

from __future__ import annotations

import gc
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from gpupool.cluster import shapes
from gpupool.errors import InputError, safe_text

MAX_JSON_BYTES = 768 * 2**20  # a 50,000-pod `kubectl get pods -A -o json` is a few hundred MB
MAX_LOG_BYTES = 1 * 2**20  # per log file: the tail is what matters
MAX_LOG_FILES = 2000


class LogKey(NamedTuple):
    namespace: str
    pod: str
    container: str
    previous: bool


@dataclass(frozen=True)
class SnapshotFile:
    name: str
    command: str  # the command that makes it by hand ({context} is replaced by " --context X" or "")
    kind: str | None  # the item kind; None for nodepools.json and meta.json
    required: bool


SNAPSHOT_FILES: tuple[SnapshotFile, ...] = (
    SnapshotFile("nodes.json", "kubectl{context} get nodes -o json", "Node", True),
    SnapshotFile("pods.json", "kubectl{context} get pods -A -o json", "Pod", True),
    SnapshotFile("daemonsets.json", "kubectl{context} get daemonsets -A -o json", "DaemonSet", True),
    SnapshotFile("events.json", "kubectl{context} get events -A -o json", "Event", True),
    SnapshotFile("configmaps.json", "kubectl{context} get configmaps -A -o json", "ConfigMap", False),
    SnapshotFile(
        "clusterpolicies.json",
        "kubectl{context} get clusterpolicies.nvidia.com -o json",
        "ClusterPolicy",
        False,
    ),
    SnapshotFile(
        "nodepools.json", "az aks nodepool list -g RESOURCE_GROUP --cluster-name CLUSTER -o json", None, False
    ),
)


@dataclass(frozen=True)
class Snapshot:
    source: str  # the directory, or "context NAME" for a live cluster
    nodes: list[dict]
    pods: list[dict]
    daemonsets: list[dict]
    events: list[dict]
    configmaps: list[dict] | None  # None: the file was absent (or the read was not possible)
    clusterpolicies: list[dict] | None
    nodepools: list[dict] | None
    logs: dict[LogKey, str] = field(default_factory=dict)
    meta: dict | None = None
    notes: list[str] = field(default_factory=list)  # what could not be read; doctor reports them as info
    # kinds not read (READABLE_KINDS) -> the note saying why; a rule that reads one does not conclude
    unread: dict[str, str] = field(default_factory=dict)
    # note -> its cause (forbidden, not-found, gone, server-error, timeout, skipped, budget, partial)
    causes: dict[str, str] = field(default_factory=dict)
    # Node Auto Provisioning (Karpenter): NodeClaims and karpenter.sh NodePools; None: the file was absent
    nodeclaims: list[dict] | None = None
    karpenter_nodepools: list[dict] | None = None


# what a doctor rule may declare it reads (READS); "logs" are the GPU stack's pod logs
READABLE_KINDS = (
    "nodes",
    "pods",
    "daemonsets",
    "events",
    "configmaps",
    "clusterpolicies",
    "logs",
    "nodeclaims",
    "karpenternodepools",
)

# Optional files of clusters with Node Auto Provisioning (--collect writes them when the cluster serves
# karpenter.sh/v1; --print-commands prints their kubectl commands). Karpenter's NodePools get their own name:
# nodepools.json is az's list of agent pools.
KARPENTER_FILES: tuple[SnapshotFile, ...] = (
    SnapshotFile(
        "nodeclaims.json", "kubectl{context} get nodeclaims.karpenter.sh -o json", "NodeClaim", False
    ),
    SnapshotFile(
        "karpenter-nodepools.json", "kubectl{context} get nodepools.karpenter.sh -o json", "NodePool", False
    ),
)


def log_file_name(key: LogKey) -> str:
    return f"{key.namespace}_{key.pod}_{key.container}{'.previous' if key.previous else ''}.log"


def parse_log_name(file_name: str) -> LogKey | None:
    """``<namespace>_<pod>_<container>[.previous].log`` -> LogKey; None when the name is not of that form.

    Namespace, pod and container names are DNS labels/subdomains, so none of them holds ``_``.
    """
    if not file_name.endswith(".log"):
        return None
    stem = file_name[: -len(".log")]
    previous = stem.endswith(".previous")
    if previous:
        stem = stem[: -len(".previous")]
    parts = stem.split("_")
    if len(parts) != 3 or not all(parts):
        return None
    return LogKey(parts[0], parts[1], parts[2], previous)


def _read_bounded(path: Path, shown: str, limit: int) -> bytes:
    try:
        st = os.stat(path)
    except OSError as e:
        raise InputError(shown, None, f"cannot read: {e.strerror or e}") from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(shown, None, "not a regular file")
    if st.st_size > limit:
        raise InputError(
            shown,
            None,
            f"file is {st.st_size / 2**20:,.0f} MiB, over the {limit // 2**20} MiB limit for a snapshot file",
            "collect a smaller scope, e.g. one namespace, or check that this is the right file",
        )
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as e:
        raise InputError(shown, None, f"cannot read: {e.strerror or e}") from None
    if len(data) > limit:
        raise InputError(shown, None, f"file grew over the {limit // 2**20} MiB limit while reading")
    return data


def _json(path: Path, shown: str) -> Any:
    data = _read_bounded(path, shown, MAX_JSON_BYTES)
    if not data.strip():
        raise InputError(shown, None, "file is empty", "re-run the command that makes it")
    collecting = gc.isenabled()
    gc.disable()  # JSON makes no reference cycles; collecting during a 400 MB parse only costs time
    try:
        # bytes in: json detects UTF-8 (with or without BOM) and the UTF-16 PowerShell 5's `>` writes
        return json.loads(data)
    except UnicodeDecodeError:
        raise InputError(shown, None, "not UTF-8 text (is this a JSON file?)") from None
    except json.JSONDecodeError as e:
        what = "truncated JSON" if e.pos >= len(e.doc.rstrip()) else "not valid JSON"
        raise InputError(
            shown, e.lineno, f"{what}: {e.msg} (column {e.colno})", "re-run the command"
        ) from None
    except RecursionError:
        raise InputError(shown, None, "JSON nested too deeply") from None
    finally:
        if collecting:
            gc.enable()


def list_items(doc: Any, shown: str, kind: str, command: str) -> list[dict]:
    """The items of a ``kubectl get -o json`` List of ``kind``; InputError when it is something else."""
    hint = f"make it with: {command}"
    if not isinstance(doc, dict):
        got = "a JSON array" if isinstance(doc, list) else f"a JSON {type(doc).__name__}"
        raise InputError(shown, 1, f"expected a {kind}List (kubectl get -o json), got {got}", hint)
    got_kind = doc.get("kind")
    if got_kind not in ("List", f"{kind}List"):
        if got_kind == kind:
            raise InputError(shown, 1, f"expected a {kind}List, got a single {kind}", f"list them: {command}")
        raise InputError(
            shown,
            1,
            f"expected a {kind}List, got kind {safe_text(got_kind)!s}"
            if got_kind
            else f"expected a {kind}List, got an object without kind",
            hint,
        )
    items = doc.get("items")
    if items is None:
        return []
    if not isinstance(items, list):
        raise InputError(shown, 1, f"items of the {kind}List is not a list", hint)
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise InputError(shown, None, f"item {i} of the {kind}List is not an object", hint)
        bad = shapes.problem(kind, item)
        if bad:
            raise InputError(shown, None, f"item {i} of the {kind}List: {bad}", hint)
        ik = item.get("kind")
        if ik is not None and ik != kind:
            raise InputError(
                shown, None, f"item {i} is a {safe_text(ik)}, expected {kind} (is this the right file?)", hint
            )
    return items


def _nodepools(doc: Any, shown: str, command: str) -> list[dict]:
    pools = doc if isinstance(doc, list) else [doc]
    for i, p in enumerate(pools):
        bad = shapes.problem("NodePool", p) if isinstance(p, dict) else None
        if bad:
            raise InputError(shown, None, f"entry {i}: {bad}", f"make it with: {command}")
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise InputError(
                shown, None, f"entry {i} is not an AKS node pool (no name)", f"make it with: {command}"
            )
    return pools


def _read_logs(root: Path, shown: str, notes: list[str]) -> dict[LogKey, str]:
    logs: dict[LogKey, str] = {}
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError as e:
        notes.append(f"could not read {shown}: {e.strerror or e}")
        return logs
    for entry in entries:
        if len(logs) >= MAX_LOG_FILES:
            notes.append(f"{shown}: only the first {MAX_LOG_FILES} log files were read")
            break
        key = parse_log_name(entry.name)
        if key is None:
            notes.append(
                f"{shown}/{safe_text(entry.name)}: "
                "not named <namespace>_<pod>_<container>[.previous].log; skipped"
            )
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                notes.append(f"{shown}/{safe_text(entry.name)}: not a regular file; skipped")
                continue
            with open(entry.path, "rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                if size > MAX_LOG_BYTES:
                    fh.seek(size - MAX_LOG_BYTES)
                    data = fh.read(MAX_LOG_BYTES)
                    data = data[data.find(b"\n") + 1 :]  # drop the cut line
                else:
                    data = fh.read(MAX_LOG_BYTES)
        except OSError as e:
            notes.append(f"could not read {shown}/{safe_text(entry.name)}: {e.strerror or e}")
            continue
        logs[key] = data.decode("utf-8", errors="replace")
    return logs


def read_snapshot(path: str | Path) -> Snapshot:
    """Read a snapshot directory (see :data:`SNAPSHOT_FILES`); InputError (exit 2) when it is unusable."""
    root = Path(path)
    shown_root = str(path)
    if not root.is_dir():
        raise InputError(
            shown_root,
            None,
            "not a directory" if root.exists() else "no such snapshot directory",
            "make one with: gpupool doctor --collect DIR, or see: gpupool doctor --print-commands",
        )
    read: dict[str, Any] = {}
    notes: list[str] = []
    unread: dict[str, str] = {}
    causes: dict[str, str] = {}
    for f in SNAPSHOT_FILES:
        p = root / f.name
        shown = str(Path(shown_root) / f.name)
        command = f.command.format(context="")
        if not p.exists() and not p.is_symlink():
            if f.required:
                raise InputError(
                    shown, None, "required snapshot file is missing", f"make it with: {command} > {f.name}"
                )
            read[f.name] = None
            continue
        doc = _json(p, shown)
        if f.kind is None:
            read[f.name] = _nodepools(doc, shown, command)
        else:
            read[f.name] = list_items(doc, shown, f.kind, command)
    for f in KARPENTER_FILES:
        p = root / f.name
        if p.exists() or p.is_symlink():
            shown = str(Path(shown_root) / f.name)
            read[f.name] = list_items(_json(p, shown), shown, f.kind or "", f.command.format(context=""))
    meta = None
    meta_path = root / "meta.json"
    if meta_path.exists():
        meta = _json(meta_path, str(Path(shown_root) / "meta.json"))
        if not isinstance(meta, dict):
            raise InputError(str(Path(shown_root) / "meta.json"), 1, "expected a JSON object")
        for n in meta.get("notes") or []:
            if isinstance(n, str):
                notes.append(n)
        unread = {
            k: v
            for k, v in (meta.get("unread") if isinstance(meta.get("unread"), dict) else {}).items()
            if k in READABLE_KINDS and isinstance(v, str)
        }
        causes = {
            k: v
            for k, v in (meta.get("noteCauses") if isinstance(meta.get("noteCauses"), dict) else {}).items()
            if isinstance(k, str) and isinstance(v, str)
        }
    logs: dict[LogKey, str] = {}
    if (root / "logs").is_dir():
        logs = _read_logs(root / "logs", str(Path(shown_root) / "logs"), notes)
    return Snapshot(
        source=shown_root,
        nodes=read["nodes.json"],
        pods=read["pods.json"],
        daemonsets=read["daemonsets.json"],
        events=read["events.json"],
        configmaps=read["configmaps.json"],
        clusterpolicies=read["clusterpolicies.json"],
        nodepools=read["nodepools.json"],
        logs=logs,
        meta=meta,
        notes=notes,
        unread=unread,
        causes=causes,
        nodeclaims=read.get("nodeclaims.json"),
        karpenter_nodepools=read.get("karpenter-nodepools.json"),
    )
