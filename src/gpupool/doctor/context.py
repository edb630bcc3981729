"""What the rules share: the indexed view, and analyses several rules read (computed once, on demand):
why each GPU node advertises no GPU, the Pending GPU pods with their FitError, autoscaler words and
simulated placement."""

from __future__ import annotations

import shlex
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from gpupool.doctor import facts, parse, placement
from gpupool.doctor.view import NodeView, View, event_message, event_time, gpu_requests
from gpupool.findings import Finding, Severity
from gpupool.k8s import affinity
from gpupool.k8s import facts as sim_facts
from gpupool.k8s import gpustack as comp
from gpupool.k8s.taints import format_toleration, untolerated
from gpupool.simulate.cost import PriceTable
from gpupool.spec.model import Taint

STAGES = ("input", "nodes", "driver", "device-plugin", "resources", "pods")


def finding(
    rule: str,
    severity: Severity,
    message: str,
    obj: str,
    stage: str,
    evidence: list[str] | None = None,
    fix: str | None = None,
    **extra: Any,
) -> Finding:
    return Finding(
        rule=rule,
        severity=severity,
        message=message,
        object=obj,
        fix=fix,
        extra={"stage": stage, "evidence": list(evidence or []), **extra},
    )


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def pod_ref(pod: dict) -> str:
    m = pod.get("metadata") or {}
    return f"{m.get('namespace', '')}/{m.get('name', '')}"


def container_states(pod: dict) -> list[dict]:
    st = pod.get("status") or {}
    return [s for s in (st.get("containerStatuses") or []) if isinstance(s, dict)]


def crash_looping(pod: dict) -> tuple[bool, int, str]:
    """(waiting in CrashLoopBackOff or restarting, restarts, the last termination's message or reason)."""
    looping, restarts, why = False, 0, ""
    for s in container_states(pod):
        restarts = max(restarts, int(s.get("restartCount") or 0))
        waiting = (s.get("state") or {}).get("waiting") or {}
        if waiting.get("reason") == "CrashLoopBackOff":
            looping = True
        term = (s.get("lastState") or {}).get("terminated") or {}
        if term:
            why = str(term.get("message") or term.get("reason") or "")
            why += f" (exit code {term.get('exitCode')})" if term.get("exitCode") is not None else ""
    return looping, restarts, why.strip()


def ds_pod_spec(ds: dict) -> dict:
    spec = ((ds.get("spec") or {}).get("template") or {}).get("spec")
    return spec if isinstance(spec, dict) else {}


def ds_misses(ds: dict, node: NodeView) -> tuple[list[Taint], bool]:
    """Why a DaemonSet makes no pod for ``node``: the taints it does not tolerate, and a selector miss."""
    spec = ds_pod_spec(ds)
    tols = list(spec.get("tolerations") or []) + sim_facts.daemonset_tolerations(
        spec.get("hostNetwork") is True
    )
    bad = untolerated(node.taints, tols)
    return bad, not affinity.matches_node(spec, node.labels, node.name)


def ds_ref(ds: dict) -> str:
    m = ds.get("metadata") or {}
    return f"DaemonSet {m.get('namespace', '')}/{m.get('name', '')}"


def describe_command(ds: dict) -> str:
    """``kubectl describe daemonset -n NAMESPACE NAME`` (the DaemonSet's events say why pods are missing)."""
    m = ds.get("metadata") or {}
    ns, name = str(m.get("namespace") or "default"), str(m.get("name") or "")
    return f"kubectl describe daemonset -n {shlex.quote(ns)} {shlex.quote(name)}"


def tolerations_fix(taints: list[Taint]) -> str:
    return (
        "add to the DaemonSet's pod template: tolerations: ["
        + ", ".join(format_toleration(t) for t in taints)
        + "]"
    )


@dataclass
class PluginDiagnosis:
    """Why a GPU node advertises no GPU resource: the rule that names the cause, and its evidence."""

    rule: str
    cause: str
    evidence: list[str]
    fix: str


@dataclass
class Pending:
    pod: dict
    requests: dict[str, int]
    fit: parse.FitError | None
    fit_text: str
    scale_up: parse.ScaleUp | None
    owner: str
    extra_events: list[str] = field(default_factory=list)


