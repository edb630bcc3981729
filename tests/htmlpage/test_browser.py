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
    r = run_cli("report", *[str(REPO / a) for a in EXAMPLE_ARGS], "-o", str(page), "--fail-on", "none")
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
                "-o", str(page), "--fail-on", "none")
    assert r.exit_code == 0, r.stderr
    v = visit(page)
    assert v.dialogs == [], "a script from the input ran"
    assert v.console_errors == [] and v.page_errors == []
    assert v.blocked == [] and v.resources == [], "the page loaded something (an injected <img>?)"
    assert v.images == 0 and v.handlers == 0
    assert [p["pool"] for p in v.pools] == ["gpunp"]
