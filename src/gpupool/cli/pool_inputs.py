"""Pool specs and Karpenter objects from the same files: the input discovery of ``check`` and ``plan``.

It follows :func:`gpupool.cli.common.load_pool_specs` (the one discovery: files, ``-``, directories with
``--exclude``; empty inputs are "nothing to check" where ``allow_empty``), and reads each document by its
apiVersion: ``gpupool/v1`` is a pool spec (kinds GpuNodePool and NodePool), ``karpenter.sh/v1`` NodePool and
``karpenter.azure.com`` AKSNodeClass are NAP objects. Any other document in a file named for check is bad
input
(exit 2); in a directory, files with neither are left to lint.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.errors import safe_text as _safe
from gpupool.nap.load import is_nap_document, parse_inputs
from gpupool.nap.model import NapInputs


def load_inputs(
    paths: Sequence[str | os.PathLike[str]], exclude: Sequence[str] = (), allow_empty: bool = False
) -> tuple[list[Any], NapInputs]:
    """(pool specs, Karpenter objects) from ``paths`` (the files of :func:`gpupool.cli.common.input_files`).
    Raises InputError for bad input."""
    from gpupool.cli.common import input_files
    from gpupool.spec.load import check_unique, is_pool_document, parse_pool
    from gpupool.spec.model import API_VERSION

    def wanted(data: Any) -> bool:
        return is_pool_document(data) or is_nap_document(data)

    pools: list[Any] = []
    nap_docs: list[tuple[Any, str, int]] = []
    for name, docs in input_files(paths, exclude, allow_empty, wanted):
        if not docs:
            raise InputError(name, None, "no pool spec found (expected kind GpuNodePool or NodePool)")
        here = []
        for doc in docs:
            yamlio.refuse_duplicates(doc)
            if is_pool_document(doc.data):
                here.append(parse_pool(doc.data, doc.path, doc.line))
            elif is_nap_document(doc.data):
                nap_docs.append((doc.data, doc.path, doc.line))
            else:
                data = doc.data
                kind = data.get("kind") if isinstance(data, dict) else None
                api = data.get("apiVersion") if isinstance(data, dict) else None
                what = f"{_safe(str(api))}/{_safe(str(kind))}" if kind or api else yamlio.type_name(data)
                raise InputError(
                    doc.path, doc.line,
                    f"not a pool spec ({what}); expected apiVersion {API_VERSION} (GpuNodePool or NodePool), "
                    "karpenter.sh/v1 NodePool or karpenter.azure.com AKSNodeClass",
                )
        check_unique(here)  # per file, as load_pools does (one cluster's pools per file)
        pools.extend(here)
    return pools, parse_inputs(nap_docs)


def load_clusters(paths: list[str]) -> tuple[Any, ...]:
    """``--cluster FILE`` (``az aks show -o json``, each one cluster) -> one
    :class:`gpupool.nap.cluster.ClusterNap` per file: checked as preflight checks a cluster (a managed
    cluster object, networkProfile, pools), then its NAP mode read. Raises InputError for a bad file."""
    if not paths:
        return ()
    from gpupool.nap.cluster import mode_of
    from gpupool.preflight.inputs import load_cluster

    out = []
    for p in paths:
        load_cluster(p)
        docs = [d for d in yamlio.load_file(p) if d.data is not None]
        out.append(mode_of(docs[0].data, docs[0].path, docs[0].line))
    return tuple(out)
