"""The report in a real browser: Debian's chromium (headless, driven by Playwright for Python) loads the file
with the network cut off; no console error, no script error, no request leaves the page, the chain diagrams
have the expected nodes and the screenshot is not blank. A hostile spec opens no dialog and runs no script.

Skipped only where chromium or playwright is missing (``.ci/run`` installs chromium)."""

from __future__ import annotations

import json
import re

import pytest

from report_browser import EXAMPLE_ARGS, playwright_missing, png_rows, visit
from support import REPO, run_cli

why = playwright_missing()
pytestmark = pytest.mark.skipif(why is not None, reason=why or "")


def test_examples_page_renders_offline(tmp_path):
    page = tmp_path / "report.html"
    r = run_cli("report", *[str(REPO / a) for a in EXAMPLE_ARGS], "--out", str(page), "--fail-on", "none")
    assert r.exit_code == 1 and page.is_file(), r.stderr  # mistakes.yaml's spec errors never pass
    shot = tmp_path / "shot.png"
    v = visit(page, shot, width=1360, height=900, pdf=True)
    assert v.console_errors == [] and v.page_errors == [], (v.console_errors, v.page_errors)
    assert v.blocked == [] and v.dialogs == [] and v.resources == [] and v.images == 0
    assert v.scripts_ran, "the page's own script (allowed by the CSP hash) did not run"
    assert v.title == "gpupool report: myAKSCluster"
    by_pool = {p["pool"]: p for p in v.pools}
    assert list(by_pool) == ["gpunp", "system", "a100mig", "t4spot", "h100op", "GPU-Pool-Production"]
    assert by_pool["gpunp"]["stages"] == ["pool", "vm", "driver", "plugin", "resources", "workloads"]
    assert by_pool["system"]["stages"] == ["pool", "vm", "workloads"]
    assert ["pool-vm", "broken"] in by_pool["GPU-Pool-Production"]["edges"]
    assert all(p["width"] > 300 for p in v.pools), "a diagram collapsed"
    w, h, distinct = png_rows(v.png)
    assert (w, h) == (1360, 900)
    assert distinct > 200, "the screenshot is (nearly) blank"
    assert shot.read_bytes() == v.png
    # printed: navigation and the filter are hidden, and the page spans several A4 pages
    assert v.print_hidden == [".toc", ".filters"]
    assert v.pdf.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page[^s]", v.pdf)) >= 3
    assert v.overflow == [], "text wider than its box in a chain diagram"
    assert v.opened_by_link, "a rule link did not open the rule's collapsed documentation"


MAX_PAGE_HEIGHT = 8000
"""The bundled examples' page at 1400 px wide, in CSS pixels (rule docs collapsed, info findings folded,
shared Pending lines said once). The examples' findings may change a little; the page must stay short."""


def test_examples_page_is_short_and_boxes_fit_at_1400(tmp_path):
    page = tmp_path / "report.html"
    r = run_cli("report", *[str(REPO / a) for a in EXAMPLE_ARGS], "--out", str(page), "--fail-on", "none")
    assert r.exit_code in (0, 1) and page.is_file(), r.stderr  # 1: spec errors, page written
    v = visit(page, width=1400, height=1000)
    assert 2000 < v.page_height < MAX_PAGE_HEIGHT, v.page_height
    assert v.overflow == [], v.overflow
    assert len(v.pools) == 6 and all(p["stages"] for p in v.pools)


def test_long_names_fit_their_boxes(tmp_path):
    """A pool with a long name, long taints and the widest VM size names: every box text fits (wrapped or
    cut, never spilling over the box), at a narrow window too."""
    taints = "['nvidia.com/gpu.workload.config=WWWWWWWWWWWWWWWWWWWWWWWW:NoSchedule', 'b=c:NoSchedule']"
    specs = []
    for n, (size, gpu) in enumerate([
        ("Standard_ND96isr_H100_v5", "{driver: Install, instanceProfile: MIG1g}"),
        ("Standard_ND96asr_v4", "{driver: Install, instanceProfile: MIG7g, migStrategy: Mixed}"),
        ("Standard_NC24ads_A100_v4", "{driver: Install}"),
    ]):
        specs.append(
            "apiVersion: gpupool/v1\nkind: GpuNodePool\n"
            f"metadata: {{name: wwwwwwwwwww{n}}}\n"
            f"spec: {{resourceGroup: rg, clusterName: c1, vmSize: {size}, nodeCount: 1,\n"
            f"  nodeTaints: {taints}, gpu: {gpu}}}\n"
        )
    (tmp_path / "pools.yaml").write_text("---\n".join(specs))
    page = tmp_path / "r.html"
    r = run_cli("report", str(tmp_path / "pools.yaml"), "--out", str(page), "--fail-on", "none")
    assert r.exit_code in (0, 1) and page.is_file(), r.stderr
    for width in (1400, 800):
        v = visit(page, width=width, height=900)
        assert v.overflow == [], (width, v.overflow)
        assert len(v.pools) == 3


def test_hostile_page_runs_no_script(tmp_path):
    (tmp_path / "pool.yaml").write_text(
        "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\n"
        "spec: {resourceGroup: rg, clusterName: c1, vmSize: Standard_NC4as_T4_v3,"
        " nodeTaints: ['sku=gpu:NoSchedule']}\n"
    )
    evil = "</svg></title><script>alert('pod')</script><img src=x onerror=alert(1)>\"'" + "z" * 300
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": evil, "namespace": "ns\"><svg onload=alert(2)>"},
        "spec": {"containers": [{"name": "c", "image": "x<script>alert(3)</script>",
                                 "resources": {"limits": {"nvidia.com/gpu": 1}}}]},
    }
    (tmp_path / "w<script>alert(9)<'.yaml").write_text(json.dumps(pod))
    page = tmp_path / "r.html"
    r = run_cli("report", str(tmp_path / "pool.yaml"), str(tmp_path / "w<script>alert(9)<'.yaml"),
                "--out", str(page), "--fail-on", "none")
    assert r.exit_code == 0, r.stderr
    v = visit(page)
    assert v.dialogs == [], "a script from the input ran"
    assert v.console_errors == [] and v.page_errors == []
    assert v.blocked == [] and v.resources == [], "the page loaded something (an injected <img>?)"
    assert v.images == 0 and v.handlers == 0
    assert [p["pool"] for p in v.pools] == ["gpunp"]


def test_nap_example_page_renders_and_boxes_fit(tmp_path):
    """The Node Auto Provisioning example: the NodePool's chain drawn like a pool's, every box text inside
    its box, short, no script from the input."""
    page = tmp_path / "nap.html"
    nap = REPO / "examples" / "nap"
    r = run_cli("report", str(nap / "gpu-nodepool.yaml"), str(nap / "workloads.yaml"), "--out", str(page))
    assert r.exit_code == 1 and page.is_file(), r.stderr  # GP307: the trainer's 4 GPUs fit no admitted size
    for width in (1400, 800):
        v = visit(page, width=width, height=900)
        assert v.console_errors == [] and v.page_errors == [] and v.dialogs == [] and v.resources == []
        assert v.overflow == [], (width, v.overflow)
        assert [p["pool"] for p in v.pools] == ["gpu-a100-h100"]
        assert v.pools[0]["stages"] == ["pool", "sizes", "driver", "plugin", "resources", "workloads"]
        assert ["resources-workloads", "broken"] in v.pools[0]["edges"]
    assert v.page_height < MAX_PAGE_HEIGHT
