"""The lint engine: files -> documents -> objects -> schema + GPU findings, in one pass.

Public API::

    from gpupool.lint.engine import LintOptions, lint_paths, lint_text

    result = lint_paths(["manifests/", "-"], pools=pools, options=LintOptions(kubernetes_version="1.33"))
    result.findings      # list[Finding], sorted by file, line, column
    result.summary       # {"files", "resources", "valid", "invalid", "errors", "skipped", "findings", ...}
    result.exit_code     # 0 no error findings, 1 errors, 2 an input could not be read

Pool specs (``apiVersion: gpupool/v1``) found among the inputs are added to ``pools`` before any workload is
checked, whatever the file order. Large inputs are linted by a pool of worker processes (one per core;
``LintOptions.jobs``): the schema bundle and compiled validators are per process and cached per
(Kubernetes version, strict, kind).
"""

from __future__ import annotations

import dataclasses
import gc
import multiprocessing
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from gpupool import spec as pool_spec
from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.findings import Finding, Severity, exit_code, sort_key
from gpupool.gcpolicy import YOUNG_THRESHOLD
from gpupool.k8s import podspecs
from gpupool.k8s.runtimes import Runtimes
from gpupool.lint import apiserver, reader, schema
from gpupool.lint.config import ANNOTATION, LintConfig, parse_ignore_annotation, resolve_rule
from gpupool.lint.crd import CrdSet, load_crds
from gpupool.lint.gpu import PoolIndex, check_workload, object_ref
from gpupool.nap import lintinputs as nap_inputs
from gpupool.nap.load import is_nap_document
from gpupool.nap.model import NapInputs
from gpupool.spec.model import PoolSpec

__all__ = ["LintOptions", "LintResult", "lint_paths", "lint_text"]

PARALLEL_MIN_BYTES = 1_000_000
"""Inputs smaller than this are linted in-process (starting workers costs more than it saves)."""
_CHUNK_BYTES = 200_000


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
class _Report:
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

    def merge(self, other: _Report) -> None:
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


def _finding(
    rule: str,
    severity: Severity,
    message: str,
    path: str | None,
    pos: tuple[int, int] | None = None,
    obj: str | None = None,
    fix: str | None = None,
    line: int | None = None,
) -> Finding:
    return Finding(
        rule=rule,
        severity=severity,
        message=message,
        path=path,
        line=pos[0] if pos else line,
        column=pos[1] if pos else None,
        object=obj,
        fix=fix,
    )


def _meta(obj: dict) -> dict:
    m = obj.get("metadata")
    return m if isinstance(m, dict) else {}


