"""``gpupool doctor``: diagnose GPU problems on a running AKS cluster, live (read-only) or from a snapshot.

gpupool doctor                          # the kubeconfig's current context, read-only
gpupool doctor --context prod -o json
gpupool doctor --snapshot DIR           # what `--print-commands` or `--collect DIR` made
gpupool doctor --collect DIR            # write the snapshot (no Secrets), then diagnose it
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from gpupool.cli.common import guard
from gpupool.cli.findings_options import (
    FindingsOptions,
    Report,
    findings_options,
    finish,
    plural,
    summary_tail,
)


def register(app: typer.Typer) -> None:
    @app.command("doctor")
    @guard
    @findings_options("doctor")
    def doctor(
        snapshot: Path | None = typer.Option(
            None, "--snapshot", metavar="DIR", help="Diagnose a snapshot directory instead of a live cluster."
        ),
        context: str | None = typer.Option(None, "--context", help="kubeconfig context (default: current)."),
        kubeconfig: str | None = typer.Option(
            None, "--kubeconfig", help="kubeconfig file (default: $KUBECONFIG)."
        ),
        namespace: list[str] | None = typer.Option(
            None, "-n", "--namespace", help="Report workloads of these namespaces only (repeatable)."
        ),
        collect: Path | None = typer.Option(
            None,
            "--collect",
            metavar="DIR",
            help="Write the live cluster's snapshot to DIR (new), then diagnose it.",
        ),
        print_commands: bool = typer.Option(
            False,
            "--print-commands",
            help="Print the kubectl/az commands that make a snapshot by hand, and exit.",
        ),
        resource_group: str | None = typer.Option(
            None, "-g", "--resource-group", help="For --print-commands."
        ),
        cluster_name: str | None = typer.Option(None, "--cluster-name", help="For --print-commands."),
        timeout: float = typer.Option(15.0, "--timeout", help="Seconds per API call (live mode)."),
        log_budget: float = typer.Option(
            30.0,
            "--log-budget",
            metavar="SECONDS",
            help="Seconds for reading the GPU stack's pod logs, all together (live mode; each log read "
            "waits 5 s at most; pods on NotReady nodes are skipped). 0: read no logs.",
        ),
        ignore: list[str] | None = typer.Option(None, "--ignore", help="Rule IDs or names to skip."),
        pool: list[Path] | None = typer.Option(
            None,
            "--pool",
            metavar="SPEC",
            help="Pool specs (files or directories): compare the nodes with them.",
        ),
        exclude: list[str] = typer.Option(
            [], "--exclude", metavar="GLOB", help="Skip files and directories matching GLOB in --pool "
            "directories (repeatable).", show_default=False,
        ),
        opts: FindingsOptions = None,  # type: ignore[assignment]
    ) -> None:
        """Diagnose why GPUs are not used on an AKS cluster: nodes, driver, device plugin, resources, pods.

        Read-only. Exit 0: no error findings; 1: errors (see --fail-on); 2: unusable input, an unreachable
        cluster (refused, DNS, a connection that breaks or stalls mid-answer), or nodes/pods that cannot be
        read. A rule whose input could not be read (e.g. DaemonSets forbidden) says "cannot tell" (info)
        instead of concluding, and the summary lists what was not read.
        """
        from gpupool.cli.common import parse_ignores
        from gpupool.errors import InputError

        if print_commands:
            from gpupool.cluster.commands import snapshot_commands

            try:
                typer.echo(
                    snapshot_commands(context, resource_group, cluster_name, str(collect or "snapshot")),
                    nl=False,
                )
            except ValueError as e:
                raise InputError(None, None, f"--print-commands: {e}") from None
            return
        if snapshot is not None and (collect is not None or context or kubeconfig):
            raise InputError(
                None, None, "--snapshot reads a directory; --collect/--context/--kubeconfig are for live mode"
            )
        if not 0 < timeout <= 600:
            raise InputError(None, None, f"--timeout {timeout:g}: expected 0 < seconds <= 600")
        if not 0 <= log_budget <= 3600:
            raise InputError(None, None, f"--log-budget {log_budget:g}: expected 0 <= seconds <= 3600")
        ignored = parse_ignores(ignore)
        designed = None
        if pool:
            from gpupool.cli.common import load_pool_specs

            designed = load_pool_specs([str(p) for p in pool], exclude)  # bad specs: exit 2 first
        if snapshot is not None:
            from gpupool.cluster import read_snapshot

            snap = read_snapshot(snapshot)
        else:
            from gpupool.cluster.live import read_live

            snap = read_live(context, kubeconfig, timeout, log_budget=log_budget)
            if collect is not None:
                from gpupool.cluster import read_snapshot
                from gpupool.cluster.collect import write_snapshot

                snap = read_snapshot(write_snapshot(snap, collect))
                typer.echo(f"gpupool: snapshot written to {collect}", err=True)
        import gc

        from gpupool.doctor import diagnose

        # The snapshot's objects live to the end: keep the collector from rescanning them. Measured on top of
        # gcpolicy.batch (bench/doctor_scale.py, 2-core VM, 2026-12-06): without it, 5-15% more CPU.
        gc.freeze()

        result = diagnose(snap, namespaces=namespace, ignore=ignored, pools=designed)
        import dataclasses

        def as_json(show):  # type: ignore[no-untyped-def]
            return dataclasses.replace(result, findings=list(show)).to_dict()

        def as_text(show):  # type: ignore[no-untyped-def]
            typer.echo(text_report(dataclasses.replace(result, findings=list(show))), nl=False)

        finish(opts, Report(list(result.findings), ("gpupool.doctor.rules",), as_text, as_json,
                            empty=not result.summary.get("nodes"),
                            empty_note="nothing to check: the cluster has no node"))


# ---- the text output ------------------------------------------------------------------------------

TITLES = {  # chain stage -> its heading in the text output
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


def text_report(result: Any) -> str:
    """doctor's text output (a ``DoctorResult``): findings grouped along the chain (nodes -> driver -> device
    plugin -> advertised resources -> pods), each with its evidence and fix, then a one-line summary."""
    s = result.summary
    lines = [
        f"doctor: {_clean(result.source)}: {plural(s['nodes'], 'node')} ({s['gpuNodes']} GPU, "
        f"{s['gpuNodesAdvertising']} advertising "
        f"GPUs), {plural(s['pods'], 'pod')}, {plural(s['pendingGpuPods'], 'Pending GPU pod')}",
    ]
    if s.get("notRead"):
        lines.append("not read: " + _clean("; ".join(f"{k} ({v})" for k, v in s["notRead"].items())))
    if s.get("notInstalled"):
        lines.append(
            "not installed: "
            + _clean(", ".join(s["notInstalled"]))
            + f" (the cluster does not serve {'it' if len(s['notInstalled']) == 1 else 'them'})"
        )
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
