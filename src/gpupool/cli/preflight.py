"""``gpupool preflight SPEC...``: can these pools be created here, now? (GP7xx)

Reads what the Azure CLI prints (``--from DIR`` or one flag per file; ``--print-commands`` prints the az
commands that make them), or asks Azure itself with ``--live`` (read-only, Azure SDK for Python, the
optional ``azure`` extra). Same outputs and exit codes as ``check``.
"""

from __future__ import annotations

import typer

from gpupool.cli.common import guard, parse_ignores
from gpupool.cli.findings_options import FindingsOptions, findings_options, finish

HELP = "\n\n".join(
    (
        "Check pool specs against the subscription, region and cluster before `az aks nodepool add` runs: "
        "the VM size offered in the region and zones (and not restricted for the subscription), vCPU quota "
        "for maxCount nodes plus the upgrade surge (family, regional total, Spot), the Kubernetes version "
        "offered in the region, allowed for the OS SKU and within the control plane's skew, the network's "
        "pods per node, and the Azure CLI "
        "and aks-preview versions the rendered script needs.",
        "Inputs: files the az CLI makes (print the commands with --print-commands; read them with --from "
        "DIR), or --live (read-only, needs the azure extra: pip install '.[azure]' in the gpupool "
        "checkout). A check whose input is missing is skipped and named.",
        "Exit codes (the same in every command, see the README): 0 clean; 1 findings at --fail-on (default "
        "error); 2 unusable input.",
    )
)

EPILOG = (
    "Examples:  gpupool preflight pool.yaml --print-commands  |  "
    "gpupool preflight pool.yaml --from preflight-inputs"
    "  |  gpupool preflight pool.yaml --live -o json"
)


def print_commands(  # type: ignore[no-untyped-def]
    pools, out_dir: str, location: str | None, specs: list[str] | None = None
) -> str:
    """The az commands that make preflight's input files, every value shell-quoted; the comment at the top
    is the preflight command that reads them (the specs as given)."""
    from gpupool.errors import InputError, safe_text
    from gpupool.preflight.inputs import facts
    from gpupool.shell import quote as shell_quote

    def quote(value: str) -> str:
        """One shell word, quoted only where the shell needs it (shlex rules); never a control character."""
        import shlex

        try:
            shell_quote(value)
            return shlex.quote(value)
        except ValueError:
            raise InputError(
                None,
                None,
                f"{safe_text(value, 80)}: a control character cannot go into the az commands",
                "rename the file or folder",
            ) from None

    names = facts()["files"]
    d = out_dir.rstrip("/") or "."

    def f(key: str, suffix: str = "") -> str:
        base = names[key]
        if suffix:
            stem, dot, ext = base.rpartition(".")
            base = f"{stem}-{suffix}.{ext}" if dot else f"{base}-{suffix}"
        return quote(f"{d}/{base}")

    given = " ".join(quote(x) for x in specs) if specs else "SPEC"
    lines = [
        "# gpupool preflight inputs (read-only az commands); then: "
        f"gpupool preflight {given} --from {quote(d)}",
        f"mkdir -p {quote(d)}",
    ]
    regions = {p.location for p in pools if p.location} or ({location} if location else set())
    clusters = dict.fromkeys((p.resource_group, p.cluster_name) for p in pools)
    many = len(clusters) > 1
    for rg, name in clusters:
        suffix = name if many else ""
        lines.append(f"az aks show -g {quote(rg)} -n {quote(name)} -o json > {f('cluster', suffix)}")
    if len(regions) > 1:
        raise InputError(
            None,
            None,
            f"the specs name several regions ({', '.join(sorted(regions))})",
            "run gpupool preflight once per region, with the specs of that region",
        )
    if regions:
        region = quote(next(iter(regions)))
    else:
        rg, name = next(iter(clusters))
        lines.append(f'REGION="$(az aks show -g {quote(rg)} -n {quote(name)} --query location -o tsv)"')
        region = '"$REGION"'
    lines += [
        f"az vm list-skus -l {region} --resource-type virtualMachines --all -o json > {f('skus')}",
        f"az vm list-usage -l {region} -o json > {f('usage')}",
        f"az aks get-versions -l {region} -o json > {f('versions')}",
    ]
    lines.append(f"az version -o json > {f('azVersion')}")
    return "\n".join(lines) + "\n"


