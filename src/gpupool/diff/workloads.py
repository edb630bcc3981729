"""Which workloads rely on a pool, and whether they would follow it to a replacement pool.

Kubernetes semantics come from :mod:`gpupool.k8s` (nodeSelector / required node affinity, taints vs
tolerations, effective requests) and :mod:`gpupool.design.node` (the labels and GPU resources a pool's
nodes have), the same code ``gpupool lint`` and ``simulate`` use. A workload *relies on* the old pool when
it can run there and either needs a GPU resource the pool advertises, targets it with nodeSelector /
node affinity, or tolerates one of its hard taints by key (a GPU add-on such as the device plugin).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from gpupool import yamlio
from gpupool.design.node import advertised, is_gpu_resource, node_labels
from gpupool.diff import adapters
from gpupool.errors import InputError, safe_text
from gpupool.k8s.affinity import matches_node, required_terms
from gpupool.k8s.podspecs import pod_templates
from gpupool.k8s.quantity import format_quantity
from gpupool.k8s.resources import extended, pod_requests
from gpupool.k8s.runtimes import Runtimes
from gpupool.k8s.taints import HARD_EFFECTS, format_toleration, untolerated
from gpupool.k8s.workloads import Workload, iter_objects
from gpupool.spec.model import API_VERSION, PoolSpec

POOL_NAME_LABELS = ("kubernetes.azure.com/agentpool", "agentpool")
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass(frozen=True)
class Located:
    workload: Workload
    path: str
    line: int
    root: Any = None  # the YAML document the object came from (for lint's file:line)
    base: tuple = ()  # the object's path inside ``root``


@dataclass(frozen=True)
class Follow:
    """One workload judged against the old pool and its replacement."""

    item: Located
    runs_on_old: bool
    relies_on_old: bool
    problems: tuple[str, ...]  # why it would not run on the new pool (empty: it follows)
    fixes: tuple[str, ...]
    kinds: tuple[str, ...] = ()  # per problem: selector | pinned | taint | resource | bare-pod

    @property
    def workload(self) -> Workload:
        return self.item.workload

    @property
    def ref(self) -> str:
        """``Kind namespace/name``, with the pod template's role for objects that have several."""
        w = self.item.workload
        if not w.role:
            return w.ref
        meta = w.obj.get("metadata") if isinstance(w.obj.get("metadata"), dict) else {}
        name = meta.get("name") or w.name  # the object's name (w.name carries the role for pod names)
        return w.with_role(f"{w.kind} {w.namespace}/{safe_text(name, 120)}")

    @property
    def follows(self) -> bool:
        return not self.problems


# ---- loading -------------------------------------------------------------------------------------


def _files(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in MANIFEST_SUFFIXES)
    return [path]


def load_workloads(paths: Iterable[str | Path]) -> list[Located]:
    """Workloads from manifest files or directories: one per pod template, found as lint and simulate find
    them (:func:`gpupool.k8s.podspecs.pod_templates`: built-in kinds and workload custom resources such as
    PyTorchJob or RayCluster, one per role); other objects are skipped.

    Bad YAML raises InputError (file:line). Binary files inside a directory are skipped.
    """
    out: list[Located] = []
    runtimes = Runtimes()
    pending: list[tuple[dict, Any, tuple, str, int | None]] = []
    for given in paths:
        p = Path(given)
        if str(given) != "-" and not p.exists():
            raise InputError(str(given), None, "no such file or directory")
        files = [p] if str(given) == "-" else _files(p)
        for f in files:
            try:
                docs = yamlio.load_file(f)
            except yamlio.BinaryFileError:
                if p.is_dir():
                    continue
                raise
            for doc in docs:
                if not isinstance(doc.data, dict) or doc.data.get("apiVersion") == API_VERSION:
                    continue
                for obj, where in iter_objects(doc.data):
                    runtimes.add(obj)
                    pending.append((obj, doc, tuple(where), doc.path, doc.line))
    # Pod templates once every file is read (a TrainJob's runtime may be in another file: k8s/runtimes).
    for obj, doc, where, path, doc_line in pending:
        found = pod_templates(obj, runtimes or None)
        if not found:
            continue
        pos = yamlio.locate(doc.data, where) if where else None
        line = pos[0] if pos else doc_line
        for w in found:
            out.append(Located(w, path, line, doc.data, where))
    return out


# ---- judging -------------------------------------------------------------------------------------


def gpu_requests(w: Workload) -> dict[str, Fraction]:
    return {k: v for k, v in extended(pod_requests(w.pod_spec)).items() if is_gpu_resource(k)}


def _tolerations(w: Workload) -> list:
    tols = w.pod_spec.get("tolerations")
    return tols if isinstance(tols, list) else []


def _targets_by_key(w: Workload, pool: PoolSpec) -> bool:
    """A toleration naming one of the pool's hard taints by key (not the tolerate-everything wildcard)."""
    keys = {t.key for t in pool.effective_taints if t.effect in HARD_EFFECTS}
    return any(isinstance(t, dict) and t.get("key") in keys for t in _tolerations(w))


