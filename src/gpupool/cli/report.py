"""``gpupool report SPEC... [WORKLOADS...] --out report.html``: one self-contained HTML page a team can look
at — the GPU chain per pool, capacity and cost after simulation, every finding with its fix and rule docs,
Pending pods with the scheduler's words, and (``--current``) the changes and runbook steps."""

from __future__ import annotations

from pathlib import Path

import typer

from gpupool.cli.common import FailOn, config_option, fail_on_option, guard, no_config_option
from gpupool.cli.findings_options import plural


def register(app: typer.Typer) -> None:
    @app.command("report")
    @guard
    def report_cmd(
        files: list[Path] = typer.Argument(
            ...,
            metavar="SPEC... [WORKLOADS...]",
            help="Pool specs, Karpenter NodePools and AKSNodeClasses, and workload manifests (files or "
            "directories; told apart by kind).",
        ),
        out: Path = typer.Option(
            None, "--out", "-d", metavar="FILE", help="The HTML file to write (required)."
        ),
        old_output: str | None = typer.Option(None, "--output", "-o", hidden=True),
        exclude: list[str] = typer.Option(
            [], "--exclude", metavar="GLOB", help="Skip files and directories matching GLOB (repeatable).",
            show_default=False,
        ),
        current: str | None = typer.Option(
            None,
            "--current",
            metavar="AZ_JSON",
            help="The pools as they are (`az aks nodepool list -o json`, or pool specs): adds the changes "
            "and runbook steps.",
        ),
        snapshot: Path | None = typer.Option(
            None,
            "--snapshot",
            metavar="DIR",
            help="A cluster snapshot (gpupool doctor --collect DIR): adds doctor's findings and the "
            "cluster's Pending GPU pods.",
        ),
        kubernetes_version: str | None = typer.Option(
            None, "--kubernetes-version", "-k", metavar="X.Y[.Z]", help="Scheduler messages of this version."
        ),
        prices: Path | None = typer.Option(
            None, "--prices", metavar="FILE", help="Price table (YAML/JSON), as for gpupool simulate."
        ),
        skus: str | None = typer.Option(
            None, "--skus", metavar="FILE",
            help="az vm list-skus -o json: sizes the catalog lacks get its facts (vCPUs, memory, GPUs).",
        ),
        config: str | None = config_option(),
        no_config: bool = no_config_option(),
        fail_on: FailOn = fail_on_option(),
    ) -> None:
        """Write one HTML page: the GPU chain per pool and NodePool, capacity and cost, findings, Pending.

        The page is self-contained and works offline (inline CSS and SVG, no network, no external fonts;
        a strict Content-Security-Policy). It runs check (GP8xx too on Karpenter NodePools), lint (when
        workloads are given), simulate (with Node Auto Provisioning for the NodePools), with --current diff,
        and with --snapshot doctor. Everything from the input files is escaped.

        Pool specs or NodePools with error findings from check always exit 1, even with --fail-on none: the
        page shows why, but a spec AKS would refuse never passes (render and plan refuse it).

        Exit codes: 0 no finding at --fail-on or above, 1 otherwise (the page is written either way),
        2 bad input (nothing is written).

        Example: gpupool report examples/t4-driver-only.yaml examples/workloads/ --out report.html
        """
        from gpupool.atomicfile import write_atomic
        from gpupool.cli.common import config_exclude, discover_files, moved_destination, use_config, use_skus
        from gpupool.cli.diff import read_current
        from gpupool.findings import exit_code
        from gpupool.htmlpage.gather import gather
        from gpupool.htmlpage.model import build
        from gpupool.htmlpage.render import render
        from gpupool.simulate import load_prices

        output = moved_destination("report", out, old_output, "--out FILE (or -d FILE)")
        cfg = use_config(config, no_config)
        use_skus(skus)
        names = discover_files(files, config_exclude(cfg, "report", exclude))
        cur = read_current(current, None, None) if current else None
        table = load_prices(prices) if prices is not None else None
        res = gather(names, current=cur, current_path=current, kubernetes_version=kubernetes_version,
                     prices=table, snapshot=snapshot,
                     settle=(lambda found: cfg.apply("report", found)[0]) if cfg is not None else None)
        html = render(build(res))
        write_atomic(output, html)
        findings = list(res.check) + list(res.simulation.findings)
        if res.lint is not None:
            findings += res.lint.findings
        for d in res.diffs:
            findings += d.findings
        if res.doctor is not None:
            findings += res.doctor.findings
        node_pools = len(res.nap.node_pools) if res.nap else 0
        counted = plural(len(res.pools), "pool")
        if node_pools:
            counted += f", {plural(node_pools, 'NodePool')}"
        size = len(html.encode("utf-8")) // 1024 + 1
        typer.echo(f"gpupool: wrote {output} ({size} KiB, {counted})", err=True)
        errors = sum(1 for f in res.check if f.severity.value == "error")
        if errors:  # the page shows why; it never passes a spec AKS would refuse, whatever --fail-on says
            where = "the pool specs and NodePools" if node_pools else "the pool specs"
            typer.echo(f"gpupool: {plural(errors, 'error')} in {where}: nothing on the page can be "
                       "created as written (render and plan refuse these specs)", err=True)
            raise typer.Exit(1)
        raise typer.Exit(exit_code(findings, fail_on.severity))
