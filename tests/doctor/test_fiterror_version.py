"""Doctor's own FitError (GP610's "now" evidence) is simulate's, so on 1.35 it has the DRA PostFilter's
words and the "not helpful" count the real 1.35 scheduler gives (simulate checks those against recorded
scheduler answers: tests/simulate/test_oracle_scheduler.py)."""

from __future__ import annotations

import json
from pathlib import Path

from support import run_cli

SNAPSHOTS = Path(__file__).parent / "snapshots"

NOW = "now (simulate's filters on the snapshot's nodes): "


def test_gp610_now_text_on_135_matches_the_scheduler() -> None:
    doc = json.loads(
        run_cli("doctor", "--snapshot", str(SNAPSHOTS / "pending-max-size"), "-o", "json").stdout
    )
    (f,) = [f for f in doc["findings"] if f["rule"] == "GP610"]
    said = next(e for e in f["evidence"] if e.startswith("scheduler: "))[len("scheduler: "):]
    now = next(e for e in f["evidence"] if e.startswith(NOW))[len(NOW):]
    assert ". no new claims to deallocate, preemption: " in now
    assert "2 Preemption is not helpful for scheduling, 3 No preemption victims found" in now
    assert now == said
