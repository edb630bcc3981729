"""``gpupool catalog``: what gpupool knows (VM sizes, OS SKUs, GPUs, Kubernetes versions), with sources.

Every row shows the source it was read from and its as-of date, so a user can tell how current a fact
is; facts no primary source confirmed are marked. ``-o json`` is versioned (``"version": 1``).
"""

from __future__ import annotations

from dataclasses import dataclass
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
                "gpus": s.gpus_number(),
                "gpusText": s.gpus_text(),
                "gpuId": s.gpu.id if s.gpu else None,
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


@dataclass(frozen=True)
class Column:
    """One text column: its header, the JSON field it shows, and how the cell is written."""

    header: str
    field: str
    right: bool = False  # numbers are right-aligned
    drop: int = 0  # 0: always shown; otherwise left out first (1) .. last on a narrow terminal
    unverified: str | None = None  # the size field name (unverified list) that marks this cell with *


def _gib(v: float) -> str:
    return f"{v:g}"


def _range(v: list[str | None] | None) -> str:
    if not v:
        return "-"
    lo, hi = ([*v, None, None])[:2]
    if not lo and not hi:
        return "-"
    if lo and hi:
        return f"{lo}-{hi}"
    return f"{lo}+" if lo else f"<={hi}"


_TEXT: dict[str, tuple[Column, ...]] = {
    "sizes": (
        Column("name", "name"),
        Column("vCPU", "vcpu", right=True),
        Column("GiB", "memoryGiB", right=True, unverified="memory"),
        Column("GPUs", "gpusText", right=True, unverified="gpus"),
        Column("GPU", "gpuId", drop=3),
        Column("status", "status"),
        Column("driver", "driver", drop=2),
        Column("asOf", "asOf", drop=1),
    ),
    "os": (
        Column("name", "name"),
        Column("osType", "osType"),
        Column("GPU", "gpu"),
        Column("kubernetes", "kubernetes"),
        Column("retired", "retired", drop=2),
        Column("asOf", "asOf", drop=1),
    ),
    "gpus": (
        Column("id", "id"),
        Column("model", "model", drop=3),
        Column("GB", "memoryGB", right=True),
        Column("architecture", "architecture", drop=2),
        Column("MIG profiles", "mig"),
        Column("asOf", "asOf", drop=1),
    ),
    "versions": (
        Column("version", "version"),
        Column("GA", "ga"),
        Column("endOfLife", "endOfLife"),
        Column("ltsEndOfLife", "ltsEndOfLife", drop=2),
        Column("status", "status"),
        Column("asOf", "asOf", drop=1),
    ),
}
UNVERIFIED_NOTE = "* unverified: no primary source confirms the value (it never makes an error)"


def _cell(col: Column, row: dict[str, Any]) -> str:
    value = row[col.field]
    if col.field == "kubernetes":
        text = _range(value)
    elif value is None:
        text = "-"
    elif col.field == "mig":
        text = ",".join(str(v).removeprefix("MIG") for v in value) if value else "-"
    elif isinstance(value, list):
        text = ",".join(str(v) for v in value) if value else "-"
    elif col.field == "memoryGiB":
        text = _gib(value)
    elif col.field == "ga" and row.get("planned"):
        text = f"{value} (planned)"
    else:
        text = str(value)
    if col.unverified and col.unverified in (row.get("unverified") or ()):
        text += "*"
    return text


def _fit(cols: tuple[Column, ...], cells: list[list[str]], width: int | None) -> tuple[list[int], list[str]]:
    """The columns to show (indexes) so the table fits ``width`` (None: no limit), and those left out."""
    widths = [max([len(c.header)] + [len(r[i]) for r in cells]) for i, c in enumerate(cols)]
    shown = list(range(len(cols)))
    order = sorted((c.drop, i) for i, c in enumerate(cols) if c.drop)

    def total(idx: list[int]) -> int:
        return sum(widths[i] for i in idx) + 2 * (len(idx) - 1)

    dropped: list[int] = []
    while width is not None and total(shown) > width and order:
        _, i = order.pop(0)
        shown.remove(i)
        dropped.append(i)
    for i in reversed(dropped):  # a column left out early may fit again once a wider one is out
        if total(sorted([*shown, i])) <= width:  # type: ignore[operator]
            shown = sorted([*shown, i])
    return shown, [cols[i].header for i in dropped if i not in shown]


