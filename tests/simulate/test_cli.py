"""``gpupool simulate``: exit codes 0/1/2, text and JSON output, options."""

from __future__ import annotations

import json

from support import EXAMPLES, REPO, run_cli, run_program

CLASSIC = """\
apiVersion: gpupool/v1
kind: NodePool
metadata: {name: system}
spec: {resourceGroup: rg, clusterName: aks, vmSize: Standard_D4s_v5, mode: System, nodeCount: 2}
---
apiVersion: gpupool/v1
kind: GpuNodePool
metadata: {name: gpunp}
spec: {resourceGroup: rg, clusterName: aks, vmSize: Standard_NC4as_T4_v3, nodeCount: 1,
       kubernetesVersion: "1.35", nodeTaints: ["sku=gpu:NoSchedule"]}
---
apiVersion: v1
kind: Pod
metadata: {name: cuda-vectoradd}
spec:
  containers:
  - name: cuda
    image: mcr.microsoft.com/oss/nvidia/k8s/cuda-sample:vectoradd
    resources: {limits: {nvidia.com/gpu: 1}}
"""
MESSAGE = (
    "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient nvidia.com/gpu. "
    "no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for "
    "scheduling."
)


FIGURES = str(REPO / "tests" / "data" / "prices-test-figures.yaml")  # test figures, not facts


def write(tmp_path, text: str, name: str = "in.yaml") -> str:  # type: ignore[no-untyped-def]
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_text_output_and_exit_1_when_pending(tmp_path) -> None:
    r = run_cli("simulate", write(tmp_path, CLASSIC), "--prices", FIGURES)
    assert r.exit_code == 1, r.stderr
    assert MESSAGE in r.stdout
    assert "Pod default/cuda-vectoradd: 1 pod" in r.stdout
    assert "gpunp" in r.stdout and "nvidia.com/gpu 0 used, 1 free" in r.stdout
    assert "USD/HOUR" in r.stdout and "0.91" in r.stdout


def test_json_shape(tmp_path) -> None:
    r = run_cli("simulate", write(tmp_path, CLASSIC), "-o", "json", "--prices", FIGURES)
    assert r.exit_code == 1
    d = json.loads(r.stdout)
    assert d["version"] == 1
    for p in d["pools"]:
        assert {"name", "vmSize", "nodes", "nodesAdded", "resources", "costPerHour"} <= set(p)
    assert d["pools"][1]["resources"]["nvidia.com/gpu"] == {"allocatable": 1, "used": 0, "free": 1}
    assert d["placed"] == 0
    assert d["pending"] == [
        {
            "workload": "Pod default/cuda-vectoradd",
            "pod": "cuda-vectoradd",
            "count": 1,
            "message": MESSAGE,
            "autoscaler": None,
            "karpenter": None,
            "why": None,
            "fixes": [
                {
                    "rule": "GP305",
                    "severity": "error",
                    "message": d["pending"][0]["fixes"][0]["message"],
                    "fix": "add to the pod's tolerations: {key: sku, operator: Equal, value: gpu, effect: "
                    "NoSchedule}",
                }
            ],
        }
    ]
    assert d["placements"] == []
    assert d["costPerHour"] == 0.91


def test_exit_0_when_everything_is_placed(tmp_path) -> None:
    text = CLASSIC.replace("    resources:", "    resources:", 1).replace(
        "spec:\n  containers:",
        "spec:\n  tolerations: [{key: sku, value: gpu, effect: NoSchedule}]\n  containers:",
    )
    r = run_cli("simulate", write(tmp_path, text))
    assert r.exit_code == 0, r.stdout
    assert "All 1 pod placed" in r.stdout


def test_kubernetes_version_option(tmp_path) -> None:
    r = run_cli("simulate", write(tmp_path, CLASSIC), "-k", "1.30", "-o", "json")
    assert "1 node(s) had untolerated taint {sku: gpu}" in json.loads(r.stdout)["pending"][0]["message"]


def test_bad_input_exit_2_one_line(tmp_path) -> None:
    r = run_cli("simulate", write(tmp_path, "apiVersion: v1\nkind: Pod\nmetadata: [\n"))
    assert r.exit_code == 2
    assert r.stderr.startswith("gpupool: error: ") and r.stderr.count("\n") == 1
    r = run_cli("simulate", str(tmp_path / "missing.yaml"))
    assert r.exit_code == 2 and "no such file" in r.stderr


def test_bad_options_exit_2(tmp_path) -> None:
    path = write(tmp_path, CLASSIC)
    prices = write(tmp_path, "region: eastus\ncurrency: USD\n", "prices.yaml")
    for args in (
        ["--prices", prices],
        ["--prices", prices, "--fetch-prices"],
        ["-k", "1.20"],
        ["--cordon", "nope"],
        ["--ignore", "GP999"],
        ["--reservations", prices, "--no-reservations"],
        ["--autoscaler", "magic"],
    ):
        r = run_cli("simulate", path, *args)
        assert r.exit_code == 2, (args, r.stdout, r.stderr)


