"""Findings as text: ``path:line: severity RULE message`` plus an indented fix, grouped by file.

Colour: ``--color auto`` (default: only on a terminal, never with ``NO_COLOR`` set, always with
``FORCE_COLOR``), ``always`` or ``never``. Off a terminal (CI logs, pipes) nothing is wrapped: tables are
plain aligned text at their natural width and a value is never split across lines.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TextIO

from gpupool.findings import Finding, Severity, sort_key

if TYPE_CHECKING:  # Rich is imported when text is styled, not for plain output (saves ~16 ms per run)
    from rich.console import Console

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}

COLOR_MODES = ("auto", "always", "never")
# Off a terminal the console is this wide, so Rich never wraps a table cell; tables take their natural width
# (no Rich element gpupool prints expands to the console width: headings go through :func:`heading`).
NO_WRAP_WIDTH = 100_000
_color = "auto"


def set_color(mode: str) -> None:
    """The global ``--color`` choice (set by the root command on every run)."""
    global _color
    if mode not in COLOR_MODES:
        raise ValueError(mode)
    _color = mode


def color_mode() -> str:
    """``always``, ``never`` or ``auto`` after the environment: ``--color`` wins over ``NO_COLOR``
    (no-color.org: an explicit flag overrides it), ``NO_COLOR`` wins over ``FORCE_COLOR``."""
    if _color != "auto":
        return _color
    if os.environ.get("NO_COLOR"):
        return "never"
    if os.environ.get("FORCE_COLOR"):
        return "always"
    return "auto"


def is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def styled(stream: TextIO | None = None) -> bool:
    """Whether text written to ``stream`` gets colour and styles."""
    mode = color_mode()
    if mode == "auto":
        return is_terminal(stream if stream is not None else sys.stdout)
    return mode == "always"


def console(stream: TextIO | None = None) -> Console:
    """A Rich console for ``stream`` (stdout by default) that follows ``--color`` and never wraps off a
    terminal. Emoji shortcodes are off: ``file:100:`` or a name such as ``:smile:`` prints as written
    (Rich would print 💯). Markup stays on for gpupool's own styles; text from input (paths, names,
    messages) goes through ``rich.markup.escape`` or ``markup=False`` at every ``print``."""
    from rich.console import Console

    stream = stream if stream is not None else sys.stdout
    tty = is_terminal(stream)
    colour = styled(stream)
    kwargs: dict = {"file": stream, "highlight": False, "soft_wrap": True, "emoji": False}
    if colour:
        kwargs["force_terminal"] = True
        kwargs["color_system"] = "auto" if tty else "standard"
    else:
        kwargs["force_terminal"] = tty
        kwargs["color_system"] = None  # no escape codes at all, not even bold
        kwargs["no_color"] = True
    if not tty:
        kwargs["width"] = NO_WRAP_WIDTH
        kwargs["file"] = _NoTrailingSpace(stream)
    return Console(**kwargs)


class _NoTrailingSpace:
    """A stream wrapper that drops the spaces Rich pads table rows with before each newline (CI logs)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        import re

        self._stream.write(re.sub(r" +(?=\n)", "", text))
        return len(text)

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self._stream, name)


def heading(con: Console, markup: str) -> None:
    """A section heading: a rule across a terminal, one short line elsewhere (never NO_WRAP_WIDTH wide)."""
    if con.is_terminal and con.width < NO_WRAP_WIDTH:
        con.rule(markup, align="left")
    else:
        con.print(f"── {markup} ──")


def where_text(f: Finding) -> str:
    """``file:line:col`` of a finding; for one moved to a ``# Source:`` template of a rendered stream (lint,
    ``extra`` stream/streamLine), the real file and line first and the template's second:
    ``rendered.yaml:40:9 (app/templates/job.yaml:12:9)``."""
    where = f.location()
    extra = f.extra or {}
    stream, line = extra.get("stream"), extra.get("streamLine")
    if isinstance(stream, str) and isinstance(line, int) and where:
        return f"{stream}:{line}" + (f":{f.column}" if f.column else "") + f" ({where})"
    return where


def finding_line(f: Finding, con: Console) -> None:
    from rich.markup import escape

    where = where_text(f)
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


def resources_summary(summary: dict) -> str:
    """kubeconform-style summary line of ``gpupool lint``:
    ``Summary: 3 resources found in 3 files - Valid: 2, Invalid: 1, Errors: 0, Skipped: 0 (1 error,
    0 warnings, 2 info)``. Valid/Invalid/Skipped are the schema verdict (GP2xx); the counts in brackets are
    the findings of every rule, GPU rules included, so a schema-valid object can still have GPU errors."""

    def plural(n: int, word: str) -> str:
        return f"{n} {word}" + ("" if n == 1 else "s")

    counts = summary.get("findings", {})
    line = (
        f"Summary: {plural(summary.get('resources', 0), 'resource')} found in "
        f"{plural(summary.get('files', 0), 'file')} - Valid: {summary.get('valid', 0)}, "
        f"Invalid: {summary.get('invalid', 0)}, Errors: {summary.get('errors', 0)}, "
        f"Skipped: {summary.get('skipped', 0)}"
    )
    tail = (f"{plural(counts.get('error', 0), 'error')}, {plural(counts.get('warning', 0), 'warning')}, "
            f"{counts.get('info', 0)} info")
    if summary.get("charts"):
        tail += f", {plural(summary['charts'], 'Helm chart')} not linted"
    if summary.get("suppressed"):
        tail += f", {summary['suppressed']} suppressed"
    rejected = summary.get("poolsRejected")
    if rejected:  # pool specs with GP1xx errors: reported above, not used as landing places
        tail += f"; pool{'s' if len(rejected) > 1 else ''} with errors not used: {', '.join(rejected)}"
    return f"{line} ({tail})"


def plain_lines(findings: Iterable[Finding], group_by_file: bool = True) -> Iterator[str]:
    """The lines :func:`print_findings` prints, without styling (what Rich writes when not on a terminal),
    produced without Rich: thousands of findings print in milliseconds."""
    last_path: str | None = None
    for f in sorted(findings, key=sort_key):
        if group_by_file and f.path != last_path and f.path:
            if last_path is not None:
                yield ""
            last_path = f.path
        where = where_text(f)
        prefix = f"{where}: " if where else ""
        obj = f"{f.object}: " if f.object else ""
        yield f"{prefix}{f.severity.value} {f.rule} {obj}{f.message}"
        if f.fix:
            yield f"    fix: {f.fix}"
