"""The README.md of a rendered directory: what each file is, and in which order to apply them."""

from __future__ import annotations

from collections.abc import Sequence

from gpupool import catalog, shell
from gpupool.design.node import advertised, device_plugin_mode
from gpupool.spec.model import PoolSpec

_STACK = {
    "self-managed": "driver by AKS; NVIDIA device plugin and DCGM exporter deployed by you (rendered)",
    "managed": "managed GPU (preview): AKS runs driver, device plugin and DCGM exporter as host services",
    "gpu-operator": "--gpu-driver None: the NVIDIA GPU Operator installs driver, plugin and exporter",
    "amd-gpu-operator": "AMD: --gpu-driver None, then the AMD GPU Operator (not rendered)",
    "windows-directx": "Windows (preview): AKS installs the driver and the DirectX device plugin",
    "none": "no GPU",
}


def _pool_table(pools: Sequence[PoolSpec], stems: Sequence[str]) -> list[str]:
    rows = [
        "| Pool | Cluster | VM size | GPU stack | Advertised per node |",
        "|---|---|---|---|---|",
    ]
    for p, _stem in zip(pools, stems, strict=True):
        adv = advertised(p)
        res = ", ".join(f"`{k}: {v}`" for k, v in adv.resources.items()) or "-"
        rows.append(
            f"| `{p.name}` | `{p.resource_group}/{p.cluster_name}` | `{p.vm_size}` | "
            f"{_STACK[device_plugin_mode(p)]} | {res} |"
        )
    return rows