def test_prices_file_and_ignore(tmp_path) -> None:
    prices = write(
        tmp_path,
        "region: eastus\ncurrency: EUR\nasOf: '2026-08-01'\nsource: sheet\n"
        "prices: {Standard_D4s_v5: 1, Standard_NC4as_T4_v3: 2}\n",
        "prices.yaml",
    )
    r = run_cli("simulate", write(tmp_path, CLASSIC), "--prices", prices, "-o", "json", "--ignore", "GP504")
    d = json.loads(r.stdout)
    assert d["costPerHour"] == 4 and d["currency"] == "EUR" and d["prices"]["source"] == "sheet"
    assert not [f for f in d["findings"] if f["rule"] == "GP504"]


def test_cordon_and_no_reservations(tmp_path) -> None:
    r = run_cli("simulate", write(tmp_path, CLASSIC), "--cordon", "system", "-o", "json")
    assert "2 node(s) were unschedulable" in json.loads(r.stdout)["pending"][0]["message"]
    r = run_cli("simulate", write(tmp_path, CLASSIC), "--no-reservations", "-o", "json")
    assert json.loads(r.stdout)["pools"][0]["resources"]["cpu"]["allocatable"] == 8


def test_help_documents_exit_codes() -> None:
    r = run_cli("simulate", "--help")
    assert r.exit_code == 0
    text = " ".join(r.stdout.split())
    assert "0 every pod placed and no finding at --fail-on severity" in text
    assert "1 some pod stays Pending or such a finding; 2 bad input" in text


def test_examples_run_as_a_program() -> None:
    files = sorted(str(p) for p in EXAMPLES.glob("*.yaml")) + sorted(
        str(p) for p in EXAMPLES.glob("workloads/*.yaml")
    )
    r = run_program("simulate", *files, "-o", "json")
    assert r.exit_code in (0, 1), r.stderr
    d = json.loads(r.stdout)
    assert d["version"] == 1 and d["daemonSetPods"] > 0


def test_placements_in_json_and_text(tmp_path) -> None:
    text = CLASSIC.replace(
        "spec:\n  containers:",
        "spec:\n  tolerations: [{key: sku, value: gpu, effect: NoSchedule}]\n  containers:",
    )
    path = write(tmp_path, text)
    d = json.loads(run_cli("simulate", path, "-o", "json").stdout)
    (p,) = d["placements"]
    assert (p["pod"], p["workload"], p["pool"]) == ("cuda-vectoradd", "Pod default/cuda-vectoradd", "gpunp")
    assert p["node"].startswith("aks-gpunp-") and p["node"].endswith("-vmss000000")
    r = run_cli("simulate", path, "--show", "placements")
    assert "Placements" in r.stdout and f"{p['node']}: cuda-vectoradd" in r.stdout
    assert "gpunp (1 pod on 1 node)" in r.stdout
    assert "Placements" not in run_cli("simulate", path).stdout


def test_pending_entries_carry_lints_fix_in_text(tmp_path) -> None:
    r = run_cli("simulate", write(tmp_path, CLASSIC))
    assert "fix (GP305): add to the pod's tolerations" in r.stdout


def test_fail_on(tmp_path) -> None:
    path = write(tmp_path, CLASSIC)
    assert run_cli("simulate", path, "--fail-on", "none").exit_code == 0  # Pending, but asked not to fail
    assert run_cli("simulate", path, "--fail-on", "error").exit_code == 1
    text = CLASSIC.replace(
        "spec:\n  containers:",
        "spec:\n  tolerations: [{key: sku, value: gpu, effect: NoSchedule}]\n  containers:",
    )
    placed = write(tmp_path, text, "placed.yaml")
    r = run_cli("simulate", placed, "-o", "json")
    kinds = {f["severity"] for f in json.loads(r.stdout)["findings"]}
    assert r.exit_code == (1 if "error" in kinds else 0)
    assert run_cli("simulate", placed, "--fail-on", "info").exit_code == (1 if kinds else 0)


def test_default_version_is_akss_default(tmp_path) -> None:
    """No version anywhere: AKS's default, N-1 of the confirmed GA minors (1.37's GA is only planned), and
    the run says so in JSON and text."""
    from gpupool.catalog.aks import default_kubernetes_version

    text = CLASSIC.replace('kubernetesVersion: "1.35", ', "")
    assert text != CLASSIC
    d = json.loads(run_cli("simulate", write(tmp_path, text), "-o", "json").stdout)
    assert d["kubernetesVersion"] == default_kubernetes_version().minor == "1.35"
    assert d["assumed"] == "assuming Kubernetes 1.35, AKS's default on 2026-12-03; set kubernetesVersion"
    out = run_cli("simulate", write(tmp_path, text)).stdout
    assert "assuming Kubernetes 1.35, AKS's default on 2026-12-03" in out
    stated = json.loads(run_cli("simulate", write(tmp_path, CLASSIC), "-o", "json").stdout)
    assert stated["kubernetesVersion"] == "1.35" and stated["assumed"] is None


def test_default_version_follows_the_calendar(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GPUPOOL_TODAY", "2026-05-01")  # before 1.36's GA (2026-06): GA 1.29..1.35 -> 1.34
    text = CLASSIC.replace('kubernetesVersion: "1.35", ', "")
    d = json.loads(run_cli("simulate", write(tmp_path, text), "-o", "json").stdout)
    assert d["kubernetesVersion"] == "1.34"
