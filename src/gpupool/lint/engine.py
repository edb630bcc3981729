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
from typing import Any

from gpupool import spec as pool_spec
from gpupool import yamlio
from gpupool.findings import Finding, Severity, sort_key
from gpupool.gcpolicy import YOUNG_THRESHOLD
from gpupool.k8s.runtimes import Runtimes
from gpupool.lint import reader
from gpupool.lint.linter import CUSTOM_SKIPPED, Linter, chart_report
from gpupool.lint.model import LintOptions, LintResult, ObjectResult, RunReport
from gpupool.lint.scan import RUNTIME_MARKERS, merge_pools, pools_in, runtimes_in, scan_inputs, vet_pools
from gpupool.nap import lintinputs as nap_inputs
from gpupool.nap.model import NapInputs
from gpupool.spec.model import PoolSpec

__all__ = ["LintOptions", "LintResult", "ObjectResult", "lint_paths", "lint_text", "merge_pools", "vet_pools"]

PARALLEL_MIN_BYTES = 1_000_000
"""Inputs smaller than this are linted in-process (starting workers costs more than it saves)."""
_CHUNK_BYTES = 200_000


# ---- running -----------------------------------------------------------------------------------------

_WORKER: Linter | None = None


def _work(chunk: list[str]) -> RunReport:
    assert _WORKER is not None
    rep = RunReport()
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


def _run(linter: Linter, files: list[str], stdin_text: str | None, jobs: int | None) -> RunReport:
    with _gc_tuned():
        return _run_files(linter, files, stdin_text, jobs)


def _run_files(linter: Linter, files: list[str], stdin_text: str | None, jobs: int | None) -> RunReport:
    global _WORKER
    total = RunReport()
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


def _summary(
    linter: Linter, rep: RunReport, findings: list[Finding], pools: list[PoolSpec]
) -> dict[str, Any]:
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
    scanned, runtimes = scan_inputs(files, stdin_text, nap_docs)
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
        rep.merge(chart_report(linter, chart))
    return _result(linter, rep, all_pools)


def _collapse_skipped(findings: list[Finding]) -> list[Finding]:
    """One GP208 info per kind of custom resource (apiVersion and kind: the message), at its first object,
    with the count, as kubeconform counts skipped resources instead of naming each; the objects' own
    results (``LintResult.results``, the summary's ``skipped``) stay per object. As an error
    (``--require-schemas``) every object keeps its own, since each fails. ``findings`` are sorted."""
    groups: dict[str, list[int]] = {}
    for i, f in enumerate(findings):
        if f.rule == "GP208" and f.severity is Severity.INFO and f.message.endswith(CUSTOM_SKIPPED):
            groups.setdefault(f.message, []).append(i)
    first: dict[int, Finding] = {}
    dropped: set[int] = set()
    for msg, idx in groups.items():
        if len(idx) > 1:
            f = findings[idx[0]]
            what = msg[: -len(CUSTOM_SKIPPED)]
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


def _result(linter: Linter, rep: RunReport, pools: list[PoolSpec]) -> LintResult:
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
    all_pools = merge_pools(list(pools or ()) + pools_in(path, text))
    usable, rejected = vet_pools(all_pools)
    linter = _linter(usable, rejected, options, nap_inputs.found_in(path, text))
    runtimes = Runtimes()
    if any(m.decode() in text for m in RUNTIME_MARKERS):
        runtimes_in(path, text, runtimes)
    linter.runtimes = runtimes or None
    with _gc_tuned():
        rep = linter.lint_source(path, text)
    return _result(linter, rep, all_pools)
