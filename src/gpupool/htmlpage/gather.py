"""Run the engines a report shows: check (GP1xx, and GP8xx on Karpenter NodePools), lint (GP2xx/GP3xx),
simulate (GP5xx, with Node Auto Provisioning for the NodePools), diff (GP4xx), doctor (GP6xx, from a cluster
snapshot).

Plain data in (files already chosen by the CLI, CURRENT already read), one :class:`Results` out. Every
engine is the one the matching command runs, with its defaults; nothing is re-implemented here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpupool.errors import InputError
from gpupool.findings import Finding


@dataclass(frozen=True)
class Placement:
    pod: str
    workload: str  # "Kind namespace/name"
    node: str
    pool: str


@dataclass
class Results:
    files: list[str]
    pools: list[Any]  # PoolSpec
    workloads: list[Any]  # simulate's WorkloadInput
    check: list[Finding]
    lint: Any | None  # LintResult, when workloads were given
    simulation: Any  # SimulationResult
    placements: list[Placement]
    diffs: list[Any] = field(default_factory=list)  # DiffResult per pool found in CURRENT and the specs
    diff_notes: list[str] = field(default_factory=list)
    current: str | None = None
    doctor: Any | None = None  # DoctorResult, from --snapshot
    snapshot: str | None = None
    seconds: dict[str, float] = field(default_factory=dict)  # read, check, lint, simulate, diff
    nap: Any = None  # gpupool.nap.model.NapInputs: the Karpenter NodePools and AKSNodeClasses given


def _placements(result: Any) -> list[Placement]:
    """Where each simulated workload pod landed (simulate's own list; DaemonSet pods are not in it)."""
    return [Placement(p.pod, p.workload, p.node, p.pool) for p in result.placements]


def _lint_child(names: list[str]) -> tuple[str, Any]:
    from gpupool.lint.engine import LintOptions, lint_paths

    try:  # one process: a pool's worker may not fork its own workers
        return "ok", lint_paths(names, options=LintOptions(jobs=1))
    except InputError as e:
        return "input-error", (e.path, e.line, e.message, e.hint)


class _Lint:
    """``gpupool lint`` on the report's inputs (the pools it finds there, as ``lint`` does): in a forked
    process for inputs of ``lint``'s own parallel size and more, else in-process when asked."""

    def __init__(self, names: list[str]) -> None:
        import contextlib
        import multiprocessing
        import os

        from gpupool.lint.engine import PARALLEL_MIN_BYTES

        self.names = names
        self.pool: Any = None
        self.pending: Any = None
        size = 0
        for n in names:
            with contextlib.suppress(OSError):
                size += os.path.getsize(n)
        self.parallel = size >= PARALLEL_MIN_BYTES and "fork" in multiprocessing.get_all_start_methods()
        if self.parallel:
            self.pool = multiprocessing.get_context("fork").Pool(1)
            self.pending = self.pool.apply_async(_lint_child, (names,))

    def cancel(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None

    def result(self) -> Any:
        try:
            kind, value = self.pending.get() if self.pending is not None else _lint_child(self.names)
        finally:
            if self.pool is not None:
                self.pool.close()
                self.pool.join()
                self.pool = None
        if kind != "ok":
            raise InputError(*value)
        return value


def gather(
    files: Sequence[str | Path],
    *,
    current: list[tuple[Any, Any]] | None = None,
    current_path: str | None = None,
    kubernetes_version: str | None = None,
    prices: Any = None,
    snapshot: str | Path | None = None,
    settle: Any = None,
) -> Results:
    """Read ``files`` (pool specs, Karpenter NodePools and AKSNodeClasses, workloads, told apart by kind) and
    run every engine on them: check runs the design rules on the pools and the NodePool rules (GP8xx) on the
    NodePools, as ``gpupool check`` does; simulate lets NAP provision for the pods the pools leave Pending.

    ``settle``: what the run's config makes of a list of findings (its rules levels and ignore entries),
    applied to every engine's findings; the pools' ``gpupool.io/ignore`` annotations always apply.
    ``current``: CURRENT as ``gpupool diff`` reads it ([(PoolSpec, AzPool | None)]); each of its pools that
    the specs also define is diffed against the spec. ``snapshot``: a cluster snapshot directory (what
    ``gpupool doctor --collect`` writes), diagnosed by doctor. Raises InputError for unusable input.
    """
    import time

    from gpupool.design.check import check_pools
    from gpupool.findings import sort_key
    from gpupool.nap.check import check_nap
    from gpupool.simulate import Options, load_inputs, simulate

    names = [str(f) for f in files]
    clock = [time.perf_counter()]
    seconds: dict[str, float] = {}

    def lap(name: str) -> None:
        now = time.perf_counter()
        seconds[name] = now - clock[0]
        clock[0] = now

    linting = _Lint(names)  # large inputs: lint runs in a forked process while this one reads and simulates
    try:
        inputs = load_inputs(names)
        lap("read")
        nap = inputs.nap
        if not inputs.pools and not (nap and nap.node_pools):
            raise InputError(
                names[0] if len(names) == 1 else None,
                None,
                "no pool spec or Karpenter NodePool in the inputs",
                "pass at least one file with apiVersion gpupool/v1 (kind GpuNodePool or NodePool) or "
                "karpenter.sh/v1 (kind NodePool)",
            )
        check = check_pools(inputs.pools)
        if nap:
            check = sorted(check + check_nap(nap, inputs.pools), key=sort_key)
        lap("check")
        sim = simulate(inputs, Options(kubernetes_version=kubernetes_version, prices=prices))
        lap("simulate")
        placements = _placements(sim)
        lap("placements")
        lint = linting.result() if inputs.workloads else None
        lap("lint")  # in parallel: only the time left to wait for it
    finally:
        linting.cancel()
    seconds["lint_in_parallel"] = float(linting.parallel)
    workload_files = list(dict.fromkeys(w.path for w in inputs.workloads))
    res = Results(
        files=names,
        pools=list(inputs.pools),
        workloads=list(inputs.workloads),
        check=check,
        lint=lint,
        simulation=sim,
        placements=placements,
        current=current_path,
        seconds=seconds,
        nap=nap if nap else None,
    )
    if current is not None:
        _diffs(res, current, workload_files)
        lap("diff")
    if snapshot is not None:
        from gpupool.cluster import read_snapshot
        from gpupool.doctor import diagnose

        res.doctor = diagnose(read_snapshot(snapshot), prices=prices, pools=res.pools)  # GP680: vs design
        res.snapshot = str(snapshot)
        lap("doctor")
    _settle(res, settle)
    return res


def _settle(res: Results, settle: Any) -> None:
    """Leave out what the pools' annotations and the config name, in every engine's findings."""
    from gpupool.spec.suppress import apply_pool_ignores

    def one(found: Any) -> list[Finding]:
        kept, _ = apply_pool_ignores(found, res.pools)
        return settle(kept) if settle is not None else kept

    if settle is not None:  # check_pools has honoured the annotations already
        res.check = settle(res.check)
    res.simulation.findings = one(res.simulation.findings)
    if res.lint is not None:
        res.lint.findings = one(res.lint.findings)
    res.diffs = [dataclasses.replace(d, findings=tuple(one(d.findings))) for d in res.diffs]
    if res.doctor is not None:
        res.doctor.findings = one(res.doctor.findings)


def _diffs(res: Results, current: list[tuple[Any, Any]], workload_files: list[str]) -> None:
    from gpupool.diff import diff, load_workloads

    located = load_workloads(workload_files) if workload_files else None
    taken = tuple(p.name for p, _ in current)
    desired = {p.name: p for p in res.pools}
    for cur, az in current:
        des = desired.get(cur.name)
        if des is None:
            res.diff_notes.append(f"pool {cur.name} is in CURRENT but no spec describes it (not compared)")
            continue
        res.diffs.append(diff(cur, des, current_az=az, workloads=located, taken_names=taken))
    in_current = {p.name for p, _ in current}
    for p in res.pools:
        if p.name not in in_current:
            res.diff_notes.append(f"pool {p.name} is not in CURRENT: it would be created")
