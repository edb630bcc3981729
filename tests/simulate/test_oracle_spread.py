"""Default topology spreading against the real kube-scheduler (tests/data/oracle/scheduler-spread).

60 scenarios built for PodTopologySpread's system defaults, each run 6 times by the real 1.34.7 and 1.35.4
schedulers: bare pods pinned to nodes, some carrying a Deployment's label, Deployments whose selectors match
each other's pods. gpupool (``simulate --autoscaler none -k VERSION``) equals one of the recorded runs: for
every (pool, zone) the multiset of nodes' pods (counted per workload), hence the pods per pool and per zone,
and the Pending pods per workload (node names are not compared: the nodes of a pool are identical). 1.34.7
breaks ties between equal best nodes at random, so there the exact test is a steered replay: each tie resolved
as a recorded run did, gpupool must reproduce that run pod by pod.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from gpupool.simulate import Options, load_inputs, simulate

DATA = Path(__file__).resolve().parent.parent / "data" / "oracle" / "scheduler-spread"
VERSIONS = ["1.34.7", "1.35.4"]
ZONE = "topology.kubernetes.io/zone"
_POD = re.compile(r"^(?P<w>.+?)(?:-p?\d+)?$")


@cache
def _json(name: str) -> dict:
    with gzip.open(DATA / f"{name}.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


@cache
def _zones() -> dict[str, dict[str, str]]:
    """scenario -> node -> zone, from the nodes the real scheduler was given."""
    return {
        s["name"]: {n["metadata"]["name"]: n["metadata"]["labels"].get(ZONE, "") for n in s["nodes"]}
        for s in _json("given")["scenarios"]
    }


def _workload(pod: str) -> str:
    m = _POD.match(pod)
    assert m
    return m.group("w")


def _pool(node: str) -> str:
    return node.split("-")[1]


def signature(zones: dict[str, str], placed: dict[str, str | None]) -> tuple:
    """Per (pool, zone): the sorted list of nodes' pods per workload; and the Pending pods per workload."""
    per_node: dict[str, Counter[str]] = {n: Counter() for n in zones}
    pending: Counter[str] = Counter()
    for pod, node in placed.items():
        if node is None:
            pending[_workload(pod)] += 1
        else:
            per_node[node][_workload(pod)] += 1
    groups: dict[tuple[str, str], list] = {}
    for node, pods in per_node.items():
        groups.setdefault((_pool(node), zones[node]), []).append(tuple(sorted(pods.items())))
    return tuple(sorted((k, tuple(sorted(v))) for k, v in groups.items())), tuple(sorted(pending.items()))


def compare(version: str) -> list[str]:
    real = _json(f"real-{version}")["scenarios"]
    problems = []
    for name, runs in sorted(real.items()):
        zones = _zones()[name]
        options = Options(kubernetes_version=version, autoscaler="none", compare=False)
        result = simulate(load_inputs([DATA / "scenarios" / f"{name}.yaml"]), options)
        ours: dict[str, str | None] = {p.pod: p.node for p in result.placements}
        for e in result.pending:
            for k in range(e.count):
                ours[f"{e.workload.rsplit('/', 1)[-1]}-p{k}"] = None
        mine = signature(zones, ours)
        theirs = [
            signature(zones, {p: n if isinstance(n, str) else None for p, n in r.items()}) for r in runs
        ]
        if mine not in theirs:
            problems.append(f"{name}: gpupool {mine}\n  real (first run) {theirs[0]}")
    return problems


def steered(version: str, name: str, run: dict) -> str | None:
    """Replays a scenario with every tie between equal best nodes resolved as ``run`` did; None when gpupool
    then places every pod on the node ``run`` did, else the first difference. A choice outside gpupool's
    equal best nodes is a difference of scores, not of luck."""
    from gpupool.simulate import engine, runner

    clusters = []
    real_cluster = runner.Cluster
    off: list[str] = []

    def make(*a, **k):  # type: ignore[no-untyped-def]
        c = real_cluster(*a, **k)
        clusters.append(c)

        def tie(pod: str, best: set[int]) -> int:
            want = c.by_name.get(run.get(pod) if isinstance(run.get(pod), str) else "")
            if want in best:
                return want  # type: ignore[return-value]
            off.append(
                f"{pod}: recorded {run.get(pod)}, gpupool's best {sorted(c.node_name[n] for n in best)}"
            )
            return min(best)

        c.tie_break = tie
        return c

    options = Options(kubernetes_version=version, autoscaler="none", compare=False)
    runner.Cluster = make  # type: ignore[misc]
    try:
        sim = engine.Simulation(load_inputs([DATA / "scenarios" / f"{name}.yaml"]), options)
        result = sim.run("none")
    finally:
        runner.Cluster = real_cluster  # type: ignore[misc]
    c = clusters[0]
    ours = {p.name: c.node_name[p.node] if p.node is not None else None for p in result.pods}
    theirs = {p: n if isinstance(n, str) else None for p, n in run.items()}
    if off:
        return off[0]
    bad = [p for p in theirs if ours.get(p, "-") != theirs[p]]
    return f"{bad[0]}: recorded {theirs[bad[0]]}, gpupool {ours.get(bad[0])}" if bad else None


def test_every_scenario_is_here() -> None:
    names = sorted(p.stem for p in (DATA / "scenarios").glob("sp*.yaml"))
    assert len(names) == 60
    for v in VERSIONS:
        real = _json(f"real-{v}")
        assert real["kubernetes"].lstrip("v") == v and real["runs_per_scenario"] == 6
        assert sorted(real["scenarios"]) == names


def test_spreading_equals_a_recorded_run() -> None:
    """1.35 breaks ties deterministically (its heap, which gpupool models): every scenario equals a run."""
    problems = compare("1.35.4")
    assert not problems, f"{len(problems)} of 60 scenarios differ on 1.35.4:\n" + "\n".join(problems[:5])


def test_spreading_before_1_35_equals_a_recorded_run_where_ties_allow() -> None:
    """1.34.7 breaks ties at random and gpupool takes the lowest node index: most scenarios still equal one of
    the 6 recorded runs (53 of 60 when written); the others differ only in ties (the steered test below)."""
    assert len(compare("1.34.7")) <= 7


@pytest.mark.parametrize("version", VERSIONS)
def test_every_recorded_run_is_reproduced_when_ties_go_its_way(version: str) -> None:
    """1.34.7 breaks ties at random, so 6 runs need not hold gpupool's deterministic choice; resolving each
    tie as a recorded run did, gpupool must then place every pod exactly where that run did, for some run of
    every scenario (its scores, hence its sets of equal best nodes, are the scheduler's)."""
    real = _json(f"real-{version}")["scenarios"]
    problems = []
    for name, runs in sorted(real.items()):
        whys = [steered(version, name, run) for run in runs]
        if all(whys):
            problems.append(f"{name}: {whys[0]}")
    assert not problems, f"{len(problems)} of 60 scenarios:\n" + "\n".join(problems[:10])


if __name__ == "__main__":
    for v in VERSIONS:
        bad = compare(v)
        print(f"{v}: {60 - len(bad)} of 60 scenarios equal a recorded run")
        for b in bad:
            print(b.splitlines()[0][:300])
