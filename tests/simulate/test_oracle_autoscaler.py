"""gpupool's autoscaler model against the real cluster-autoscaler 1.31.5 (tests/data/oracle/autoscaler).

Every recorded cluster state must agree (nondeterministic ones: with any recorded alternative): the options
(node group, node count, the set of pods each helps) and the choice at every scale-up loop, and at the last
state no further scale-up and each Pending pod's latest ``NotTriggerScaleUp`` reasons (the comparison is in
``ca_oracle.py``; ``python tests/simulate/ca_oracle.py`` prints every difference).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ca_oracle


def test_the_recording_is_complete() -> None:
    states = ca_oracle.recorded()
    assert len(states) == 174 and sum(len(s) for s in states.values()) == 263
    assert set(states) <= set(ca_oracle.given())
    tags = Counter(t for ss in states.values() for s in ss for t in s["tags"])
    # the behaviours the recording was built to exercise are all in it
    assert tags["gpuUnreadyNodes"] == 45 and tags["noNodeInfo"] == 14 and tags["kubeProxyChangesAnswer"] == 16


@pytest.mark.parametrize("part", range(4))
def test_every_recorded_state_agrees(part: int) -> None:
    verdicts = [v for sid in ca_oracle.scenarios()[part::4] for v in ca_oracle.replay(sid)]
    bad = [f"{v.scenario} loop {v.loop}: {v.why}" for v in verdicts if not v.ok]
    assert not bad, f"{len(bad)} of {len(verdicts)} states differ:\n" + "\n".join(bad[:10])
    assert len(verdicts) > 50


def test_the_comparison_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model that still counts old GPU-unready nodes as upcoming (the behaviour before) disagrees."""
    from gpupool.simulate.engine import Simulation

    monkeypatch.setattr(
        Simulation,
        "upcoming_unready",
        lambda self, run, i: sum(
            len(ps.nodes) for ps in run.cluster.pools if ps.spec_idx == i and ps.ca_unready
        ),
    )
    bad = [v for v in ca_oracle.replay("s51-046") if not v.ok]
    assert bad and "CA scales up" in bad[0].why
