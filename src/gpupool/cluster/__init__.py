"""The running cluster as plain data, read from a snapshot directory or (lazily) a live API server.

    from gpupool.cluster import Snapshot, read_snapshot
    snap = read_snapshot("snapshot/")     # what kubectl/az printed (see SNAPSHOT_FILES)
    snap.nodes, snap.pods                 # raw API objects (the items of each List)
    snap.logs[LogKey("gpu-resources", "nvidia-device-plugin-daemonset-x7k2p", "nvidia-device-plugin-ctr",
                     previous=False)]

Used by ``doctor``, ``simulate --snapshot`` and ``report``. :mod:`.live` reads the same shape from a
cluster (official ``kubernetes`` client, read-only), :mod:`.collect` writes it to a directory,
:mod:`.commands` prints the commands that make it by hand. What a Node says (pool, VM size, quantities,
taints, Ready) is in :mod:`gpupool.k8s.nodes`.
"""

from gpupool.cluster.snapshot import (
    MAX_JSON_BYTES,
    MAX_LOG_BYTES,
    SNAPSHOT_FILES,
    LogKey,
    Snapshot,
    SnapshotFile,
    log_file_name,
    parse_log_name,
    read_snapshot,
)

__all__ = [
    "MAX_JSON_BYTES",
    "MAX_LOG_BYTES",
    "SNAPSHOT_FILES",
    "LogKey",
    "Snapshot",
    "SnapshotFile",
    "log_file_name",
    "parse_log_name",
    "read_snapshot",
]
