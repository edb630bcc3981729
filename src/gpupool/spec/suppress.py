"""Suppression in pool specs: the ``gpupool.io/ignore`` annotation, honoured by every command that reports
on pools (check, plan, lint, diff, simulate, preflight, render, report).

On the pool spec, each entry a rule ID or name followed by the reason (required), entries separated by
``;`` or new lines::

    metadata:
      name: gpunp
      annotations:
        gpupool.io/ignore: "GP128 the pool scales from one node on purpose; GP126 dev cluster, no other pods"

A finding is left out when its rule is named and it is about that pool (the finding's object is the pool,
``GpuNodePool gpunp`` or ``pool gpunp``, and its file is the spec's). An entry without a reason, or naming
no known rule, is bad input (one line ``file:line``, exit 2): a suppression says why, or it is not one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

from gpupool.errors import InputError
from gpupool.findings import Finding

ANNOTATION = "gpupool.io/ignore"


def parse_pool_ignores(value: Any, path: str, line: int | None) -> dict[str, str]:
    """The annotation's value -> {rule ID: reason}. Raises InputError for a value that is not one."""
    from gpupool import rules
    from gpupool.config import RULE_TOKEN, ignore_entries

    where = f"metadata.annotations.{ANNOTATION}"
    if not isinstance(value, str):
        raise InputError(path, line, f'{where}: expected a string such as "GP128 <reason>"')
    out: dict[str, str] = {}
    for entry, tokens, reason in ignore_entries(value):
        ids = []
        for token in tokens:
            info = rules.lookup(token) if RULE_TOKEN.match(token) else None
            if info is None:
                close = rules.closest(token)
                hint = f'did you mean "{close}"?' if close else "list the rules with: gpupool rules"
                raise InputError(path, line, f"{where}: unknown rule {token[:40]!r}", hint)
            ids.append(info.id)
        if not ids:
            raise InputError(path, line, f"{where}: entry {entry[:40]!r} names no rule")
        if not reason:
            raise InputError(
                path,
                line,
                f"{where}: {', '.join(ids)} has no reason",
                f'say why, e.g. "{ids[0]} <why the finding is acceptable here>"',
            )
        for rid in ids:
            out[rid] = reason
    return out


def _pool_of(f: Finding, pools: Sequence[Any], spec_files: set[str]) -> Any | None:
    """The pool a finding is about: by its object, and by its file when that is a spec file (a finding
    located elsewhere, such as diff's on the CURRENT side, is about the spec's pool of that name)."""
    if not f.object:
        return None
    kind, _, name = f.object.partition(" ")
    name = name.split(" ", 1)[0]
    path = os.path.normpath(f.path) if f.path else None
    for p in pools:
        if name != p.name or kind not in (p.kind, "pool"):
            continue
        if path is None or path not in spec_files or path == os.path.normpath(p.where.path):
            return p
    return None


def apply_pool_ignores(findings: Iterable[Finding], pools: Sequence[Any]) -> tuple[list[Finding], int]:
    """``findings`` without those the pools' annotations name; and how many were left out."""
    findings = list(findings)
    annotated = [p for p in pools if getattr(p, "ignores", None)]
    if not annotated:
        return findings, 0
    spec_files = {os.path.normpath(p.where.path) for p in pools}
    kept = []
    for f in findings:
        p = _pool_of(f, annotated, spec_files)
        if p is not None and f.rule in p.ignores:
            continue
        kept.append(f)
    return kept, len(findings) - len(kept)
