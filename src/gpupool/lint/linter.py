"""The steps of a lint run: one file (its documents, a Helm chart's rendering), one document, one object
(schema, API-server validation, the GPU rules), and the annotations and config that silence findings.
:class:`Linter` holds everything a run needs, built once (and inherited by forked workers)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from typing import Any

from gpupool import spec as pool_spec
from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.findings import Finding, Severity
from gpupool.k8s import podspecs
from gpupool.k8s.runtimes import Runtimes
from gpupool.lint import apiserver, reader, schema
from gpupool.lint.config import ANNOTATION, LintConfig, parse_ignore_annotation, resolve_rule
from gpupool.lint.crd import CrdSet, load_crds
from gpupool.lint.gpu import PoolIndex, check_workload, object_ref
from gpupool.lint.model import LintOptions, ObjectResult, RunReport
from gpupool.nap.load import is_nap_document
from gpupool.nap.model import NapInputs
from gpupool.spec.model import PoolSpec

REFUSED = ("GP2", "GP301", "GP302", "GP303")
"""Rules whose errors mean the API server refuses the object (the object's status is ``invalid``)."""

CUSTOM_SKIPPED = " (a custom resource): skipped (pass its CRD with --crd)"


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

    def lint_source(self, path: str, text: str | None = None, explicit: bool = False) -> RunReport:
        """Lint one file (or ``text``). ``explicit``: the file was named on the command line, so a binary
        file there is bad input (exit 2), not something a directory walk happened to meet."""
        rep = RunReport(files=1)
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

    def _emit_file(self, rep: RunReport, f: Finding) -> None:
        """A finding with no object: config ignores by path and levels apply."""
        kept = self._filter([f], None, [], rep)
        rep.findings.extend(kept)

    # ---- documents and objects ----

    def lint_document(self, doc: yamlio.Document, rep: RunReport, annotations: bool = True) -> None:
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
        rep: RunReport,
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
                    msg = f"no schema for {schema.safe(kind)} {schema.safe(api)}{CUSTOM_SKIPPED}"
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
            f.severity is Severity.ERROR and f.rule.startswith(REFUSED) for f in kept
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
        rep: RunReport,
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


def _map_sources(rep: RunReport, start: tuple[int, int], stream: str, sources: list[tuple[int, str]]) -> None:
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


def chart_report(linter: Linter, chart_file: str) -> RunReport:
    rep = RunReport(charts=1)
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
