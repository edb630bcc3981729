"""``gpupool doctor``: diagnose GPU problems on a running AKS cluster, from a snapshot or live (read-only).

    from gpupool.cluster import read_snapshot
    from gpupool.doctor import diagnose
    result = diagnose(read_snapshot("snapshot/"))
    result.findings          # Finding objects, GP6xx, grouped by stage along the chain
    result.to_dict()         # the JSON payload (without "version", which the reporter adds)

Modules: :mod:`.view` (the snapshot indexed: GPU nodes, pods per node, GPU stack components, events),
:mod:`.parse` (FitError, autoscaler events and status, CUDA of images, log lines), :mod:`.placement`
(simulate's scheduler filters on the real nodes), :mod:`.context` (analyses the rules share),
:mod:`.engine` (the run), :mod:`.report` (text), ``rules/`` (GP6xx), ``data/signals.yaml`` (the facts).
"""

from gpupool.doctor.engine import DoctorResult, diagnose

__all__ = ["DoctorResult", "diagnose"]
