"""lint.gpu memoises the GPU rules' verdict per pod shape (``_shape_key``) and replays it with each object's
own positions, path and name: the findings must be exactly those of running every rule on every object."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpupool import yamlio
from gpupool.k8s.podspecs import pod_templates
from gpupool.lint import gpu
from gpupool.lint.engine import LintOptions, lint_paths, lint_text
from support import CORPUS, NO_CORPUS, T4_POOL_YAML, make_pool

HERE = Path(__file__).parent
FIXTURE_DIRS = [*sorted(p for p in (HERE / "rules").glob("GP*") if p.is_dir()), HERE / "workloads"]

POOLS = T4_POOL_YAML

T4 = make_pool(nodeTaints=["sku=gpu:NoSchedule"])

POD = """\
apiVersion: v1
kind: Pod
metadata: {{name: {name}}}
spec:
{extra}  containers:
  - name: c
    image: {image}
    resources:
      limits: {{nvidia.com/gpu: {gpus}}}
"""


def _everything(result) -> tuple:
    return (
        [(f.to_dict(), f.extra) for f in result.findings],
        [r.to_json() for r in result.results],
        result.summary,
    )


def _unmemoised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gpu, "_shape_key", lambda workload: None)


@pytest.mark.parametrize("folder", FIXTURE_DIRS, ids=lambda p: p.name)
def test_fixtures_memoised_equal_unmemoised(folder: Path, tmp_path: Path, monkeypatch) -> None:
    # Each fixture with a copy of itself (the copy's objects hit the first's memo), with and without it.
    runs = []
    for p in sorted(folder.glob("*.yaml")):
        dest = tmp_path / f"copy-{p.name}"
        shutil.copyfile(p, dest)
        runs.append([str(p), str(dest)])
    memoised = [_everything(lint_paths(paths, options=LintOptions(jobs=1))) for paths in runs]
    _unmemoised(monkeypatch)
    assert [_everything(lint_paths(paths, options=LintOptions(jobs=1))) for paths in runs] == memoised


@pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS)
def test_corpus_memoised_equal_unmemoised(monkeypatch) -> None:
    paths = [str(CORPUS)]
    pools = [T4]
    memoised = _everything(lint_paths(paths, pools=pools, options=LintOptions(jobs=1)))
    assert memoised[0], "the corpus has findings against a T4 pool"
    _unmemoised(monkeypatch)
    assert _everything(lint_paths(paths, pools=pools, options=LintOptions(jobs=1))) == memoised


def test_replayed_findings_are_at_each_objects_own_place() -> None:
    pods = "---\n".join(
        POD.format(name=f"p{i}", extra="", image="nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04", gpus=1)
        for i in range(3)
    )
    result = lint_text(POOLS + "---\n" + pods, "pods.yaml")
    gp305 = [f for f in result.findings if f.rule == "GP305"]
    # Each pod's spec line (no tolerations: the finding points at the pod spec).
    spec_lines = [n for n, line in enumerate((POOLS + "---\n" + pods).splitlines(), 1) if line == "spec:"]
    assert [(f.object, f.line) for f in gp305] == [(f"Pod p{i}", spec_lines[i + 1]) for i in range(3)]
    assert len({f.message for f in gp305}) == 1


def test_what_the_rules_read_is_in_the_key() -> None:
    index = gpu.PoolIndex([T4])

    def findings(text: str) -> list[tuple[str, int | None]]:
        obj = yamlio.load_documents(text, "x.yaml")[0].data
        return [(f.rule, f.line) for f in gpu.check_workload(pod_templates(obj)[0], index)]

    base = POD.format(name="a", extra="", image="busybox", gpus=1)
    assert [r for r, _ in findings(base)] == ["GP305"]
    # Another name, same shape: the same verdict (from the memo).
    assert [r for r, _ in findings(base.replace("name: a", "name: b"))] == ["GP305"]
    # What differs must be seen: the GPU count, the toleration, the key's presence, the image.
    assert "GP307" in [r for r, _ in findings(POD.format(name="a", extra="", image="busybox", gpus=2))]
    tolerated = "  tolerations: [{key: sku, operator: Exists}]\n"
    assert findings(POD.format(name="a", extra=tolerated, image="busybox", gpus=1)) == []
    null_tolerations = POD.format(name="a", extra="  tolerations: null\n", image="busybox", gpus=1)
    assert findings(null_tolerations) == [("GP305", 5)]  # at the tolerations key, not the pod spec
    assert findings(base) == [("GP305", 4)]
    cuda = POD.format(name="a", extra=tolerated, image="nvcr.io/nvidia/cuda:99.0.0-base-ubuntu22.04", gpus=1)
    assert [r for r, _ in findings(cuda)] == ["GP311"]


DS = """\
apiVersion: apps/v1
kind: DaemonSet
metadata: {{name: {name}}}
spec:
  selector: {{matchLabels: {{app: x}}}}
  template:
    metadata: {{labels: {{app: x}}}}
    spec:
      containers:
      - name: {container}
        image: {image}
        args: ["--epochs", "{name}"]
"""


def test_daemonsets_are_memoised_by_the_gpu_stack_part_they_run() -> None:
    index = gpu.PoolIndex([T4])

    def rules(name: str, container: str, image: str) -> list[str]:
        obj = yamlio.load_documents(DS.format(name=name, container=container, image=image), "x.yaml")[0].data
        return [f.rule for f in gpu.check_workload(pod_templates(obj)[0], index)]

    plugin = "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"
    assert rules("a", "c", plugin) == ["GP309"]  # does not tolerate the T4 pool's taint
    assert rules("b", "c", plugin) == ["GP309"]  # another object (and args), the same shape
    assert rules("c", "c", "busybox") == []  # not a GPU stack part: same fields otherwise
    assert rules("d", "gpu-feature-discovery", plugin) == ["GP312"]  # GFD in the plugin's image