def readme(pools: Sequence[PoolSpec], stems: Sequence[str], files: Sequence[str],
           formats: Sequence[str]) -> str:
    """Markdown text. ``files``: every path written (relative); ``formats``: the formats rendered."""
    fileset = set(files)
    modes = {device_plugin_mode(p) for p in pools}
    lines = ["# GPU node pools rendered by gpupool", ""]
    lines += ["Pools:", "", *_pool_table(pools, stems), ""]
    lines += ["## Files", ""]
    desc: list[tuple[str, str]] = []
    if "az/create-node-pools.sh" in fileset:
        desc.append((
            "az/create-node-pools.sh",
            "Azure CLI script: preview prerequisites (managed GPU), `az aks nodepool add` per pool, then per "
            "pool: wait for Ready nodes, deploy the device plugin or GPU Operator where you run it, check "
            "each node's `.status.capacity`, run the smoke test. Needs `az login` and kubectl pointing at "
            "the cluster "
            "(it does not run `az aks get-credentials`).",
        ))
    groups = {f"arm/{stem}.json": p.resource_group for p, stem in zip(pools, stems, strict=True)}
    for f in sorted(x for x in fileset if x.startswith("arm/")):
        group = shell.quote(groups.get(f, "<group>"))
        desc.append((f, "ARM template of one agent pool: `az deployment group create "
                        f"--resource-group {group} --template-file {f}`."))
    if "terraform/main.tf" in fileset:
        desc.append(("terraform/main.tf", "Terraform: `azurerm_kubernetes_cluster_node_pool` per pool "
                                          "(`azapi_resource` with the preview API for managed GPU pools), "
                                          "clusters read through data sources."))
    if "k8s/00-namespace.yaml" in fileset:
        desc.append(("k8s/00-namespace.yaml", "Namespace `gpu-resources` for the device plugin, exporter and "
                                              "smoke test."))
    for f in sorted(x for x in fileset if x.startswith("k8s/") and x.count("/") == 2):
        name = f.rsplit("/", 1)[1]
        what = {
            "10-device-plugin.yaml": "NVIDIA device plugin DaemonSet for this pool only (nodeSelector on "
                                     "`kubernetes.azure.com/agentpool`, tolerations for every pool taint; "
                                     "time-slicing ConfigMap when sharing is set).",
            "20-dcgm-exporter.yaml": "DCGM exporter DaemonSet + Service (metrics on port "
                                     f"{catalog.images()['dcgmExporter']['port']}).",
            "90-smoke-test.yaml": "Smoke-test Job: asks for one GPU (or slice) of the pool and runs "
                                  "`nvidia-smi`. It starts a node if the pool is at zero.",
        }.get(name, "")
        desc.append((f, what))
    for f in sorted(x for x in fileset if x.startswith("gpu-operator/")):
        what = ("Helm values for the NVIDIA GPU Operator (tolerations for the pools' taints, MIG strategy, "
                "time-slicing)." if f.endswith(".yaml") else "Helm commands that install the GPU Operator.")
        desc.append((f, what))
    for f in sorted(x for x in fileset if x.startswith("monitoring/")):
        desc.append((f, "Prometheus scrape config for the managed pool's host DCGM exporter on port "
                        f"{catalog.images()['dcgmExporter']['managedPort']} (not a Kubernetes object)."))
    lines += [f"- `{f}`: {d}" for f, d in desc]
    lines += ["", "## Order", ""]
    steps = []
    if "managed" in modes:
        steps.append("Managed GPU pools are a preview: the feature `ManagedGPUExperiencePreview` must be "
                     "registered and the `aks-preview` extension installed before creating them (the az "
                     "script does it; do it yourself before using ARM or Terraform).")
    infra = [x for x in ("az", "arm", "terraform") if x in formats]
    if infra:
        steps.append("Create the pools with one of: " + ", ".join({
            "az": "`bash az/create-node-pools.sh` (it also deploys and checks what follows)",
            "arm": "the ARM templates in `arm/`",
            "terraform": "`terraform -chdir=terraform init && terraform -chdir=terraform apply`",
        }[x] for x in infra) + ".")
    if "k8s" in formats:
        steps.append("Point kubectl at the cluster, then `kubectl apply -f k8s/00-namespace.yaml` and, per "
                     "self-managed pool, `kubectl apply -f k8s/<pool>/10-device-plugin.yaml -f "
                     "k8s/<pool>/20-dcgm-exporter.yaml`.")
        if "gpu-operator" in modes:
            steps.append("For `--gpu-driver None` pools: `bash gpu-operator/<cluster>/install.sh` (once per "
                         "cluster). Do not also deploy a device plugin on those nodes.")
        steps.append("Check `kubectl describe node` shows the GPU resource under Capacity, then run the "
                     "smoke test: `kubectl apply -f k8s/<pool>/90-smoke-test.yaml` and read its log.")
    lines += [f"{i}. {s}" for i, s in enumerate(steps, 1)]
    notes = _notes(pools, modes)
    if notes:
        lines += ["", "## Notes", ""]
        lines += [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def _notes(pools: Sequence[PoolSpec], modes: set[str]) -> list[str]:
    notes = []
    if "managed" in modes:
        notes.append(
            "Managed GPU pools get no device plugin or DCGM exporter from these files: AKS runs them as "
            f"host services; metrics are on `:{catalog.images()['dcgmExporter']['managedPort']}/metrics` of "
            "each node (node label `kubernetes.azure.com/dcgm-exporter=enabled`). With Azure Managed "
            "Prometheus, set `dcgmexporter = true` under `default-scrape-settings-enabled` in "
            "`ama-metrics-settings-configmap`."
        )
    if "amd-gpu-operator" in modes:
        notes.append("AMD pools: only the pool itself is rendered. Install the AMD GPU Operator "
                     "(MicrosoftDocs/azure-aks-docs use-amd-gpus.md) to get `amd.com/gpu`.")
    if "windows-directx" in modes:
        notes.append("Windows GPU pools (preview): AKS installs the driver and the DirectX device plugin; no "
                     "manifests or smoke test are rendered (the smoke test image is Linux-only). The preview "
                     "needs the feature `WindowsGPUPreview` and the aks-preview extension "
                     "(MicrosoftDocs/azure-aks-docs use-windows-gpu.md).")
    if "gpu-operator" in modes and modes & {"self-managed", "managed"}:
        notes.append("The GPU Operator and another device plugin must not run on the same nodes: keep the "
                     "Operator's pools tainted differently, or label the other GPU nodes "
                     "`nvidia.com/gpu.deploy.operands=false`.")
    if any(p.priority == "Spot" for p in pools):
        notes.append("Spot pools: AKS adds the taint `kubernetes.azure.com/scalesetpriority=spot:NoSchedule` "
                     "to every node; the rendered pods tolerate it.")
    if len({(p.resource_group, p.cluster_name) for p in pools}) > 1:
        notes.append("The pools belong to more than one cluster: run the kubectl steps once per cluster, "
                     "with kubectl pointing at that cluster.")
    return notes