class Linter:
    """Everything one lint run needs, built once (and inherited by forked workers)."""

    def __init__(self, pools: Sequence[PoolSpec], options: LintOptions, nap: NapInputs | None = None) -> None:
        cfg = options.config or LintConfig()
        self.config = cfg
        from gpupool.catalog.aks import default_kubernetes_version  # AKS's default, as every command

        stated = options.kubernetes_version or cfg.kubernetes_version
        self.assumed = None if stated else default_kubernetes_version().note()
        self.version = schema.resolve_version(stated or default_kubernetes_version().minor)
        self.strict = (
            options.strict if options.strict is not None else (cfg.strict if cfg.strict is not None else True)
        )
        self.reject_unknown = bool(
            options.reject_unknown if options.reject_unknown is not None else cfg.reject_unknown
        )
        self.disallow_ignores = options.disallow_ignores
        self.schemas = schema.schema_set(self.version, self.strict)
        crd_paths = tuple(cfg.crds) + tuple(options.crds)
        self.crds: CrdSet = load_crds(crd_paths, self.strict) if crd_paths else CrdSet()
        self.pools = list(pools)
        self.nap = nap or NapInputs()  # Karpenter NodePools: landing places too (gpupool.nap.placement)
        self.index = PoolIndex(self.pools, options.kubernetes_version or cfg.kubernetes_version, self.nap)
        self.runtimes: Runtimes | None = None  # objects other objects take their pods from (k8s/runtimes)
        self.pool_findings: list[Finding] = []  # GP1xx errors of pools not used as landing places
        self.nap_rejected: tuple[Any, ...] = ()  # NodePools with GP8xx errors (reported, not used)
        self.levels = dict(cfg.levels)
        if self.reject_unknown:
            self.levels["GP208"] = Severity.ERROR
        for token in options.ignore:
            rid = resolve_rule(token)
            if rid is None:
                raise InputError(None, None, f"--ignore: unknown lint rule {token!r}", "see gpupool explain")
            self.levels[rid] = None
        self.ignores = () if self.disallow_ignores else cfg.ignores
        # GP220-GP229 run unless turned off, or every one of them is (``rules: {ID: off}``, --ignore)
        self.api_server = options.api_server and not all(
            rid in self.levels and self.levels[rid] is None for rid in apiserver.IDS
        )
        self.explicit: set[str] = set()  # files named on the command line (a binary one is bad input)
        self.charts: list[str] = []  # Chart.yaml of each Helm chart found in the directories

    # ---- files ----

    def lint_source(self, path: str, text: str | None = None, explicit: bool = False) -> _Report:
        """Lint one file (or ``text``). ``explicit``: the file was named on the command line, so a binary
        file there is bad input (exit 2), not something a directory walk happened to meet."""
        rep = _Report(files=1)
        explicit = explicit or path in self.explicit
        src = reader.read_documents(path, text)
        name = src.path

        def file_result(status: str, f: Finding, what: str = "file") -> None:
            kept = self._filter([f], None, [], rep)
            rep.findings.extend(kept)
            rep.objects.append((name, what, status))
            rep.results.append(ObjectResult(name, f.line, what, "", None, status, kept))

        if src.binary is not None:
            if explicit:
                rep.unreadable += 1
                rep.errors += 1
                file_result(
                    "error",
                    _finding("GP210", Severity.ERROR, f"{src.binary.message}: not a manifest", name,
                             line=src.binary.line, fix="name YAML or JSON files only"),
                )
            else:
                rep.skipped += 1
                file_result(
                    "skipped",
                    _finding("GP210", Severity.INFO, f"skipped: {src.binary.message}", name,
                             line=src.binary.line),
                )
            return rep
        if src.unreadable is not None:
            rep.unreadable += 1
            rep.errors += 1
            file_result("error", _finding("GP209", Severity.ERROR, src.unreadable.message, name))
            return rep
        if src.too_large is not None:
            rep.errors += 1
            big = src.too_large
            file_result("error", _finding("GP200", Severity.ERROR, big.message, name, fix=big.hint))
            return rep
        start = len(rep.findings), len(rep.results)
        for doc in src.documents:
            self.lint_document(doc, rep, src.has_ignores)
        if src.template and src.syntax_error is not None:
            rep.skipped += 1
            file_result(
                "skipped",
                _finding(
                    "GP213",
                    Severity.INFO,
                    "Go/Helm template (has {{ }} markers and is not YAML until rendered): skipped",
                    name,
                    line=src.syntax_error.line,
                    fix="lint the rendered output: helm template CHART | gpupool lint -",
                ),
                "template",
            )
        elif src.syntax_error is not None:
            e = src.syntax_error
            rep.errors += 1
            msg = e.message + (f" ({e.hint})" if e.hint else "")
            file_result(
                "error",
                _finding("GP200", Severity.ERROR, msg, name, line=e.line),
                f"document at line {e.line}" if e.line else "file",
            )
        if src.sources:
            _map_sources(rep, start, name, src.sources)
        return rep

    def _emit_file(self, rep: _Report, f: Finding) -> None:
        """A finding with no object: config ignores by path and levels apply."""
        kept = self._filter([f], None, [], rep)
        rep.findings.extend(kept)

    # ---- documents and objects ----

    def lint_document(self, doc: yamlio.Document, rep: _Report, annotations: bool = True) -> None:
        data = doc.data
        if data is None:
            return
        if pool_spec.is_pool_document(data) or (is_nap_document(data) and self._landing(doc)):
            return  # pools and Karpenter NodePools were loaded before linting started
        objs = list(reader.objects(data))
        if len(objs) == 1 and objs[0][1] == ():
            self.lint_object(doc, data, (), rep, doc.duplicates, annotations)
            return
        remaining = list(doc.duplicates)
        for obj, base in objs:
            mine = [d for d in remaining if _contains(obj, d.line)]
            if mine:
                remaining = [d for d in remaining if d not in mine]
            self.lint_object(doc, obj, base, rep, mine, annotations)
        for d in remaining:  # duplicates in the List wrapper itself
            self._emit_file(rep, self._dup(doc.path, d, object_ref(data)))

    def _landing(self, doc: yamlio.Document) -> bool:
        """A Karpenter document read as a landing place (one that did not read is linted as an object)."""
        return any(o.where.path == doc.path and o.where.line == doc.line
                   for o in (*self.nap.node_pools, *self.nap.node_classes, *self.nap_rejected))

    @staticmethod
    def _dup(path: str, d: yamlio.DuplicateKey, ref: str | None) -> Finding:
        return _finding(
            "GP205",
            Severity.ERROR,
            f'duplicate key "{schema.safe(d.key)}" (first at line {d.first_line}); kubectl refuses '
            "the file, other tools keep the last value",
            path,
            (d.line, d.column),
            ref,
            fix="keep one of the two entries",
        )

    def lint_object(
        self,
        doc: yamlio.Document,
        obj: Any,
        base: tuple,
        rep: _Report,
        duplicates: Sequence[yamlio.DuplicateKey] = (),
        annotations: bool = True,
    ) -> None:
        path = doc.path
        root = doc  # positions: Document.locate (read on demand for lazily built documents)
        rep.resources += 1

        def at(rel: tuple) -> tuple[int, int] | None:
            if not base and not rel and doc.line:
                return doc.line, 1  # a document's own position needs no re-read of its positions
            return doc.locate((*base, *rel))

        if not isinstance(obj, dict):
            rep.errors += 1
            rep.objects.append((path, f"document at line {doc.line}", "error"))
            what = schema.type_name(obj)
            n_before = len(rep.findings)
            self._emit_file(
                rep,
                _finding(
                    "GP206",
                    Severity.ERROR,
                    f"a document must be a Kubernetes object (a mapping with apiVersion and "
                    f"kind), not {'an' if what[0] in 'aeio' else 'a'} {what}",
                    path,
                    at(()),
                    line=doc.line,
                ),
            )
            rep.results.append(
                ObjectResult(path, doc.line, what, "", None, "error", rep.findings[n_before:])
            )
            return
        ref = object_ref(obj)
        found: list[Finding] = [self._dup(path, d, ref) for d in duplicates]
        api, kind = obj.get("apiVersion"), obj.get("kind")
        status = "valid"
        templates = None  # the object's pod templates, found once (GPU rules, ignore annotations)
        if not isinstance(api, str) or not api or not isinstance(kind, str) or not kind:
            missing = [k for k, v in (("apiVersion", api), ("kind", kind)) if not isinstance(v, str) or not v]
            found.append(
                _finding(
                    "GP206",
                    Severity.ERROR,
                    f"not a Kubernetes object: {' and '.join(missing)} missing or not a string",
                    path,
                    at(()),
                    ref,
                    line=doc.line,
                    fix="add apiVersion and kind (e.g. apiVersion: v1, kind: Pod)",
                )
            )
            status = "error"
        else:
            lookup = self.schemas.lookup(api, kind)
            builtin = not isinstance(lookup, schema.Unknown)
            if isinstance(lookup, schema.Unknown) and self.crds:
                gv = schema.split_api_version(api)
                hit = self.crds.lookup(gv[0], gv[1], kind) if gv else None
                if hit is not None:
                    lookup = hit
            if isinstance(lookup, schema.Found):
                for p in schema.validate(lookup, obj):
                    found.append(_finding(p.rule, Severity.ERROR, p.message, path, at(p.path), ref))
                if self.api_server:
                    found.extend(apiserver.findings(obj, self.version, builtin, path, at, ref))
                meta = _meta(obj)
                if not meta.get("name") and not meta.get("generateName"):
                    rel = ("metadata",) if "metadata" in obj else ()
                    found.append(
                        _finding(
                            "GP203",
                            Severity.ERROR,
                            "metadata.name: Required value: name or generateName is required",
                            path,
                            at(rel),
                            ref,
                        )
                    )
            elif isinstance(lookup, schema.NotServed):
                if lookup.served:
                    msg = (
                        f"{schema.safe(kind)} {schema.safe(api)} is not served by Kubernetes {self.version}; "
                        f"served: {', '.join(lookup.served)}"
                    )
                    fix = f"use apiVersion {lookup.served[-1]} (and adapt the fields that changed)"
                elif lookup.suggestion:
                    msg = (
                        f"unknown kind {schema.safe(kind)!r} in {schema.safe(api)} (Kubernetes "
                        f"{self.version}); "
                        f"did you mean {lookup.suggestion!r}?"
                    )
                    fix = f"kind: {lookup.suggestion}"
                else:
                    msg = f"{schema.safe(kind)} {schema.safe(api)} is not served by Kubernetes {self.version}"
                    fix = "move to a served API, or select the Kubernetes version with -k"
                found.append(_finding("GP207", Severity.ERROR, msg, path, at(("apiVersion",)), ref, fix=fix))
            else:
                status = "skipped"
                if api.startswith("kustomize.config.k8s.io/"):
                    msg = (
                        f"{schema.safe(kind)} is kustomize's build file, not a resource: skipped (lint "
                        "the build: kubectl kustomize DIR | gpupool lint -)"
                    )
                else:
                    msg = f"no schema for {schema.safe(kind)} {schema.safe(api)}{_CUSTOM_SKIPPED}"
                found.append(_finding("GP208", Severity.INFO, msg, path, at(()), ref))
            templates = podspecs.pod_templates(obj, self.runtimes)
            for w in templates:
                found.extend(check_workload(w, self.index, path=path, root=root, base=base, ref=ref))
            if len(templates) > 1:  # two roles sharing one template (an LWS leader without its own)
                seen: set[tuple] = set()
                unique = []
                for f in found:
                    # one placeholder finding per object (GP212), whichever template holds the first
                    k = ("GP212",) if f.rule == "GP212" and "placeholders" in (f.extra or {}) else (
                        f.rule, f.line, f.column, f.message)
                    if k not in seen:
                        seen.add(k)
                        unique.append(f)
                found = unique
        notes = _annotations(obj, templates) if annotations else []
        kept = self._filter(found, obj, notes, rep, base=base, root=root, ref=ref)
        rep.findings.extend(kept)
        # Schema-wise verdict: errors the API server refuses the object for (schema, its validation: GP2xx;
        # extended resources: GP301-GP303) make an object invalid; the other GPU findings do not.
        if status in ("valid", "skipped") and any(
            f.severity is Severity.ERROR and f.rule.startswith(_REFUSED) for f in kept
        ):
            status = "invalid"
        counter = "errors" if status == "error" else status
        setattr(rep, counter, getattr(rep, counter) + 1)
        rep.objects.append((path, ref, status))
        meta = _meta(obj)
        pos = at(()) if base else None  # a List item; else the document's own line (no positions needed)
        rep.results.append(
            ObjectResult(
                path,
                pos[0] if pos else doc.line,
                kind if isinstance(kind, str) else "",
                str(meta.get("name") or meta.get("generateName") or ""),
                str(meta["namespace"]) if meta.get("namespace") else None,
                status,
                kept,
            )
        )

    # ---- suppressions and levels ----

    def _filter(
        self,
        found: list[Finding],
        obj: dict | None,
        annotations: list[tuple[Any, tuple]],
        rep: _Report,
        base: tuple = (),
        root: Any = None,
        ref: str | None = None,
    ) -> list[Finding]:
        if not found and not annotations:
            return []
        suppressed: dict[str, str] = {}
        extra: list[Finding] = []
        path = found[0].path if found else None
        for value, rel in annotations:
            pos = yamlio.locate(root, (*base, *rel)) if root is not None else None
            if self.disallow_ignores:
                extra.append(
                    _finding(
                        "GP211",
                        Severity.INFO,
                        f"{ANNOTATION} not honoured (--disallow-ignores): {schema.safe(str(value), 120)}",
                        path,
                        pos,
                        ref,
                    )
                )
                continue
            parsed = parse_ignore_annotation(value)
            suppressed.update(parsed.rules)
            for problem in parsed.problems:
                extra.append(
                    _finding(
                        "GP211",
                        Severity.WARNING,
                        f"{problem}; not honoured",
                        path,
                        pos,
                        ref,
                        fix=f'write "{ANNOTATION}: <RULE> <reason>"',
                    )
                )
        ident = None
        if obj is not None:
            meta = _meta(obj)
            ident = (
                str(obj.get("kind", "")),
                str(meta.get("namespace") or ""),
                str(meta.get("name") or meta.get("generateName") or ""),
            )
        out: list[Finding] = []
        base_dir = self.config.base_dir
        for f in found:
            if f.rule in suppressed:
                rep.suppressed += 1
                continue
            if self.ignores and any(e.matches(f.rule, f.path, ident, base_dir) for e in self.ignores):
                rep.suppressed += 1
                continue
            out.append(f)
        out.extend(extra)
        if self.levels:
            leveled = []
            for f in out:
                if f.rule in self.levels:
                    sev = self.levels[f.rule]
                    if sev is None:
                        continue
                    f = f.with_severity(sev)
                leveled.append(f)
            out = leveled
        return out


