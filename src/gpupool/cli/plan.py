"""``gpupool plan SPEC...``: the main job — check the design, then show per pool what each node will
advertise, what is final at creation, and the command that creates it."""

from __future__ import annotations

from pathlib import Path

import typer

from gpupool.cli.common import FailOn, Format, fail_on_option, guard


def _print_text(plan, con, fail_on: FailOn = FailOn.error) -> None:  # type: ignore[no-untyped-def]
    from rich.markup import escape
    from rich.table import Table

    from gpupool.render import shell
    from gpupool.report.text import heading, print_findings

    for pp in plan.pools:
        d = pp.to_dict()
        heading(con, f"[bold]{escape(d['kind'])} {escape(d['name'])}[/]  cluster {escape(d['cluster'])}")
        t = Table(show_header=False, box=None, pad_edge=False)
        t.add_column(style="dim", no_wrap=True)
        t.add_column()
        hw = d["vmSize"]
        if d["gpuModel"]:
            hw += f"  ({d['gpusPerNodeText']} x {d['gpuModel']}, {d['vcpu']} vCPU, {d['memoryGiB']:g} GiB)"
        elif d["vcpu"]:
            hw += f"  ({d['vcpu']} vCPU, {d['memoryGiB']:g} GiB)"
        t.add_row("VM size", escape(hw))
        n = d["nodes"]
        scale = f"{n['min']}..{n['max']} (autoscaler)" if pp.pool.autoscaler else f"{n['initial']} (fixed)"
        t.add_row("nodes", scale)
        t.add_row("mode / OS / priority", f"{d['mode']} / {escape(d['osSku'])} / {d['priority']}")
        t.add_row("taints", escape(", ".join(d["taints"]) or "none"))
        if d["advertised"]:
            per_node = ", ".join(f"{k}: {v}" for k, v in d["advertised"].items())
            total = ", ".join(
                f"{k}: {d['advertisedTotal']['min'][k]}..{d['advertisedTotal']['max'][k]}"
                for k in d["advertised"]
            )
            t.add_row("advertised per node", f"[bold green]{escape(per_node)}[/]")
            t.add_row("advertised in pool", escape(total))
        elif pp.pool.is_gpu_pool:
            t.add_row("advertised per node", "[yellow]no GPU resource[/]")
        t.add_row("device plugin", escape(d["devicePlugin"]))
        for note in d["notes"]:
            t.add_row("", f"[dim]- {escape(note)}[/]")
        con.print(t)
        if pp.final:
            con.print("[bold]Final at creation[/] (changing these needs a new pool):")
            for s in pp.final:
                con.print(f"  {escape(s.field)} = [bold]{escape(s.value)}[/]  [dim]{escape(s.reason)}[/]")
        if plan.refused:
            con.print("[bold red]Not planned:[/] the specs have errors (below); fix them first")
        else:
            con.print("[bold]Create it with:[/]")
        for argv in pp.commands:
            con.print(escape(shell.command(argv, 4)), soft_wrap=True)
        con.print()
    if plan.findings:
        con.print("[bold]Findings[/]")
        print_findings(plan.findings, con)
    from gpupool.cli.check import summary_line

    files = len({pp.pool.where.path for pp in plan.pools})
    from gpupool.design.check import assumed_version

    assumed = assumed_version([pp.pool for pp in plan.pools])
    if assumed:
        con.print(assumed, markup=False, style="dim")
    con.print(summary_line(plan.findings, len(plan.pools), files, 0, fail_on), markup=False)
    if not any(f.severity.value == "error" for f in plan.findings):
        con.print(
            "[dim]Next: gpupool render SPEC -o out/  (az script, ARM, Terraform, Kubernetes manifests)[/]"
        )


def register(app: typer.Typer) -> None:
    @app.command("plan")
    @guard
    def plan_cmd(
        specs: list[Path] = typer.Argument(
            ..., help="Pool spec files (YAML, one or more documents each).", metavar="SPEC..."
        ),
        fail_on: FailOn = fail_on_option(),
        output: Format = typer.Option(
            Format.text, "--output", "-o", help="text for people, json for machines."
        ),
        skus: str | None = typer.Option(
            None, "--skus", metavar="FILE",
            help="az vm list-skus -o json: sizes the catalog lacks get its facts (vCPUs, memory, GPUs).",
        ),
    ) -> None:
        """Check the design; show what each node advertises, what is final at creation, and the az command.

        The main job: run it before anything is created. Per pool it prints the hardware, the GPU resources
        each node will advertise (MIG profile, strategy and time-slicing applied), the settings that need a
        new pool to change, and the exact `az aks nodepool add` command; then the design findings.

        A spec with error findings is refused: no command is printed (render writes nothing for it).

        Exit codes: 0 no error finding, 1 error findings (or warnings with --fail-on warning), 2 bad input.

        Example: gpupool plan examples/t4-driver-only.yaml
        """
        from gpupool.cli.common import use_skus
        from gpupool.design.check import assumed_version
        from gpupool.design.plan import plan_pools
        from gpupool.findings import exit_code
        from gpupool.report import jsonout
        from gpupool.report.text import console
        from gpupool.spec import load_many

        use_skus(skus)
        pools = load_many(specs)
        plan = plan_pools(pools)
        if output is Format.json:
            typer.echo(
                jsonout.dumps(
                    {
                        "pools": [p.to_dict() for p in plan.pools],
                        "findings": jsonout.findings_list(plan.findings),
                        "refused": plan.refused,
                        "assumed": assumed_version(pools),
                    }
                )
            )
        else:
            _print_text(plan, console(), fail_on)
        raise typer.Exit(exit_code(plan.findings, fail_on.severity))
