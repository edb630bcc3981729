"""``gpupool simulate FILES...``: will the workloads fit the pools? Placement, Pending messages exactly as
kube-scheduler prints them, cluster-autoscaler scale-up (and why it adds nothing), and the hourly bill."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from gpupool.cli.common import FailOn, guard
from gpupool.cli.findings_options import FindingsOptions, Report, findings_options, finish, plural


class AutoscalerModel(StrEnum):
    aks = "aks"
    exact = "exact"
    none = "none"


class Show(StrEnum):
    placements = "placements"


class Expander(StrEnum):
    random = "random"
    most_pods = "most-pods"
    least_waste = "least-waste"


_MODEL_TEXT = {
    "aks": "as on AKS (scale from zero uses a template built from the VM size)",
    "exact": "exact (templates are real nodes: MIG, time-slicing, reservations known)",
    "none": "off (pools stay at nodeCount)",
}


def _money(x: float | None) -> str:
    return "?" if x is None else f"{x:,.2f}"


def _amount(name: str, value: float) -> str:
    """``cpu 6.2``, ``memory 24.1Gi``, ``nvidia.com/gpu 3``."""
    if name in ("memory", "ephemeral-storage"):
        return f"{name} {value / 2**30:.1f}Gi"
    return f"{name} {value:g}"


def _gpu_cell(pool) -> str:  # type: ignore[no-untyped-def]
    items = [f"{k} {int(v['used'])} used, {int(v['free'])} free" for k, v in pool.gpu_resources().items()]
    return "; ".join(items) or "-"


def _print_placements(result, con) -> None:  # type: ignore[no-untyped-def]
    """Where each workload pod went, grouped per pool and node."""
    from rich.markup import escape

    by_pool: dict[str, dict[str, list]] = {}
    for p in result.placements:
        by_pool.setdefault(p.pool, {}).setdefault(p.node, []).append(p)
    con.print()
    con.print("[bold]Placements[/]")
    if not by_pool:
        con.print("  (no workload pod placed)")
    for pool in result.pools:
        nodes = by_pool.get(pool.name)
        if not nodes:
            continue
        count = sum(len(v) for v in nodes.values())
        con.print(f"  [bold]{escape(pool.name)}[/] ({plural(count, 'pod')} on {plural(len(nodes), 'node')})")
        for node, pods in nodes.items():
            names = ", ".join(p.pod for p in pods)
            con.print(f"    {escape(node)}: {escape(names)}")


def _print_text(result, con, show: set[str] = frozenset(), shown=None) -> None:  # type: ignore[no-untyped-def]
    from rich.markup import escape

    from gpupool.report.text import print_findings

    sim = result.simulation
    cluster = sim.pools[0].cluster_name if sim is not None and sim.pools else "?"
    con.print(
        f"[bold]Cluster {escape(cluster)}[/]  Kubernetes {escape(str(result.kubernetes_version))}  "
        f"autoscaler: {escape(_MODEL_TEXT[result.autoscaler])}"
    )
    if result.assumed:
        con.print(f"[dim]{escape(result.assumed)}[/]")
    if result.start is not None:
        st = result.start
        uses = ", ".join(_amount(k, v) for k, v in st["requests"].items()) or "nothing"
        con.print(
            f"started from {escape(st['source'])}: {plural(st['nodes'], 'node')}, "
            f"{plural(st['pods'], 'running pod')} "
            f"requesting {escape(uses)}"
        )
        for note in st["notes"]:
            con.print(f"[dim]note: {escape(note)}[/]")
    rows = [("POOL", "VM SIZE", "NODES", "ADDED", "PODS", "GPU RESOURCES", f"{result.prices.currency}/HOUR")]
    for p in result.pools:
        name = p.name + (" (cordoned)" if p.cordoned else "")
        added = f"+{p.added}" if p.added else "0"
        pods = (
            f"{p.pods}"
            + (f" +{p.daemonset_pods} ds" if p.daemonset_pods else "")
            + (f" +{p.existing_pods} running" if p.existing_pods else "")
        )
        rows.append((name, p.vm_size, str(p.nodes), added, pods, _gpu_cell(p), _money(p.cost_per_hour)))
    rows.append(
        ("total", "", str(sum(p.nodes for p in result.pools)), "", "", "", _money(result.cost_per_hour))
    )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    right = {2, 3, 4, 6}
    for n, r in enumerate(rows):
        cells = [c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(r)]
        line = escape("  ".join(cells).rstrip())
        con.print(f"[bold]{line}[/]" if n in (0, len(rows) - 1) else line)
    pr = result.prices
    est = ", estimates" if pr.any_estimate else ""
    if not pr.prices:  # the bundled table is empty: no public price source is recorded
        con.print("[dim]prices: none (gpupool bundles no prices; give --prices FILE or --fetch-prices)[/]")
    else:
        con.print(
            f"[dim]prices: {escape(pr.region)} {escape(pr.currency)}, asOf {escape(pr.as_of)} "
            f"({escape(pr.origin)}{est})[/]"
        )
    ups = [(p.name, s) for p in result.pools for s in p.scale_ups]
    if ups:
        con.print()
        con.print("[bold]Scale-ups[/]")
        for name, s in ups:
            who = ", ".join(f"{n} x {ref}" for ref, n in s.workloads.items())
            tmpl = " (template from the VM size)" if s.template == "aks-template" else ""
            con.print(f"  {escape(name)}: {escape(s.event)}{tmpl}  [dim]{escape(who)}[/]")
    if result.nap is not None:
        from gpupool.simulate.nap import print_text

        print_text(result.nap, con)
    con.print()
    ds = f" (+{result.daemonset_pods} DaemonSet pods as overhead)" if result.daemonset_pods else ""
    if not result.pending:
        con.print(f"[green]All {plural(result.placed, 'pod')} placed[/]{ds}.")
    else:
        con.print(f"Placed {plural(result.placed, 'pod')}{ds}; [bold red]{result.pending_pods} pending[/]:")
        for e in result.pending:
            more = f" ({e.pod} ...)" if e.count > 1 else f" ({e.pod})"
            con.print(f"  [bold]{escape(e.workload)}[/]: {plural(e.count, 'pod')}{escape(more)}")
            con.print(f"    scheduler:  {escape(e.message)}")
            if e.autoscaler:
                con.print(f"    autoscaler: {escape(e.autoscaler)}")
            if e.karpenter:
                con.print(f"    karpenter:  {escape(e.karpenter)}")
            if e.why:
                con.print(f"    why:        {escape(e.why)}")
            for fx in e.fixes:
                con.print(f"    fix ({escape(fx['rule'])}): {escape(fx['fix'])}")
    if "placements" in show:
        _print_placements(result, con)
    findings = result.findings if shown is None else shown
    if findings:
        con.print()
        con.print("[bold]Findings[/]")
        print_findings(findings, con)
    for note in result.notes:
        con.print(f"[dim]note: {escape(note)}[/]")


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    @guard
    @findings_options("simulate")
    def simulate_cmd(
        files: list[Path] = typer.Argument(
            ..., metavar="FILES...",
            help="Pool specs and workloads: files or directories (YAML; both may share files).",
        ),
        exclude: list[str] = typer.Option(
            [], "--exclude", metavar="GLOB", help="Skip files and directories matching GLOB (repeatable).",
            show_default=False,
        ),
        kubernetes_version: str | None = typer.Option(
            None,
            "--kubernetes-version",
            "-k",
            metavar="X.Y[.Z]",
            help="Scheduler messages of this version (default: the cluster's with --live/--snapshot, "
            "else the specs' kubernetesVersion, else AKS's default: N-1 of the GA minors).",
        ),
        autoscaler: AutoscalerModel = typer.Option(
            AutoscalerModel.aks,
            "--autoscaler",
            help="aks: the cluster autoscaler as on AKS (blind to MIG/time-slicing at zero nodes); "
            "exact: as if it knew the real nodes; none: no scale-up.",
        ),
        expander: Expander = typer.Option(
            Expander.random,
            "--expander",
            help="CA expander (AKS default random, modelled as the first pool).",
        ),
        prices: Path | None = typer.Option(
            None,
            "--prices",
            metavar="FILE",
            help="Price table (YAML/JSON: region, currency, asOf, source, prices).",
        ),
        fetch_prices: bool = typer.Option(
            False, "--fetch-prices", help="Fetch prices from the Azure Retail Prices API (network)."
        ),
        region: str | None = typer.Option(
            None, "--region", help="Region for --fetch-prices (default: the pools' location)."
        ),
        reservations: Path | None = typer.Option(
            None,
            "--reservations",
            metavar="FILE",
            help="Override the AKS reservation parameters (the reservations block of data/aks.yaml).",
        ),
        no_reservations: bool = typer.Option(False, "--no-reservations", help="Allocatable = capacity."),
        default_max_pods: int | None = typer.Option(
            None,
            "--default-max-pods",
            min=1,
            max=250,
            help="maxPods for pools that set none (default 110; Azure CNI Overlay uses 250).",
        ),
        cordon: list[str] = typer.Option(
            [], "--cordon", metavar="POOL", help="Mark a pool's nodes unschedulable."
        ),
        extended_resource_toleration: bool = typer.Option(
            False,
            "--extended-resource-toleration",
            help="Model the ExtendedResourceToleration admission plugin (GPU pods tolerate GPU taints).",
        ),
        ignore: list[str] = typer.Option(
            [],
            "--ignore",
            metavar="RULE",
            help="Leave out findings of these rules (IDs or names, e.g. GP504).",
        ),
        skus: str | None = typer.Option(
            None, "--skus", metavar="FILE",
            help="az vm list-skus -o json: sizes the catalog lacks get its facts (vCPUs, memory, GPUs).",
        ),
        snapshot: Path | None = typer.Option(
            None,
            "--snapshot",
            metavar="DIR",
            help="Start from the real cluster in a doctor snapshot (its nodes and running pods; pools from "
            "nodepools.json, the specs given, or the nodes).",
        ),
        live: bool = typer.Option(
            False, "--live", help="Start from the live cluster (kubeconfig, read-only; network)."
        ),
        context: str | None = typer.Option(None, "--context", help="kubeconfig context for --live."),
        kubeconfig: Path | None = typer.Option(
            None, "--kubeconfig", metavar="FILE", help="kubeconfig for --live (default: the client's)."
        ),
        show: list[Show] = typer.Option(
            [], "--show", metavar="WHAT", help="Also print: placements (each pod's node, grouped per pool)."
        ),
        opts: FindingsOptions = None,  # type: ignore[assignment]
    ) -> None:
        """Simulate scheduling, cluster-autoscaler scale-up and cost of workloads on the designed pools.

        Pools: GpuNodePool / NodePool (nodeCount nodes, growing up to autoscaler.maxCount). Workloads: Pod,
        Deployment, ReplicaSet, StatefulSet, Job, CronJob (one Job), DaemonSet (one pod per eligible node,
        counted as overhead), and PriorityClass objects.

        Exit codes: 0 every pod placed and no finding at --fail-on severity (default error); 1 some pod stays
        Pending or such a finding; 2 bad input. --fail-on none always exits 0 on good input.

        Example: gpupool simulate examples/a100-mig-mixed.yaml examples/workloads/training.yaml
        """
        from gpupool.cli.common import discover_files, parse_ignores, use_skus
        from gpupool.errors import InputError

        use_skus(skus)
        from gpupool.report import jsonout
        from gpupool.report.text import console
        from gpupool.simulate import (
            Options,
            Reservations,
            bundled,
            load_inputs,
            load_prices,
            load_reservations,
            simulate,
        )
        from gpupool.simulate import fetch_prices as fetch

        skip = parse_ignores(ignore)
        if prices is not None and fetch_prices:
            raise InputError(None, None, "use --prices FILE or --fetch-prices, not both")
        if reservations is not None and no_reservations:
            raise InputError(None, None, "use --reservations FILE or --no-reservations, not both")
        start = None
        if snapshot is not None and live:
            raise InputError(None, None, "use --snapshot DIR or --live, not both")
        if (context is not None or kubeconfig is not None) and not live:
            raise InputError(None, None, "--context and --kubeconfig are for --live")
        if snapshot is not None or live:
            from gpupool.simulate.start import load_start

            start = load_start(
                str(snapshot) if snapshot is not None else None,
                live,
                context,
                str(kubeconfig) if kubeconfig is not None else None,
            )
        from gpupool.cli.common import config_exclude

        names = discover_files(files, config_exclude(opts.config, "simulate", exclude))
        inputs = load_inputs(names, require_pools=start is None)
        table = load_prices(prices) if prices is not None else None
        if fetch_prices:
            where = region or next((p.location for p in inputs.pools if p.location), None) or bundled().region
            table = fetch(where, [p.vm_size for p in inputs.pools], bundled().currency)
        res = (
            Reservations.none()
            if no_reservations
            else (load_reservations(reservations) if reservations is not None else None)
        )
        result = simulate(
            inputs,
            Options(
                kubernetes_version=kubernetes_version,
                autoscaler=autoscaler.value,
                expander=expander.value,
                prices=table,
                reservations=res,
                default_max_pods=default_max_pods,
                cordon=tuple(cordon),
                extended_resource_toleration=extended_resource_toleration,
                start=start,
            ),
        )
        result.findings = [f for f in result.findings if f.rule not in skip]

        def as_json(shown):  # type: ignore[no-untyped-def]
            payload = result.to_dict()
            payload["findings"] = jsonout.findings_list(shown)
            return payload

        def as_text(shown):  # type: ignore[no-untyped-def]
            _print_text(result, console(), {s.value for s in show}, shown)

        pending = result.exit_code if opts.fail_on is not FailOn.none else 0  # Pending pods fail too
        empty = not inputs.workloads and not inputs.pools
        finish(opts, Report(list(result.findings), ("gpupool.simulate.rules",), as_text, as_json,
                            code=pending, empty=empty, pools=list(inputs.pools),
                            empty_note="nothing to check: no pool and no workload"))
