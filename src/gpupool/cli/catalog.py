"""``gpupool catalog``: what gpupool knows (VM sizes, OS SKUs, GPUs, Kubernetes versions), with sources.

Every row shows the source it was read from and its as-of date, so a user can tell how current a fact
is; facts no primary source confirmed are marked. ``-o json`` is versioned (``"version": 1``).
"""

from __future__ import annotations

from typing import Any

import typer

from gpupool.cli.common import Format, guard


def sizes() -> list[dict[str, Any]]:
    from gpupool import catalog

    out = []
    for s in catalog.vm_sizes().values():
        out.append(
            {
                "name": s.name,
                "family": s.family,
                "vcpu": s.vcpu,
                "memoryGiB": s.memory_gib,
                "gpus": str(s.gpus),
                "gpu": s.gpu.model if s.gpu else None,
                "status": s.status,
                "path": s.path,
                "driver": s.driver,
                "quotaFamily": s.quota_family,
                "osSkus": list(s.os_skus) or None,
                "unverified": list(s.unverified),
                "source": s.source,
                "asOf": s.as_of,
            }
        )
    return out


def os_rows() -> list[dict[str, Any]]:
    from gpupool import catalog

    return [
        {
            "name": o.name,
            "osType": o.os_type,
            "gpu": o.gpu,
            "mig": o.mig,
            "managed": o.managed,
            "kubernetes": list(o.kubernetes) if o.kubernetes else None,
            "retired": o.retired,
            "source": o.source,
            "asOf": o.as_of,
        }
        for o in catalog.os_skus().values()
    ]


def gpu_rows() -> list[dict[str, Any]]:
    from gpupool import catalog

    return [
        {
            "id": g.id,
            "vendor": g.vendor,
            "model": g.model,
            "memoryGB": g.memory_gb,
            "architecture": g.architecture,
            "mig": sorted(g.mig) if g.mig else [],
            "source": g.source,
            "asOf": g.as_of,
        }
        for g in catalog.gpus().values()
    ]


def version_rows() -> list[dict[str, Any]]:
    from gpupool.catalog.aks import kubernetes_versions, today

    on = today()
    return [
        {
            "version": v.minor,
            "ga": v.ga.strftime("%Y-%m") if v.ga else None,
            "endOfLife": v.eol.isoformat(),
            "ltsEndOfLife": v.lts_eol.isoformat() if v.lts_eol else None,
            "status": v.status(on),
            "planned": v.planned,
            "source": v.source,
            "asOf": v.as_of,
        }
        for v in kubernetes_versions().values()
    ]


SECTIONS = {"sizes": sizes, "os": os_rows, "gpus": gpu_rows, "versions": version_rows}
_COLUMNS = {
    "sizes": ("name", "vcpu", "memoryGiB", "gpus", "gpu", "status", "driver", "asOf"),
    "os": ("name", "osType", "gpu", "kubernetes", "retired", "asOf"),
    "gpus": ("id", "model", "memoryGB", "architecture", "mig", "asOf"),
    "versions": ("version", "ga", "endOfLife", "ltsEndOfLife", "status", "asOf"),
}


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return "-".join(str(v) if v is not None else "" for v in value) if value else "-"
    return str(value)


def register(app: typer.Typer) -> None:
    @app.command("catalog")
    @guard
    def catalog_cmd(
        show_sizes: bool = typer.Option(False, "--sizes", help="VM sizes."),
        show_os: bool = typer.Option(False, "--os", help="OS SKUs and their Kubernetes ranges."),
        show_gpus: bool = typer.Option(False, "--gpus", help="GPUs and MIG profiles."),
        show_versions: bool = typer.Option(False, "--versions", help="Kubernetes versions on AKS."),
        sources: bool = typer.Option(False, "--sources", help="Text output: print each row's source."),
        output: Format = typer.Option(Format.text, "-o", "--output", help="text, or json (versioned)."),
    ) -> None:
        """Show what gpupool knows (sizes, OS SKUs, GPUs, Kubernetes versions), with sources and as-of dates.

        Without a section flag, every section. Rows marked unverified rest on facts no primary source
        confirmed (never errors). Example: gpupool catalog --sizes -o json
        """
        from gpupool.report import jsonout

        chosen = [
            n
            for n, on in (
                ("sizes", show_sizes),
                ("os", show_os),
                ("gpus", show_gpus),
                ("versions", show_versions),
            )
            if on
        ] or list(SECTIONS)
        data = {n: SECTIONS[n]() for n in chosen}
        if output is Format.json:
            typer.echo(jsonout.dumps(data))
            return
        from rich.markup import escape
        from rich.table import Table

        from gpupool.report.text import console

        con = console()
        for name, rows in data.items():
            cols = _COLUMNS[name] + (("source",) if sources else ())
            table = Table(title=f"{name} ({len(rows)})", title_justify="left")
            for c in cols:
                table.add_column(c, overflow="fold", no_wrap=c == cols[0])
            for r in rows:
                cells = [escape(_cell(r[c])) for c in cols]
                if name == "sizes" and r["unverified"]:
                    cells[0] += escape(f" [unverified: {', '.join(r['unverified'])}]")
                table.add_row(*cells)
            con.print(table)
