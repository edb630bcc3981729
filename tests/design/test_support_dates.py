"""Support windows and retirements judged on today's date: GPUPOOL_TODAY, planned calendar dates, and the
fix of a retiring OS SKU."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from support import run_cli, run_program


def _spec(tmp_path: Path, **fields) -> Path:
    body = {
        "resourceGroup": "rg",
        "clusterName": "c",
        "vmSize": "Standard_NC4as_T4_v3",
        "nodeCount": 1,
        "nodeTaints": ["sku=gpu:NoSchedule"],
        **fields,
    }
    doc = {"apiVersion": "gpupool/v1", "kind": "GpuNodePool", "metadata": {"name": "gpuw"}, "spec": body}
    f = tmp_path / "pool.yaml"
    f.write_text(yaml.safe_dump(doc, sort_keys=False))
    return f


def _finding(tmp_path: Path, rule: str, **fields) -> dict:
    d = json.loads(run_cli("check", str(_spec(tmp_path, **fields)), "-o", "json").stdout)
    return next(f for f in d["findings"] if f["rule"] == rule)


@pytest.mark.parametrize(
    ("os_sku", "version", "today", "want", "severity"),
    [
        # 58 days before Windows2022's retirement: a warning; never Windows2022 itself, nor the retired
        # WindowsAnnual (2026-05-15)
        ("Windows2022", None, "2028-05-03", "use osSku: Windows2025", "warning"),
        ("Windows2019", "1.32", "2026-12-03", "use osSku: Windows2022 or Windows2025", "error"),
        ("Windows2022", "1.31", "2028-05-03", "use a supported OS SKU", "warning"),  # Windows2025: 1.32+
    ],
)
def test_retiring_os_sku_fix_names_other_skus(
    tmp_path, monkeypatch, os_sku: str, version: str | None, today: str, want: str, severity: str
) -> None:
    monkeypatch.setenv("GPUPOOL_TODAY", today)
    fields = {"osSku": os_sku, **({"kubernetesVersion": version} if version else {})}
    f = _finding(tmp_path, "GP135", **fields)
    assert f["fix"] == want and f["severity"] == severity


def test_bad_gpupool_today_is_one_line_exit_2(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GPUPOOL_TODAY", "2026-13-01")
    r = run_program("check", str(_spec(tmp_path, kubernetesVersion="1.35")))
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        "gpupool: error: GPUPOOL_TODAY=2026-13-01: not a date (write YYYY-MM-DD, or unset it to judge "
        "support windows on today's date)"
    ]


def test_unset_gpupool_today_is_the_utc_date(monkeypatch) -> None:
    import datetime as dt

    from gpupool.catalog.aks import today

    monkeypatch.delenv("GPUPOOL_TODAY")
    assert today() == dt.datetime.now(dt.UTC).date()


def test_planned_end_of_life_is_never_an_error(tmp_path, monkeypatch) -> None:
    """1.37's dates are planned in the calendar: past them it is a warning that says so; 1.35's are not."""
    monkeypatch.setenv("GPUPOOL_TODAY", "2029-01-01")
    f = _finding(tmp_path, "GP137", kubernetesVersion="1.37")
    assert f["severity"] == "warning" and "planned dates of AKS's calendar" in f["message"]
    assert _finding(tmp_path, "GP137", kubernetesVersion="1.35")["severity"] == "error"


def test_unknown_gpu_size_suggests_gpu_sizes_and_skus(tmp_path) -> None:
    """GP101 on a GPU pool suggests only GPU sizes (Standard_DS4_v2 was one), and points at --skus FILE."""
    from gpupool import catalog

    f = _finding(tmp_path, "GP101", vmSize="Standard_ND40rs_v2")
    assert f["candidates"] and all(catalog.vm_sizes()[c].is_gpu for c in f["candidates"])
    assert "--skus FILE (az vm list-skus -l REGION --size Standard_ND40rs_v2 --all -o json)" in f["fix"]


@pytest.mark.parametrize(
    ("fields", "message", "fix"),
    [
        ({"nodeCount": 1, "maxPods": 20}, "maxPods 20 x 1 node leaves room for 20 pods",
         "set nodeCount: 2 or more, or maxPods: 30 or more"),
        ({"autoscaler": {"minCount": 2, "maxCount": 5}, "nodeCount": 2, "maxPods": 10},
         "maxPods 10 x 2 nodes leaves room for 20 pods",
         "set autoscaler.minCount: 3 or more, or maxPods: 30 or more"),
    ],
)
def test_max_pods_room_message_and_fix(tmp_path, fields: dict, message: str, fix: str) -> None:
    f = _finding(tmp_path, "GP139", **fields)
    assert f["message"].startswith(message) and f["fix"] == fix


@pytest.mark.parametrize(
    ("os_sku", "fix"),
    [
        # WindowsAnnual retired on 2026-05-15: no longer suggested
        ("Windows2022", "use osSku: Windows2025, or set kubernetesVersion within 1.23-1.36"),
        ("AzureLinux3", "use osSku: Ubuntu (AKS picks the Ubuntu release for the version), or set "
         "kubernetesVersion within 1.28-1.36"),
    ],
)
def test_os_sku_out_of_version_range_fix_keeps_the_os_type(tmp_path, os_sku: str, fix: str) -> None:
    """A Windows pool past its SKU's Kubernetes range is told of Windows SKUs, never of Ubuntu."""
    assert _finding(tmp_path, "GP123", osSku=os_sku, kubernetesVersion="1.37")["fix"] == fix


def test_lts_fix_is_a_whole_az_command(tmp_path) -> None:
    f = _finding(tmp_path, "GP137", kubernetesVersion="1.32")  # on 2026-12-03: past EOL, within LTS
    assert f["severity"] == "warning"
    assert f["fix"].endswith("(az aks update --tier premium --k8s-support-plan AKSLongTermSupport)")


@pytest.mark.parametrize(
    ("today", "vm_size", "severity", "words"),
    [
        ("2026-07-15", "Standard_NV12s_v3", "warning", "retires on 2026-09-30 (in 77 days)"),
        ("2026-09-30", "Standard_NV12s_v3", "error", "was retired on 2026-09-30"),
        ("2026-06-01", "Standard_NV8as_v4", None, ""),  # 121 days ahead: nothing yet
    ],
)
def test_size_retirement_is_judged_on_today(tmp_path, monkeypatch, today, vm_size, severity, words) -> None:
    monkeypatch.setenv("GPUPOOL_TODAY", today)
    d = json.loads(run_cli("check", str(_spec(tmp_path, vmSize=vm_size, kubernetesVersion="1.34")),
                           "-o", "json").stdout)
    found = [f for f in d["findings"] if f["rule"] == "GP105"]
    if severity is None:
        assert not found
    else:
        (f,) = found
        assert f["severity"] == severity and words in f["message"]


def test_os_sku_retirement_warns_within_90_days(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GPUPOOL_TODAY", "2026-04-01")  # Flatcar retires 2026-06-08
    f = _finding(tmp_path, "GP135", osSku="Flatcar", vmSize="Standard_D4s_v5", kubernetesVersion="1.34")
    assert f["severity"] == "warning" and "retires on 2026-06-08 (in 68 days)" in f["message"]
