"""The words of a run: for every Pending pod, kube-scheduler's message for the final cluster, the
autoscaler's last event, and the one sentence (:mod:`.autoscaler_story`) on how the two fit together."""

from __future__ import annotations

from collections import Counter

from gpupool.simulate import autoscaler_story, messages
from gpupool.simulate.model import Run
from gpupool.simulate.pods import Pod
from gpupool.simulate.runner import Runner


def explain(sim: Runner, run: Run) -> None:
    """Final messages for every pending pod: the scheduler's, and the autoscaler's last verdict."""
    cluster = run.cluster
    autoscaled = run.autoscaled
    cache: dict[tuple, str] = {}
    for pod in run.pending:
        run.why[id(pod)] = None
        if pod.status is not None:
            run.sched_msg[id(pod)] = pod.status
            run.ca_msg[id(pod)] = None
            continue
        key = (pod.shape.id, pod.pin)
        msg = cache.get(key)
        if msg is None:
            msg = cache[key] = cluster.diagnose(pod).message
        run.sched_msg[id(pod)] = msg
        if pod.ds or not autoscaled:
            run.ca_msg[id(pod)] = None
            continue
        story = _story(sim, run, pod)
        if story is not None:
            run.ca_msg[id(pod)], run.why[id(pod)] = story
            continue
        up = run.triggered.get(id(pod))
        ca_key = ("ca", pod.shape.id)
        ca = cache.get(ca_key)
        if ca is None:
            reasons: Counter[str] = Counter()
            for i in autoscaled:
                if cluster.spec_nodes(i) >= sim.pools[i].autoscaler.max_count:  # type: ignore[union-attr]
                    reasons[sim.msgs.ca_max_size] += 1
                    continue
                if run.mode == "aks" and sim.no_template(run, i):
                    reasons[sim.ca.not_ready_reason] += 1
                    continue
                for r in set(sim.template(run, i, run.mode).reasons(pod.shape)):
                    reasons[r] += 1
            ca = cache[ca_key] = messages.ca_not_triggered(sim.msgs, reasons)
        run.ca_msg[id(pod)] = ca
        if up is not None:
            # it triggered a scale-up in an earlier loop and is still Pending: its latest event is the
            # next loop's NotTriggerScaleUp (above); the story says why the new nodes did not take it
            run.why[id(pod)] = autoscaler_story.triggered_but_pending(sim, run, pod, up)
        elif run.mode == "aks":
            why_key = ("why", pod.shape.id)
            if why_key not in cache:
                cache[why_key] = autoscaler_story.not_triggered(sim, run, pod, autoscaled)  # type: ignore[assignment]
            run.why[id(pod)] = cache[why_key]


def _story(sim: Runner, run: Run, pod: Pod) -> tuple[str | None, str] | None:
    """(autoscaler event, explanation) when the autoscaler's part is more than "didn't trigger"."""
    if run.ca_blocked is not None:
        return None, autoscaler_story.blocked(sim, run)
    pool_idx = run.absorbed.get(id(pod))
    if pool_idx is not None:
        return None, autoscaler_story.counted_on_unready(sim, run, pool_idx)
    return None
