"""Kubernetes semantics written once, shared by lint, simulate, diff and doctor.

- :mod:`quantity`  resource quantities (``500m``, ``1Gi``, ``2``) as exact fractions
- :mod:`workloads` pod templates from every workload kind, replicas, ``kind: List`` expansion
- :mod:`resources` effective pod requests/limits as kube-scheduler computes them
- :mod:`taints`    taints vs tolerations, exactly as the scheduler matches them
- :mod:`affinity`  nodeSelector and required node affinity against node labels
- :mod:`nodes`     what a Node object says: pool, VM size, capacity/allocatable, taints, Ready
- :mod:`gpustack`  which NVIDIA GPU stack part a pod spec, Pod or DaemonSet is (device plugin, GFD, driver...)
"""
