"""How long does ``gpupool check`` take? Target: well under 0.5 s for one spec, end to end.

Measures, in one run:
  * the CLI as a subprocess (``python -m gpupool check SPEC``): median / min / max of N runs, next to the
    bare interpreter start-up (``python -c pass``) so the share that is gpupool's own is visible;
  * in-process: the first ``load_many`` + ``check_pools`` call (cold: imports, catalog load, rule
    discovery) and the median of warm calls; and warm ``check_pools`` alone on 1,000 pools.

Usage: .venv/bin/python bench/check_latency.py [SPEC] [--runs N]
Exit status 1 when the CLI median misses the target.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SPEC = REPO / "examples" / "t4-driver-only.yaml"
TARGET_S = 0.5


def _wall(cmd: list[str]) -> tuple[float, int]:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, cwd=REPO, check=False)
    return time.perf_counter() - t0, p.returncode


def _stats(xs: list[float]) -> str:
    med, lo, hi = statistics.median(xs) * 1000, min(xs) * 1000, max(xs) * 1000
    return f"median {med:7.1f} ms  min {lo:7.1f} ms  max {hi:7.1f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", nargs="?", default=str(DEFAULT_SPEC))
    ap.add_argument("--runs", type=int, default=15, help="subprocess runs (default 15)")
    args = ap.parse_args()

    # ---- subprocess: the real entry point -----------------------------------------------------------------
    _wall([sys.executable, "-m", "gpupool", "check", args.spec])  # warm the OS file cache
    cli, codes = [], set()
    for _ in range(args.runs):
        t, rc = _wall([sys.executable, "-m", "gpupool", "check", args.spec])
        cli.append(t)
        codes.add(rc)
    bare = [_wall([sys.executable, "-c", "pass"])[0] for _ in range(args.runs)]
    if codes - {0, 1}:
        print(f"gpupool check exited {sorted(codes)} for {args.spec}", file=sys.stderr)
        return 2

    # ---- in-process ---------------------------------------------------------------------------------------
    t0 = time.perf_counter()
    from gpupool.design.check import check_pools
    from gpupool.spec import load_many

    pools = load_many([args.spec])
    findings = check_pools(pools)
    cold = time.perf_counter() - t0

    warm = []
    for _ in range(200):
        t0 = time.perf_counter()
        check_pools(load_many([args.spec]))
        warm.append(time.perf_counter() - t0)

    many = (pools * (1000 // max(1, len(pools)) + 1))[:1000]
    bulk = []
    for _ in range(5):
        t0 = time.perf_counter()
        check_pools(many)
        bulk.append(time.perf_counter() - t0)

    med = statistics.median(cli)
    py = sys.version.split()[0]
    print(f"spec: {args.spec} ({len(pools)} pool(s), {len(findings)} finding(s)); Python {py}")
    print(f"gpupool check (subprocess, {args.runs} runs):  {_stats(cli)}")
    print(f"python -c pass (start-up baseline):     {_stats(bare)}")
    print(f"in-process first call (cold, imports):  {cold * 1000:7.1f} ms")
    print(f"in-process load+check (warm, 200 runs): median {statistics.median(warm) * 1e6:7.1f} us")
    print(f"check_pools on 1,000 pools (warm):      median {statistics.median(bulk) * 1000:7.1f} ms "
          f"({statistics.median(bulk) * 1e6 / len(many):.1f} us per pool)")
    verdict = "OK" if med < TARGET_S else "MISSED"
    print(f"target: CLI median < {TARGET_S * 1000:.0f} ms -> {verdict} ({med * 1000:.1f} ms)")
    return 0 if med < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
