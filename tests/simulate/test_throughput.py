"""A tenth of bench/simulate_throughput.py, as a regression guard (the bench itself runs 5,000 nodes)."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "simulate_throughput.py"


def test_scaled_down_bench(monkeypatch) -> None:
    spec = importlib.util.spec_from_file_location("simulate_throughput", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    monkeypatch.setattr(bench, "NODES_PER_POOL", 100)
    monkeypatch.setattr(bench, "REPLICAS", 500)
    start = time.perf_counter()
    figures = bench.run()
    assert time.perf_counter() - start < 10  # the full bench must stay under 10 s; a tenth far under
    assert (figures["nodes"], figures["placed"], figures["pending"], figures["daemonSetPods"]) == (
        503,
        4000,
        1000,
        500,
    )
    assert figures["pendingMessage"].startswith("0/503 nodes are available: 3 Insufficient memory, ")
