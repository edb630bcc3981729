"""doctor's text output: findings grouped along the chain (nodes -> driver -> device plugin -> advertised
resources -> pods), each with its evidence and fix, then a one-line summary."""

from __future__ import annotations

from gpupool.doctor.engine import DoctorResult

TITLES = {
    "input": "What could not be read",
    "nodes": "Pools and nodes",
    "driver": "Driver",
    "device-plugin": "Device plugin and GPU stack",
    "resources": "Advertised GPU resources and health",
    "pods": "Pods",
}


def _clean(text: object) -> str:
    """Printable only: log lines and names from a cluster may carry terminal escape sequences."""
    return "".join(ch if ch.isprintable() else "?" for ch in str(text))


def render(result: DoctorResult) -> str:
    from gpupool.cli.findings_options import plural, summary_tail

    s = result.summary
    lines = [
        f"doctor: {_clean(result.source)}: {plural(s['nodes'], 'node')} ({s['gpuNodes']} GPU, "
        f"{s['gpuNodesAdvertising']} advertising "
        f"GPUs), {plural(s['pods'], 'pod')}, {plural(s['pendingGpuPods'], 'Pending GPU pod')}",
    ]
    if s.get("notRead"):
        lines.append("not read: " + _clean("; ".join(f"{k} ({v})" for k, v in s["notRead"].items())))
    if s.get("assumed") and s["pendingGpuPods"]:  # the version only shapes the Pending pods' messages
        lines.append(f"doctor: the cluster gave no version: {s['assumed']}")
    current = None
    for f in result.findings:
        stage = f.extra.get("stage", "pods")
        if stage != current:
            current = stage
            lines += ["", f"== {TITLES.get(stage, stage)}"]
        lines.append(_clean(f"{f.severity.value} {f.rule} {f.object}: {f.message}"))
        for e in f.extra.get("evidence") or []:
            lines.append("    evidence: " + _clean(e))
        if f.fix:
            lines.append("    fix: " + _clean(f.fix))
    lines += ["", summary_tail(result.findings) if result.findings else "no problems found"]
    return "\n".join(lines) + "\n"
