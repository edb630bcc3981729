"""Karpenter NodePools and AKSNodeClasses for ``gpupool lint``: found among the inputs (as pool specs are),
given with ``--pool``, merged, and vetted before any workload is placed on them.

Lint reads them the way ``check`` does (:mod:`gpupool.nap.load`, strict): one given with ``--pool`` that does
not read is bad input (exit 2), as a broken pool spec is; one among the inputs that does not read is no
landing place and is linted as any custom resource. Those that read are not linted as objects. A NodePool
with GP8xx errors (it admits no size, its limits admit no node) is reported and is no landing place, as a
pool with GP1xx errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.findings import Finding, Severity
from gpupool.nap.load import is_nap_document, parse_document
from gpupool.nap.model import NapInputs, NodePool

MARKERS = (b"karpenter.sh/", b"karpenter.azure.com/")
"""Bytes a file holds when it may hold a Karpenter object (only those files are parsed before linting)."""


def has_marker(raw: bytes | str) -> bool:
    if isinstance(raw, str):
        return any(m.decode() in raw for m in MARKERS)
    return any(m in raw for m in MARKERS)


def documents_in(path: str, text: str) -> list[Any]:
    """The Karpenter objects of one input file that read cleanly (:mod:`gpupool.nap.load`), as models. One
    that does not (an excerpt, another Karpenter version) is no landing place and is linted as any custom
    resource; unreadable YAML is reported when the file is linted."""
    if not has_marker(text):
        return []
    try:
        docs = yamlio.load_documents(text, path)
    except InputError:
        return []
    out = []
    for doc in docs:
        if is_nap_document(doc.data) and not doc.duplicates:
            try:
                out.append(parse_document(doc.data, doc.path, doc.line))
            except InputError:
                continue
    return out


def merge(given: NapInputs, found: Sequence[Any]) -> NapInputs:
    """``given`` (``--pool``: unique names, checked by the loader) and the objects ``found`` among the inputs
    (a repository may hold several examples of one name: each is a landing place); identical repeats (a file
    given with --pool and among the inputs) are dropped."""
    pools = list(given.node_pools)
    classes = list(given.node_classes)
    for o in found:
        into = pools if isinstance(o, NodePool) else classes
        if o not in into:
            into.append(o)
    return NapInputs(tuple(pools), tuple(classes))


def found_in(path: str, text: str) -> NapInputs:
    return merge(NapInputs(), documents_in(path, text))


def vet(nap: NapInputs, pools: Sequence[Any] = ()) -> tuple[NapInputs, list[Finding]]:
    """(the NodePools without GP8xx errors, the findings of those with errors)."""
    if not nap.node_pools:
        return nap, []
    from gpupool.nap.check import check_nap

    found = [f for f in check_nap(nap, pools) if f.object and f.object.startswith("NodePool ")]
    bad = {(f.path, f.object) for f in found if f.severity is Severity.ERROR}
    usable = tuple(p for p in nap.node_pools if (p.where.path, p.label) not in bad)
    return NapInputs(usable, nap.node_classes), [f for f in found if (f.path, f.object) in bad]
