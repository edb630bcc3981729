"""`gpupool render SPEC --out DIR`: write the az script, ARM, Terraform and Kubernetes manifests for the
pools.

Invalid specs render nothing: the design rules run first and any error finding exits 1 before a file is
written; with ``--fail-on warning`` (or ``info``) findings of that severity block rendering too.
Bad input (unreadable spec, unknown format, non-empty output directory) is one line and exit 2.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from gpupool.cli.common import FailOn, config_option, fail_on_option, guard, no_config_option
from gpupool.cli.findings_options import plural
from gpupool.errors import InputError
from gpupool.findings import Finding, Severity
from gpupool.spec.model import PoolSpec


def run_checks(pools: list[PoolSpec]) -> list[Finding]:
    """The design rules (``gpupool.design.check.check_pools``), or none while that engine is not there."""
    try:
        from gpupool.design.check import check_pools
    except ImportError:
        return []
    return list(check_pools(pools))


def blocking_findings(findings: list[Finding], fail_on: FailOn) -> list[Finding]:
    """Findings that stop a render: every error (AKS would reject the pool), and with ``--fail-on warning`` or
    ``info`` the findings at least that severe. ``--fail-on none`` does not render invalid pools either."""
    level = fail_on.severity
    return [
        f
        for f in findings
        if f.severity is Severity.ERROR or (level is not None and f.severity.rank >= level.rank)
    ]


def parse_formats(values: list[str] | None) -> tuple[str, ...]:
    """``--format az --format k8s`` or ``--format az,k8s``; default: all."""
    from gpupool.render import FORMATS

    if not values:
        return FORMATS
    chosen: list[str] = []
    for v in values:
        for part in v.split(","):
            name = part.strip().lower()
            if not name:
                continue
            if name not in FORMATS:
                raise InputError(None, None, f"unknown --format {part.strip()!r}",
                                 f"choose from {', '.join(FORMATS)}")
            if name not in chosen:
                chosen.append(name)
    if not chosen:
        raise InputError(None, None, "--format is empty", f"choose from {', '.join(FORMATS)}")
    return tuple(chosen)


def register(app: typer.Typer) -> None:
    @app.command("render")
    @guard
    def render(
        specs: list[str] = typer.Argument(
            ..., metavar="SPEC...",
            help="Pool spec files or directories (YAML, GpuNodePool/NodePool); - for stdin.",
        ),
        out: Path = typer.Option(None, "--out", "-d", metavar="DIR", help="Output directory (required)."),
        old_output: str | None = typer.Option(None, "--output", "-o", hidden=True),
        fmt: list[str] | None = typer.Option(
            None, "--format", "-f",
            help="What to render: az, arm, terraform, k8s (repeat or comma-separate; default: all).",
        ),
        exclude: list[str] = typer.Option(
            [], "--exclude", metavar="GLOB", help="Skip files and directories matching GLOB (repeatable).",
            show_default=False,
        ),
        force: bool = typer.Option(False, "--force", help="Write into a non-empty directory, replacing "
                                                           "the files of a previous render."),
        fail_on: FailOn = fail_on_option(),
        skus: str | None = typer.Option(
            None, "--skus", metavar="FILE",
            help="az vm list-skus -o json: sizes the catalog lacks get its facts (vCPUs, memory, GPUs).",
        ),
        cluster: str | None = typer.Option(
            None, "--cluster", metavar="RESOURCE_GROUP/NAME",
            help="The cluster that gets Node Auto Provisioning (Karpenter NodePools name none; default: the "
            "one cluster the pool specs name).",
        ),
        config: str | None = config_option(),
        no_config: bool = no_config_option(),
    ) -> None:
        """Render the pools of the specs: az CLI script, ARM templates, Terraform and Kubernetes manifests.

        Karpenter NodePools and AKSNodeClasses among the specs render as the step that turns Node Auto
        Provisioning on (az aks update --node-provisioning-mode Auto) and their manifests.

        Nothing is written when the spec has design errors, or findings at the --fail-on severity (exit 1).
        Writing is atomic.
        """
        from gpupool.cli.common import (
            config_exclude,
            moved_destination,
            use_config,
            use_skus,
        )
        from gpupool.render import write_all
        from gpupool.report.text import console, print_findings

        output = moved_destination("render", out, old_output, "--out DIR (or -d DIR)")
        formats = parse_formats(fmt)
        cfg = use_config(config, no_config)
        use_skus(skus)
        from gpupool.cli.pool_inputs import load_inputs
        from gpupool.nap.check import check_nap
        from gpupool.render.nap import cluster_for

        pools, nap = load_inputs(specs, config_exclude(cfg, "render", exclude))
        target = cluster_for(nap, pools, cluster)
        findings = run_checks(pools) + (check_nap(nap, pools) if nap else [])
        if cfg is not None:  # the config's rules levels and ignore entries, as check applies them
            findings, _ = cfg.apply("render", findings)
        blocking = blocking_findings(findings, fail_on)
        if blocking:
            con = console(sys.stdout)
            print_findings(findings, con)
            n = sum(1 for f in blocking if f.severity is Severity.ERROR)
            what = (plural(n, "error") if n
                    else f"{plural(len(blocking), 'finding')} at --fail-on {fail_on.value}")
            typer.echo(f"gpupool: {what} in {', '.join(specs)}; nothing rendered", err=True)
            raise typer.Exit(1)
        if findings:
            print_findings(findings, console(sys.stderr))
        try:
            written = write_all(pools, output, formats=formats, force=force, nap=nap, cluster=target)
        except OSError as e:
            raise InputError(str(output), None, f"cannot write: {e.strerror or e}") from None
        typer.echo(f"wrote {len(written)} files to {output}:")
        for path in written:
            typer.echo(f"  {path}")