def _annotations(obj: dict, templates: list | None = None) -> list[tuple[Any, tuple]]:
    """``gpupool.io/ignore`` values on the object and on its pod templates (``templates``: those already
    found, else found here), with their paths."""
    out = []
    metas: list[tuple[Any, tuple]] = [(obj.get("metadata"), ("metadata",))]
    for w in podspecs.pod_templates(obj) if templates is None else templates:
        if w.template_path != w.pod_spec_path and w.template_path:
            metas.append((w.template.get("metadata"), (*w.template_path, "metadata")))
    for meta, rel in metas:
        if isinstance(meta, dict) and isinstance(meta.get("annotations"), dict):
            ann = meta["annotations"]
            if ANNOTATION in ann:
                out.append((ann[ANNOTATION], (*rel, "annotations", ANNOTATION)))
    return out


def _contains(obj: Any, line: int) -> bool:
    """Is ``line`` inside ``obj``'s span (between its first line and the last line of its last child)?"""
    if not isinstance(obj, yamlio.LineDict) or not obj.line:
        return False
    return obj.line <= line <= _last_line(obj)


def _last_line(node: Any) -> int:
    last = 0
    while True:
        if isinstance(node, yamlio.LineDict) and node:
            key = next(reversed(node))
            last = max(last, node.key_pos.get(key, (0, 0))[0])
            node = node[key]
        elif isinstance(node, yamlio.LineList) and node:
            last = max(last, node.item_pos[-1][0] if node.item_pos else 0)
            node = node[-1]
        else:
            return last


