"""Every manifest ``gpupool render`` writes for a pool lints clean (no error, no warning) against that pool:
device plugin DaemonSet (+ time-slicing ConfigMap), DCGM exporter, smoke-test Job, Namespace."""

from __future__ import annotations

import pytest

from gpupool.lint.engine import LintOptions, lint_text
from gpupool.render import manifests
from gpupool.spec import load_pools
from support import EXAMPLES, make_pool

TAINT = ["sku=gpu:NoSchedule"]
MATRIX = {
    "t4-default": make_pool(nodeTaints=TAINT),
    "t4-untainted": make_pool(),
    "t4-spot": make_pool(priority="Spot", nodeTaints=TAINT),
    "t4-time-sliced": make_pool(
        "Standard_NC64as_T4_v3",
        nodeTaints=TAINT,
        gpu={"sharing": {"timeSlicing": {"replicas": 4, "failRequestsGreaterThanOne": True}}},
    ),
    "t4-time-sliced-renamed": make_pool(
        "Standard_NC64as_T4_v3",
        nodeTaints=TAINT,
        gpu={"sharing": {"timeSlicing": {"replicas": 2, "renameByDefault": True}}},
    ),
    "a100-mig-mixed": make_pool(
        "Standard_ND96asr_v4", nodeTaints=TAINT, gpu={"instanceProfile": "MIG1g", "migStrategy": "Mixed"}
    ),
    "a100-mig-single": make_pool(
        "Standard_NC24ads_A100_v4", nodeTaints=TAINT, gpu={"instanceProfile": "MIG3g"}
    ),
    "h100-managed": make_pool("Standard_NC40ads_H100_v5", nodeTaints=TAINT, gpu={"managed": True}),
    "h100-operator": make_pool("Standard_ND96isr_H100_v5", nodeTaints=TAINT, gpu={"driver": "None"}),
    "a10-grid": make_pool("Standard_NV36ads_A10_v5", nodeTaints=["nvidia.com/gpu=present:NoExecute"]),
}
for example in sorted(EXAMPLES.glob("*.yaml")):
    if example.name != "mistakes.yaml":  # a spec written to fail gpupool check
        for p in load_pools(example):
            MATRIX[f"{example.stem}/{p.name}"] = p


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_rendered_manifests_lint_clean_against_their_pool(name: str) -> None:
    pool = MATRIX[name]
    docs = [manifests.namespace()]
    for objs in manifests.pool_manifests(pool).values():
        docs.extend(objs)
    text = manifests.dump(docs)
    result = lint_text(text, f"render/{name}.yaml", pools=[pool], options=LintOptions())
    loud = [
        f"{f.location()} {f.rule} {f.object}: {f.message}"
        for f in result.findings
        if f.severity.value != "info"
    ]
    assert not loud, "\n".join(loud)
    assert result.summary["resources"] == len(docs) and result.summary["invalid"] == 0


def test_rendered_manifests_of_several_pools_lint_clean_together(tmp_path) -> None:
    """One device plugin DaemonSet per pool: linted against all pools at once, none is faulted for the pools
    it leaves to its siblings."""
    from gpupool.render import write_all

    pools = [p for name, p in MATRIX.items() if "/" in name]
    names = [p.name for p in pools]
    assert len(names) == len(set(names)) >= 3
    write_all(pools, tmp_path / "out", formats=("k8s",))
    result = lint_paths_all(tmp_path / "out" / "k8s", pools)
    loud = [f"{f.location()} {f.rule}: {f.message}" for f in result.findings if f.severity.value != "info"]
    assert not loud, "\n".join(loud)


def lint_paths_all(root, pools):
    from gpupool.lint.engine import lint_paths

    return lint_paths([str(root)], pools=pools, options=LintOptions())
