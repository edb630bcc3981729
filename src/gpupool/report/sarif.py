"""Findings as SARIF 2.1.0 (GitHub code scanning, GitLab, Azure DevOps).

Valid against the OASIS SARIF 2.1.0 JSON schema (the tests check it): every result has a ``ruleId`` and
``ruleIndex`` into ``tool.driver.rules``, a ``level`` (error | warning | note), a message, and a physical
location whose ``region`` is present only when a line is known (no empty ``region`` or ``snippet`` objects,
which break GitHub and GitLab). Relative paths are given relative to ``%SRCROOT%`` (the working directory,
declared in ``originalUriBaseIds``); the object (``Kind namespace/name``) is a logical location.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from gpupool import __version__
from gpupool.findings import Finding, Severity, sort_key
from gpupool.rules import RuleInfo

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _artifact(path: str) -> dict[str, Any]:
    if path.startswith("<") and path.endswith(">"):  # <stdin>
        return {"uri": quote(path.strip("<>"))}
    p = Path(path)
    if p.is_absolute():
        return {"uri": p.as_uri()}
    return {"uri": quote(p.as_posix(), safe="/"), "uriBaseId": SRCROOT}


def _rule(r: RuleInfo) -> dict[str, Any]:
    """A rule descriptor; ``help`` carries the rule's whole documentation, as ``gpupool explain`` prints
    it (``text``) and as Markdown (``markdown``, as docs/rules/GPxxx.md shows it; code scanning shows it)."""
    from gpupool.ruledocs import help_markdown, render_doc

    first = r.doc.split("\n\n", 1)[0].strip() if r.doc else r.summary
    return {
        "id": r.id,
        "name": r.name,
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": first or r.summary},
        "help": {"text": render_doc(r), "markdown": help_markdown(r)},
        "defaultConfiguration": {"level": _LEVEL[r.severity]},
    }


def _result(f: Finding, index: dict[str, int]) -> dict[str, Any]:
    text = f"{f.object}: {f.message}" if f.object else f.message
    if f.fix:
        text += f" Fix: {f.fix}"
    res: dict[str, Any] = {"ruleId": f.rule, "level": _LEVEL[f.severity], "message": {"text": text}}
    if f.rule in index:
        res["ruleIndex"] = index[f.rule]
    if f.path:
        loc: dict[str, Any] = {"physicalLocation": {"artifactLocation": _artifact(f.path)}}
        if f.line:
            region: dict[str, Any] = {"startLine": f.line}
            if f.column:
                region["startColumn"] = f.column
            loc["physicalLocation"]["region"] = region
        if f.object:
            loc["logicalLocations"] = [{"fullyQualifiedName": f.object, "kind": "resource"}]
        res["locations"] = [loc]
    props = {k: v for k, v in (("fix", f.fix), ("object", f.object)) if v}
    if props:
        res["properties"] = props
    return res


def to_sarif(
    findings: Iterable[Finding],
    rules: Iterable[RuleInfo],
    tool_name: str = "gpupool",
    base_dir: Path | None = None,
    category: str | None = None,
) -> dict[str, Any]:
    """One SARIF log with one run; ``category`` (e.g. ``check``) becomes the run's
    ``automationDetails.id`` (``gpupool/check/``), so several commands' runs can share one log (:func:`merge`)
    and GitHub code scanning keeps them apart."""
    rule_list = list(rules)
    index = {r.id: i for i, r in enumerate(rule_list)}
    base = (base_dir or Path.cwd()).resolve()
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": tool_name,
                "version": __version__,
                "rules": [_rule(r) for r in rule_list],
            }
        },
        "originalUriBaseIds": {SRCROOT: {"uri": base.as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(f, index) for f in sorted(findings, key=sort_key)],
    }
    if category:
        run["automationDetails"] = {"id": f"{tool_name}/{category}/"}
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def merge(logs: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Several SARIF logs as one (SARIF allows several runs in one log): every run of every log, in order."""
    runs = [run for log in logs for run in log.get("runs", [])]
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": runs}


def main(argv: list[str] | None = None) -> int:
    """``python -m gpupool.report.sarif OUT IN...``: merge SARIF files into OUT (missing inputs skipped)."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m gpupool.report.sarif OUT IN...", file=sys.stderr)
        return 2
    out, inputs = args[0], args[1:]
    logs = []
    for name in inputs:
        p = Path(name)
        if p.is_file() and p.stat().st_size:
            logs.append(json.loads(p.read_text(encoding="utf-8")))
    from gpupool.atomicfile import write_atomic

    write_atomic(out, json.dumps(merge(logs), indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def dumps(findings: Iterable[Finding], rules: Iterable[RuleInfo], **kw: Any) -> str:
    return json.dumps(to_sarif(findings, rules, **kw), indent=2)