def _map_sources(rep: _Report, start: tuple[int, int], stream: str, sources: list[tuple[int, str]]) -> None:
    """Findings in a ``helm template`` stream move to the template they came from: path = the ``# Source:``
    path before their line, line = the line within that template's output (1 = the line after the
    comment); the stream's own path and line stay in ``extra``."""
    import bisect

    lines = [ln for ln, _ in sources]

    def move(f: Finding) -> Finding:
        if f.path != stream or not f.line:
            return f
        k = bisect.bisect_left(lines, f.line) - 1
        if k < 0:
            return f
        at, src = sources[k]
        extra = {**(f.extra or {}), "stream": stream, "streamLine": f.line}
        return dataclasses.replace(f, path=src, line=f.line - at, extra=extra)

    first_finding, first_result = start
    rep.findings[first_finding:] = [move(f) for f in rep.findings[first_finding:]]
    for i in range(first_result, len(rep.results)):
        r = rep.results[i]
        r.findings = [move(f) for f in r.findings]
        if r.line:
            k = bisect.bisect_left(lines, r.line) - 1
            if k >= 0:
                r.path, r.line = sources[k][1], r.line - sources[k][0]
                o = rep.objects[i]  # objects and results are appended together
                rep.objects[i] = (r.path, o[1], o[2])