def table_lines(name: str, rows: list[dict[str, Any]], width: int | None) -> tuple[list[str], list[str]]:
    """A section as plain aligned lines (header first) and the headers left out to fit ``width``."""
    cols = _TEXT[name]
    cells = [[_cell(c, r) for c in cols] for r in rows]
    shown, left_out = _fit(cols, cells, width)
    widths = {i: max([len(cols[i].header)] + [len(r[i]) for r in cells]) for i in shown}

    def line(values: list[str]) -> str:
        parts = [values[i].rjust(widths[i]) if cols[i].right else values[i].ljust(widths[i]) for i in shown]
        return "  ".join(parts).rstrip()

    return [line([c.header for c in cols])] + [line(r) for r in cells], left_out

def register(app: typer.Typer) -> None:
    @app.command("catalog", short_help="What gpupool knows: sizes, OS SKUs, GPUs, versions, sources.")
    @guard
    def catalog_cmd(
        show_sizes: bool = typer.Option(False, "--sizes", help="VM sizes."),
        show_os: bool = typer.Option(False, "--os", help="OS SKUs and their Kubernetes ranges."),
        show_gpus: bool = typer.Option(False, "--gpus", help="GPUs and MIG profiles."),
        show_versions: bool = typer.Option(False, "--versions", help="Kubernetes versions on AKS."),
        sources: bool = typer.Option(False, "--sources", help="Text output: print each row's source."),
        stale: bool = typer.Option(
            False, "--stale",
            help="Rows to re-check: asOf older than --days, a planned date, or marked unverified.",
        ),
        days: int = typer.Option(
            90, "--days", min=0, metavar="N", help="With --stale: the age limit in days."
        ),
        output: Format = typer.Option(Format.text, "-o", "--output", help="text, or json (versioned)."),
    ) -> None:
        """Show what gpupool knows (sizes, OS SKUs, GPUs, Kubernetes versions), with sources and as-of dates.

        Without a section flag, every section. Rows marked unverified rest on facts no primary source
        confirmed (never errors). --stale lists where the next audit starts: rows whose asOf is older
        than --days (default 90, judged on today or GPUPOOL_TODAY), whose date is only planned, or that
        are unverified. Examples: gpupool catalog --sizes -o json  |  gpupool catalog --stale --days 30
        """
        from gpupool.report import jsonout

        if stale:
            _stale(days, output)
            return
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
        _print_text(data, sources)


def _stale(days: int, output: Format) -> None:
    from gpupool import catalog
    from gpupool.catalog.aks import today
    from gpupool.report import jsonout

    rows = catalog.stale_rows(days)
    if output is Format.json:
        typer.echo(jsonout.dumps({"stale": [r.to_dict() for r in rows], "days": days,
                                  "on": today().isoformat()}))
        return
    from gpupool.report.text import console

    con = console()
    con.print(f"stale ({len(rows)}): asOf older than {days} days on {today().isoformat()}, planned, or "
              "unverified", style="bold", markup=False)
    width = max((len(f"{r.file} {r.key}") for r in rows), default=0)
    for r in rows:
        age = f"{r.age_days}d" if r.age_days is not None else "?"
        con.print(f"{(r.file + ' ' + r.key).ljust(width)}  {r.as_of}  {age:>5}  {'; '.join(r.reasons)}",
                  markup=False, soft_wrap=True)


def _print_text(data: dict[str, list[dict[str, Any]]], sources: bool) -> None:
    import textwrap

    from gpupool.report.text import NO_WRAP_WIDTH, console

    con = console()
    width = con.width if con.is_terminal and con.width < NO_WRAP_WIDTH else None
    for n, (name, rows) in enumerate(data.items()):
        if n:
            con.print()
        con.print(f"{name} ({len(rows)})", style="bold", markup=False)
        lines, left_out = table_lines(name, rows, width)
        con.print(lines[0], style="bold", markup=False)
        for row, text in zip(rows, lines[1:], strict=True):
            con.print(text, markup=False)
            if sources:
                src = f"source: {row['source']}"
                if width:
                    src = textwrap.fill(src, width, initial_indent="    ", subsequent_indent="      ")
                else:
                    src = "    " + src
                con.print(src, markup=False)
        if any(r.get("unverified") for r in rows):
            con.print(UNVERIFIED_NOTE, markup=False)
        if left_out:
            con.print(
                f"(left out to fit {width} columns: {', '.join(left_out)}; a wider terminal, a pipe or "
                "-o json shows every column)",
                markup=False,
            )
