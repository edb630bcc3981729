"""Replays gpupool's autoscaler against the real cluster-autoscaler's answers (tests/data/oracle/autoscaler).

Each scenario is simulated as the recorder did (``Options()`` defaults, the ``aks`` model). At every scale-up
loop gpupool's cluster is checked against the recorded state's input (nodes, and the pods on each node or
Pending); gpupool's options (per node group: node count and the set of pods helped) and its choice are
compared with CA's. The recorded path is then followed (the next state's node counts), so every recorded
state is compared even where gpupool would choose differently. At the last state CA adds nothing and each
Pending pod's latest autoscaler event is compared with CA's ``NotTriggerScaleUp`` text as a multiset of
reasons (CA prints them in Go map order). ``python tests/simulate/ca_oracle.py`` prints the agreement and
every difference.
"""

from __future__ import annotations

import gzip
import json
import tempfile
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from gpupool.design.nodeshape import group_id
from gpupool.simulate import engine, runner
from gpupool.simulate.autoscaler import Option
from gpupool.simulate.engine import Options, Simulation
from gpupool.simulate.inputs import load_inputs

DATA = Path(__file__).resolve().parent.parent / "data" / "oracle" / "autoscaler"
PREFIX = "pod didn't trigger scale-up: "


@cache
def given() -> dict[str, dict]:
    with open(DATA / "given.json", encoding="utf-8") as f:
        return {s["id"]: s for s in json.load(f)["scenarios"]}


@cache
def recorded() -> dict[str, list[dict]]:
    with gzip.open(DATA / "states.json.gz", "rt", encoding="utf-8") as f:
        return {s["id"]: s["states"] for s in json.load(f)["scenarios"]}


@dataclass
class Verdict:
    scenario: str
    loop: int
    ok: bool
    why: str = ""


class _Stop(Exception):
    pass


def _reasons(text: str | None) -> Counter[str]:
    if text is None:
        return Counter()
    assert text.startswith(PREFIX), text
    return Counter(text[len(PREFIX) :].split(", "))


def _answers(state: dict) -> list[dict]:
    return [state["output"], *state.get("outputAlternatives", [])]


def _cluster_diff(run: engine.Run, state_input: dict) -> str | None:
    cluster = run.cluster
    want_nodes = sorted(n["node"]["metadata"]["name"] for n in state_input["nodes"])
    got_nodes = sorted(cluster.node_name)
    if want_nodes != got_nodes:
        return f"nodes: recorded {want_nodes}, gpupool {got_nodes}"
    want = {p["metadata"]["name"]: p["spec"].get("nodeName") for p in state_input["pods"]}
    got = {p.name: (cluster.node_name[p.node] if p.node is not None else None) for p in run.pods if not p.ds}
    if want != got:
        bad = sorted(k for k in set(want) | set(got) if want.get(k, "-") != got.get(k, "-"))[:6]
        return "pods: " + ", ".join(f"{k} recorded {want.get(k, '-')} gpupool {got.get(k, '-')}" for k in bad)
    return None


def _options(sim: Simulation, options: list[Option]) -> dict[str, tuple[int, list[str]]]:
    return {group_id(sim.pools[o.pool_idx]): (o.count, sorted(p.name for p in o.pods)) for o in options}


def _ca_options(answer: dict) -> dict[str, tuple[int, list[str]]]:
    return {o["group"]: (o["nodeCount"], sorted(o["pods"])) for o in answer.get("options") or []}


def _scale(answer: dict) -> tuple[str, int] | None:
    ups = answer.get("scaleUps") or []
    return (ups[0]["group"], ups[0]["nodeCount"]) if ups else None