def _chart_report(linter: Linter, chart_file: str) -> _Report:
    rep = _Report(charts=1)
    chart_dir = os.path.dirname(chart_file) or "."
    name = os.path.basename(os.path.abspath(chart_dir))
    ref = f"Helm chart {schema.safe(name, 80)}"
    f = _finding(
        "GP213",
        Severity.INFO,
        f"lint its output, `helm template {chart_dir} | gpupool lint -` (Chart.yaml, values*.yaml and the "
        "templates are not Kubernetes manifests until rendered)",
        chart_file,
        obj=ref,
        line=1,
        fix=f"helm template {chart_dir} | gpupool lint -",
    )
    kept = linter._filter([f], None, [], rep)
    rep.findings.extend(kept)
    rep.objects.append((chart_file, ref, "skipped"))
    rep.results.append(ObjectResult(chart_file, 1, "HelmChart", name, None, "skipped", kept))
    return rep


# ---- pools in the inputs -----------------------------------------------------------------------------


def _pools_in(path: str, text: str) -> list[PoolSpec]:
    if pool_spec.model.API_VERSION not in text:
        return []
    out = []
    try:
        docs = yamlio.load_documents(text, path)
    except InputError:
        return []  # reported as GP200 when the file is linted
    for doc in docs:
        if pool_spec.is_pool_document(doc.data):
            yamlio.refuse_duplicates(doc)
            out.append(pool_spec.parse_pool(doc.data, doc.path, doc.line))
    return out


_RUNTIME_MARKERS = (b"TrainingRuntime", b"LLMInferenceServiceConfig")