def _has_node_targeting(w: Workload) -> bool:
    sel = w.pod_spec.get("nodeSelector")
    return (isinstance(sel, dict) and bool(sel)) or required_terms(w.pod_spec) is not None


_SELECTOR_PROBLEM = "its nodeSelector/required node affinity does not match the pool's node labels"


def problems_on(
    w: Workload, pool: PoolSpec, labels: dict[str, str] | None = None
) -> tuple[list[str], list[str], list[str]]:
    """Why pods of ``w`` would not run on nodes of ``pool``, the fixes and the kind of each problem."""
    labels = node_labels(pool) if labels is None else labels
    problems: list[str] = []
    fixes: list[str] = []
    kinds: list[str] = []
    if not matches_node(w.pod_spec, labels):
        problems.append(_SELECTOR_PROBLEM)
        fixes.append("select a label the pool's nodes carry")
        kinds.append("selector")
    for taint in untolerated(pool.effective_taints, _tolerations(w)):
        problems.append(f"it does not tolerate taint {taint}")
        fixes.append(f"add toleration {format_toleration(taint)}")
        kinds.append("taint")
    adv = advertised(pool).resources
    for name, qty in gpu_requests(w).items():
        have = adv.get(name)
        if have is None:
            offer = ", ".join(f"{k}: {v}" for k, v in adv.items()) or "no GPU resources"
            problems.append(f"it requests {name} but the pool's nodes advertise {offer}")
            fixes.append("request a resource the pool advertises")
            kinds.append("resource")
        elif qty > have:
            problems.append(f"it requests {format_quantity(qty)} {name} but each node advertises {have}")
            fixes.append(f"request at most {have} {name} per pod")
            kinds.append("resource")
    return problems, fixes, kinds


def judge(items: Iterable[Located], old: PoolSpec, new: PoolSpec) -> list[Follow]:
    """Each workload against the old pool and the new one (``new`` already carries its new name)."""
    out: list[Follow] = []
    old_labels = node_labels(old)
    new_labels = node_labels(new)
    # The new pool's labels with the old pool's name: tells "pinned to the old name" from other mismatches.
    renamed = {**new_labels, **{k: old.name for k in POOL_NAME_LABELS}}
    for item in items:
        w = item.workload
        if w.placement:
            # where its pods go is decided elsewhere (an operator's own nodes, a training runtime): not judged
            out.append(Follow(item, False, False, (), ()))
            continue
        on_old, _, _ = problems_on(w, old, old_labels)
        runs_on_old = not on_old
        relies = runs_on_old and (bool(gpu_requests(w)) or _has_node_targeting(w) or _targets_by_key(w, old))
        problems, fixes, kinds = problems_on(w, new, new_labels)
        if "selector" in kinds and new.name != old.name and matches_node(w.pod_spec, renamed):
            i = kinds.index("selector")
            problems[i] = (
                f"it is pinned to the old pool name {old.name} "
                f"(nodeSelector/affinity on {' or '.join(POOL_NAME_LABELS)})"
            )
            fixes[i] = (
                f"select the new pool ({POOL_NAME_LABELS[0]}: {new.name}) or a label both pools carry "
                "(e.g. a nodeLabels entry)"
            )
            kinds[i] = "pinned"
        if relies and not problems and gpu_requests(w):
            # Cross-check with lint's placement rules (same gpupool.k8s semantics, one more pair of eyes).
            lint = adapters.lint_will_not_follow(w, new, item.path, item.root, item.base)
            for msg in lint:
                problems.append(f"lint {msg}")
                fixes.append("see gpupool lint for the fix")
                kinds.append("lint")
        if relies and w.kind == "Pod" and new.name != old.name:
            problems.append(
                "it is a bare Pod: nothing recreates it elsewhere and kubectl drain refuses to evict it "
                "(only --force would delete it)"
            )
            fixes.append(
                "run it from a Deployment, StatefulSet or Job, or delete it and recreate it on the new pool"
            )
            kinds.append("bare-pod")
        out.append(Follow(item, runs_on_old, relies, tuple(problems), tuple(fixes), tuple(kinds)))
    return out


def selector_of(w: Workload) -> tuple[str, str] | None:
    """How to find the workload's pods: (``-l``, ``k=v,...``) or (``--field-selector``, ``metadata.name=x``).
    """
    if w.kind == "Pod":
        return ("--field-selector", f"metadata.name={w.name}")
    spec = w.obj.get("spec") if isinstance(w.obj.get("spec"), dict) else {}
    sel = spec.get("selector")
    labels = None
    if isinstance(sel, dict) and isinstance(sel.get("matchLabels"), dict) and sel["matchLabels"]:
        labels = sel["matchLabels"]
    elif isinstance(sel, dict) and sel and w.kind == "ReplicationController" and "matchLabels" not in sel:
        labels = sel
    if not labels:
        meta = w.pod_metadata.get("labels")
        labels = meta if isinstance(meta, dict) and meta else None
    if not labels:
        return None
    return ("-l", ",".join(f"{k}={v}" for k, v in labels.items()))


def renamed_pool(pool: PoolSpec, name: str) -> PoolSpec:
    return replace(pool, name=name)
