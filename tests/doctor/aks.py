"""Objects shaped like what kubectl and az print for an AKS cluster (1.33-1.37): the builders behind the
snapshot fixtures (tests/doctor/snapshots, written by build_snapshots.py) and bench/doctor_scale.py.

Field sets and order follow real `kubectl get -o json` output (sorted keys, as kubectl's JSON printer
writes them); label names, condition types/reasons and event wording are cited in snapshots/README.md.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

CLUSTER_HASH = "28993262"
RG = "myResourceGroup"
CLUSTER = "myAKSCluster"
MC_RG = "MC_myResourceGroup_myAKSCluster_eastus"
T0 = "2026-11-30T08:14:22Z"
T1 = "2026-12-02T09:41:07Z"
KUBELET = "v1.33.3"

SIZES = {  # vCPU, memory Ki (capacity as the kubelet reports it), allocatable cpu, allocatable memory Ki
    "Standard_D4s_v5": (4, 16365340, "3860m", 12882204),
    "Standard_NC4as_T4_v3": (4, 28736336, "3860m", 24354640),
    "Standard_NC24ads_A100_v4": (24, 226517372, "23660m", 213934332),
    "Standard_ND96asr_v4": (96, 924273564, "95060m", 911690524),
    "Standard_NV36ads_A10_v5": (36, 451338896, "35520m", 438755856),
}
GPU_PRODUCT = {
    "Standard_NC4as_T4_v3": ("Tesla-T4", "15360"),
    "Standard_NC24ads_A100_v4": ("NVIDIA-A100-80GB-PCIe", "81920"),
    "Standard_ND96asr_v4": ("NVIDIA-A100-SXM4-40GB", "40960"),
    "Standard_NV36ads_A10_v5": ("NVIDIA-A10-24Q", "24576"),
}


def uid(*parts: str) -> str:
    h = hashlib.sha1("/".join(parts).encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def rv(*parts: str) -> str:
    return str(int(hashlib.sha1("/".join(parts).encode()).hexdigest()[:6], 16))


def node_name(pool: str, i: int) -> str:
    return f"aks-{pool}-{CLUSTER_HASH}-vmss{i:06d}"


def kube_list(items: list[dict]) -> dict:
    return {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}


def condition(type_: str, status: str, reason: str, message: str) -> dict:
    return {
        "lastHeartbeatTime": T1,
        "lastTransitionTime": T0,
        "message": message,
        "reason": reason,
        "status": status,
        "type": type_,
    }


NPD = [  # AKS node-problem-detector conditions present on every node, healthy
    ("ContainerRuntimeProblem", "ContainerRuntimeIsUp", "container runtime service is up"),
    ("FilesystemCorruptionProblem", "FilesystemIsOK", "Filesystem is healthy"),
    ("FrequentContainerdRestart", "NoFrequentContainerdRestart", "containerd is functioning properly"),
    ("FrequentDockerRestart", "NoFrequentDockerRestart", "docker is functioning properly"),
    ("FrequentKubeletRestart", "NoFrequentKubeletRestart", "kubelet is functioning properly"),
    ("FrequentUnregisterNetDevice", "NoFrequentUnregisterNetDevice", "node is functioning properly"),
    ("KernelDeadlock", "KernelHasNoDeadlock", "kernel has no deadlock"),
    ("KubeletProblem", "KubeletIsUp", "kubelet service is up"),
    ("ReadonlyFilesystem", "FilesystemIsNotReadOnly", "Filesystem is not read-only"),
    ("VMEventScheduled", "NoVMEventScheduled", "VM has no scheduled event"),
]


def node(
    pool: str,
    i: int,
    vm: str,
    *,
    gpus: dict[str, int] | None = None,
    alloc_gpus: dict[str, int] | None = None,
    taints: list[tuple[str, str, str]] = (),  # type: ignore[assignment]
    labels: dict[str, str] | None = None,
    mode: str = "user",
    spot: bool = False,
    conditions: list[dict] | None = None,
    ready: bool = True,
    unschedulable: bool = False,
    accelerator: bool | None = None,
    kubelet: str = KUBELET,
) -> dict:
    name = node_name(pool, i)
    vcpu, mem, acpu, amem = SIZES[vm]
    gpu_size = vm in GPU_PRODUCT
    lab = {
        "agentpool": pool,
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": vm,
        "beta.kubernetes.io/os": "linux",
        "failure-domain.beta.kubernetes.io/region": "eastus",
        "failure-domain.beta.kubernetes.io/zone": "0",
        "kubernetes.azure.com/agentpool": pool,
        "kubernetes.azure.com/cluster": MC_RG,
        "kubernetes.azure.com/consolidated-additional-properties": uid("props", pool),
        "kubernetes.azure.com/kubelet-identity-client-id": uid("kubelet-identity"),
        "kubernetes.azure.com/mode": mode,
        "kubernetes.azure.com/node-image-version": "AKSUbuntu-2404gen2containerd-202611.18.0",
        "kubernetes.azure.com/nodepool-type": "VirtualMachineScaleSets",
        "kubernetes.azure.com/os-sku": "Ubuntu",
        "kubernetes.azure.com/os-sku-effective": "Ubuntu2404",
        "kubernetes.azure.com/os-sku-requested": "Ubuntu",
        "kubernetes.azure.com/role": "agent",
        "kubernetes.azure.com/sku-cpu": str(vcpu),
        "kubernetes.azure.com/sku-memory": str(mem // 1024),
        "kubernetes.azure.com/storageprofile": "managed",
        "kubernetes.azure.com/storagetier": "Premium_LRS",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/role": "agent",
        "node-role.kubernetes.io/agent": "",
        "node.kubernetes.io/instance-type": vm,
        "storageprofile": "managed",
        "storagetier": "Premium_LRS",
        "topology.disk.csi.azure.com/zone": "",
        "topology.kubernetes.io/region": "eastus",
        "topology.kubernetes.io/zone": "0",
    }
    if accelerator if accelerator is not None else gpu_size:
        lab["accelerator"] = "nvidia"
        lab["kubernetes.azure.com/accelerator"] = "nvidia"
    if spot:
        lab["kubernetes.azure.com/scalesetpriority"] = "spot"
    lab.update(labels or {})
    cap = {
        "cpu": str(vcpu),
        "ephemeral-storage": "129886128Ki",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "memory": f"{mem}Ki",
        "pods": "110",
    }
    alloc = {
        "cpu": acpu,
        "ephemeral-storage": "119703055367",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "memory": f"{amem}Ki",
        "pods": "110",
    }
    for k, v in (gpus or {}).items():
        cap[k] = str(v)
        alloc[k] = str((alloc_gpus or gpus or {}).get(k, v))
    conds = [condition(t, "False", r, m) for t, r, m in NPD]
    conds += conditions or []
    conds += [
        condition("NetworkUnavailable", "False", "RouteCreated", "RouteController created a route"),
        condition(
            "MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"
        ),
        condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
        condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
        condition("Ready", "True", "KubeletReady", "kubelet is posting ready status")
        if ready
        else condition("Ready", "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status."),
    ]
    all_taints = list(taints)
    if spot:
        all_taints.append(("kubernetes.azure.com/scalesetpriority", "spot", "NoSchedule"))
    if unschedulable:
        all_taints.append(("node.kubernetes.io/unschedulable", "", "NoSchedule"))
    spec: dict[str, Any] = {
        "podCIDR": f"10.244.{i}.0/24",
        "podCIDRs": [f"10.244.{i}.0/24"],
        "providerID": (
            f"azure:///subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/{MC_RG.lower()}"
            f"/providers/Microsoft.Compute/virtualMachineScaleSets/aks-{pool}-{CLUSTER_HASH}-vmss/virtualMachines/{i}"
        ),
    }
    if all_taints:
        spec["taints"] = [
            {"effect": e, "key": k, **({"value": v} if v else {})}
            | ({"timeAdded": T1} if k.startswith("node.kubernetes.io/") else {})
            for k, v, e in all_taints
        ]
    if unschedulable:
        spec["unschedulable"] = True
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": {
                "csi.volume.kubernetes.io/nodeid": json.dumps(
                    {"disk.csi.azure.com": name, "file.csi.azure.com": name}, separators=(",", ":")
                ),
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true",
            },
            "creationTimestamp": T0,
            "labels": dict(sorted(lab.items())),
            "name": name,
            "resourceVersion": rv("node", name),
            "uid": uid("node", name),
        },
        "spec": spec,
        "status": {
            "addresses": [
                {"address": f"10.224.{hash_octet(pool)}.{4 + i}", "type": "InternalIP"},
                {"address": name, "type": "Hostname"},
            ],
            "allocatable": dict(sorted(alloc.items())),
            "capacity": dict(sorted(cap.items())),
            "conditions": conds,
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {
                "architecture": "amd64",
                "bootID": uid("boot", name),
                "containerRuntimeVersion": "containerd://2.0.5-1",
                "kernelVersion": "6.8.0-1041-azure",
                "kubeProxyVersion": "",
                "kubeletVersion": kubelet,
                "machineID": hashlib.md5(name.encode()).hexdigest(),
                "operatingSystem": "linux",
                "osImage": "Ubuntu 24.04.3 LTS",
                "systemUUID": uid("system", name),
            },
        },
    }


def hash_octet(s: str) -> int:
    return int(hashlib.sha1(s.encode()).hexdigest()[:2], 16) % 200


def gfd_labels(
    vm: str, driver: str, cuda: str, count: int, extra: dict[str, str] | None = None
) -> dict[str, str]:
    product, memory = GPU_PRODUCT[vm]
    major, minor, rev = [*driver.split("."), "", ""][:3]
    lab = {
        "nvidia.com/cuda.driver-version.full": driver,
        "nvidia.com/cuda.driver-version.major": major,
        "nvidia.com/cuda.driver-version.minor": minor,
        "nvidia.com/cuda.driver-version.revision": rev,
        "nvidia.com/cuda.driver.major": major,
        "nvidia.com/cuda.driver.minor": minor,
        "nvidia.com/cuda.driver.rev": rev,
        "nvidia.com/cuda.runtime-version.full": cuda,
        "nvidia.com/cuda.runtime-version.major": cuda.split(".")[0],
        "nvidia.com/cuda.runtime-version.minor": cuda.split(".")[1],
        "nvidia.com/gfd.timestamp": "1764668467",
        "nvidia.com/gpu.count": str(count),
        "nvidia.com/gpu.memory": memory,
        "nvidia.com/gpu.present": "true",
        "nvidia.com/gpu.product": product,
        "nvidia.com/gpu.replicas": "1",
        "nvidia.com/gpu.sharing-strategy": "none",
        "nvidia.com/mig.capable": "true" if "A100" in product else "false",
    }
    lab.update(extra or {})
    return lab


DEFAULT_TOLERATIONS = [
    {
        "effect": "NoExecute",
        "key": "node.kubernetes.io/not-ready",
        "operator": "Exists",
        "tolerationSeconds": 300,
    },
    {
        "effect": "NoExecute",
        "key": "node.kubernetes.io/unreachable",
        "operator": "Exists",
        "tolerationSeconds": 300,
    },
]


def _container(
    name: str,
    image: str,
    requests: dict[str, str] | None,
    limits: dict[str, str] | None,
    env: list | None = None,
) -> dict:
    res: dict[str, Any] = {}
    if limits:
        res["limits"] = limits
    if requests:
        res["requests"] = requests
    c: dict[str, Any] = {
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "name": name,
        "resources": res,
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
        "volumeMounts": [
            {
                "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                "name": f"kube-api-access-{name[:5]}",
                "readOnly": True,
            }
        ],
    }
    if env:
        c["env"] = env
    return c


def pod(
    ns: str,
    name: str,
    *,
    image: str,
    node: str | None,
    owner: tuple[str, str] | None = None,
    requests: dict[str, str] | None = None,
    limits: dict[str, str] | None = None,
    tolerations: list[dict] | None = None,
    node_selector: dict[str, str] | None = None,
    container: str = "main",
    phase: str = "Running",
    pending_message: str | None = None,
    priority: int = 0,
    priority_class: str | None = None,
    labels: dict[str, str] | None = None,
    restarts: int = 0,
    waiting: tuple[str, str] | None = None,
    last_terminated: tuple[str, str, int] | None = None,
    env: list | None = None,
) -> dict:
    meta: dict[str, Any] = {
        "creationTimestamp": T1,
        "labels": labels or {"app": name.rsplit("-", 2)[0]},
        "name": name,
        "namespace": ns,
        "resourceVersion": rv("pod", ns, name),
        "uid": uid("pod", ns, name),
    }
    if owner:
        kind, oname = owner
        meta["generateName"] = oname + "-"
        meta["ownerReferences"] = [
            {
                "apiVersion": "apps/v1",
                "blockOwnerDeletion": True,
                "controller": True,
                "kind": kind,
                "name": oname,
                "uid": uid(kind, ns, oname),
            }
        ]
    spec: dict[str, Any] = {
        "containers": [_container(container, image, requests, limits, env)],
        "dnsPolicy": "ClusterFirst",
        "enableServiceLinks": True,
        "preemptionPolicy": "PreemptLowerPriority",
        "priority": priority,
        "restartPolicy": "Always",
        "schedulerName": "default-scheduler",
        "securityContext": {},
        "serviceAccount": "default",
        "serviceAccountName": "default",
        "terminationGracePeriodSeconds": 30,
        "tolerations": (tolerations or []) + DEFAULT_TOLERATIONS,
    }
    if priority_class:
        spec["priorityClassName"] = priority_class
    if node_selector:
        spec["nodeSelector"] = node_selector
    if node:
        spec["nodeName"] = node
    status: dict[str, Any]
    if phase == "Pending" and node is None:
        status = {
            "conditions": [
                {
                    "lastProbeTime": None,
                    "lastTransitionTime": T1,
                    "message": pending_message,
                    "reason": "Unschedulable",
                    "status": "False",
                    "type": "PodScheduled",
                }
            ],
            "phase": "Pending",
            "qosClass": "BestEffort" if not requests else "Burstable",
        }
    else:
        ready = "True" if waiting is None else "False"
        state: dict[str, Any] = {"running": {"startedAt": T1}}
        if waiting:
            state = {"waiting": {"message": waiting[1], "reason": waiting[0]}}
        cs: dict[str, Any] = {
            "containerID": f"containerd://{hashlib.sha256(name.encode()).hexdigest()}",
            "image": image,
            "imageID": image.split(":")[0] + "@sha256:" + hashlib.sha256(image.encode()).hexdigest(),
            "lastState": {},
            "name": container,
            "ready": ready == "True",
            "restartCount": restarts,
            "started": ready == "True",
            "state": state,
        }
        if last_terminated:
            reason, message, code = last_terminated
            cs["lastState"] = {
                "terminated": {
                    "containerID": cs["containerID"],
                    "exitCode": code,
                    "finishedAt": T1,
                    "reason": reason,
                    "startedAt": T1,
                    **({"message": message} if message else {}),
                }
            }
        status = {
            "conditions": [
                {
                    "lastProbeTime": None,
                    "lastTransitionTime": T1,
                    "status": "True",
                    "type": "PodReadyToStartContainers",
                },
                {"lastProbeTime": None, "lastTransitionTime": T1, "status": "True", "type": "Initialized"},
                {"lastProbeTime": None, "lastTransitionTime": T1, "status": ready, "type": "Ready"},
                {"lastProbeTime": None, "lastTransitionTime": T1, "status": ready, "type": "ContainersReady"},
                {"lastProbeTime": None, "lastTransitionTime": T1, "status": "True", "type": "PodScheduled"},
            ],
            "containerStatuses": [cs],
            "hostIP": "10.224.0.4",
            "hostIPs": [{"ip": "10.224.0.4"}],
            "phase": phase,
            "podIP": f"10.244.0.{hash_octet(name)}",
            "podIPs": [{"ip": f"10.244.0.{hash_octet(name)}"}],
            "qosClass": "BestEffort" if not requests else "Burstable",
            "startTime": T1,
        }
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


def daemonset(
    ns: str,
    name: str,
    *,
    image: str,
    container: str,
    selector_label: dict[str, str],
    tolerations: list[dict],
    node_selector: dict[str, str] | None = None,
    env: list | None = None,
    desired: int = 0,
    ready: int | None = None,
    priority_class: str | None = "system-node-critical",
) -> dict:
    tmpl_spec: dict[str, Any] = {
        "containers": [
            {
                **({"env": env} if env else {}),
                "image": image,
                "imagePullPolicy": "IfNotPresent",
                "name": container,
                "resources": {},
                "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}},
                "terminationMessagePath": "/dev/termination-log",
                "terminationMessagePolicy": "File",
                "volumeMounts": [{"mountPath": "/var/lib/kubelet/device-plugins", "name": "device-plugin"}],
            }
        ],
        "dnsPolicy": "ClusterFirst",
        "restartPolicy": "Always",
        "schedulerName": "default-scheduler",
        "securityContext": {},
        "terminationGracePeriodSeconds": 30,
        "tolerations": tolerations,
        "volumes": [
            {"hostPath": {"path": "/var/lib/kubelet/device-plugins", "type": ""}, "name": "device-plugin"}
        ],
    }
    if priority_class:
        tmpl_spec["priorityClassName"] = priority_class
    if node_selector:
        tmpl_spec["nodeSelector"] = node_selector
    r = desired if ready is None else ready
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {
            "annotations": {"deprecated.daemonset.template.generation": "1"},
            "creationTimestamp": T0,
            "generation": 1,
            "name": name,
            "namespace": ns,
            "resourceVersion": rv("ds", ns, name),
            "uid": uid("DaemonSet", ns, name),
        },
        "spec": {
            "revisionHistoryLimit": 10,
            "selector": {"matchLabels": selector_label},
            "template": {
                "metadata": {"creationTimestamp": None, "labels": selector_label},
                "spec": tmpl_spec,
            },
            "updateStrategy": {
                "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1},
                "type": "RollingUpdate",
            },
        },
        "status": {
            "currentNumberScheduled": desired,
            "desiredNumberScheduled": desired,
            "numberAvailable": r,
            "numberMisscheduled": 0,
            "numberReady": r,
            "observedGeneration": 1,
            "updatedNumberScheduled": desired,
            **({"numberUnavailable": desired - r} if desired - r else {}),
        },
    }


def event(
    ns: str,
    kind: str,
    name: str,
    reason: str,
    message: str,
    *,
    type_: str = "Warning",
    component: str = "default-scheduler",
    count: int = 1,
    host: str | None = None,
) -> dict:
    ev_name = f"{name}.{hashlib.sha1((reason + message).encode()).hexdigest()[:16]}"
    return {
        "apiVersion": "v1",
        "count": count,
        "eventTime": None,
        "firstTimestamp": T1,
        "involvedObject": {
            "apiVersion": "v1",
            "kind": kind,
            "name": name,
            **({"namespace": ns} if ns else {}),
            "resourceVersion": rv("obj", ns, name),
            "uid": name if kind == "Node" else uid(kind, ns, name),
        },
        "kind": "Event",
        "lastTimestamp": T1,
        "message": message,
        "metadata": {
            "creationTimestamp": T1,
            "name": ev_name,
            "namespace": ns or "default",
            "resourceVersion": rv("ev", ns, ev_name),
            "uid": uid("ev", ns, ev_name),
        },
        "reason": reason,
        "reportingComponent": component if component != "default-scheduler" else "default-scheduler",
        "reportingInstance": host or "",
        "source": {"component": component, **({"host": host} if host else {})},
        "type": type_,
    }


def configmap(ns: str, name: str, data: dict[str, str], annotations: dict[str, str] | None = None) -> dict:
    meta: dict[str, Any] = {
        "creationTimestamp": T0,
        "name": name,
        "namespace": ns,
        "resourceVersion": rv("cm", ns, name),
        "uid": uid("cm", ns, name),
    }
    if annotations:
        meta["annotations"] = annotations
    return {"apiVersion": "v1", "data": data, "kind": "ConfigMap", "metadata": meta}


def nodepool(
    name: str,
    vm: str,
    count: int,
    *,
    mode: str = "User",
    taints: list[str] | None = None,
    autoscale: tuple[int, int] | None = None,
    spot: bool = False,
    driver: str | None = None,
    managed: bool = False,
    mig_profile: str | None = None,
    mig_strategy: str | None = None,
) -> dict:
    """One entry of `az aks nodepool list -o json` (Azure CLI 2.8x, API 2026-xx; camelCase keys)."""
    gpu_profile: dict[str, Any] | None = None
    if driver is not None or managed:
        gpu_profile = {"driver": driver or "Install", "driverType": None}
        if managed:
            gpu_profile["nvidia"] = {"managementMode": "Managed", "migStrategy": mig_strategy}
    return {
        "availabilityZones": None,
        "count": count,
        "enableAutoScaling": autoscale is not None,
        "enableFips": False,
        "enableNodePublicIp": False,
        "gpuInstanceProfile": mig_profile,
        "gpuProfile": gpu_profile,
        "id": (
            f"/subscriptions/00000000-0000-0000-0000-000000000000/resourcegroups/{RG}/providers/"
            f"Microsoft.ContainerService/managedClusters/{CLUSTER}/agentPools/{name}"
        ),
        "kubeletDiskType": "OS",
        "maxCount": autoscale[1] if autoscale else None,
        "maxPods": 110,
        "minCount": autoscale[0] if autoscale else None,
        "mode": mode,
        "name": name,
        "nodeImageVersion": "AKSUbuntu-2404gen2containerd-202611.18.0",
        "nodeLabels": None,
        "nodeTaints": taints,
        "orchestratorVersion": KUBELET.lstrip("v").rsplit(".", 1)[0] + ".3",
        "osDiskSizeGb": 128,
        "osDiskType": "Managed",
        "osSku": "Ubuntu",
        "osType": "Linux",
        "powerState": {"code": "Running"},
        "provisioningState": "Succeeded",
        "resourceGroup": RG,
        "scaleSetEvictionPolicy": "Delete" if spot else None,
        "scaleSetPriority": "Spot" if spot else None,
        "spotMaxPrice": -1.0 if spot else None,
        "type": "VirtualMachineScaleSets",
        "typePropertiesType": "VirtualMachineScaleSets",
        "vmSize": vm,
    }