def _runtimes_in(path: str, text: str, into: Runtimes) -> None:
    try:
        docs = yamlio.load_documents(text, path)
    except InputError:
        return  # reported when the file is linted
    for doc in docs:
        for obj, _ in reader.objects(doc.data):
            into.add(obj)


def _scan_inputs(
    files: list[str], stdin_text: str | None, nap_docs: list[Any] | None = None
) -> tuple[list[PoolSpec], Runtimes]:
    """What must be known before any object is linted, in one read of each file: the pool specs, the
    Karpenter documents (into ``nap_docs``), and the TrainJob runtimes and LLMInferenceService configs (an
    object finds its runtime in any file of the run). Only files holding their markers are parsed here."""
    nap_docs = [] if nap_docs is None else nap_docs
    marker = pool_spec.model.API_VERSION.encode()
    pools: list[PoolSpec] = []
    runtimes = Runtimes()
    for f in files:
        if f == reader.STDIN:
            if stdin_text is not None:
                pools.extend(_pools_in(reader.STDIN_NAME, stdin_text))
                nap_docs.extend(nap_inputs.documents_in(reader.STDIN_NAME, stdin_text))
                if any(m.decode() in stdin_text for m in _RUNTIME_MARKERS):
                    _runtimes_in(reader.STDIN_NAME, stdin_text, runtimes)
            continue
        try:
            with open(f, "rb") as fh:
                raw = fh.read(yamlio.MAX_FILE_BYTES + 1)
        except OSError:
            continue
        if len(raw) > yamlio.MAX_FILE_BYTES:
            continue
        has_pool = marker in raw
        has_runtime = any(m in raw for m in _RUNTIME_MARKERS)
        has_nap = nap_inputs.has_marker(raw)
        if has_pool or has_runtime or has_nap:
            try:
                text = yamlio.decode(raw, f)
            except InputError:
                continue
            if has_pool:
                pools.extend(_pools_in(f, text))
            if has_runtime:
                _runtimes_in(f, text, runtimes)
            if has_nap:
                nap_docs.extend(nap_inputs.documents_in(f, text))
    return pools, runtimes


# ---- running -----------------------------------------------------------------------------------------

_WORKER: Linter | None = None


def _work(chunk: list[str]) -> _Report:
    assert _WORKER is not None
    rep = _Report()
    for path in chunk:
        rep.merge(_WORKER.lint_source(path))
    return rep


def _available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _chunks(files: list[str], sizes: dict[str, int], workers: int) -> list[list[str]]:
    """Runs of neighbouring files (similar kinds: fewer validators to compile per worker) of roughly
    _CHUNK_BYTES each, at least 8 per worker so that dynamic dispatch balances the load."""
    total = sum(sizes.values())
    target = max(1, min(_CHUNK_BYTES, total // (workers * 16) or 1))
    ordered = files
    chunks: list[list[str]] = []
    current: list[str] = []
    size = 0
    for f in ordered:
        current.append(f)
        size += sizes[f]
        if size >= target:
            chunks.append(current)
            current, size = [], 0
    if current:
        chunks.append(current)
    return chunks


@contextmanager
def _gc_tuned() -> Iterator[None]:
    """Parsing allocates millions of short-lived containers and keeps few: collect the young generation
    less often (as :func:`gpupool.gcpolicy.batch` does for every CLI command, so that library callers get it
    too), the older ones less often, and never rescan what existed before the run (~15% of lint's CPU time
    otherwise)."""
    old = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(old[0], YOUNG_THRESHOLD), max(old[1], 20), max(old[2], 20))
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


def _run(linter: Linter, files: list[str], stdin_text: str | None, jobs: int | None) -> _Report:
    with _gc_tuned():
        return _run_files(linter, files, stdin_text, jobs)


def _run_files(linter: Linter, files: list[str], stdin_text: str | None, jobs: int | None) -> _Report:
    global _WORKER
    total = _Report()
    disk = [f for f in files if f != reader.STDIN]
    sizes = {}
    for f in disk:
        try:
            sizes[f] = os.path.getsize(f)
        except OSError:
            sizes[f] = 0
    workers = jobs if jobs is not None else _available_cpus()
    workers = max(1, min(workers, len(disk)))
    parallel = (
        workers > 1
        and sum(sizes.values()) >= PARALLEL_MIN_BYTES
        and "fork" in multiprocessing.get_all_start_methods()
    )
    if reader.STDIN in files:
        total.merge(linter.lint_source(reader.STDIN, stdin_text or ""))
    if not parallel:
        for f in disk:
            total.merge(linter.lint_source(f))
        return total
    _WORKER = linter
    try:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers) as pool:
            for rep in pool.imap_unordered(_work, _chunks(disk, sizes, workers)):
                total.merge(rep)
    finally:
        _WORKER = None
    return total


