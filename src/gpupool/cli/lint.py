"""`gpupool lint`: strict schema validation and GPU rules for Kubernetes manifests, in one offline pass."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from gpupool.cli.common import guard
from gpupool.cli.findings_options import FindingsOptions, Report, findings_options, finish
from gpupool.errors import InputError

UNUSABLE = ("GP200", "GP209")  # an input that cannot be read or parsed: exit 2 (reported as a finding too)

HELP = """Validate Kubernetes manifests (strict schemas, offline) and check GPU workloads against pools.

PATHS are files, directories (recursive *.yaml, *.yml, *.json; a directory with Chart.yaml is a Helm chart,
reported once, not linted) or - for standard input (helm template CHART | gpupool lint -: findings show
the stream's line, then the template path of its "# Source:" comment). Pool specs (GpuNodePool / NodePool)
given with --pool or mixed into the inputs are checked first (one with errors is reported and not used) and
then used to check where GPU pods can land; so are Karpenter NodePools (karpenter.sh/v1, with their
AKSNodeClasses) for Node Auto Provisioning. Custom resources (PyTorchJob, RayCluster,
InferenceService, LeaderWorkerSet ...) get the GPU rules too; their schemas come from --crd. Exit status
(the same in every command, see the README): 0 clean, 1 findings at --fail-on (default error), 2 bad usage or
an unusable input (a file that cannot be read, is binary when named, or does not parse: GP200, GP209; still
reported as a finding), 4 nothing to check with --fail-if-empty. Rules: gpupool rules lint.
"""


def register(app: typer.Typer) -> None:
    @app.command("lint", help=HELP)
    @guard
    @findings_options("lint")
    def lint(
        paths: list[str] = typer.Argument(
            None, metavar="PATHS...", help="Files, directories, or - for stdin."
        ),
        pool: list[Path] = typer.Option(
            None, "--pool", "-p", help="Pool spec or Karpenter NodePool file, or a directory (repeatable)."
        ),
        kubernetes_version: str = typer.Option(
            None,
            "--kubernetes-version",
            "-k",
            help="Kubernetes version of the schemas, e.g. 1.33 (default: .gpupool.yaml's, else AKS's "
            "default: N-1 of the GA minors).",
        ),
        strict: bool = typer.Option(
            None, "--strict/--no-strict", help="Reject fields the schema does not define (default: strict)."
        ),
        crd: list[Path] = typer.Option(
            None,
            "--crd",
            help="CustomResourceDefinition file or directory "
            "(repeatable); its custom resources are validated.",
        ),
        reject_unknown: bool = typer.Option(
            None,
            "--reject-unknown/--skip-unknown",
            help="Kinds without a schema are errors (default: skipped, with an info).",
        ),
        require_schemas: bool = typer.Option(
            False,
            "--require-schemas",
            help="Fail on custom resources with no CRD given (kubeconform without -ignore-missing-schemas); "
            "same as --reject-unknown.",
        ),
        exclude: list[str] = typer.Option(
            None,
            "--exclude",
            metavar="GLOB",
            help="Skip files and directories matching GLOB (relative to each input, or a name; repeatable).",
        ),
        disallow_ignores: bool = typer.Option(
            False, "--disallow-ignores", help="Honour no gpupool.io/ignore annotation and no config ignore."
        ),
        ignore: list[str] = typer.Option(
            None, "--ignore", help="Turn a rule off (ID or name; repeatable or comma-separated)."
        ),
        jobs: int = typer.Option(
            0, "--jobs", "-j", help="Worker processes (0: one per core for large inputs)."
        ),
        opts: FindingsOptions = None,  # type: ignore[assignment]
    ) -> None:
        from gpupool.cli.pool_inputs import load_inputs
        from gpupool.lint.config import from_config
        from gpupool.lint.engine import LintOptions, lint_paths
        from gpupool.report import jsonout, text

        if not paths:
            raise InputError(None, None, "no input given", "pass files, directories, or - for standard input")
        import dataclasses

        cfg = from_config(opts.config)
        pool_paths = [*(pool or []), *(cfg.pools if cfg is not None else ())]  # files or directories
        pools, nap = load_inputs(pool_paths, tuple(exclude or ()))  # pool specs and Karpenter NodePools
        if cfg is not None:
            cfg = dataclasses.replace(cfg, pools=())
        ignored = tuple(t.strip() for item in ignore or () for t in item.split(",") if t.strip())
        options = LintOptions(
            ignore=ignored,
            kubernetes_version=kubernetes_version,
            strict=strict,
            crds=tuple(str(c) for c in crd or ()),
            reject_unknown=True if require_schemas else reject_unknown,
            exclude=tuple(exclude or ()),
            disallow_ignores=disallow_ignores,
            config=cfg,
            jobs=jobs or None,
        )
        result = lint_paths(paths, pools=pools, options=options, nap=nap)

        def as_json(show):  # type: ignore[no-untyped-def]
            return {
                "findings": jsonout.findings_list(show),
                "objects": [r.to_json() for r in result.results],
                "summary": result.summary,
            }

        def as_text(show):  # type: ignore[no-untyped-def]
            if text.styled(sys.stdout):
                con = text.console(sys.stdout)
                text.print_findings(show, con)
                if show:
                    con.print()
                if result.summary.get("assumed"):  # before the summary, which stays the last line
                    con.print(result.summary["assumed"], highlight=False, markup=False, style="dim")
                con.print(text.resources_summary(result.summary), highlight=False, markup=False)
            else:  # piped (CI logs): the same text as Rich writes there, without its per-line cost
                lines = list(text.plain_lines(show))
                if lines:
                    lines.append("")
                if result.summary.get("assumed"):
                    lines.append(result.summary["assumed"])
                lines.append(text.resources_summary(result.summary))
                sys.stdout.write("\n".join(lines) + "\n")

        objects = list(result.objects)
        unusable = any(f.rule in UNUSABLE for f in result.findings) or result.exit_code_for(None) == 2
        binaries = sum(1 for f in result.findings if f.rule == "GP210")  # skipped, nothing linted
        empty = (result.summary.get("resources") or 0) - binaries <= 0 and not unusable
        finish(opts, Report(result.findings, ("gpupool.lint.rules",), as_text, as_json, empty=empty,
                            empty_note="nothing to check: no Kubernetes object in the inputs",
                            objects=objects, junit_findings=result.per_object,
                            code=2 if unusable else 0, configured=True))
