"""`gpupool lint`: strict schema validation and GPU rules for Kubernetes manifests, in one offline pass."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from gpupool.cli.common import FailOn, LintFormat, fail_on_option, guard
from gpupool.errors import InputError

HELP = """Validate Kubernetes manifests (strict schemas, offline) and check GPU workloads against pools.

PATHS are files, directories (recursive *.yaml, *.yml, *.json; a directory with Chart.yaml is a Helm chart,
reported once, not linted) or - for standard input (helm template CHART | gpupool lint -: findings show
the stream's line, then the template path of its "# Source:" comment). Pool specs (GpuNodePool / NodePool)
given with --pool or mixed into the inputs are checked first (one with errors is reported and not used) and
then used to check where GPU pods can land. Custom resources (PyTorchJob, RayCluster,
InferenceService, LeaderWorkerSet ...) get the GPU rules too; their schemas come from --crd. Exit status:
0 no errors (see --fail-on), 1 errors, 2 bad usage or unreadable input. Rules: gpupool rules lint.
"""


def register(app: typer.Typer) -> None:
    @app.command("lint", help=HELP)
    @guard
    def lint(
        paths: list[str] = typer.Argument(
            None, metavar="PATHS...", help="Files, directories, or - for stdin."
        ),
        pool: list[Path] = typer.Option(
            None, "--pool", "-p", help="Pool spec file or directory of specs (repeatable)."
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
        fail_on: FailOn = fail_on_option(),
        config: Path = typer.Option(
            None,
            "--config",
            help="Config file (default: .gpupool.yaml found upward from the working directory).",
        ),
        no_config: bool = typer.Option(False, "--no-config", help="Do not read any config file."),
        disallow_ignores: bool = typer.Option(
            False, "--disallow-ignores", help="Honour no gpupool.io/ignore annotation and no config ignore."
        ),
        ignore: list[str] = typer.Option(
            None, "--ignore", help="Turn a rule off (ID or name; repeatable or comma-separated)."
        ),
        output: LintFormat = typer.Option(LintFormat.text, "--output", "-o", help="Output format."),
        jobs: int = typer.Option(
            0, "--jobs", "-j", help="Worker processes (0: one per core for large inputs)."
        ),
    ) -> None:
        from gpupool import rules as registry
        from gpupool.lint.config import find_config, load_config
        from gpupool.lint.engine import LintOptions, lint_paths
        from gpupool.report import jsonout, junit, sarif, text
        from gpupool.spec import load_many

        if not paths:
            raise InputError(None, None, "no input given", "pass files, directories, or - for standard input")
        cfg = None
        if config is not None:
            cfg = load_config(config)
        elif not no_config:
            found = find_config()
            cfg = load_config(found) if found else None
        pools = load_many(pool or [])
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
        result = lint_paths(paths, pools=pools, options=options)
        if output is LintFormat.json:
            payload = {
                "findings": jsonout.findings_list(result.findings),
                "objects": [r.to_json() for r in result.results],
                "summary": result.summary,
            }
            typer.echo(jsonout.dumps(payload))
        elif output is LintFormat.sarif:
            typer.echo(sarif.dumps(result.findings, registry.family("gpupool.lint.rules")))
        elif output is LintFormat.junit:
            per_object = result.per_object if result.per_object is not None else result.findings
            typer.echo(junit.dumps(per_object, result.objects), nl=False)  # a test case per object
        elif text.styled(sys.stdout):
            con = text.console(sys.stdout)
            text.print_findings(result.findings, con)
            if result.findings:
                con.print()
            if result.summary.get("assumed"):  # before the summary, which stays the last line
                con.print(result.summary["assumed"], highlight=False, markup=False, style="dim")
            con.print(text.resources_summary(result.summary), highlight=False, markup=False)
        else:  # piped (CI logs): the same text as Rich writes there, without its per-line cost
            lines = list(text.plain_lines(result.findings))
            if lines:
                lines.append("")
            if result.summary.get("assumed"):
                lines.append(result.summary["assumed"])
            lines.append(text.resources_summary(result.summary))
            sys.stdout.write("\n".join(lines) + "\n")
        raise typer.Exit(result.exit_code_for(fail_on.severity))
