"""Pod templates from every workload kind, how many pods each makes, and ``kind: List`` expansion."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gpupool.errors import safe_text

TEMPLATE = ("spec", "template")
POD_TEMPLATE_PATHS: dict[str, tuple[str, ...]] = {
    # kind -> path to the pod *template* object (metadata + spec); Pod is its own template.
    "Pod": (),
    "Deployment": TEMPLATE,
    "ReplicaSet": TEMPLATE,
    "StatefulSet": TEMPLATE,
    "DaemonSet": TEMPLATE,
    "Job": TEMPLATE,
    "ReplicationController": TEMPLATE,
    "CronJob": ("spec", "jobTemplate", "spec", "template"),
}
WORKLOAD_KINDS = tuple(POD_TEMPLATE_PATHS)
# API group of each workload kind: a custom resource with the same kind name (Volcano's batch.volcano.sh Job)
# is not a workload of this shape.
WORKLOAD_GROUPS: dict[str, str] = {
    "Pod": "",
    "ReplicationController": "",
    "Deployment": "apps",
    "ReplicaSet": "apps",
    "StatefulSet": "apps",
    "DaemonSet": "apps",
    "Job": "batch",
    "CronJob": "batch",
}


def is_builtin_workload(obj: Any) -> bool:
    """True when ``obj`` is one of the built-in workload kinds in its own API group (apiVersion checked)."""
    if not isinstance(obj, dict):
        return False
    kind, api = obj.get("kind"), obj.get("apiVersion")
    if kind not in WORKLOAD_GROUPS or not isinstance(api, str):
        return False
    group = api.rpartition("/")[0]
    # extensions/v1beta1 served Deployments, DaemonSets and ReplicaSets until Kubernetes 1.16.
    return group == WORKLOAD_GROUPS[kind] or (
        group == "extensions" and kind in ("Deployment", "DaemonSet", "ReplicaSet")
    )


@dataclass(frozen=True)
class Workload:
    kind: str
    name: str
    namespace: str
    api_version: str
    obj: dict
    template: dict  # the pod template (or the Pod itself): has "metadata" and "spec"
    template_path: tuple[str, ...]
    pod_spec: dict
    pod_spec_path: tuple[str, ...]
    replicas: int | None  # pods this workload makes; None for a DaemonSet (one per eligible node)
    role: str = ""  # which pod template of the object ("Worker", a Ray worker group...); "" when only one
    placement: str = ""  # "" | operator | runtime (gpupool.k8s.podspecs: who decides where the pods go)
    remap: tuple = ()  # ((path in pod_spec, path in obj), ...) where pod_spec is assembled from parts
    unresolved: str = ""  # the object this pod's placement comes from, when it is not among the inputs

    @property
    def ref(self) -> str:
        return f"{self.kind} {self.namespace}/{self.name}"

    def with_role(self, ref: str) -> str:
        """``ref`` with the pod template's role for objects that have several (``Kind ns/name (Worker)``):
        the one place lint's findings and diff's workloads name a role."""
        return f"{ref} ({safe_text(self.role, 60)})" if self.role else ref

    def source_path(self, rel: tuple) -> tuple:
        """Where a path relative to the object really is (differs only for assembled pod specs)."""
        if not self.remap:
            return rel
        n = len(self.pod_spec_path)
        if tuple(rel[:n]) != tuple(self.pod_spec_path):
            return rel
        inner = tuple(rel[n:])
        for src, dst in self.remap:
            if inner[: len(src)] == src:
                return (*dst, *inner[len(src) :])
        return rel

    @property
    def pod_metadata(self) -> dict:
        meta = self.template.get("metadata")
        return meta if isinstance(meta, dict) else {}

    @property
    def annotations(self) -> dict:
        """Annotations of the object and of its pod template (the template's win)."""
        out: dict = {}
        for meta in (self.obj.get("metadata"), self.pod_metadata):
            if isinstance(meta, dict) and isinstance(meta.get("annotations"), dict):
                out.update(meta["annotations"])
        return out


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else default


def get_path(obj: Any, path: tuple[str, ...]) -> Any:
    """The value at ``path`` (keys) inside nested mappings, or None where one is missing."""
    for step in path:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(step)
    return obj


def pod_count(kind: str, obj: dict) -> int | None:
    spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else {}
    if kind == "Pod":
        return 1
    if kind == "DaemonSet":
        return None
    if kind in ("Deployment", "ReplicaSet", "StatefulSet", "ReplicationController"):
        return _int(spec.get("replicas"), 1)
    return job_pods(spec if kind == "Job" else get_path(obj, ("spec", "jobTemplate", "spec")))


def job_pods(job: Any) -> int:
    """Pods a Job spec runs at once: min(parallelism (default 1), completions when set)."""
    job = job if isinstance(job, dict) else {}
    parallelism = _int(job.get("parallelism"), 1)
    completions = job.get("completions")
    if isinstance(completions, int) and not isinstance(completions, bool) and completions >= 0:
        return min(parallelism, completions)
    return parallelism


def workload_of(obj: Any) -> Workload | None:
    """The Workload view of a manifest object, or None when it has no pod template."""
    if not isinstance(obj, dict):
        return None
    kind = obj.get("kind")
    if kind not in POD_TEMPLATE_PATHS:
        return None
    if "apiVersion" in obj and not is_builtin_workload(obj):
        return None  # same kind name in another API group (e.g. Volcano's batch.volcano.sh Job)
    tpath = POD_TEMPLATE_PATHS[kind]
    template = obj if not tpath else get_path(obj, tpath)
    if not isinstance(template, dict):
        return None
    spec = template.get("spec")
    if not isinstance(spec, dict):
        return None
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    name = meta.get("name") or meta.get("generateName") or "<unnamed>"
    namespace = meta.get("namespace") or "default"
    return Workload(
        kind=kind,
        name=str(name),
        namespace=str(namespace),
        api_version=str(obj.get("apiVersion", "")),
        obj=obj,
        template=template,
        template_path=tpath,
        pod_spec=spec,
        pod_spec_path=(*tpath, "spec"),
        replicas=pod_count(kind, obj),
    )


def iter_objects(data: Any, prefix: tuple = ()) -> Iterator[tuple[dict, tuple]]:
    """Objects of a document: itself, or the items of a ``kind: List`` (``*List`` kinds too), recursively.

    Yields ``(obj, path)`` where ``path`` locates the object inside the document (``("items", 3)``).
    """
    if not isinstance(data, dict):
        return
    kind = data.get("kind")
    items = data.get("items")
    if isinstance(kind, str) and kind.endswith("List") and isinstance(items, list):
        for i, item in enumerate(items):
            yield from iter_objects(item, (*prefix, "items", i))
        return
    yield data, prefix


def containers(pod_spec: dict) -> Iterator[tuple[str, int, dict]]:
    """``(field, index, container)`` for containers, initContainers and ephemeralContainers."""
    for fld in ("initContainers", "containers", "ephemeralContainers"):
        items = pod_spec.get(fld)
        if isinstance(items, list):
            for i, c in enumerate(items):
                if isinstance(c, dict):
                    yield fld, i, c