def _summary(linter: Linter, rep: _Report, findings: list[Finding], pools: list[PoolSpec]) -> dict[str, Any]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[f.severity.value] += 1
    return {
        "files": rep.files,
        # As kubeconform counts: every object, plus each file or document that could not be read.
        "resources": rep.valid + rep.invalid + rep.errors + rep.skipped,
        "valid": rep.valid,
        "invalid": rep.invalid,
        "errors": rep.errors,
        "skipped": rep.skipped,
        "suppressed": rep.suppressed,
        "unreadable": rep.unreadable,
        "charts": rep.charts,
        "findings": counts,
        "kubernetesVersion": linter.version,
        "assumed": linter.assumed,
        "strict": linter.strict,
        "pools": [p.name for p in pools],
        # pools with GP1xx errors (their findings are in the output): not used as landing places
        "poolsRejected": sorted({p.name for p in pools} - {p.name for p in linter.pools}),
        **_nodepools_summary(linter),
    }


def _nodepools_summary(linter: Linter) -> dict[str, Any]:
    """Karpenter NodePools used as landing places (only when some were given: the summary stays as it was
    for runs without them)."""
    given = [*linter.nap.node_pools, *linter.nap_rejected]
    if not given:
        return {}
    return {"nodePools": sorted(p.name for p in given),
            "nodePoolsRejected": sorted(p.name for p in linter.nap_rejected)}


def merge_pools(pools: Sequence[PoolSpec]) -> list[PoolSpec]:
    """One spec per (cluster, pool name): identical repeats are dropped, conflicting ones are bad input."""
    seen: dict[tuple[str, str], PoolSpec] = {}
    out = []
    for p in pools:
        key = (p.cluster_name, p.name)
        if key in seen:
            if seen[key] != p:
                first = seen[key].where
                raise InputError(
                    p.where.path,
                    p.where.line_of("name"),
                    f'pool "{p.name}" of cluster {p.cluster_name} is defined twice, differently '
                    f"(also at {first.path}:{first.line_of('name')})",
                )
            continue
        seen[key] = p
        out.append(p)
    return out


def vet_pools(pools: Sequence[PoolSpec]) -> tuple[list[PoolSpec], list[Finding]]:
    """Pools checked first, as ``gpupool check`` checks them: (the pools without GP1xx errors, the findings
    of those with errors). A pool AKS would refuse (retired VM size, GPU pool without its taint...) is no
    place for a workload to land; its findings are lint's too (exit 1)."""
    if not pools:
        return [], []
    from gpupool.design.check import check_pools

    found = check_pools(list(pools))
    bad = {
        (f.path, f.object) for f in found if f.severity is Severity.ERROR
    }
    usable = [p for p in pools if (p.where.path, p.label) not in bad]
    return usable, [f for f in found if (f.path, f.object) in bad]


def _linter(usable: list[PoolSpec], rejected: list[Finding], options: LintOptions, nap: NapInputs) -> Linter:
    """The run's Linter over the vetted pools and NodePools (those with errors are reported, not used)."""
    nap_usable, nap_bad = nap_inputs.vet(nap, usable)
    linter = Linter(usable, options, nap_usable)
    linter.pool_findings = [*rejected, *nap_bad]
    linter.nap_rejected = tuple(p for p in nap.node_pools if p not in nap_usable.node_pools)
    return linter


def _prepare(
    paths: Sequence[str],
    pools: Sequence[PoolSpec] | None,
    options: LintOptions | None,
    stdin_text: str | None,
    nap: NapInputs | None = None,
) -> tuple[Linter, list[str], str | None, list[PoolSpec]]:
    options = options or LintOptions()
    cfg = options.config
    exclude = tuple(cfg.exclude if cfg is not None else ()) + tuple(options.exclude)
    found = reader.discover_inputs(list(paths), exclude)
    files = found.files
    if reader.STDIN in files and stdin_text is None:
        stdin_text = yamlio.read_text(reader.STDIN)
    all_pools = list(pools or ())
    if cfg is not None and cfg.pools:
        for p in cfg.pools:
            all_pools.extend(pool_spec.load_pools(p))
    nap_docs: list[Any] = []
    scanned, runtimes = _scan_inputs(files, stdin_text, nap_docs)
    all_pools.extend(scanned)
    all_pools = merge_pools(all_pools)
    usable, rejected = vet_pools(all_pools)
    linter = _linter(usable, rejected, options, nap_inputs.merge(nap or NapInputs(), nap_docs))
    linter.runtimes = runtimes or None
    linter.explicit = found.explicit
    linter.charts = found.charts
    return linter, files, stdin_text, all_pools


