"""The one result type shared by check, lint, diff, simulate and doctor.

A :class:`Finding` is plain data: which rule, how bad, what is wrong, where, and how to fix it.
Engines yield findings; reporters (``gpupool.report``) print them; the CLI turns them into an exit code.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    ERROR = "error"  # will fail, be rejected, or cost money
    WARNING = "warning"  # likely wrong
    INFO = "info"  # worth knowing

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: Severity
    message: str
    path: str | None = None
    line: int | None = None
    column: int | None = None
    object: str | None = None  # "Kind namespace/name" or "pool gpunp"
    fix: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def with_severity(self, severity: Severity) -> Finding:
        return replace(self, severity=severity)

    def location(self) -> str:
        if not self.path:
            return ""
        if self.line:
            return f"{self.path}:{self.line}" + (f":{self.column}" if self.column else "")
        return self.path

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "rule": self.rule,
            "severity": self.severity.value,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "object": self.object,
            "fix": self.fix,
        }
        if self.extra:
            d.update(self.extra)
        return d


def about_pool(
    pool: Any, rule: str, severity: Severity, message: str, at: Any = (), fix: str | None = None, **extra: Any
) -> Finding:
    """A finding about a pool spec, at the first field of ``at`` the spec gave (else its document).

    The one builder for the rule families that judge pool specs (design GP1xx, preflight GP7xx).
    """
    return Finding(
        rule=rule,
        severity=severity,
        message=message,
        path=pool.where.path,
        line=pool.where.line_of(*at),
        object=pool.label,
        fix=fix,
        extra=dict(extra),
    )


def sort_key(f: Finding) -> tuple:
    return (f.path or "", f.line or 0, f.column or 0, f.rule, f.message)


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)


def exit_code(findings: list[Finding], fail_on: Severity | None = Severity.ERROR) -> int:
    """1 when any finding is at least as severe as ``fail_on`` (default: error), else 0.

    ``fail_on=None`` never fails on findings (``--fail-on none``). Bad input is 2, raised as InputError.
    """
    if fail_on is None:
        return 0
    return 1 if any(f.severity.rank >= fail_on.rank for f in findings) else 0


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 node``, ``2 nodes``, ``0 nodes`` (``many``: an irregular plural); messages never say "node(s)"."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def agree(n: int, one: str, many: str) -> str:
    """The verb that agrees with ``n``: ``agree(n, "is", "are")``."""
    return one if n == 1 else many
