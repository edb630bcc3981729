"""``gpupool check``: run the design rules (GP1xx) over pool specs and report findings."""

from __future__ import annotations

from typing import Any

import typer

from gpupool.cli.common import FailOn, guard, parse_ignores
from gpupool.cli.findings_options import FindingsOptions, Report, findings_options, finish, plural
from gpupool.design.check import assumed_version, check_pools
from gpupool.findings import Finding
from gpupool.report import jsonout
from gpupool.report.text import console, print_findings, summary_counts

HELP = "\n\n".join(
    (
        "Check GPU node pool specs against AKS's rules before anything is created.",
        "Each finding names its rule (GP101..), the file and line, what is wrong and how to fix it. "
        "The rules cover VM sizes (unknown, retired NCv3, unsupported NVv4, below the recommended minimum), "
        "the AMD MI300X path, MIG profiles and strategies, managed GPU and Windows limits, OS SKUs, node "
        "counts and the autoscaler, taints, pool names, and the workload's CUDA version against the driver "
        "AKS installs.",
        "Severity follows evidence: error = a primary source proves it cannot work (Azure has no such "
        "size, the hardware lacks the feature, AKS refuses the combination, it is retired); warning = a "
        "documented limit, a preview, or a fact no primary source confirms; info = worth knowing.",
        "A spec without kubernetesVersion is judged on AKS's default: N-1 of the minors whose AKS GA is "
        "confirmed (1.35 on 2026-12-03); the output says so.",
        "Exit codes (the same in every command, see the README): 0 clean; 1 findings at --fail-on (default "
        "error); 2 unusable input (one line file:line: message on stderr); 4 nothing to check with "
        "--fail-if-empty.",
        "All rules: gpupool rules. One rule in full (why, fix, source, examples): gpupool explain GP105.",
    )
)

EPILOG = (
    "Examples:  gpupool check examples/t4-driver-only.yaml  |  "
    "gpupool check pools/*.yaml --ignore GP128 --strict  |  gpupool check pool.yaml -o json"
)


def effective_fail_on(fail_on: FailOn, strict: bool) -> FailOn:
    """``--strict`` is kept as an alias of ``--fail-on warning`` (it never lowers an explicit info)."""
    return FailOn.warning if strict and fail_on is FailOn.error else fail_on


_plural = plural


def summary_line(
    findings: list[Finding], pools: int, files: int, ignored: int, fail_on: FailOn, node_pools: int = 0
) -> str:
    c = summary_counts(findings)
    nap = f", {_plural(node_pools, 'NodePool')}" if node_pools else ""
    text = (
        f"{_plural(pools, 'pool')}{nap} in {_plural(files, 'file')}: {_plural(c['error'], 'error')}, "
        f"{_plural(c['warning'], 'warning')}, {_plural(c['info'], 'info')}"
    )
    if ignored:
        text += f" ({ignored} ignored)"
    if fail_on is FailOn.warning and c["warning"] and not c["error"]:
        text += "; --fail-on warning: warnings fail"
    return text


def pools_report(
    pools: list,
    findings: list[Finding],
    ignored: int,
    fail_on: FailOn,
    families: str | tuple[str, ...],
    json_extra: dict,
    notes: list[tuple[str, str | None]],
    empty_note: str = "nothing to check",
    nap: Any = None,
) -> Report:
    """The report of a command that judges pool specs (check, preflight): the findings, then ``notes``
    ((text, style) lines: what the findings rest on, what was not checked), then :func:`summary_line`; JSON
    with the findings, the summary and ``json_extra``; one JUnit case per pool (and per Karpenter object in
    ``nap``). The pools' ``gpupool.io/ignore`` annotations apply (``Report.pools``)."""
    nap_objects = (*nap.node_pools, *nap.node_classes) if nap else ()
    node_pools = len(nap.node_pools) if nap else 0
    files = len({p.where.path for p in pools} | {o.where.path for o in nap_objects})

    def as_json(show: list[Finding]) -> dict:
        summary = {**summary_counts(show), "pools": len(pools), "files": files, "ignored": ignored}
        if nap:
            summary["nodePools"] = node_pools
        return {"findings": jsonout.findings_list(show), "summary": summary, **json_extra}

    def as_text(show: list[Finding]) -> None:
        con = console()
        print_findings(show, con)
        if show:
            con.print()
        for text, style in notes:
            con.print(text, markup=False, style=style)
        con.print(summary_line(show, len(pools), files, ignored, fail_on, node_pools), markup=False)

    objects = [(p.where.path, p.label, "valid") for p in (*pools, *nap_objects)]
    return Report(
        findings, (families,) if isinstance(families, str) else families, as_text, as_json,
        empty=not pools and not nap, empty_note=empty_note, objects=objects, pools=pools,
    )


def register(app: typer.Typer) -> None:
    @app.command("check", help=HELP, epilog=EPILOG)
    @guard
    @findings_options("check")
    def check(
        specs: list[str] = typer.Argument(
            ...,
            metavar="SPEC...",
            help="Pool spec files or directories (apiVersion gpupool/v1, kind GpuNodePool or NodePool; "
            "Karpenter NodePool karpenter.sh/v1 and AKSNodeClass beside them are checked too, rules GP8xx); "
            "'-' reads stdin. All files are checked together, so cross-pool rules see every pool.",
            show_default=False,
        ),
        ignore: list[str] = typer.Option(
            [],
            "--ignore",
            metavar="RULE",
            help="Skip a rule by ID or name (e.g. GP128 or scale-from-zero); repeat or comma-separate.",
            show_default=False,
        ),
        strict: bool = typer.Option(
            False, "--strict", help="Fail (exit 1) on warnings too: an alias of --fail-on warning."
        ),
        skus: str | None = typer.Option(
            None, "--skus", metavar="FILE",
            help="az vm list-skus -o json: sizes the catalog lacks get its facts (vCPUs, memory, GPUs).",
        ),
        exclude: list[str] = typer.Option(
            [], "--exclude", metavar="GLOB",
            help="Skip files and directories matching GLOB in directories given (repeatable).",
            show_default=False,
        ),
        cluster: list[str] = typer.Option(
            [], "--cluster", metavar="FILE",
            help="az aks show -o json (repeat): whether Node Auto Provisioning is on "
            "(nodeProvisioningProfile.mode) and which agent pools are autoscaled, for GP806.",
            show_default=False,
        ),
        opts: FindingsOptions = None,  # type: ignore[assignment]
    ) -> None:
        from gpupool.cli.common import config_exclude, use_skus
        from gpupool.cli.pool_inputs import load_clusters, load_inputs
        from gpupool.findings import sort_key
        from gpupool.nap.check import check_nap

        use_skus(skus)
        opts.fail_on = fail_on = effective_fail_on(opts.fail_on, strict)
        skip = parse_ignores(ignore)
        pools, nap = load_inputs(specs, config_exclude(opts.config, "check", exclude), allow_empty=True)
        clusters = load_clusters(list(cluster))
        found = check_pools(pools, honour_ignores=False) + check_nap(nap, pools, clusters)
        every = sorted(found, key=sort_key)
        findings = [f for f in every if f.rule not in skip]
        assumed = assumed_version(pools)
        # what the findings rest on, before the summary (which stays the last line)
        notes = [(assumed, "dim")] if assumed else []
        ignored = len(every) - len(findings)
        families = ("gpupool.design.rules", "gpupool.nap.rules")
        report = pools_report(pools, findings, ignored, fail_on, families, {"assumed": assumed}, notes,
                              empty_note="nothing to check: no pool spec", nap=nap)
        report.empty = report.empty and not clusters
        finish(opts, report)
