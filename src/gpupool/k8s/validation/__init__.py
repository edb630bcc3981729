"""What the kube-apiserver's validation refuses on create, offline: plain data in, problems out.

Public API::

    from gpupool.k8s.validation import validate

    for p in validate(obj, (1, 36)):      # a manifest object (dict) and a Kubernetes minor
        p.area, p.field, p.reason, p.message   # "container", "spec.containers[0].name", "FieldValueInvalid"

Written from the API server's own validation (kubernetes/kubernetes ``pkg/apis/core/validation``,
``pkg/apis/{apps,batch,policy,autoscaling,networking,rbac,scheduling}/validation``, apimachinery's
``pkg/api/validation`` and ``pkg/util/validation``): ObjectMeta names per kind, generateName and namespace;
label and annotation keys and values; selectors and template labels; containers, ports, env, volumes and
mounts, resources, probes, tolerations, affinity, topology spreading; the specs of Deployments,
StatefulSets, DaemonSets, Jobs, CronJobs, HPAs, PDBs, Services, Ingresses, NetworkPolicies, ConfigMaps,
Secrets, RBAC, PVCs, ResourceQuotas and PriorityClasses. Where a rule changed between minors the data file
``k8s/data/apiserver_validation.yaml`` says from which. Only built-in kinds are judged beyond their
metadata; extended resources (GPUs) are judged by lint's GP301-GP303, quantities' syntax by GP212.
One walk per object, memoised name checks, no I/O.
"""

from __future__ import annotations

from typing import Any

from gpupool.k8s.validation import config, network, workloads
from gpupool.k8s.validation.core import AREAS, Problem, field_path
from gpupool.k8s.validation.core import Out as _Out
from gpupool.k8s.validation.meta import check_object_meta
from gpupool.k8s.validation.pod import check_pod_spec

__all__ = ["AREAS", "Problem", "field_path", "validate"]

_APPS = ("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet")


def _group(api: str) -> str:
    return api.rpartition("/")[0]


def validate(obj: Any, version: tuple[int, int], builtin: bool = True) -> list[Problem]:
    """The problems the API server would report creating ``obj`` (empty: it would accept it).

    ``builtin``: the kind is served by Kubernetes itself; False for custom resources (only their metadata is
    judged, with the DNS-subdomain name rule custom resources have)."""
    if type(obj) is not dict:
        return []
    api, kind = obj.get("apiVersion"), obj.get("kind")
    if type(api) is not str or type(kind) is not str:
        return []
    out = _Out(version)
    group = _group(api)
    check_object_meta(out, obj, group if builtin else "*custom*", kind)
    if not builtin:
        return out.problems
    if group == "":
        if kind == "Pod":
            check_pod_spec(out, obj.get("spec"), ("spec",))
        elif kind == "Service":
            network.service(out, obj, version)
        elif kind == "ConfigMap":
            config.configmap(out, obj)
        elif kind == "Secret":
            config.secret(out, obj)
        elif kind == "PersistentVolumeClaim":
            config.pvc(out, obj)
        elif kind == "ResourceQuota":
            config.resource_quota(out, obj)
        elif kind == "ReplicationController":
            spec = obj.get("spec")
            if type(spec) is dict:
                workloads.template(out, spec.get("template"), ("spec", "template"), ("Always",))
        elif kind == "PodTemplate":
            workloads.template(out, obj.get("template"), ("template",), None)
    elif group in ("apps", "extensions") and kind in _APPS:
        workloads.apps(out, obj, kind)
    elif group == "batch":
        if kind == "Job":
            workloads.job(out, obj)
        elif kind == "CronJob":
            workloads.cronjob(out, obj)
    elif group == "autoscaling" and kind == "HorizontalPodAutoscaler":
        workloads.hpa(out, obj, api)
    elif group == "policy" and kind == "PodDisruptionBudget":
        workloads.pdb(out, obj)
    elif group == "networking.k8s.io":
        if kind == "Ingress":
            network.ingress(out, obj)
        elif kind == "NetworkPolicy":
            network.network_policy(out, obj)
    elif group == "rbac.authorization.k8s.io":
        if kind in ("Role", "ClusterRole"):
            config.role(out, obj, kind == "Role")
        elif kind in ("RoleBinding", "ClusterRoleBinding"):
            config.binding(out, obj, kind == "ClusterRoleBinding")
    elif group == "scheduling.k8s.io" and kind == "PriorityClass":
        config.priority_class(out, obj)
    return out.problems