def _last_diff(sim: Simulation, run: engine.Run, answer: dict) -> str | None:
    """The run stopped here: CA too must add nothing, and every Pending pod's latest event must agree."""
    up = _scale(answer)
    if up is not None:
        return f"gpupool adds nothing, CA scales up {up}"
    result = answer.get("result")
    blocked = run.ca_blocked[0] if run.ca_blocked else None
    if result == "ClusterUnhealthy" or blocked == "unhealthy":
        return (
            None if (result == "ClusterUnhealthy") == (blocked == "unhealthy") else f"{result} vs {blocked}"
        )
    if result == "ScaleUpError" or blocked is not None:
        if blocked != "no-node-info" or result != "ScaleUpError":
            return f"CA {result} {answer.get('scaleUpError')}, gpupool blocked {run.ca_blocked}"
        idx = run.ca_blocked[1]  # type: ignore[index]
        err = sim.ca.no_node_info.format(group=group_id(sim.pools[idx]))
        return (
            None if err == answer.get("scaleUpError") else f"error {err!r} vs {answer.get('scaleUpError')!r}"
        )
    if answer.get("filteredAsSchedulable"):
        return f"CA finds room on existing nodes for {answer['filteredAsSchedulable']}"
    ca = answer.get("notTriggered") or {}
    problems = []
    for pod in run.pending:
        if pod.ds:
            continue
        mine = run.ca_msg.get(id(pod))
        if (mine is not None and not mine.startswith(PREFIX)) or _reasons(mine) != _reasons(ca.get(pod.name)):
            problems.append(f"{pod.name}: gpupool {mine!r}, CA {ca.get(pod.name)!r}")
    return "; ".join(problems[:3]) if problems else None


def replay(sid: str) -> list[Verdict]:
    """One verdict per recorded state of scenario ``sid`` (a state never reached is a difference)."""
    scenario, states = given()[sid], recorded()[sid]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "workload.yaml"
        path.write_text(scenario["files"]["workload.yaml"], encoding="utf-8")
        inputs = load_inputs([path])
    sim = Simulation(inputs, Options(compare=False))
    by_group = {group_id(p): i for i, p in enumerate(sim.pools)}
    runs: list[engine.Run] = []
    verdicts: list[Verdict] = []
    loop = 0
    real_run, real_choose = runner.Run, runner.choose

    def make_run(*a, **k):  # type: ignore[no-untyped-def]
        r = real_run(*a, **k)
        runs.append(r)
        return r

    def choose(options: list[Option], expander: str) -> Option:
        nonlocal loop
        run, state = runs[-1], states[loop]
        diff = _cluster_diff(run, state["input"])
        if diff is not None:
            verdicts.append(Verdict(sid, loop, False, "cluster differs: " + diff))
            raise _Stop
        mine = _options(sim, options)
        pick = real_choose(options, expander)
        choice = (group_id(sim.pools[pick.pool_idx]), pick.count)
        why = []
        for answer in _answers(state):
            theirs = _ca_options(answer)
            if mine != theirs:
                why.append(f"options gpupool {mine}, CA {theirs}")
            elif choice != _scale(answer):
                why.append(f"choice gpupool {choice}, CA {_scale(answer)}")
            else:
                why = []
                break
        verdicts.append(Verdict(sid, loop, not why, why[0] if why else ""))
        if state["last"]:
            raise _Stop
        nxt = Counter(n["group"] for n in states[loop + 1]["input"]["nodes"])
        now = Counter(n["group"] for n in state["input"]["nodes"])
        grown = [(g, nxt[g] - now[g]) for g in nxt if g and nxt[g] > now[g]]
        assert len(grown) == 1, grown
        group, count = grown[0]
        idx = by_group[group]
        same = next((o for o in options if o.pool_idx == idx), None)
        loop += 1
        return Option(idx, count, same.pods if same else [], sim.template(run, idx, "aks"))

    runner.Run, runner.choose = make_run, choose  # type: ignore[misc, assignment]
    try:
        run = sim.run("aks")
    except _Stop:
        pass
    else:
        state = states[loop]
        diff = _cluster_diff(run, state["input"])
        if diff is not None:
            verdicts.append(Verdict(sid, loop, False, "cluster differs: " + diff))
        else:
            whys = [_last_diff(sim, run, a) for a in _answers(state)]
            ok = any(w is None for w in whys)
            verdicts.append(Verdict(sid, loop, ok, "" if ok else str(whys[0])))
    finally:
        runner.Run, runner.choose = real_run, real_choose  # type: ignore[misc]
    for j in range(len(verdicts), len(states)):
        verdicts.append(Verdict(sid, j, False, "not reached"))
    return verdicts


def scenarios() -> list[str]:
    return sorted(recorded())


def main() -> None:
    all_v = [v for sid in scenarios() for v in replay(sid)]
    bad = [v for v in all_v if not v.ok]
    per = Counter(v.scenario for v in bad)
    for v in bad:
        print(f"{v.scenario} loop {v.loop}: {v.why}")
    n = len(scenarios())
    print(f"states agreeing: {len(all_v) - len(bad)} of {len(all_v)}; scenarios: {n - len(per)} of {n}")


if __name__ == "__main__":
    main()
