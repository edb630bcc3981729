"""Pods whose template lives in another object: Kubeflow Trainer's ``TrainJob`` (its
``ClusterTrainingRuntime`` / ``TrainingRuntime``) and KServe's ``LLMInferenceService`` (its
``LLMInferenceServiceConfig`` ``baseRefs``). When the referenced object is among the inputs the pod is
assembled the way the operator does and judged like any other; when it is not, the pod is kept with
``placement="runtime"`` and ``unresolved`` naming the reference (lint's GP315 says so).

``Runtimes.collect(objects)`` indexes the referenced kinds found among the inputs;
``podspecs.pod_templates(obj, runtimes)`` uses it. What wins, per operator (sources in
``k8s/data/pod_templates.yaml``):

- **TrainJob** (kubeflow/trainer, docs/operator-guides/podtemplate-overrides.md, "Override Behavior"): every
  replicated Job of the runtime's JobSet template makes pods. The trainer step (the Job labelled
  ``trainer.kubeflow.org/trainjob-ancestor-step: trainer``, else the Job named ``node``) takes the
  TrainJob's ``trainer.image`` and ``trainer.resourcesPerNode`` on its container named ``node`` (else its
  first container), and ``trainer.numNodes`` pods (else the runtime's ``mlPolicy.numNodes``). Each
  ``podTemplateOverrides[]`` entry (``podSpecOverrides[]`` before v2.1) whose ``targetJobs`` names a Job then
  *replaces* ``nodeSelector``, ``affinity``, ``tolerations``, ``schedulingGates`` and ``serviceAccountName``
  of that Job's pods, later entries winning.
- **LLMInferenceService** (kserve/kserve, pkg/controller/v1alpha1/llmisvc/config_merge.go ``MergeSpecs``): the
  ``baseRefs`` configs are merged in order and the service's own spec last, each a strategic merge patch
  over the previous: mappings merge key by key (``nodeSelector`` and ``resources`` included), lists of
  containers, volumes, env and ports merge by ``name``, other lists (``tolerations``) are replaced. A config
  is looked up in the service's namespace, then in any namespace of the inputs (KServe: the ``kserve``
  system namespace). The well-known configs KServe installs itself (``kserve-config-llm-*``) are merged
  when they are among the inputs and otherwise left out (they set the container, not placement).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpupool.k8s.workloads import Workload, get_path, job_pods

TRAINER_GROUP = "trainer.kubeflow.org"
KSERVE_GROUP = "serving.kserve.io"
RUNTIME_KINDS = frozenset({"ClusterTrainingRuntime", "TrainingRuntime", "LLMInferenceServiceConfig"})
ANCESTOR_LABEL = "trainer.kubeflow.org/trainjob-ancestor-step"
_REPLACED = ("nodeSelector", "affinity", "tolerations", "schedulingGates", "serviceAccountName")
_MERGE_BY_NAME = frozenset({"containers", "initContainers", "volumes", "env", "ports", "volumeMounts",
                            "imagePullSecrets", "resourceClaims"})


def _group(obj: dict) -> str:
    api = obj.get("apiVersion")
    return api.rpartition("/")[0] if isinstance(api, str) else ""


def _meta(obj: dict) -> tuple[str, str | None]:
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    ns = meta.get("namespace")
    return str(meta.get("name") or ""), (str(ns) if ns else None)


@dataclass
class Runtimes:
    """The runtime objects among the inputs: (kind, name) -> [(namespace or None, object)]."""

    objects: dict[tuple[str, str], list[tuple[str | None, dict]]] = field(default_factory=dict)

    def add(self, obj: Any) -> None:
        kind = obj.get("kind") if isinstance(obj, dict) else None
        if not isinstance(kind, str) or kind not in RUNTIME_KINDS:
            return
        if _group(obj) not in (TRAINER_GROUP, KSERVE_GROUP):
            return
        name, ns = _meta(obj)
        if name:
            self.objects.setdefault((str(obj["kind"]), name), []).append((ns, obj))

    @classmethod
    def collect(cls, objects: Any) -> Runtimes:
        out = cls()
        for obj in objects:
            out.add(obj)
        return out

    def find(self, kind: str, name: str, namespace: str | None) -> dict | None:
        """The object of ``kind`` named ``name``: in ``namespace`` first (None: cluster-scoped or any)."""
        hits = self.objects.get((kind, name)) or []
        for ns, obj in hits:
            if ns == namespace or namespace is None or ns is None:
                return obj
        return hits[0][1] if hits and kind == "LLMInferenceServiceConfig" else None

    def __bool__(self) -> bool:
        return bool(self.objects)


# ---- strategic merge (the part of it PodSpec fields need) ---------------------------------------------


def merge(base: Any, over: Any, key: str = "") -> Any:
    """``over`` applied to ``base`` as a strategic merge patch: mappings key by key, lists of named objects
    (containers, volumes, env...) by name, any other value replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base[k], v, str(k)) if k in base else v
        return out
    if key in _MERGE_BY_NAME and isinstance(base, list) and isinstance(over, list):
        out_list = list(base)
        index = {x.get("name"): i for i, x in enumerate(out_list) if isinstance(x, dict) and "name" in x}
        for item in over:
            name = item.get("name") if isinstance(item, dict) else None
            if name is not None and name in index:
                out_list[index[name]] = merge(out_list[index[name]], item)
            else:
                out_list.append(item)
        return out_list
    return over


