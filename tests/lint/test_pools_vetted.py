"""Pools given to lint are checked first (issue 19, item 5): a pool spec ``gpupool check`` rejects is reported
in lint's output (its GP1xx errors, exit 1) and is no landing place for the workloads."""

from __future__ import annotations

import json
from pathlib import Path

from gpupool.lint.engine import LintOptions, lint_text, vet_pools
from support import T4_POOL_YAML, make_pool, run_cli

GPU_POD = """\
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  tolerations: [{key: sku, operator: Exists}]
  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]
"""
RETIRED_POOL = T4_POOL_YAML.replace("Standard_NC4as_T4_v3", "Standard_NC6s_v3")


def _write(tmp_path: Path, pool: str) -> tuple[Path, Path]:
    (tmp_path / "pools").mkdir()
    (tmp_path / "pools" / "gpu.yaml").write_text(pool)
    (tmp_path / "pod.yaml").write_text(GPU_POD)
    return tmp_path / "pools", tmp_path / "pod.yaml"


def test_a_retired_pool_is_reported_and_not_a_landing_place(tmp_path: Path) -> None:
    pools, pod = _write(tmp_path, RETIRED_POOL)
    r = run_cli("lint", "--pool", str(pools), str(pod))
    assert r.exit_code == 1, r.stdout
    assert "error GP105" in r.stdout and "gpu.yaml:7" in r.stdout
    assert "pool with errors not used: gpunp" in r.stdout
    out = json.loads(run_cli("lint", "--pool", str(pools), str(pod), "-o", "json").stdout)
    assert out["summary"]["poolsRejected"] == ["gpunp"] and out["summary"]["findings"]["error"] == 1
    assert [f["rule"] for f in out["findings"]] == ["GP105"]


def test_an_invalid_pool_does_not_turn_a_gp305_into_a_pass() -> None:
    # Untolerated on the good pool; the bad pool (retired size, no taint) would have let it land.
    good = T4_POOL_YAML
    bad = RETIRED_POOL.replace("name: gpunp", "name: oldgpu")
    bad = bad.replace('  nodeTaints: ["sku=gpu:NoSchedule"]\n', "")
    pod = GPU_POD.replace("  tolerations: [{key: sku, operator: Exists}]\n", "")
    result = lint_text(good + "---\n" + bad + "---\n" + pod, "in.yaml", options=LintOptions(jobs=1))
    rules = sorted({f.rule for f in result.findings})
    assert "GP305" in rules and "GP105" in rules, rules
    assert result.exit_code == 1


def test_a_valid_pool_is_used_and_its_warnings_stay_out_of_lint() -> None:
    usable, findings = vet_pools([make_pool(nodeTaints=["sku=gpu:NoSchedule"])])
    assert len(usable) == 1 and findings == []
    result = lint_text(T4_POOL_YAML + "---\n" + GPU_POD, "in.yaml", options=LintOptions(jobs=1))
    assert result.exit_code == 0 and not result.findings
    assert result.summary["poolsRejected"] == []
