"""Findings as text: ``path:line: severity RULE message`` plus an indented fix, grouped by file.

Colour only on a terminal (Rich decides; ``NO_COLOR`` is honoured).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TextIO

from rich.console import Console
from rich.markup import escape

from gpupool.findings import Finding, Severity, sort_key

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def console(stream: TextIO | None = None) -> Console:
    return Console(file=stream, highlight=False, soft_wrap=True)


def finding_line(f: Finding, con: Console) -> None:
    where = f.location()
    prefix = f"{escape(where)}: " if where else ""
    obj = f"{escape(f.object)}: " if f.object else ""
    sev = f"[{_STYLE[f.severity]}]{f.severity.value}[/]"
    con.print(f"{prefix}{sev} [bold]{f.rule}[/] {obj}{escape(f.message)}")
    if f.fix:
        con.print(f"    [dim]fix:[/] {escape(f.fix)}")


def print_findings(findings: Iterable[Finding], con: Console, group_by_file: bool = True) -> None:
    items = sorted(findings, key=sort_key)
    last_path: str | None = None
    for f in items:
        if group_by_file and f.path != last_path and f.path:
            if last_path is not None:
                con.print()
            last_path = f.path
        finding_line(f, con)


def summary_counts(findings: Iterable[Finding]) -> dict[str, int]:
    c = Counter(f.severity.value for f in findings)
    return {"error": c.get("error", 0), "warning": c.get("warning", 0), "info": c.get("info", 0)}
