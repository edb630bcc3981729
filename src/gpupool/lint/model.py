"""What a lint run is given and what it gives back: :class:`LintOptions`, one :class:`ObjectResult` per
object, the :class:`LintResult`, and the :class:`RunReport` each part of the run (a file, a worker's chunk)
adds up. Plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpupool.findings import Finding, Severity, exit_code
from gpupool.lint.config import LintConfig


@dataclass(frozen=True)
class LintOptions:
    kubernetes_version: str | None = None  # "1.33"; None: the config's, else AKS's default (catalog.aks)
    strict: bool | None = None  # None: the config's, else True
    crds: tuple[str, ...] = ()  # files/dirs with CustomResourceDefinitions (added to the config's)
    reject_unknown: bool | None = None  # None: the config's, else False
    disallow_ignores: bool = False
    config: LintConfig | None = None  # the engine does not search for one; the CLI does
    ignore: tuple[str, ...] = ()  # rule IDs or names turned off (like ``rules: {ID: off}`` in the config)
    jobs: int | None = None  # worker processes; None: one per available core for large inputs; 1: in-process
    exclude: tuple[str, ...] = ()  # globs of files/directories not to lint (added to the config's)
    api_server: bool = True  # the API server's validation after the schema's (GP220-GP229)


@dataclass
class ObjectResult:
    """One object (or unreadable file/document, or Helm chart) and its verdict.

    ``status``: ``valid`` (the API server would accept it), ``invalid`` (it would refuse it: schema errors,
    its validation GP220-GP229, extended resources GP301-GP303), ``skipped`` (no schema: a custom resource
    without --crd, a Helm chart, a template, a binary file), ``error`` (unreadable, or not a Kubernetes
    object). The other GPU findings (placement) do not change the status: an object can be valid and still
    not land on a pool; ``findings`` holds every finding of the object."""

    path: str
    line: int | None
    kind: str
    name: str
    namespace: str | None
    status: str
    findings: list[Finding] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        from gpupool.report import jsonout

        return {
            "path": self.path,
            "line": self.line,
            "kind": self.kind,
            "name": self.name,
            "namespace": self.namespace,
            "status": self.status,
            "findings": jsonout.findings_list(self.findings),
        }


@dataclass
class LintResult:
    findings: list[Finding]
    summary: dict[str, Any]
    objects: list[tuple[str, str, str]] = field(default_factory=list)
    """Every object (or unreadable file/document) seen: (path, "Kind ns/name", "
    "valid|invalid|error|skipped)."""
    results: list[ObjectResult] = field(default_factory=list)
    """The same objects with line, kind, name and their findings (``-o json``'s ``objects``)."""
    per_object: list[Finding] | None = None
    """``findings`` with each object's own notice where the run reports one per kind (GP208), for reports
    that are per object (JUnit); None: the same as ``findings``."""

    @property
    def exit_code(self) -> int:
        return self.exit_code_for(Severity.ERROR)

    def exit_code_for(self, fail_on: Severity | None) -> int:
        """2 when an input could not be read; else 1 when a finding is at least ``fail_on`` (None: never)."""
        if self.summary.get("unreadable"):
            return 2
        return exit_code(self.findings, fail_on)


@dataclass
class RunReport:
    """What linting one file produced (picklable: workers send it back)."""

    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    resources: int = 0
    valid: int = 0
    invalid: int = 0
    errors: int = 0
    skipped: int = 0
    suppressed: int = 0
    unreadable: int = 0
    charts: int = 0
    objects: list[tuple[str, str, str]] = field(default_factory=list)  # (path, object, status)
    results: list[ObjectResult] = field(default_factory=list)

    def merge(self, other: RunReport) -> None:
        self.findings.extend(other.findings)
        self.objects.extend(other.objects)
        self.results.extend(other.results)
        for name in (
            "charts",
            "files",
            "resources",
            "valid",
            "invalid",
            "errors",
            "skipped",
            "suppressed",
            "unreadable",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
