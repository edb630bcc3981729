"""NodePools through the real entry point: check and plan on examples/nap, and bad input (exit 2, one
line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import EXAMPLES, run_cli, run_program

GOOD = str(EXAMPLES / "nap" / "gpu-nodepool.yaml")
MISTAKES = str(EXAMPLES / "nap" / "mistakes.yaml")


def test_the_example_checks_clean() -> None:
    r = run_cli("check", GOOD)
    assert r.exit_code == 0, r.stdout
    assert r.stdout.strip().endswith("0 pools, 1 NodePool in 1 file: 0 errors, 0 warnings, 0 info")


def test_the_mistakes_example_fails_with_each_rule() -> None:
    r = run_cli("check", MISTAKES, "-o", "json")
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    rules = sorted({f["rule"] for f in doc["findings"]})
    assert rules == ["GP801", "GP802", "GP804", "GP805"]
    assert doc["summary"]["nodePools"] == 3
    assert {f["object"] for f in doc["findings"] if f["rule"] == "GP801"} == {
        "NodePool a100-typo",
        "NodePool mi300x",
    }


def test_as_a_real_program() -> None:
    assert run_program("check", GOOD).exit_code == 0
    assert run_program("check", MISTAKES).exit_code == 1


def test_nodepools_beside_pool_specs_and_a_directory() -> None:
    r = run_cli(
        "check", str(EXAMPLES / "nap"), str(EXAMPLES / "t4-driver-only.yaml"), "--ignore", "GP801,GP804"
    )
    assert "GP806" in r.stdout  # the T4 pool is autoscaled, NAP is on
    assert "1 pool, 4 NodePools in 3 files" in r.stdout


def test_plan_lists_sizes_and_what_they_advertise() -> None:
    r = run_cli("plan", GOOD)
    assert r.exit_code == 0, r.stdout
    assert "NodePool gpu-a100-h100" in r.stdout
    assert "Standard_NC24ads_A100_v4" in r.stdout and "nvidia.com/gpu: 1" in r.stdout
    assert "Standard_NC96ads_A100_v4" not in r.stdout  # 4 GPUs: excluded by sku-gpu-count Lte 2
    doc = json.loads(run_cli("plan", GOOD, "-o", "json").stdout)
    (np,) = doc["nodePools"]
    names = [s["name"] for s in np["sizes"]]
    assert names == [
        "Standard_NC24ads_A100_v4",
        "Standard_NC40ads_H100_v5",
        "Standard_NC48ads_A100_v4",
        "Standard_NC80adis_H100_v5",
    ]
    a100 = np["sizes"][0]
    assert a100 == {
        "name": "Standard_NC24ads_A100_v4",
        "vcpu": 24,
        "memoryGiB": 220.0,
        "gpus": 1,
        "gpuModel": a100["gpuModel"],
        "advertised": {"nvidia.com/gpu": 1},
    }
    assert np["nodeClass"] == "gpu" and np["gpuMode"] == "Driver"


def test_plan_with_errors_exits_1() -> None:
    assert run_cli("plan", MISTAKES).exit_code == 1


NODEPOOL = """\
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  template:
    spec:
      nodeClassRef: {{group: karpenter.azure.com, kind: AKSNodeClass, name: gpu}}
      requirements:
        - key: {key}
          operator: {op}
          values: {values}
{extra}"""

NODECLASS = """\
apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata:
  name: gpu
spec:
{spec}
"""


def _np(key="karpenter.azure.com/sku-gpu-name", op="In", values="[A100]", extra="") -> str:
    return NODEPOOL.format(key=key, op=op, values=values, extra=extra)


BAD = {
    "restricted-key": (
        _np(key="karpenter.azure.com/sku-gpu-nam"),
        10,
        'did you mean "karpenter.azure.com/sku-gpu-name"',
    ),
    "operator": (_np(op="in"), 11, 'write "In"'),
    "in-without-values": (_np(values="[]"), 10, "operator 'In' must have a value"),
    "gt-not-integer": (
        _np(key="karpenter.azure.com/sku-gpu-count", op="Gt", values="[two]"),
        10,
        "single positive integer",
    ),
    "expire-after-in-disruption": (
        _np(extra="  disruption:\n    consolidateAfter: 1m\n    expireAfter: 720h\n"),
        15,
        "spec.template.spec.expireAfter",
    ),
    "consolidate-after-required": (
        _np(extra="  disruption:\n    consolidationPolicy: WhenEmpty\n"),
        13,
        "spec.disruption.consolidateAfter is required",
    ),
    "limits-not-a-quantity": (_np(extra="  limits:\n    cpu: lots\n"), 14, "not a Kubernetes quantity"),
    "weight-range": (_np(extra="  weight: 0\n"), 13, "out of range"),
    "old-api": (_np().replace("karpenter.sh/v1", "karpenter.sh/v1beta1"), 1, "write karpenter.sh/v1"),
    "gpu-mode-lowercase": (
        NODECLASS.format(spec="  gpu:\n    mode: none"),
        7,
        'case-sensitive: write "None"',
    ),
    "tags-typo-from-docs": (
        NODECLASS.format(spec='  tags:\n    EnableManagedGPUExperience:"true"'),
        6,
        'EnableManagedGPUExperience: "true"',
    ),
    "managed-gpu-field": (
        NODECLASS.format(spec="  gpu:\n    nvidia:\n      managementMode: Managed"),
        7,
        "karpenter-provider-azure#1752",
    ),
    "os-disk-range": (NODECLASS.format(spec="  osDiskSizeGB: 10"), 6, "out of range [30, 2048]"),
    "unknown-field": (NODECLASS.format(spec="  imageFamly: Ubuntu"), 6, 'did you mean "imageFamily"'),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_line_and_exit_2(case: str, tmp_path: Path) -> None:
    text, line, words = BAD[case]
    f = tmp_path / "np.yaml"
    f.write_text(text)
    r = run_cli("check", str(f))
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stderr.startswith(f"gpupool: error: {f}:{line}: "), r.stderr
    assert words in r.stderr


def test_duplicate_nodepool_names_are_refused(tmp_path: Path) -> None:
    f = tmp_path / "np.yaml"
    f.write_text(_np() + "---\n" + _np())
    r = run_cli("check", str(f))
    assert r.exit_code == 2 and 'NodePool "gpu" is defined twice' in r.stderr


def test_other_documents_in_a_named_file_are_bad_input(tmp_path: Path) -> None:
    f = tmp_path / "np.yaml"
    f.write_text(_np() + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    r = run_cli("check", str(f))
    assert r.exit_code == 2 and "karpenter.sh/v1 NodePool" in r.stderr
