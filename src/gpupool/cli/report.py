"""``gpupool report SPEC... [WORKLOADS...] -o report.html``: one self-contained HTML page a team can look
at — the GPU chain per pool, capacity and cost after simulation, every finding with its fix and rule docs,
Pending pods with the scheduler's words, and (``--current``) the changes and runbook steps."""

from __future__ import annotations

from pathlib import Path

import typer

from gpupool.cli.common import FailOn, fail_on_option, guard

_SUFFIXES = (".yaml", ".yml", ".json")


def expand(paths: list[Path]) -> list[str]:
    """Files as given; directories -> their YAML/JSON files (recursively, sorted)."""
    from gpupool.errors import InputError

    out: list[str] = []
    for p in paths:
        if p.is_dir():
            found = sorted(str(f) for f in p.rglob("*") if f.is_file() and f.suffix.lower() in _SUFFIXES)
            if not found:
                raise InputError(str(p), None, "no .yaml, .yml or .json file in this directory")
            out.extend(found)
        elif p.exists():
            out.append(str(p))
        else:
            raise InputError(str(p), None, "no such file or directory")
    return list(dict.fromkeys(out))


def register(app: typer.Typer) -> None:
    @app.command("report")
    @guard
    def report_cmd(
        files: list[Path] = typer.Argument(
            ...,
            metavar="SPEC... [WORKLOADS...]",
            help="Pool specs and workload manifests (files or directories; told apart by kind).",
        ),
        output: Path = typer.Option(..., "--output", "-o", metavar="FILE", help="The HTML file to write."),
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
        fail_on: FailOn = fail_on_option(),
    ) -> None:
        """Write one HTML page: the GPU chain per pool, capacity and cost, findings, Pending pods.

        The page is self-contained and works offline (inline CSS and SVG, no network, no external fonts;
        a strict Content-Security-Policy). It runs check, lint (when workloads are given), simulate, with
        --current diff, and with --snapshot doctor. Everything from the input files is escaped.

        Exit codes: 0 no finding at --fail-on or above, 1 otherwise (the page is written either way),
        2 bad input (nothing is written).

        Example: gpupool report examples/t4-driver-only.yaml examples/workloads/ -o report.html
        """
        from gpupool.cli.common import use_skus
        from gpupool.cli.diff import read_current, write_atomic
        from gpupool.findings import exit_code
        from gpupool.htmlpage.gather import gather
        from gpupool.htmlpage.model import build
        from gpupool.htmlpage.render import render
        from gpupool.simulate import load_prices

        use_skus(skus)
        names = expand(files)
        cur = read_current(current, None, None) if current else None
        table = load_prices(prices) if prices is not None else None
        res = gather(names, current=cur, current_path=current, kubernetes_version=kubernetes_version,
                     prices=table, snapshot=snapshot)
        html = render(build(res))
        write_atomic(output, html)
        findings = list(res.check) + list(res.simulation.findings)
        if res.lint is not None:
            findings += res.lint.findings
        for d in res.diffs:
            findings += d.findings
        if res.doctor is not None:
            findings += res.doctor.findings
        typer.echo(f"gpupool: wrote {output} ({len(html.encode('utf-8')) // 1024 + 1} KiB, "
                   f"{len(res.pools)} pool(s))", err=True)
        raise typer.Exit(exit_code(findings, fail_on.severity))