def register(app: typer.Typer) -> None:
    @app.command(
        "preflight",
        help=HELP,
        epilog=EPILOG,
        short_help="Can the pools be created here, now? (region, quota, versions)",
    )
    @guard
    @findings_options("preflight")
    def preflight(
        specs: list[str] = typer.Argument(
            ..., metavar="SPEC...", help="Pool spec files or directories; - is stdin.", show_default=False
        ),
        from_dir: str | None = typer.Option(
            None,
            "--from",
            metavar="DIR",
            help="Folder with skus.json, usage.json, versions.json, cluster*.json, az-version.json.",
        ),
        skus: str | None = typer.Option(
            None, "--skus", metavar="FILE", help="az vm list-skus ... --all -o json"
        ),
        usage: str | None = typer.Option(None, "--usage", metavar="FILE", help="az vm list-usage -o json"),
        versions: str | None = typer.Option(
            None, "--versions", metavar="FILE", help="az aks get-versions -o json"
        ),
        cluster: list[str] = typer.Option(
            [], "--cluster", metavar="FILE", help="az aks show -o json (repeat).", show_default=False
        ),
        az_version: str | None = typer.Option(
            None, "--az-version", metavar="FILE", help="az version -o json"
        ),
        location: str | None = typer.Option(
            None, "--location", "-l", help="Region, when specs and cluster name none."
        ),
        commands: bool = typer.Option(
            False, "--print-commands", help="Print the az commands that make the inputs."
        ),
        live: bool = typer.Option(False, "--live", help="Ask Azure (read-only, Azure SDK; network)."),
        subscription: str | None = typer.Option(
            None, "--subscription", help="Subscription ID for --live (default: AZURE_SUBSCRIPTION_ID)."
        ),
        timeout: float = typer.Option(
            30.0, "--timeout", min=0.1, max=3600, help="Seconds per Azure request with --live."
        ),
        ignore: list[str] = typer.Option(
            [], "--ignore", metavar="RULE", help="Skip a rule (ID or name).", show_default=False
        ),
        exclude: list[str] = typer.Option(
            [], "--exclude", metavar="GLOB", help="Skip files and directories matching GLOB (repeatable).",
            show_default=False,
        ),
        opts: FindingsOptions = None,  # type: ignore[assignment]
    ) -> None:
        from gpupool.cli.common import load_pool_specs
        from gpupool.errors import InputError

        pools = load_pool_specs(specs, exclude, allow_empty=True)
        if commands:
            typer.echo(print_commands(pools, from_dir or "preflight-inputs", location, specs), nl=False)
            return
        if live:
            if any((from_dir, skus, usage, versions, cluster)):
                raise InputError(
                    None,
                    None,
                    "--live reads Azure itself; it takes no input files",
                    "only --az-version FILE (the local CLI's versions) goes with --live",
                )
            import dataclasses

            from gpupool.preflight.inputs import load_az_version
            from gpupool.preflight.live import load_live

            inputs = load_live(pools, subscription=subscription, location=location, timeout=timeout)
            if az_version:
                inputs = dataclasses.replace(inputs, az_version=load_az_version(az_version))
        else:
            from gpupool.preflight.inputs import load_inputs

            if not any((from_dir, skus, usage, versions, cluster, az_version)):
                raise InputError(
                    None,
                    None,
                    "no inputs: give --from DIR (or --skus/--usage/--versions/--cluster/--az-version)",
                    "make them with: gpupool preflight SPEC --print-commands (or use --live)",
                )
            inputs = load_inputs(from_dir, skus, usage, versions, cluster, az_version, location)
        _report(pools, inputs, ignore, opts)


def _report(pools, inputs, ignore: list[str], opts: FindingsOptions) -> None:  # type: ignore[no-untyped-def]
    from gpupool.cli.check import pools_report
    from gpupool.preflight.engine import run

    skip = parse_ignores(ignore)
    result = run(pools, inputs)
    findings = [f for f in result.findings if f.rule not in skip]
    notes = [(f"not checked: {s}", None) for s in result.skipped]
    ignored = len(result.findings) - len(findings)
    extra = {"source": inputs.source, **result.to_dict()}
    report = pools_report(pools, findings, ignored, opts.fail_on, "gpupool.preflight.rules", extra, notes)
    finish(opts, report)
