"""Findings as GitHub Actions workflow commands (annotations on the pull request's files):
``::error file=F,line=L,col=C,title=GPxxx::message``.

Escaped as the workflow-commands spec requires (actions/toolkit ``packages/core/src/command.ts``): in the
message ``%``, ``\\r`` and ``\\n`` (as ``%25``, ``%0D``, ``%0A``); in property values also ``:`` and ``,``
(``%3A``, ``%2C``). error -> ``error``, warning -> ``warning``, info -> ``notice``.
"""

from __future__ import annotations

from collections.abc import Iterable

from gpupool.findings import Finding, Severity, sort_key

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f: Finding) -> str:
    props: list[tuple[str, str]] = []
    if f.path and not (f.path.startswith("<") and f.path.endswith(">")):
        props.append(("file", f.path))
        if f.line:
            props.append(("line", str(f.line)))
            if f.column:
                props.append(("col", str(f.column)))
    props.append(("title", f.rule))
    text = f"{f.object}: {f.message}" if f.object else f.message
    if f.fix:
        text += f"\nfix: {f.fix}"
    head = ",".join(f"{k}={escape_property(v)}" for k, v in props)
    return f"::{_COMMAND[f.severity]} {head}::{escape_data(text)}"


def dumps(findings: Iterable[Finding]) -> str:
    lines = [annotation(f) for f in sorted(findings, key=sort_key)]
    return "".join(line + "\n" for line in lines)
