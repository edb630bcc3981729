"""Versioned JSON output (``"version": 1``). Stable: fields are only ever added."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from gpupool.findings import Finding, sort_key

VERSION = 1


def findings_list(findings: Iterable[Finding]) -> list[dict[str, Any]]:
    return [f.to_dict() for f in sorted(findings, key=sort_key)]


def dumps(payload: dict[str, Any]) -> str:
    body = {"version": VERSION, **payload}
    return json.dumps(body, indent=2, sort_keys=False, default=str)