class Context:
    def __init__(self, view: View, prices: PriceTable, pools: list | None = None) -> None:
        self.view = view
        self.prices = prices
        self.pools = list(pools or [])  # designed pools (--pool SPEC), PoolSpec

    # ---- the device plugin chain --------------------------------------------------------------------

    def plugin_pods_on(self, node: NodeView) -> list[dict]:
        return [p for p in node.pods if self.view.role(p) == comp.DEVICE_PLUGIN]

    def log_lines(self, pod: dict, group: str, section: str = "devicePluginLogs") -> list[str]:
        pats = facts.compiled(section, group)
        out: list[str] = []
        for key, text in sorted(self.view.pod_logs(pod).items()):
            for line in parse.matching_lines(text, pats):
                tag = " (previous container)" if key.previous else ""
                out.append(f"log {key.namespace}/{key.pod} {key.container}{tag}: {line}")
        return out

    @cached_property
    def plugin_diagnosis(self) -> dict[str, PluginDiagnosis]:
        out: dict[str, PluginDiagnosis] = {}
        plugin_ds = self.view.daemonsets.get(comp.DEVICE_PLUGIN, [])
        driver_ds = self.view.daemonsets.get(comp.DRIVER, [])
        for node in self.view.gpu_nodes:
            if node.advertises_gpu:
                continue
            d = self._why_no_gpu(node, plugin_ds, driver_ds)
            if d is not None:
                out[node.name] = d
        return out

    def _why_no_gpu(
        self, node: NodeView, plugin_ds: list[dict], driver_ds: list[dict]
    ) -> PluginDiagnosis | None:
        pods = self.plugin_pods_on(node)
        driver = self.view.pool_driver(node.pool)
        if node.managed:
            cond = node.condition("UnhealthyNvidiaDevicePlugin")
            ev = (
                [f"condition UnhealthyNvidiaDevicePlugin={cond.get('status')} ({cond.get('reason', '')})"]
                if cond
                else []
            )
            return PluginDiagnosis(
                "GP606",
                "the managed GPU stack's host service nvidia-device-plugin.service advertises nothing",
                ev,
                "reimage or replace the node (az aks nodepool upgrade --node-image-only, or delete the VMSS "
                "instance); managed pools run the plugin on the host, so no DaemonSet can fix it",
            )
        if pods:
            pod = pods[0]
            missing = self.log_lines(pod, "driverMissing")
            looping, restarts, why = crash_looping(pod)
            if missing:
                no_operator = not driver_ds
                if driver == "None" and no_operator:
                    fix = (
                        "the pool was created with --gpu-driver None and no GPU Operator installs a driver: "
                        "install the NVIDIA GPU Operator (driver enabled), or recreate the pool without "
                        "--gpu-driver None so AKS installs the driver"
                    )
                else:
                    fix = (
                        "make the driver available: let AKS install it (pool without --gpu-driver "
                        "None), or run "
                        "the GPU Operator with its driver and container toolkit; check the runtime "
                        "(nvidia) is "
                        "the default or set runtimeClassName: nvidia on the plugin"
                    )
                ev = missing + ([f"pool {node.pool}: gpuProfile.driver={driver}"] if driver else [])
                if not driver_ds and "daemonsets" not in self.view.snap.unread:
                    ev.append("no GPU Operator driver DaemonSet in the cluster")
                state = "crash-looping" if looping or restarts else "running idle"
                return PluginDiagnosis(
                    "GP605", f"the device plugin is {state}: it finds no NVIDIA driver", ev, fix
                )
            if looping or restarts >= 3:
                ev = [
                    f"Pod {pod_ref(pod)}: CrashLoopBackOff, {restarts} restarts"
                    + (f"; last exit: {why}" if why else "")
                ]
                ev += self.log_lines(pod, "configError")
                return PluginDiagnosis(
                    "GP604",
                    "the device plugin pod on the node is crash-looping",
                    ev,
                    f"read its logs: kubectl logs -p -n {pod_ref(pod).replace('/', ' ')}; fix the "
                    "config or image",
                )
            return PluginDiagnosis(
                "GP606",
                f"device plugin pod {pod_ref(pod)} runs on the node, yet no GPU is advertised",
                [
                    f"Pod {pod_ref(pod)}: phase {(pod.get('status') or {}).get('phase')}",
                    *self.log_lines(pod, "configError"),
                ],
                f"read its logs: kubectl logs -n {pod_ref(pod).replace('/', ' ')}",
            )
        if not plugin_ds:
            return PluginDiagnosis(
                "GP601",
                "no NVIDIA device plugin runs in the cluster",
                [f"pool {node.pool}: driver installed by AKS, no device plugin (the 'Driver only' default)"]
                if driver != "None"
                else [f"pool {node.pool}: gpuProfile.driver=None and no GPU Operator"],
                "deploy the NVIDIA device plugin DaemonSet tolerating the pool's taints (gpupool render "
                "writes one), or the GPU Operator, or create the pool with --enable-managed-gpu",
            )
        taint_misses, selector_misses = [], []
        for ds in plugin_ds:
            bad, sel = ds_misses(ds, node)
            if bad:
                taint_misses.append((ds, bad))
            elif sel:
                selector_misses.append(ds)
        if taint_misses and len(taint_misses) + len(selector_misses) == len(plugin_ds):
            ds, bad = taint_misses[0]
            spot = any(t.key == facts.label("spotPriority")["key"] for t in bad)
            ev = [
                f"{ds_ref(d)} does not tolerate " + ", ".join(f"{t.key}={t.value}:{t.effect}" for t in b)
                for d, b in taint_misses
            ]
            return PluginDiagnosis(
                "GP602",
                "the device plugin DaemonSet does not tolerate the node's taints"
                + (" (the Spot taint AKS adds)" if spot else ""),
                ev,
                tolerations_fix(bad),
            )
        if selector_misses and len(selector_misses) == len(plugin_ds):
            ds = selector_misses[0]
            spec = ds_pod_spec(ds)
            sel = spec.get("nodeSelector") or {}
            ev = [f"{ds_ref(ds)} nodeSelector {sel}" if sel else f"{ds_ref(ds)} node affinity does not match"]
            return PluginDiagnosis(
                "GP603",
                "the device plugin DaemonSet's node selector/affinity does not match the node",
                ev,
                "match the pool's labels (e.g. kubernetes.azure.com/accelerator: nvidia), or label the nodes "
                "the selector wants (Helm chart defaults need NFD/GFD labels such as "
                "nvidia.com/gpu.present=true)",
            )
        return PluginDiagnosis(
            "GP606",
            "a device plugin DaemonSet should run here, but no plugin pod is on the node",
            [
                f"{ds_ref(d)}: desired {(d.get('status') or {}).get('desiredNumberScheduled')}"
                for d in plugin_ds
            ],
            "check the DaemonSet's events and status (kubectl describe daemonset)",
        )

    # ---- Pending GPU pods -----------------------------------------------------------------------------

    @cached_property
    def pending(self) -> list[Pending]:
        out = []
        for pod in self.view.snap.pods:
            meta = pod.get("metadata") or {}
            spec = pod.get("spec") or {}
            status = pod.get("status") or {}
            if status.get("phase") != "Pending" or spec.get("nodeName"):
                continue
            if not self.view.in_scope(str(meta.get("namespace") or "")):
                continue
            reqs = gpu_requests(spec)
            if not reqs or self.view.role(pod) is not None:
                continue
            cond = next(
                (
                    c
                    for c in status.get("conditions") or []
                    if isinstance(c, dict) and c.get("type") == "PodScheduled"
                ),
                None,
            )
            fit_text = str(cond.get("message") or "") if cond and cond.get("status") == "False" else ""
            events = sorted(
                self.view.events_for("Pod", str(meta.get("namespace") or ""), str(meta.get("name") or "")),
                key=event_time,
            )
            scale = None
            for e in events:
                msg = event_message(e)
                if e.get("reason") == "FailedScheduling" and msg:
                    fit_text = fit_text or msg
                if e.get("reason") in ("NotTriggerScaleUp", "TriggeredScaleUp"):
                    scale = parse.scale_up_event(msg) or scale
            if not fit_text and scale is None:
                continue  # not seen by the scheduler yet
            owners = [o for o in meta.get("ownerReferences") or [] if isinstance(o, dict)]
            labels = meta.get("labels") if isinstance(meta.get("labels"), dict) else {}
            if owners:
                owner = f"{owners[0].get('kind')} {meta.get('namespace')}/{owners[0].get('name')}"
            elif labels.get("app"):  # bare pods of one app (created by a script or a job runner)
                owner = f"Pods {meta.get('namespace')}/app={labels['app']}"
            else:
                owner = f"Pod {meta.get('namespace')}/{meta.get('name')}"
            out.append(Pending(pod, reqs, parse.fit_error(fit_text), fit_text, scale, owner))
        return out

    @cached_property
    def placements(self) -> dict[tuple[str, str], placement.Placement]:
        return placement.placements(self.view, [p.pod for p in self.pending])

    def placement_of(self, pod: dict) -> placement.Placement | None:
        m = pod.get("metadata") or {}
        return self.placements.get((m.get("namespace", ""), m.get("name", "")))

    @cached_property
    def autoscaler_status(self) -> parse.AutoscalerStatus | None:
        where = facts.signals()["autoscaler"]["statusConfigMap"]
        for cm in self.view.snap.configmaps or []:
            m = cm.get("metadata") or {}
            if m.get("namespace") == where["namespace"] and m.get("name") == where["name"]:
                text = (cm.get("data") or {}).get("status")
                if isinstance(text, str):
                    return parse.autoscaler_status(text)
        return None

    @cached_property
    def autoscaler_on(self) -> bool:
        if self.autoscaler_status is not None:
            return True
        return any(p.get("enableAutoScaling") is True for p in self.view.pools.values())

    def advertised_anywhere(self) -> set[str]:
        out: set[str] = set()
        for n in self.view.nodes:
            out |= {k for k, v in n.gpu().items() if v > 0}
        return out


def group_by_pool(nodes: list[NodeView]) -> dict[str, list[NodeView]]:
    out: dict[str, list[NodeView]] = defaultdict(list)
    for n in nodes:
        out[n.pool].append(n)
    return dict(sorted(out.items()))


def node_list(nodes: list[NodeView], limit: int = 5) -> str:
    names = [n.name for n in nodes]
    return ", ".join(names[:limit]) + (f" and {len(names) - limit} more" if len(names) > limit else "")
