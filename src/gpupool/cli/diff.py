"""`gpupool diff CURRENT DESIRED` and `gpupool import FILE`.

``diff``: per changed field, the current and desired value, the action (``update`` in place or
``recreate`` = a new pool), the reason and its source, the exact ``az aks nodepool update`` command, and,
when a new pool is needed, a migration runbook (``--runbook FILE``). CURRENT is a pool spec or what
``az aks nodepool show/list -o json`` prints; DESIRED is a pool spec. Exit 0, or 1 with ``--exit-code`` when
there are changes, or 1 on error findings (workloads that would not follow); bad input is exit 2.

``import``: ``az aks nodepool show/list -o json`` -> pool spec YAML (settings gpupool does not model are
listed as comments); the design rules run on the imported pools (findings on stderr; exit 1 only at the
``--fail-on`` severity, default none), so CI can check the pools that run today.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

import typer

from gpupool.atomicfile import write_atomic
from gpupool.cli.common import FailOn, guard
from gpupool.cli.findings_options import FindingsOptions, Report, findings_options, finish, plural
from gpupool.errors import InputError
from gpupool.errors import safe_text as _safe

# ---- reading CURRENT / DESIRED -------------------------------------------------------------------


def read_current(path: str, resource_group: str | None, cluster_name: str | None) -> list[tuple[Any, Any]]:
    """CURRENT as [(PoolSpec, AzPool | None)]: a pool spec file or ``az aks nodepool show/list`` JSON."""
    from gpupool import yamlio
    from gpupool.spec import azjson
    from gpupool.spec.load import is_pool_document, parse_pool

    name = "<stdin>" if path == "-" else path
    docs = [d for d in yamlio.load_file(path) if d.data is not None]
    if not docs:
        raise InputError(
            name, None, "empty file: expected a pool spec or `az aks nodepool show -o json` output"
        )
    if any(is_pool_document(d.data) for d in docs):
        out = []
        for d in docs:
            if d.duplicates:
                dup = d.duplicates[0]
                raise InputError(
                    d.path, dup.line, f'duplicate key "{_safe(dup.key)}" (first at line {dup.first_line})'
                )
            if not is_pool_document(d.data):
                raise InputError(
                    d.path,
                    d.line,
                    "not a pool spec (expected apiVersion gpupool/v1, kind GpuNodePool or NodePool)",
                )
            out.append((parse_pool(d.data, d.path, d.line), None))
        return out
    d = docs[0]
    looks_az = isinstance(d.data, list) or (
        isinstance(d.data, dict)
        and any(k in d.data for k in ("vmSize", "agentPoolProfiles", "properties", "value"))
    )  # an ARM REST body ("properties", "value") is refused by azjson with one line that says so
    if looks_az:  # a bad item or field is reported where it is, with its line
        pools = azjson.pools_from_documents(
            docs, name, resource_group=resource_group, cluster_name=cluster_name
        )
        return [(p.pool, p) for p in pools]
    what = f"a {type(d.data).__name__}" if not isinstance(d.data, dict) else "an object without vmSize"
    raise InputError(
        d.path,
        d.line,
        f"CURRENT is neither a pool spec nor `az aks nodepool` JSON ({what})",
        "pass a gpupool/v1 pool spec or what `az aks nodepool show -o json` prints",
    )


def read_desired(path: str) -> list[Any]:
    """DESIRED: a pool spec file, ``-``, or a directory of pool specs (the one discovery of every command)."""
    from gpupool.cli.common import load_pool_specs

    return load_pool_specs([path])


def choose(
    current: list[tuple[Any, Any]], desired: list[Any], name: str | None, cur_path: str, des_path: str
) -> tuple[tuple[Any, Any], Any]:
    cur_names = [p.name for p, _ in current]
    if name is not None:
        picked = [c for c in current if c[0].name == name]
        if not picked:
            raise InputError(
                cur_path, None, f'no pool named "{_safe(name)}" in CURRENT (found: {", ".join(cur_names)})'
            )
        cur = picked[0]
    elif len(current) == 1:
        cur = current[0]
    else:
        by_name = [c for c in current if len(desired) == 1 and c[0].name == desired[0].name]
        if not by_name:
            raise InputError(
                cur_path,
                None,
                f"CURRENT holds {len(current)} pools ({', '.join(cur_names)})",
                "pick one with --name",
            )
        cur = by_name[0]
    if len(desired) == 1:
        return cur, desired[0]
    same = [d for d in desired if d.name == cur[0].name]
    if not same:
        raise InputError(
            des_path,
            None,
            f"DESIRED holds {len(desired)} pools and none is named {cur[0].name}",
            "give DESIRED with one pool, or the same pool names",
        )
    return cur, same[0]


# ---- text output ---------------------------------------------------------------------------------


def _short(value: Any, limit: int = 100) -> str:
    from gpupool.diff.spelling import spec_text

    return _safe(spec_text(value), limit)


def print_text(result: Any, runbook_path: str | None) -> None:
    from rich.markup import escape
    from rich.table import Table

    from gpupool.report.text import console, print_findings

    con = console(sys.stdout)
    t = result.target
    head = f"pool {t.name} (cluster {t.cluster_name}, resource group {t.resource_group})"
    if not result.changes:
        con.print(f"{escape(head)}: no changes")
    else:
        n = len(result.changes)
        verdict = "needs a NEW POOL" if result.requires_new_pool else "all in place"
        if result.migration is not None:
            verdict += f" ({result.migration.new.name})"
        con.print(f"{escape(head)}: {n} change{'s' if n != 1 else ''}, {verdict}")
        table = Table(box=None, show_edge=False, pad_edge=False, header_style="bold")
        for col in ("FIELD", "FROM", "TO", "ACTION"):
            table.add_column(col, overflow="fold")
        for c in result.changes:
            style = "bold red" if c.action == "recreate" else "green"
            table.add_row(
                escape(c.field), escape(_short(c.before)), escape(_short(c.after)), f"[{style}]{c.action}[/]"
            )
        con.print()
        con.print(table)
        for c in result.changes:
            d = c.to_dict()
            con.print()
            con.print(f"[bold]{escape(c.field)}[/]: {c.action}")
            con.print(f"  why:     {escape(d['reason'])}")
            con.print(f"  source:  {escape(d['source'])} (as of {escape(d['asOf'])})")
            if d.get("conflict"):
                con.print(f"  [yellow]conflict[/]: {escape(d['conflict'])}")
            if d.get("note"):
                con.print(f"  note:    {escape(d['note'])}")
            if c.command:
                prefix = "would run" if result.requires_new_pool else "run"
                con.print(f"  {prefix}: {escape(c.command)}")
                if result.requires_new_pool:
                    con.print("           (not needed: the new pool is created with this setting)")
            elif c.action == "update" and c.rule.how == "plugin":
                con.print(
                    "  run:     re-render the device plugin (gpupool render DESIRED) and kubectl apply it"
                )
            if d.get("preview"):
                con.print(f"  [yellow]preview only[/]: {escape(d['preview'])}")
        commands = result.commands()
        if commands:
            con.print()
            title = (
                "Migration (main steps; the runbook adds waits and checks)"
                if result.requires_new_pool
                else "Commands"
            )
            con.print(f"[bold]{title}:[/]")
            for cmd in commands:
                con.print(f"  {escape(cmd)}")
        if result.requires_new_pool and result.migration is None:
            con.print()
            con.print(
                "No runbook: DESIRED is in another cluster or resource group; create it there and move the "
                "workloads yourself."
            )
    if result.not_compared:
        con.print()
        con.print("[dim]not compared: " + escape("; ".join(result.not_compared)) + "[/]")
    if result.findings:
        con.print()
        print_findings(result.findings, con)
    if runbook_path:
        con.print()
        con.print(f"runbook written to {escape(runbook_path)} (dry run by default; add --execute to run it)")


def _ignores(values: list[str]) -> set[str]:
    """``--ignore`` values -> rule IDs, the way ``gpupool check`` reads them."""
    if not values:
        return set()
    try:
        from gpupool.cli.common import parse_ignores
    except ImportError:  # pragma: no cover - check's CLI module without the helper
        from gpupool.rules import lookup

        out = set()
        for v in values:
            for item in filter(None, (x.strip() for x in v.split(","))):
                info = lookup(item)
                if info is None:
                    raise InputError(None, None, f'--ignore: unknown rule "{_safe(item)}"') from None
                out.add(info.id)
        return out
    return set(parse_ignores(values))


def _check_imported(pools: list[Any], skip: set[str], fail_on: FailOn) -> int:
    """The design rules on imported pools: findings on stderr; the exit code ``--fail-on`` asks for."""
    from gpupool.design.check import check_pools
    from gpupool.findings import exit_code
    from gpupool.report.text import console, print_findings

    findings = [f for f in check_pools(pools) if f.rule not in skip]
    if findings:
        print_findings(findings, console(sys.stderr))
    return exit_code(findings, fail_on.severity)


# ---- commands ------------------------------------------------------------------------------------


def register(app: typer.Typer) -> None:
    @app.command("diff")
    @guard
    @findings_options("diff")
    def diff_cmd(
        current: str = typer.Argument(
            ...,
            help="The pool as it is: a pool spec, or `az aks nodepool show -o json` "
            "(or `list -o json`) output; - for stdin.",
        ),
        desired: str = typer.Argument(..., help="The pool as it should be: a pool spec."),
        name: str | None = typer.Option(
            None, "--name", "-n", help="Pick this pool from CURRENT (list JSON or a file with several pools)."
        ),
        resource_group: str | None = typer.Option(
            None, "--resource-group", "-g", help="Override the resource group read from the az JSON."
        ),
        cluster_name: str | None = typer.Option(
            None, "--cluster-name", "-c", help="Override the cluster name read from the az JSON id."
        ),
        workloads: list[str] | None = typer.Option(
            None,
            "--workloads",
            "-w",
            help="Manifests (files or directories; repeatable) to check: "
            "which workloads would not follow the change.",
        ),
        runbook: str | None = typer.Option(
            None, "--runbook", help="Write the migration runbook (bash) here when a new pool is needed."
        ),
        new_name: str | None = typer.Option(
            None,
            "--new-name",
            help="Name of the replacement pool (default: the current name with the next number).",
        ),
        drain_timeout: str = typer.Option(
            "30m", "--drain-timeout", help="kubectl drain --timeout in the runbook."
        ),
        wait_timeout: str = typer.Option(
            "20m",
            "--wait-timeout",
            help="How long the runbook waits for new nodes and for workloads on them.",
        ),
        ignore: list[str] = typer.Option(
            [], "--ignore", metavar="RULE", help="Skip a GP4xx rule by ID or name; repeat or comma-separate."
        ),
        exit_code: bool = typer.Option(
            False, "--exit-code", help="Exit 1 when there are changes (like git diff --exit-code)."
        ),
        exclude: list[str] = typer.Option(
            [], "--exclude", metavar="GLOB",
            help="Skip files and directories matching GLOB in the --workloads directories (repeatable).",
            show_default=False,
        ),
        opts: FindingsOptions = None,  # type: ignore[assignment]
    ) -> None:
        """Show which changes to an existing node pool are in-place updates and which need a new pool.

        Each changed field gets its current and desired value, the action (update or recreate), the reason
        and its source, and the exact `az aks nodepool update` command. With --runbook, changes that need a
        new pool get a migration script: create, wait, cordon, drain (PodDisruptionBudgets respected),
        verify, delete; dry run unless the script is called with --execute.
        """
        from gpupool.cli.common import discover_files
        from gpupool.diff import diff, load_workloads
        from gpupool.report.jsonout import findings_list

        if current == "-" and desired == "-":
            raise InputError(None, None, "CURRENT and DESIRED cannot both be stdin")
        cur_pools = read_current(current, resource_group, cluster_name)
        des_pools = read_desired(desired)
        (cur, cur_az), des = choose(cur_pools, des_pools, name, current, desired)
        items = load_workloads(discover_files(workloads, exclude)) if workloads else None
        taken = tuple(p.name for p, _ in cur_pools)
        result = diff(
            cur,
            des,
            current_az=cur_az,
            resource_group=resource_group,
            cluster_name=cluster_name,
            workloads=items,
            new_name=new_name,
            taken_names=taken,
            drain_timeout=drain_timeout,
            wait_timeout=wait_timeout,
        )
        skip = _ignores(ignore)
        if skip:
            kept = tuple(f for f in result.findings if f.rule not in skip)
            result = dataclasses.replace(result, findings=kept)
        written = None
        if runbook:
            if not result.requires_new_pool:
                typer.echo("gpupool: no change needs a new pool; no runbook written", err=True)
            elif result.migration is None:
                raise InputError(
                    None,
                    None,
                    "cannot write a runbook: DESIRED is in another cluster or resource group than CURRENT",
                    "a runbook moves workloads within one cluster",
                )
            else:
                write_atomic(runbook, result.migration.script(), 0o755)
                written = runbook

        def as_json(show):  # type: ignore[no-untyped-def]
            payload = dataclasses.replace(result, findings=tuple(show)).to_dict()
            payload["findings"] = findings_list(show)
            payload["runbook"] = written
            return payload

        def as_text(show):  # type: ignore[no-untyped-def]
            print_text(dataclasses.replace(result, findings=tuple(show)), written)

        finish(opts, Report(list(result.findings), ("gpupool.diff.rules",), as_text, as_json,
                            code=1 if exit_code and result.has_changes else 0, pools=[des]))

    @app.command("import")
    @guard
    def import_cmd(
        file: str = typer.Argument(
            ...,
            help="`az aks nodepool show -o json` or `az aks nodepool list -o json` "
            "output (also `az aks show -o json`); - for stdin.",
        ),
        output: str = typer.Option(
            "yaml", "--output", "-o", help="yaml (pool spec documents) or json (versioned: \"version\": 1)."
        ),
        write: str | None = typer.Option(
            None, "--write", "-w", metavar="FILE", help="Write the result to FILE (default: stdout)."
        ),
        name: str | None = typer.Option(None, "--name", "-n", help="Import only this pool (from list JSON)."),
        resource_group: str | None = typer.Option(
            None, "--resource-group", "-g", help="Override the resource group read from the JSON."
        ),
        cluster_name: str | None = typer.Option(
            None, "--cluster-name", "-c", help="Override the cluster name read from the JSON id."
        ),
        ignore: list[str] = typer.Option(
            [], "--ignore", metavar="RULE", help="Skip a design rule by ID or name; repeat or comma-separate."
        ),
        fail_on: FailOn = typer.Option(
            FailOn.none,
            "--fail-on",
            metavar="SEVERITY",
            help="Exit 1 when a design finding on the imported pools is at least this severe: error, "
            "warning, info, or none (default: import converts, it does not judge).",
        ),
    ) -> None:
        """Turn `az aks nodepool show/list -o json` into pool specs (one YAML document per pool).

        Settings gpupool does not model (OS disk, subnets, upgrade settings, tags, ...) are written as
        comments above each pool and summed up on stderr. `-o json` prints the same as versioned JSON
        (spec, unmodeled settings, notes per pool); `--write FILE` writes to a file instead of stdout.
        The design rules (gpupool check) run on the imported pools and their findings go to stderr; with
        --fail-on error (or warning, info) they set the exit code to 1, after the specs are written.
        """
        skip = _ignores(ignore)
        from gpupool.spec import azjson

        if output not in ("yaml", "json"):
            raise InputError(
                None, None, f"-o/--output takes yaml or json, not {_safe(output)!r}",
                "write to a file with --write FILE (-o names the format, as in every gpupool command)",
            )
        shown = "<stdin>" if file == "-" else file
        read = azjson.load_az(file, resource_group=resource_group, cluster_name=cluster_name)
        if name is not None:
            pools = [azjson.pick(read.pools, name, shown, read.skipped)]
        else:
            pools = read.require_pools()
            for note in read.notes():
                typer.echo(f"gpupool: note: {note}", err=True)
        if output == "json":
            from gpupool.report.jsonout import dumps

            text = dumps({"pools": [azjson.to_json_dict(p) for p in pools]}) + "\n"
        else:
            text = azjson.to_yaml_stream(pools)
        for p in pools:
            if p.unmodeled:
                typer.echo(
                    f"gpupool: note: pool {p.pool.name}: {plural(len(p.unmodeled), 'setting')} gpupool "
                    "does not "
                    f"model, written as comments: {', '.join(list(p.unmodeled)[:6])}"
                    + (" ..." if len(p.unmodeled) > 6 else ""),
                    err=True,
                )
            for n in p.notes:
                typer.echo(f"gpupool: note: pool {p.pool.name}: {_safe(n, 200)}", err=True)
        if write and write != "-":
            write_atomic(write, text)
            typer.echo(f"gpupool: wrote {plural(len(pools), 'pool spec')} to {write}", err=True)
        else:
            typer.echo(text, nl=False)
        raise typer.Exit(_check_imported([p.pool for p in pools], skip, fail_on))