# ---- TrainJob -----------------------------------------------------------------------------------------


def _runtime_ref(obj: dict) -> tuple[str, str]:
    ref = get_path(obj, ("spec", "runtimeRef"))
    ref = ref if isinstance(ref, dict) else {}
    kind = ref.get("kind") if isinstance(ref.get("kind"), str) else "ClusterTrainingRuntime"
    return kind, str(ref.get("name") or "")


def trainjob_pods(obj: dict, runtimes: Runtimes | None, make: Any) -> list[Workload] | None:
    """The TrainJob's pods assembled with its runtime, or None when the runtime is not among the inputs."""
    kind, name = _runtime_ref(obj)
    _, ns = _meta(obj)
    scope = None if kind == "ClusterTrainingRuntime" else ns
    runtime = runtimes.find(kind, name, scope) if runtimes else None
    if runtime is None:
        return None
    jobs = get_path(runtime, ("spec", "template", "spec", "replicatedJobs"))
    if not isinstance(jobs, list):
        return []
    trainer = get_path(obj, ("spec", "trainer"))
    trainer = trainer if isinstance(trainer, dict) else {}
    named = [j for j in jobs if isinstance(j, dict)]
    label = ("template", "metadata", "labels", ANCESTOR_LABEL)
    labelled = (j for j in named if get_path(j, label) == "trainer")
    step = next(labelled, None) or next((j for j in named if j.get("name") == "node"), None)
    overrides = get_path(obj, ("spec", "podTemplateOverrides"))
    over_at = ("spec", "podTemplateOverrides")
    if not isinstance(overrides, list):
        overrides = get_path(obj, ("spec", "podSpecOverrides"))
        over_at = ("spec", "podSpecOverrides")
    overrides = overrides if isinstance(overrides, list) else []
    ref_at = ("spec", "runtimeRef")
    out: list[Workload] = []
    for job in named:
        jname = str(job.get("name") or "")
        spec = get_path(job, ("template", "spec", "template", "spec"))
        if not isinstance(spec, dict):
            continue
        spec = dict(spec)
        maps: list = []
        listed = spec.get("containers")
        listed = listed if isinstance(listed, list) else []
        containers = [dict(c) if isinstance(c, dict) else c for c in listed]
        spec["containers"] = containers
        replicas = _count(job.get("replicas"), 1) * job_pods(get_path(job, ("template", "spec")))
        if job is step:
            names = [c.get("name") if isinstance(c, dict) else None for c in containers]
            i = names.index("node") if "node" in names else 0
            if i < len(containers) and isinstance(containers[i], dict):
                c = containers[i]
                if "image" in trainer:
                    c["image"] = trainer["image"]
                if "resourcesPerNode" in trainer:
                    c["resources"] = trainer["resourcesPerNode"]
                    maps.append((("containers", i, "resources"), ("spec", "trainer", "resourcesPerNode")))
                maps.append((("containers", i), ("spec", "trainer")))
            nodes = trainer.get("numNodes", get_path(runtime, ("spec", "mlPolicy", "numNodes")))
            replicas = _count(nodes, 1)
        for n, o in enumerate(overrides):
            if not isinstance(o, dict):
                continue
            targets = o.get("targetJobs")
            if not isinstance(targets, list) or not any(isinstance(t, dict) and t.get("name") == jname
                                                         for t in targets):
                continue
            body, body_at = (o["spec"], (*over_at, n, "spec")) if isinstance(o.get("spec"), dict) else \
                (o, (*over_at, n))
            for f in _REPLACED:
                if f in body:
                    spec[f] = body[f]
                    maps.insert(0, ((f,), (*body_at, f)))
        maps.append(((), ref_at))
        w = make(obj, "TrainJob", jname, {"metadata": {}, "spec": spec}, ref_at, spec, (), replicas, "",
                 tuple(maps))
        out.append(w)
    return out


def _count(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else default


# ---- LLMInferenceService ------------------------------------------------------------------------------


def llmisvc_spec(obj: dict, runtimes: Runtimes | None) -> tuple[dict | None, list[str]]:
    """(the merged spec, the baseRefs not among the inputs); the spec is None when any is missing."""
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return None, []
    refs = spec.get("baseRefs")
    refs = refs if isinstance(refs, list) else []
    names = [str(r.get("name")) for r in refs if isinstance(r, dict) and r.get("name")]
    if not names:
        return spec, []
    _, ns = _meta(obj)
    configs = [(n, runtimes.find("LLMInferenceServiceConfig", n, ns) if runtimes else None) for n in names]
    missing = [n for n, c in configs if c is None]
    if missing:
        return None, missing
    merged: dict = {}
    for _, cfg in configs:
        body = cfg.get("spec") if isinstance(cfg, dict) else None
        if isinstance(body, dict):
            merged = merge(merged, body)
    return merge(merged, spec), []
