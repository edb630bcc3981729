"""Where diff meets render (shell quoting, ``az aks nodepool add`` argv, device plugin manifests).

``gpupool.render`` owns how a pool is created; diff reuses it so a runbook creates the new pool exactly as
``gpupool render`` would. Each function here prefers the render package and keeps a small local
equivalent for when a render piece is missing (the fallbacks are used only then, and say so).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from types import ModuleType

from gpupool.spec.model import PoolSpec

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def quote(value: str | int) -> str:
    """One POSIX shell word (``gpupool.render.shell.quote``). Raises ValueError on control characters."""
    shell = _module("gpupool.render.shell")
    if shell is not None and hasattr(shell, "quote"):
        return shell.quote(value)
    text = str(value)  # pragma: no cover - fallback while render.shell is missing
    if _CONTROL.search(text):  # pragma: no cover
        raise ValueError("refusing to put a control character into a shell script")
    return "'" + text.replace("'", "'\"'\"'") + "'"  # pragma: no cover


def _is_flag(token: str) -> bool:
    shell = _module("gpupool.render.shell")
    if shell is not None and hasattr(shell, "is_flag"):
        return bool(shell.is_flag(token))
    return bool(re.match(r"^--?[A-Za-z][A-Za-z0-9-]*(=[A-Za-z0-9_.:/=-]+)?$", token))  # pragma: no cover


def command_line(argv: Sequence[str], words: int) -> str:
    """``argv`` as one line: the first ``words`` tokens and option names bare, every value quoted."""
    shell = _module("gpupool.render.shell")
    if shell is not None and hasattr(shell, "command"):
        return shell.command(list(argv), words, wrap=False)
    head = list(argv[:words])  # pragma: no cover - fallback while render.shell is missing
    for w in head:
        if not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", w):
            raise ValueError(f"{w!r} is not a plain command word")
    rest = [t if (t.startswith("-") and _is_flag(t)) else quote(t) for t in argv[words:]]
    return " ".join([*head, *rest])


def nodepool_add_argv(pool: PoolSpec) -> list[str]:
    """``az aks nodepool add ...`` for ``pool``: ``gpupool.render.az.nodepool_add_argv`` when it exists."""
    az = _module("gpupool.render.az")
    if az is not None and hasattr(az, "nodepool_add_argv"):
        return list(az.nodepool_add_argv(pool))
    return _fallback_add_argv(pool)


def using_render_add() -> bool:
    az = _module("gpupool.render.az")
    return az is not None and hasattr(az, "nodepool_add_argv")


def _fallback_add_argv(pool: PoolSpec) -> list[str]:
    """The flags `az aks nodepool add` takes for the pool spec (Azure CLI 2.91.0 _params.py; aks-preview for
    --enable-managed-gpu / --gpu-mig-strategy, aks-gpu-facts §5). Used only while render.az is missing."""
    argv = [
        "az",
        "aks",
        "nodepool",
        "add",
        "--resource-group",
        pool.resource_group,
        "--cluster-name",
        pool.cluster_name,
        "--name",
        pool.name,
        "--node-vm-size",
        pool.vm_size,
    ]
    if pool.kubernetes_version:
        argv += ["--kubernetes-version", pool.kubernetes_version]
    argv += ["--mode", pool.mode, "--os-sku", pool.os_sku]
    if pool.priority == "Spot":
        argv += ["--priority", "Spot", "--eviction-policy", "Delete", "--spot-max-price", "-1"]
    count = pool.node_count
    if pool.autoscaler:
        count = min(max(count, pool.autoscaler.min_count), pool.autoscaler.max_count)
    argv += ["--node-count", str(count)]
    if pool.autoscaler:
        argv += [
            "--enable-cluster-autoscaler",
            "--min-count",
            str(pool.autoscaler.min_count),
            "--max-count",
            str(pool.autoscaler.max_count),
        ]
    if pool.node_taints:
        argv += ["--node-taints", ",".join(str(t) for t in pool.node_taints)]
    if pool.node_labels:
        argv += ["--labels", *(f"{k}={v}" for k, v in pool.node_labels.items())]
    if pool.max_pods is not None:
        argv += ["--max-pods", str(pool.max_pods)]
    if pool.zones:
        argv += ["--zones", *pool.zones]
    if pool.is_gpu_pool:
        g = pool.gpu_settings
        if g.instance_profile:
            argv += ["--gpu-instance-profile", g.instance_profile]
        if g.managed:
            argv += ["--enable-managed-gpu=true"]
            if g.mig_strategy:
                argv += ["--gpu-mig-strategy", g.mig_strategy]
        elif g.driver == "None":
            argv += ["--gpu-driver", "None"]
    return argv


def device_plugin_manifest(pool: PoolSpec) -> str | None:
    """The self-managed device plugin objects ``gpupool render`` writes for ``pool`` (Namespace, ConfigMap
    when the plugin has a config, DaemonSet scoped to the pool) as one YAML stream; None without render."""
    m = _module("gpupool.render.manifests")
    needed = ("namespace", "device_plugin_configmap", "device_plugin_daemonset", "dump")
    if m is None or not all(callable(getattr(m, n, None)) for n in needed):
        return None
    docs = [m.namespace()]
    cm = m.device_plugin_configmap(pool)
    if cm is not None:
        docs.append(cm)
    docs.append(m.device_plugin_daemonset(pool))
    return str(m.dump(docs))


def lint_will_not_follow(
    workload: object, pool: PoolSpec, path: str | None = None, root: object = None, base: tuple = ()
) -> list[str] | None:
    """Messages of lint's placement rules (GP304-GP307, errors) for ``workload`` against ``pool`` alone: the
    lint engine's verdict that the workload would not run there. None when ``gpupool.lint.gpu`` is missing."""
    gpu = _module("gpupool.lint.gpu")
    if gpu is None or not hasattr(gpu, "check_workload"):
        return None
    findings = gpu.check_workload(workload, [pool], path=path, root=root, base=base)
    return [
        f"{f.rule}: {f.message}"
        for f in findings
        if f.rule in LINT_PLACEMENT_RULES and getattr(f.severity, "value", f.severity) == "error"
    ]


LINT_PLACEMENT_RULES = ("GP304", "GP305", "GP306", "GP307")
"""lint rules whose errors mean "the pod cannot be scheduled onto the given pool"."""
