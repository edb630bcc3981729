"""The commands that make a snapshot directory by hand (``gpupool doctor --print-commands``)."""

from __future__ import annotations

from gpupool.cluster.snapshot import KARPENTER_FILES, SNAPSHOT_FILES
from gpupool.shell import quote

LOG_PODS = "nvidia-device-plugin|gpu-feature-discovery|nvidia-driver|dcgm-exporter|nvidia-operator-validator"


def snapshot_commands(
    context: str | None = None,
    resource_group: str | None = None,
    cluster: str | None = None,
    directory: str = "snapshot",
    log_lines: int = 200,
) -> str:
    ctx = f" --context {quote(context)}" if context else ""
    lines = [
        "#!/usr/bin/env bash",
        "# A snapshot for: gpupool doctor --snapshot " + quote(directory),
        "# (read-only: get and logs only; no Secrets are read)",
        "set -euo pipefail",
        f"mkdir -p {quote(directory)}/logs",
        f"cd {quote(directory)}",
    ]
    for f in SNAPSHOT_FILES:
        cmd = f.command.format(context=ctx)
        if f.name == "nodepools.json":
            rg = quote(resource_group) if resource_group else "RESOURCE_GROUP"
            cl = quote(cluster) if cluster else "CLUSTER"
            cmd = f"az aks nodepool list -g {rg} --cluster-name {cl} -o json"
            if not (resource_group and cluster):
                lines.append("# optional, with your resource group and cluster name:")
                lines.append(f"# {cmd} > {f.name}")
                continue
        elif not f.required:
            cmd += f" > {f.name} || rm -f {f.name}"
            lines.append(
                cmd + ("  # optional" if f.name != "clusterpolicies.json" else "  # GPU Operator only")
            )
            continue
        lines.append(f"{cmd} > {f.name}")
    for f in KARPENTER_FILES:  # absent CRD (no NAP on the cluster): no file, which doctor reads as "no NAP"
        cmd = f.command.format(context=ctx)
        lines.append(f"{cmd} > {f.name} || rm -f {f.name}  # Node Auto Provisioning only")
    lines += [
        f"# last {log_lines} log lines of the GPU stack's pods (device plugin, driver, DCGM exporter, GFD),",
        "# init containers included (the GPU Operator's k8s-driver-manager)",
        f"kubectl{ctx} get pods -A --no-headers "
        "-o custom-columns=NS:.metadata.namespace,POD:.metadata.name |",
        f"  grep -E {quote(LOG_PODS)} |",
        "  while read -r ns pod; do",
        f'    for c in $(kubectl{ctx} get pod -n "$ns" "$pod" '
        "-o jsonpath='{.spec.initContainers[*].name} {.spec.containers[*].name}'); do",
        f'      kubectl{ctx} logs -n "$ns" "$pod" -c "$c" --tail {int(log_lines)} '
        '> "logs/${ns}_${pod}_${c}.log" || true',
        f'      kubectl{ctx} logs -p -n "$ns" "$pod" -c "$c" --tail {int(log_lines)} '
        '> "logs/${ns}_${pod}_${c}.previous.log" 2>/dev/null || rm -f "logs/${ns}_${pod}_${c}.previous.log"',
        "    done",
        "  done",
    ]
    return "\n".join(lines) + "\n"
