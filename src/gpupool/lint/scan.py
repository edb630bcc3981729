"""What lint must know before any object is linted, read once from every input: the pool specs (merged,
then vetted by design's check) and the TrainJob runtimes and LLMInferenceService configs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpupool import spec as pool_spec
from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.findings import Finding, Severity
from gpupool.k8s.runtimes import Runtimes
from gpupool.lint import reader
from gpupool.nap import lintinputs as nap_inputs
from gpupool.spec.model import PoolSpec


def pools_in(path: str, text: str) -> list[PoolSpec]:
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


RUNTIME_MARKERS = (b"TrainingRuntime", b"LLMInferenceServiceConfig")


def runtimes_in(path: str, text: str, into: Runtimes) -> None:
    try:
        docs = yamlio.load_documents(text, path)
    except InputError:
        return  # reported when the file is linted
    for doc in docs:
        for obj, _ in reader.objects(doc.data):
            into.add(obj)


def scan_inputs(
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
                pools.extend(pools_in(reader.STDIN_NAME, stdin_text))
                nap_docs.extend(nap_inputs.documents_in(reader.STDIN_NAME, stdin_text))
                if any(m.decode() in stdin_text for m in RUNTIME_MARKERS):
                    runtimes_in(reader.STDIN_NAME, stdin_text, runtimes)
            continue
        try:
            with open(f, "rb") as fh:
                raw = fh.read(yamlio.MAX_FILE_BYTES + 1)
        except OSError:
            continue
        if len(raw) > yamlio.MAX_FILE_BYTES:
            continue
        has_pool = marker in raw
        has_runtime = any(m in raw for m in RUNTIME_MARKERS)
        has_nap = nap_inputs.has_marker(raw)
        if has_pool or has_runtime or has_nap:
            try:
                text = yamlio.decode(raw, f)
            except InputError:
                continue
            if has_pool:
                pools.extend(pools_in(f, text))
            if has_runtime:
                runtimes_in(f, text, runtimes)
            if has_nap:
                nap_docs.extend(nap_inputs.documents_in(f, text))
    return pools, runtimes


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
