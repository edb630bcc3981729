"""``gpupool plan SPEC...``: the main job — check the design, then show per pool what each node will
advertise, what is final at creation, and the command that creates it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from gpupool.cli.common import FailOn, guard
from gpupool.cli.findings_options import FindingsOptions, Report, findings_options, finish


def _print_text(plan, con, fail_on: FailOn = FailOn.error, shown=None, every=None, node_pools=0) -> None:  # type: ignore[no-untyped-def]
    from rich.markup import escape
    from rich.table import Table

    from gpupool import shell
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
    every = plan.findings if every is None else every  # design and NodePool findings (before --severity)
    findings = every if shown is None else shown
    if findings:
        con.print("[bold]Findings[/]")
        print_findings(findings, con)
    from gpupool.cli.check import summary_line

    files = len({pp.pool.where.path for pp in plan.pools}) if not node_pools else None
    from gpupool.design.check import assumed_version

    assumed = assumed_version([pp.pool for pp in plan.pools])
    if assumed:
        con.print(assumed, markup=False, style="dim")
    if files is None:  # with NodePools: count the files of both
        files = len({f.path for f in every} | {pp.pool.where.path for pp in plan.pools}) or 1
    con.print(summary_line(findings, len(plan.pools), files, 0, fail_on, node_pools), markup=False)
    if not any(f.severity.value == "error" for f in every) and plan.pools:
        con.print(
            "[dim]Next: gpupool render SPEC --out out/  (az script, ARM, Terraform, Kubernetes manifests)[/]"
        )


def print_node_pools(plans: list[Any], con: Any) -> None:
    """The NodePool section of ``gpupool plan``'s text output."""
    from rich.markup import escape
    from rich.table import Table

    from gpupool.nap import plan as nap_plan
    from gpupool.report.text import heading

    for pp in plans:
        d = pp.to_dict()
        heading(con, f"[bold]NodePool {escape(d['name'])}[/]  (Node Auto Provisioning)")
        given = f"AKSNodeClass {d['nodeClass']}"
        nc = "the CRD defaults (not among the inputs)" if d["nodeClassAssumed"] else given
        con.print(escape(f"node class: {nc}; image family {d['imageFamily']}, gpu.mode {d['gpuMode']}; "
                         f"weight {d['weight']}; taints {', '.join(d['taints']) or 'none'}; "
                         f"consolidation {d['consolidationPolicy']}, expireAfter {d['expireAfter']}"),
                  markup=True)
        if d["limits"]:
            con.print(escape("limits: " + ", ".join(f"{k} {v}" for k, v in d["limits"].items())))
        t = Table(box=None, pad_edge=False, show_edge=False)
        for col in ("size", "vCPU", "memory GiB", "GPUs", "GPU model", "advertises"):
            t.add_column(col, no_wrap=True)
        for s in d["sizes"][:nap_plan.SHOWN]:
            adv = ", ".join(f"{k}: {v}" for k, v in s["advertised"].items()) or "-"
            t.add_row(escape(s["name"]), str(s["vcpu"]), f"{s['memoryGiB']:g}", str(s["gpus"]),
                      escape(s["gpuModel"] or "-"), escape(adv))
        if d["sizes"]:
            con.print(f"can create {len(d['sizes'])} size{'s' if len(d['sizes']) != 1 else ''}:")
            con.print(t)
            if len(d["sizes"]) > nap_plan.SHOWN:
                con.print(f"[dim]  ... and {len(d['sizes']) - nap_plan.SHOWN} more (-o json lists all)[/]")
        else:
            con.print("[yellow]can create no size gpupool knows[/]")
        if d["unsure"]:
            con.print(f"[dim]cannot tell for {len(d['unsure'])} more (a label gpupool does not know per "
                      "size, "
                      "or a size of NAP's GPU registry the catalog lacks)[/]")
        for r in d["ruledOut"][:3]:
            con.print(escape(f"ruled out: {r['name']}: {r['why']}"), style="dim")
        con.print()


def register(app: typer.Typer) -> None:
    @app.command("plan")
    @guard
    @findings_options("plan")
    def plan_cmd(
        specs: list[Path] = typer.Argument(
            ..., help="Pool spec files or directories (YAML, one or more documents each).", metavar="SPEC..."
        ),
        exclude: list[str] = typer.Option(
            [], "--exclude", metavar="GLOB", help="Skip files and directories matching GLOB (repeatable).",
            show_default=False,
        ),
        skus: str | None = typer.Option(
            None, "--skus", metavar="FILE",
            help="az vm list-skus -o json: sizes the catalog lacks get its facts (vCPUs, memory, GPUs).",
        ),
        opts: FindingsOptions = None,  # type: ignore[assignment]
    ) -> None:
        """Check the design; show what each node advertises, what is final at creation, and the az command.

        The main job: run it before anything is created. Per pool it prints the hardware, the GPU resources
        each node will advertise (MIG profile, strategy and time-slicing applied), the settings that need a
        new pool to change, and the exact `az aks nodepool add` command; then the design findings.

        A spec with error findings is refused: no command is printed (render writes nothing for it).

        Exit codes: 0 no finding at --fail-on, 1 findings at --fail-on (default error), 2 bad input
        (the same in every command: see the README).

        Example: gpupool plan examples/t4-driver-only.yaml
        """
        from gpupool.cli.common import config_exclude, use_skus
        from gpupool.cli.pool_inputs import load_inputs
        from gpupool.design.check import assumed_version
        from gpupool.findings import sort_key
        from gpupool.nap import plan as nap_plan
        from gpupool.nap.check import check_nap
        from gpupool.render.plan import plan_pools
        from gpupool.report import jsonout
        from gpupool.report.text import console

        use_skus(skus)
        pools, nap = load_inputs(specs, config_exclude(opts.config, "plan", exclude), allow_empty=True)
        left_out = 0

        def settle(found):  # type: ignore[no-untyped-def]
            nonlocal left_out
            if opts.config is None:
                return found
            kept, left_out = opts.config.apply("plan", found)
            return kept

        plan = plan_pools(pools, settle)  # the config settles the findings before a spec is refused
        node_pools = nap_plan.plan_node_pools(nap)
        findings = sorted([*plan.findings, *check_nap(nap, pools)], key=sort_key)

        def as_json(show):  # type: ignore[no-untyped-def]
            return {
                "pools": [p.to_dict() for p in plan.pools],
                "nodePools": [p.to_dict() for p in node_pools],
                "findings": jsonout.findings_list(show),
                "refused": plan.refused,
                "assumed": assumed_version(pools),
            }

        def as_text(show):  # type: ignore[no-untyped-def]
            con = console()
            print_node_pools(node_pools, con)
            _print_text(plan, con, opts.fail_on, show, findings, len(node_pools))

        objects = [(p.where.path, p.label, "valid") for p in (*pools, *nap.node_pools, *nap.node_classes)]
        finish(opts, Report(findings, ("gpupool.design.rules", "gpupool.nap.rules"), as_text, as_json,
                            empty=not pools and not nap, empty_note="nothing to check: no pool spec",
                            objects=objects, pools=pools, left_out=left_out))