def lint_paths(
    paths: Sequence[str | os.PathLike[str]],
    pools: Sequence[PoolSpec] | None = None,
    options: LintOptions | None = None,
    *,
    stdin_text: str | None = None,
    nap: NapInputs | None = None,
) -> LintResult:
    """Lint files, directories (recursively) and ``-`` (standard input, or ``stdin_text``).

    Raises :class:`~gpupool.errors.InputError` for bad usage (a path that does not exist, an unknown
    Kubernetes version, a broken pool spec, NodePool or CRD); everything wrong *in* the manifests is a
    finding. ``nap``: Karpenter NodePools and AKSNodeClasses to place workloads on (besides those found
    among the inputs).
    """
    linter, files, stdin_text, all_pools = _prepare([os.fspath(p) for p in paths], pools, options, stdin_text,
                                                    nap)
    rep = _run(linter, files, stdin_text, (options or LintOptions()).jobs)
    for chart in linter.charts:
        rep.merge(_chart_report(linter, chart))
    return _result(linter, rep, all_pools)


_REFUSED = ("GP2", "GP301", "GP302", "GP303")
"""Rules whose errors mean the API server refuses the object (the object's status is ``invalid``)."""

_CUSTOM_SKIPPED = " (a custom resource): skipped (pass its CRD with --crd)"


def _collapse_skipped(findings: list[Finding]) -> list[Finding]:
    """One GP208 info per kind of custom resource (apiVersion and kind: the message), at its first object,
    with the count, as kubeconform counts skipped resources instead of naming each; the objects' own
    results (``LintResult.results``, the summary's ``skipped``) stay per object. As an error
    (``--require-schemas``) every object keeps its own, since each fails. ``findings`` are sorted."""
    groups: dict[str, list[int]] = {}
    for i, f in enumerate(findings):
        if f.rule == "GP208" and f.severity is Severity.INFO and f.message.endswith(_CUSTOM_SKIPPED):
            groups.setdefault(f.message, []).append(i)
    first: dict[int, Finding] = {}
    dropped: set[int] = set()
    for msg, idx in groups.items():
        if len(idx) > 1:
            f = findings[idx[0]]
            what = msg[: -len(_CUSTOM_SKIPPED)]
            first[idx[0]] = dataclasses.replace(
                f,
                message=f"{what} (a custom resource): {len(idx)} objects skipped, this is the first (pass "
                "its CRD with --crd)",
                extra={**(f.extra or {}), "skipped": len(idx)},
            )
            dropped.update(idx[1:])
    if not first:
        return findings
    return [first.get(i, f) for i, f in enumerate(findings) if i not in dropped]


def _result(linter: Linter, rep: _Report, pools: list[PoolSpec]) -> LintResult:
    every = sorted([*rep.findings, *linter.pool_findings], key=sort_key)
    findings = _collapse_skipped(every)
    results = sorted(rep.results, key=lambda r: (r.path, r.line or 0))
    summary = _summary(linter, rep, findings, pools)
    per_object = every if findings is not every else None
    return LintResult(findings, summary, sorted(rep.objects), results, per_object)


def lint_text(
    text: str,
    path: str = reader.STDIN_NAME,
    pools: Sequence[PoolSpec] | None = None,
    options: LintOptions | None = None,
) -> LintResult:
    """Lint manifests given as text (``path`` is only the name used in findings)."""
    options = options or LintOptions()
    all_pools = merge_pools(list(pools or ()) + _pools_in(path, text))
    usable, rejected = vet_pools(all_pools)
    linter = _linter(usable, rejected, options, nap_inputs.found_in(path, text))
    runtimes = Runtimes()
    if any(m.decode() in text for m in _RUNTIME_MARKERS):
        _runtimes_in(path, text, runtimes)
    linter.runtimes = runtimes or None
    with _gc_tuned():
        rep = linter.lint_source(path, text)
    return _result(linter, rep, all_pools)
