"""``gpupool report``: the page's structure read back from the HTML (pools, chain nodes and edges, numbers),
its numbers against ``simulate -o json`` and its rule docs against ``explain``; escaping, offline-ness,
atomic writing and exit codes."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from htmlpage.dom import parse
from report_browser import EXAMPLE_ARGS
from support import EXAMPLES, REPO, run_cli

GPU_STAGES = ["pool", "vm", "driver", "plugin", "resources", "workloads"]
PLAIN_STAGES = ["pool", "vm", "workloads"]


FIGURES = str(REPO / "tests" / "data" / "prices-test-figures.yaml")  # test figures, not facts


def _args() -> list[str]:
    return [str(REPO / a) for a in EXAMPLE_ARGS]


@pytest.fixture(scope="module")
def examples_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    r = run_cli("report", *_args(), "--out", str(out), "--prices", FIGURES)
    assert r.exit_code == 1, r.stderr  # examples/mistakes.yaml has error findings
    html = out.read_text(encoding="utf-8")
    root, errors = parse(html)
    return html, root, errors


def _pools(root):
    return {a.attrs["data-pool"]: a for a in root.find_all("article", "pool")}


def test_well_formed_and_offline(examples_page):
    html, root, errors = examples_page
    assert errors == []
    assert html.startswith("<!DOCTYPE html>")
    csp = root.find("meta", http_equiv="Content-Security-Policy").attrs["content"]
    assert "default-src 'none'" in csp and "script-src 'sha256-" in csp and "unsafe-inline" not in csp
    scripts = root.find_all("script")
    assert len(scripts) == 1 and "src" not in scripts[0].attrs
    for e in root.iter():  # nothing is fetched: no external URL in any attribute, no CSS import or url()
        for k, v in e.attrs.items():
            if k in ("src", "href", "xlink:href", "action", "poster", "data"):
                assert not re.match(r"\s*(https?:|//)", v), (e.tag, k, v)
    ids = {e.attrs["id"] for e in root.iter() if "id" in e.attrs}
    links = {e.attrs["href"][1:] for e in root.find_all("a") if e.attrs.get("href", "").startswith("#")}
    assert links and links <= ids, links - ids  # every link inside the page has its target
    style = root.find("style").text
    assert "@import" not in style and "url(" not in style and "@font-face" not in style
    assert len(html.encode()) < 300_000


def test_every_pool_has_its_chain(examples_page):
    _, root, _ = examples_page
    pools = _pools(root)
    assert list(pools) == ["gpunp", "system", "a100mig", "t4spot", "h100op", "GPU-Pool-Production"]
    for name, art in pools.items():
        svg = art.find("svg", "chain")
        stages = [g.attrs["data-stage"] for g in svg.find_all("g", "node")]
        assert stages == (PLAIN_STAGES if name == "system" else GPU_STAGES), name
        edges = [g.attrs["data-edge"] for g in svg.find_all("g", "edge")]
        assert edges == [f"{a}-{b}" for a, b in itertools.pairwise(stages)]


def _stage_text(art, stage):
    """A box's lines joined by " | " (a wrapped line's parts joined again: class ``cont``)."""
    out = ""
    for t in art.find("g", "node", data_stage=stage).find_all("text"):
        if "cont" in t.classes:
            out += ("" if out.endswith("_") else " ") + t.text
        else:
            out += (" | " if out else "") + t.text
    return out


def test_chain_values(examples_page):
    _, root, _ = examples_page
    pools = _pools(root)
    a100 = pools["a100mig"]
    assert "8 × NVIDIA A100 SXM4 40GB" in _stage_text(a100, "vm")
    assert "MIG MIG1g: 7 × 1g.5gb/GPU" in _stage_text(a100, "vm")
    assert "nvidia.com/mig-1g.5gb: 56" in _stage_text(a100, "resources")
    assert "MIG strategy mixed" in _stage_text(a100, "plugin")
    gpunp = pools["gpunp"]
    assert "driver-only + plugin" in _stage_text(gpunp, "driver")
    assert "580.159.04" in _stage_text(gpunp, "driver")  # catalog drivers.yaml cuda-lts
    assert "taint sku=gpu:NoSchedule" in _stage_text(gpunp, "pool")
    assert "nvidia.com/gpu: 1" in _stage_text(gpunp, "resources")
    assert "default/gpu-test ×1" in _stage_text(gpunp, "workloads")
    spot = pools["t4spot"]
    assert "nvidia.com/gpu.shared: 4" in _stage_text(spot, "resources")
    assert "time-slicing ×4" in _stage_text(spot, "plugin")
    managed = pools["GPU-Pool-Production"]  # managed GPU on Azure Linux: the driver is not pinned there
    assert "managed GPU (AKS)" in _stage_text(managed, "driver")
    assert "not pinned" in _stage_text(managed, "driver")
    assert "deployed by AKS" in _stage_text(managed, "plugin")
    assert "MIG1g asked: no MIG here" in _stage_text(managed, "vm")
    h100 = pools["h100op"]
    assert "GPU Operator mode" in _stage_text(h100, "driver")
    assert "from the GPU Operator" in _stage_text(h100, "plugin")


def test_broken_links_are_drawn_broken_with_their_findings(examples_page):
    _, root, _ = examples_page
    pools = _pools(root)
    bad = pools["GPU-Pool-Production"]
    assert "broken" in bad.classes
    state = {g.attrs["data-edge"]: g.attrs["data-state"] for g in bad.find_all("g", "edge")}
    assert state["pool-vm"] == "broken"  # GP105 retired size
    assert state["vm-driver"] == "broken"  # GP129 CUDA 13 on V100
    assert state["driver-plugin"] == "broken"  # GP109 MIG on V100
    broken = bad.find("g", "edge", data_edge="pool-vm")
    assert broken.find_all("line", "cross"), "a broken link has its cross"
    assert "GP105" in broken.find("text", "mark").text
    beside = bad.find("ul", "breaks").text
    for rule in ("GP105", "GP109", "GP129", "GP114"):
        assert rule in beside
    assert "Fix: use Standard_NC4as_T4_v3" in beside
    good = {g.attrs["data-edge"]: g for g in pools["gpunp"].find_all("g", "edge")}
    assert [e for e, g in good.items() if g.attrs["data-state"] != "ok"] == ["resources-workloads"]
    # ml/trainer does not tolerate gpunp's taint (GP305: the untainted GPU-Pool-Production has errors, so
    # it is no landing place), and gpu-test-bad tolerates it without asking for a GPU (GP308)
    assert good["resources-workloads"].attrs["data-state"] == "broken"
    assert "GP308 +1" in good["resources-workloads"].find("text", "mark").text
    breaks = pools["gpunp"].find("ul", "breaks").text
    assert "GP305" in breaks and "GP308" in breaks
    assert "warn" in pools["a100mig"].classes  # GP128 scale from zero (warning)


def _money(x: float) -> str:
    return f"{x:,.2f}"


def test_capacity_and_cost_match_simulate(examples_page):
    _, root, _ = examples_page
    sim_args = [a for a in _args() if not a.endswith("workloads")]
    sim_args += sorted(str(p) for p in (EXAMPLES / "workloads").glob("*.yaml"))
    r = run_cli("simulate", *sim_args, "-o", "json", "--prices", FIGURES)
    sim = json.loads(r.stdout)
    trs = root.find("table", "cap").find_all("tr")
    rows = {tr.attrs["data-pool"]: tr for tr in trs if "data-pool" in tr.attrs}
    assert list(rows) == [p["name"] for p in sim["pools"]]
    for p in sim["pools"]:
        tr = rows[p["name"]]
        assert tr.find("td", data_k="cost-hour").text == _money(p["costPerHour"]), p["name"]
        nodes = tr.find("span", data_k="nodes").text
        assert nodes.startswith(f"{p['initialNodes']} → {p['nodes']}")
        for name, v in p["resources"].items():
            if name.startswith("nvidia.com/"):
                cell = " ".join(s.text for s in tr.find_all("span", data_k="gpu"))
                assert f"{name} {int(v['used'])} / {int(v['free'])}" in cell
        bars = tr.find_all("svg", "bar")
        assert bars and all(b.find_all("rect") for b in bars)
    total = root.find("span", data_k="cost-hour").text
    assert total == f"{_money(sim['costPerHour'])} {sim['currency']}/h"
    month = root.find("table", "cap").find("tfoot").find_all("th")[2].text
    assert month == f"{sim['costPerHour'] * 730:,.0f}"
    # idle GPU cost: h100op is idle (8 free of 8): all of its 98.32/h
    assert rows["h100op"].find("td", data_k="idle-hour").text == _money(
        next(p["costPerHour"] for p in sim["pools"] if p["name"] == "h100op")
    )
    h100_cost = rows["h100op"].find("td", "cost").find("svg", "bar")
    assert [r.attrs["class"] for r in h100_cost.find_all("rect")] == ["bar-bg", "seg-idle"]  # all idle
    gpunp_cost = rows["gpunp"].find("td", "cost").find("svg", "bar")
    assert [r.attrs["class"] for r in gpunp_cost.find_all("rect")] == ["bar-bg", "seg-cost"]  # all busy
    src = root.find("section", id="capacity").find("p", "source").text
    assert sim["prices"]["asOf"] in src and "Source: test figures" in src and "730 hours" in src


def test_findings_grouped_with_docs_from_explain(examples_page):
    _, root, _ = examples_page
    sec = root.find("section", id="findings")
    groups = {g.attrs["id"]: g for g in sec.find_all("div", "fgroup")}
    bad = next(g for g in groups.values() if "GPU-Pool-Production" in g.find("h3").text)
    sevs = [d.attrs["data-sev"] for d in bad.find_all("div", "fsev")]
    assert sevs == ["error", "warning", "info"]
    check = run_cli("check", str(EXAMPLES / "mistakes.yaml"), "-o", "json")
    expected = {f["rule"] for f in json.loads(check.stdout)["findings"]}
    shown = {li.attrs["data-rule"] for li in bad.find_all("li", "finding")}
    assert expected <= shown
    linked = {a.attrs["href"][len("#rule-"):] for a in root.find_all("a", "rule")}
    # docs only for the rules that fired, each collapsed (<details>, closed), titled by its summary
    documented = [d.attrs["data-rule"] for d in root.find("section", id="rules").find_all("details")]
    assert set(documented) == linked and len(documented) == len(linked)
    for rid in linked:
        doc = root.find("details", "ruledoc", data_rule=rid)
        assert "open" not in doc.attrs
        explain = run_cli("explain", rid).stdout
        title, _, body = explain.partition("\n")
        assert doc.find("summary").text.split(None, 1)[1] == title.replace("`", "")
        assert doc.find("div", "doc").attrs["id"] == f"rule-{rid}"  # a link opens it (fragment in details)
        shown = doc.find("div", "doc").text  # the same words, set as prose (`code` as <code>)
        def words(t: str) -> str:
            t = re.sub(r"(?m)^\s*[*-] ", " ", t)  # list bullets become <li>
            return " ".join(t.replace("`", "").split())
        assert words(shown) == words(body), rid


def test_pending_pods_with_scheduler_words(tmp_path):
    out = tmp_path / "r.html"
    files = [EXAMPLES / "a100-mig-mixed.yaml", EXAMPLES / "t4-driver-only.yaml"]
    files.append(EXAMPLES / "workloads" / "training.yaml")
    r = run_cli("report", *map(str, files), "--out", str(out), "--fail-on", "none")
    assert r.exit_code == 0, r.stderr
    root, _ = parse(out.read_text())
    sim = json.loads(run_cli("simulate", *map(str, files), "-o", "json").stdout)
    blocks = root.find("section", id="pending").find_all("div", "pending")
    assert [b.attrs["data-workload"] for b in blocks] == [e["workload"] for e in sim["pending"]]
    for b, e in zip(blocks, sim["pending"], strict=True):
        codes = [c.text for c in b.find_all("code", "block")]
        assert codes[0] == e["message"]
        assert codes[1] == e["autoscaler"]
        why = b.find("ul", "plain").text
        assert "gpunp: has a taint the pod does not tolerate: sku=gpu:NoSchedule" in why, why
    gpunp = _pools(root)["gpunp"]
    wl = gpunp.find("g", "edge", data_edge="resources-workloads")
    assert wl.attrs["data-state"] == "broken" and "Pending" in wl.find("text", "mark").text
    assert "ml/trainer · 5 pending" in _stage_text(gpunp, "workloads")


def test_diff_changes_and_runbook(tmp_path):
    out = tmp_path / "r.html"
    r = run_cli(
        "report",
        str(EXAMPLES / "diff" / "desired-gpunp-a100.yaml"),
        str(EXAMPLES / "workloads"),
        "--current",
        str(EXAMPLES / "diff" / "current-gpunp.json"),
        "--out",
        str(out),
        "--fail-on",
        "none",
    )
    assert r.exit_code == 0, r.stderr
    root, _ = parse(out.read_text())
    d = json.loads(
        run_cli(
            "diff",
            str(EXAMPLES / "diff" / "current-gpunp.json"),
            str(EXAMPLES / "diff" / "desired-gpunp-a100.yaml"),
            "-w",
            str(EXAMPLES / "workloads"),
            "-o",
            "json",
        ).stdout
    )
    sec = root.find("section", id="diff")
    rows = sec.find("table", "changes").find("tbody").find_all("tr")
    assert [r.find("code").text for r in rows] == [c["field"] for c in d["changes"]]
    assert [r.attrs["class"] for r in rows] == [c["action"] for c in d["changes"]]
    steps = [p.text for p in sec.find("ol", "steps").find_all("pre")]
    assert steps == d["commands"]
    assert "needs a new pool (gpunp2)" in sec.find("h3").text


def test_hostile_names_are_escaped(tmp_path):
    hostile = "</svg><script>alert('pod')</script>\"'" + "y" * 400
    ns = 'ns"><svg onload=alert(2)>'
    (tmp_path / "pool.yaml").write_text(
        "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\n"
        "spec: {resourceGroup: rg, clusterName: c1, vmSize: Standard_NC4as_T4_v3,"
        " nodeTaints: ['sku=gpu:NoSchedule']}\n"
    )
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": hostile, "namespace": ns, "labels": {"x": "<b>"}},
        "spec": {"containers": [{"name": "c", "image": "nvidia/cuda:99.0-<script>alert(3)</script>",
                                 "resources": {"limits": {"nvidia.com/gpu": 1}}}]},
    }
    evil_file = tmp_path / "w<script>alert(9)<'\">.yaml"
    evil_file.write_text(json.dumps(pod))
    prices = tmp_path / "prices.yaml"  # --prices is a user file too
    prices.write_text(
        "region: eastus\ncurrency: USD\nasOf: '2026-01-01'\n"
        "source: \"</p><script>alert('price')</script>\"\nprices: {Standard_NC4as_T4_v3: 0.5}\n"
    )
    out = tmp_path / "r.html"
    r = run_cli("report", str(tmp_path / "pool.yaml"), str(evil_file), "--out", str(out),
                "--prices", str(prices))
    assert r.exit_code == 1, r.stderr
    html = out.read_text()
    root, errors = parse(html)
    assert errors == []
    assert len(root.find_all("script")) == 1
    assert not [e for e in root.iter() if any(k.startswith("on") for k in e.attrs)]
    assert len(root.find_all("svg")) == len(root.find_all("svg", "chain")) + len(root.find_all("svg", "bar"))
    assert "<script>alert" not in html and "<svg onload" not in html
    text = root.text
    assert f"Pod {ns}/{hostile}" in text  # the whole name, as text
    assert "Source: </p><script>alert('price')</script>." in text
    svg_text = " ".join(t.text for t in root.find("svg", "chain").find_all("text"))
    assert hostile not in svg_text and "…" in svg_text  # cut in the drawing (the full name is in <title>)


def test_bad_input_writes_nothing(tmp_path):
    out = tmp_path / "r.html"
    out.write_text("previous")
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: [\n")
    r = run_cli("report", str(bad), "--out", str(out))
    assert r.exit_code == 2 and r.stderr.startswith("gpupool: error: ")
    assert out.read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml", "r.html"]  # no temporary file left
    r = run_cli("report", str(EXAMPLES / "workloads" / "training.yaml"), "--out", str(tmp_path / "x.html"))
    assert r.exit_code == 2 and "no pool spec" in r.stderr
    assert not (tmp_path / "x.html").exists()
    r = run_cli("report", str(EXAMPLES / "t4-driver-only.yaml"), "--out", str(tmp_path / "no" / "x.html"))
    assert r.exit_code == 2 and "no such directory" in r.stderr


def test_fail_on_and_clean_exit(tmp_path):
    out = tmp_path / "r.html"
    assert run_cli("report", str(EXAMPLES / "t4-driver-only.yaml"), "--out", str(out)).exit_code == 0
    assert run_cli("report", str(EXAMPLES / "mistakes.yaml"), "--out", str(out)).exit_code == 1
    # spec errors are never a pass: --fail-on none still exits 1 (the page is written: it shows why)
    none = run_cli("report", str(EXAMPLES / "mistakes.yaml"), "--out", str(out), "--fail-on", "none")
    assert none.exit_code == 1 and "6 errors in the pool specs" in none.stderr
    assert out.read_text().rstrip().endswith("</html>")
    warn = run_cli("report", str(EXAMPLES / "t4-time-sliced-spot.yaml"), "-d", str(out), "--fail-on", "none")
    assert warn.exit_code == 0  # warnings only: --fail-on none lets them pass


def test_fifty_pools_fit_in_two_megabytes(tmp_path):
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    try:
        import report_render
    finally:
        sys.path.pop(0)
    (tmp_path / "in.yaml").write_text(report_render.manifests(pools=50, workloads=500))
    out = tmp_path / "r.html"
    r = run_cli("report", str(tmp_path / "in.yaml"), "--out", str(out), "--fail-on", "none")
    assert r.exit_code == 0, r.stderr
    root, errors = parse(out.read_text())
    assert errors == []
    assert len(root.find_all("article", "pool")) == 51  # 50 GPU pools and the system pool
    assert out.stat().st_size < 2_000_000


def test_jinja_loaded_only_by_report():
    import subprocess
    import sys

    code = (
        "import sys; from gpupool.cli.main import build_app, _modules_for; "
        "build_app(_modules_for(['check'])); print('jinja2' in sys.modules)"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert p.stdout.strip() == "False"


def test_svg_fit():
    from gpupool.htmlpage import svg

    assert svg.fit("abc", 10) == "abc"
    assert svg.fit("abcdefghij", 5) == "abcd…"
    assert len(svg.fit("x" * 500, 30)) == 30
    assert svg.fit("a\n b\tc", 10) == "a b c"


def test_screenshot_in_docs_is_a_real_png():
    from report_browser import png_rows

    png = (REPO / "docs" / "report.png").read_bytes()
    w, h, distinct = png_rows(png)
    assert w >= 1000 and h >= 800 and distinct > 200
    assert "docs/report.png" in (REPO / "README.md").read_text()


def test_readme_mentions_report():
    assert "gpupool report" in Path(REPO / "README.md").read_text()


def test_snapshot_adds_doctor_findings_and_cluster_pending(tmp_path):
    snap = REPO / "tests" / "doctor" / "snapshots" / "pending-untolerated-taint"
    out = tmp_path / "r.html"
    r = run_cli("report", str(EXAMPLES / "t4-driver-only.yaml"), "--snapshot", str(snap), "--out", str(out))
    assert r.exit_code == 1, r.stderr  # doctor's GP610 is an error
    root, errors = parse(out.read_text())
    assert errors == []
    doctor = json.loads(run_cli("doctor", "--snapshot", str(snap), "-o", "json").stdout)
    shown = {li.attrs["data-rule"] for li in root.find("section", id="findings").find_all("li", "finding")}
    assert {f["rule"] for f in doctor["findings"]} <= shown
    # GP670 (idle GPU nodes of pool gpunp) is drawn on gpunp's chain
    gpunp = _pools(root)["gpunp"]
    assert "GP670" in gpunp.find("ul", "breaks").text
    blocks = root.find("section", id="pending").find_all("div", "pending cluster")
    assert [b.attrs["data-pod"] for b in blocks] == [p["pod"] for p in doctor["pendingPods"]]
    for b, p in zip(blocks, doctor["pendingPods"], strict=True):
        assert b.find_all("code", "block")[0].text == p["scheduler"]
    assert "doctor (GP6xx)" in root.find("section", id="findings").find("p", "lead").text
    # the specs are the design doctor compares the nodes with (GP680)
    other = tmp_path / "o.html"
    run_cli("report", str(EXAMPLES / "t4-time-sliced-spot.yaml"), "--snapshot", str(snap), "-d", str(other))
    spot = str(EXAMPLES / "t4-time-sliced-spot.yaml")
    drift = json.loads(run_cli("doctor", "--snapshot", str(snap), "--pool", spot, "-o", "json").stdout)
    gp680 = [f for f in drift["findings"] if f["rule"] == "GP680"]
    assert gp680
    root2, _ = parse(other.read_text())
    assert [li for li in root2.find_all("li", "finding") if li.attrs["data-rule"] == "GP680"]
    bad = run_cli("report", str(EXAMPLES / "t4-driver-only.yaml"), "--snapshot", str(tmp_path / "nope"),
                  "--out", str(tmp_path / "x.html"))
    assert bad.exit_code == 2 and not (tmp_path / "x.html").exists()


@settings(max_examples=150, deadline=None)
@given(label=st.text(max_size=80), body=st.text(max_size=300))
def test_svg_macro_escapes_any_text(label, body):
    """Whatever a name holds, the drawing keeps it as text: same elements, the text read back intact."""
    from gpupool.htmlpage import svg
    from gpupool.htmlpage.render import environment

    c = svg.Canvas(100, 40, label)
    g = c.group("node", body, stage="pool")
    svg.text(g, 1, 2, body)
    svg.rect(g, 0, 0, 10, 10, "box")
    macro = environment().get_template("svg.html.j2").module.svg
    root, errors = parse(str(macro(c)))
    assert errors == []
    tags = [e.tag for e in root.iter()][1:]
    assert tags == ["svg", "g", *(["title"] if body else []), "text", "rect"]
    assert root.find("svg").attrs["aria-label"] == label
    if body:
        assert root.find("title").text == body
    assert root.find("text").text == " ".join(body.split())


def test_lint_in_a_forked_process_finds_the_same(monkeypatch):
    """Large inputs are linted in a forked process while simulate runs: same findings as in-process."""
    import gpupool.lint.engine as lint_engine
    from gpupool.htmlpage.gather import gather

    files = _args()[:-1] + sorted(str(p) for p in (EXAMPLES / "workloads").glob("*.yaml"))
    serial = gather(files)
    assert serial.seconds["lint_in_parallel"] == 0.0
    monkeypatch.setattr(lint_engine, "PARALLEL_MIN_BYTES", 0)
    forked = gather(files)
    assert forked.seconds["lint_in_parallel"] == 1.0
    assert forked.lint.findings == serial.lint.findings and forked.lint.findings
    assert forked.lint.summary == serial.lint.summary
    bad = REPO / "examples" / "workloads" / "training.yaml"  # no pool: the parent's error; child cancelled
    with pytest.raises(Exception, match="no pool spec"):
        gather([str(bad)])


T4 = "vmSize: Standard_NC4as_T4_v3"
RG = "resourceGroup: rg"


@pytest.mark.parametrize(
    "field",
    [
        f"metadata: {{name: \"<script>alert(1)</script>\"}}\nspec: {{{RG}, clusterName: c, {T4}}}",
        f"metadata: {{name: gpunp}}\nspec: {{resourceGroup: rg, clusterName: \"</title><b>\", {T4}}}",
        f"metadata: {{name: gpunp}}\nspec: {{{RG}, clusterName: c, vmSize: \"a'\\\"<svg onload=x>\"}}",
        f"metadata: {{name: \"{'a' * 300}\"}}\nspec: {{{RG}, clusterName: c, {T4}}}",
    ],
)
def test_hostile_spec_is_refused_before_any_page(tmp_path, field):
    """The spec itself is validated first (pool, cluster and VM size names): a hostile one is bad input."""
    spec = tmp_path / "pool.yaml"
    spec.write_text("apiVersion: gpupool/v1\nkind: GpuNodePool\n" + field + "\n")
    out = tmp_path / "r.html"
    r = run_cli("report", str(spec), "--out", str(out))
    assert r.exit_code == 2 and r.stderr.startswith("gpupool: error: ") and r.stderr.count("\n") == 1
    assert not out.exists()


def test_rule_docs_set_as_prose():
    from gpupool import docblocks as ruledoc
    from gpupool.cli.explain import render_doc
    from gpupool.rules import all_rules, lookup

    kinds = [b["kind"] for b in ruledoc.blocks(render_doc(lookup("GP201")).partition("\n")[2])]
    assert kinds[:3] == ["meta", "h", "p"] and "pre" in kinds  # "What it checks" alone on its line
    gp124 = ruledoc.blocks(render_doc(lookup("GP124")).partition("\n")[2])
    assert any(b["kind"] == "ul" and len(b["items"]) == 2 for b in gp124)
    for info in all_rules().values():  # no word lost for any rule
        body = render_doc(info).partition("\n")[2]
        def words(t: str) -> str:  # bullets aside (a list item keeps its words, not its "* ")
            return " ".join(re.sub(r"(?<!\S)[*-] ", " ", t.replace("`", "")).split())

        assert words(ruledoc.plain(ruledoc.blocks(body))) == words(body), info.id


def test_same_inputs_same_page(tmp_path, monkeypatch):
    """With SOURCE_DATE_EPOCH the page is reproducible byte for byte (no random ids, no dict-order noise)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764720000")
    pages = []
    for n in range(2):
        out = tmp_path / f"r{n}.html"
        run_cli("report", *_args(), "--out", str(out), "--fail-on", "none")
        pages.append(out.read_bytes())
    assert pages[0] == pages[1]
    assert b"generated 2025-12-03 00:00 UTC" in pages[0]


def test_as_a_program(tmp_path):
    """The real entry point: ``python -m gpupool report`` loads only its command and writes the page."""
    from support import run_program

    out = tmp_path / "r.html"
    r = run_program("report", *EXAMPLE_ARGS, "--out", str(out))
    assert r.exit_code == 1, r.stderr  # mistakes.yaml
    assert r.stdout == "" and r.stderr.startswith(f"gpupool: wrote {out} (")
    root, errors = parse(out.read_text())
    assert errors == [] and len(root.find_all("article", "pool")) == 6


def test_page_stays_small_with_many_findings(tmp_path):
    """However many findings the engines return, the page shows a bounded number (the rest counted)."""
    import sys

    from gpupool.findings import Finding, Severity
    from gpupool.htmlpage.gather import gather
    from gpupool.htmlpage.model import build
    from gpupool.htmlpage.render import render

    sys.path.insert(0, str(REPO / "bench"))
    try:
        import report_render
    finally:
        sys.path.pop(0)
    (tmp_path / "in.yaml").write_text(report_render.manifests(pools=50, workloads=100))
    res = gather([str(tmp_path / "in.yaml")])
    sevs = list(Severity)
    for n in range(30_000):  # as if every pool had hundreds of findings of every severity
        pool = res.pools[n % len(res.pools)]
        res.check.append(Finding("GP126", sevs[n % 3], f"finding {n} " + "x" * 200, pool.where.path, n + 1,
                                 object=pool.label, fix="y" * 100))
    html = render(build(res))
    assert len(html.encode()) < 2_000_000
    root, _ = parse(html)
    shown = len(root.find("section", id="findings").find_all("li", "finding"))
    assert 500 < shown <= 1600
    assert "more error findings here" in html


def test_skus_file_lets_a_size_the_catalog_lacks_be_drawn(tmp_path):
    """Like check/plan/simulate, ``--skus`` (az vm list-skus) supplies a size the catalog lacks."""
    from gpupool import catalog

    skus = REPO / "tests" / "preflight" / "data" / "eastus" / "skus.json"
    spec = tmp_path / "p.yaml"
    spec.write_text("apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\n"
                    "spec: {resourceGroup: rg, clusterName: c, vmSize: Standard_ND40rs_v2, nodeCount: 1,\n"
                    "  nodeTaints: ['sku=gpu:NoSchedule']}\n")
    out = tmp_path / "r.html"
    try:
        assert run_cli("report", str(spec), "-d", str(out)).exit_code == 2  # simulate needs the size's facts
        r = run_cli("report", str(spec), "--skus", str(skus), "--out", str(out), "--fail-on", "none")
    finally:
        catalog.clear_user_sizes()
    assert r.exit_code == 0, r.stderr
    root, _ = parse(out.read_text())
    assert "nvidia.com/gpu: 8" in _stage_text(_pools(root)["gpunp"], "resources")


def _pools_spec(names: list[str]) -> str:
    return "---\n".join(
        f"apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {{name: {n}}}\n"
        "spec: {resourceGroup: rg, clusterName: c1, vmSize: Standard_NC4as_T4_v3, nodeCount: 1,\n"
        "  autoscaler: {minCount: 1, maxCount: 1}, nodeTaints: ['sku=gpu:NoSchedule'],\n"
        "  gpu: {driver: Install}}\n"
        for n in names
    )


def _trainer(replicas: int) -> str:
    return (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: trainer, namespace: ml}\n"
        f"spec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: t}}}}\n  template:\n"
        "    metadata: {labels: {app: t}}\n    spec:\n"
        "      tolerations: [{key: sku, operator: Equal, value: gpu, effect: NoSchedule}]\n"
        "      containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]\n"
    )


def test_pending_pods_several_pools_could_take_are_said_once(tmp_path):
    """Pods that every one of several pools could take, Pending: one statement naming the pools, not the
    same line beside each pool's drawing; each pool's drawing still marks its workloads link Pending."""
    names = ["gpua", "gpub", "gpuc", "gpud", "gpue"]
    (tmp_path / "pools.yaml").write_text(_pools_spec(names))
    (tmp_path / "w.yaml").write_text(_trainer(14))  # 5 nodes of 1 GPU each: 9 pods stay Pending
    out = tmp_path / "r.html"
    r = run_cli("report", str(tmp_path / "pools.yaml"), str(tmp_path / "w.yaml"), "--out", str(out),
                "--fail-on", "none")
    assert r.exit_code in (0, 1) and out.is_file(), r.stderr
    root, errors = parse(out.read_text())
    assert errors == []
    pending = sum(int(b.find("span", "sub").text.split()[0])
                  for b in root.find("section", id="pending").find_all("div", "pending"))
    assert pending > 1
    groups = root.find("section", id="chain").find_all("p", "pgroup")
    assert len(groups) == 1
    text = " ".join(groups[0].text.split())
    assert text.startswith(f"{pending} pods stay Pending (Deployment ml/trainer)")
    assert [a.text for a in groups[0].find_all("a")][:-1] == names
    for name, art in _pools(root).items():
        assert "Pending" not in " ".join(ul.text for ul in art.find_all("ul", "breaks"))
        edge = art.find("g", "edge", data_edge="resources-workloads")
        assert edge.attrs["data-state"] == "broken" and "Pending" in edge.find("text", "mark").text, name
    # one pool alone: the line beside it, in the singular when one pod is left
    (tmp_path / "one.yaml").write_text(_pools_spec(["gpua"]))
    (tmp_path / "w2.yaml").write_text(_trainer(2))
    run_cli("report", str(tmp_path / "one.yaml"), str(tmp_path / "w2.yaml"), "--out", str(out),
            "--fail-on", "none")
    root, _ = parse(out.read_text())
    assert not root.find_all("p", "pgroup")
    beside = " ".join(_pools(root)["gpua"].find("ul", "breaks").text.split())
    assert "1 pod meant for this pool stays Pending" in beside


def test_counted_nouns_are_real_plurals(examples_page):
    """No "pod(s)" or "finding(s)": every count on the page agrees with its noun."""
    _, root, _ = examples_page

    quoted = {"msg", "evidence", "fix", "breaks", "plain"}

    def own_text(e) -> str:  # the page's words, not the messages it quotes (the engines', kube-scheduler's)
        if e.tag in ("title", "script", "style", "code") or e.classes & quoted:
            return " "
        return "".join(c if isinstance(c, str) else own_text(c) for c in e.children)

    text = " ".join(own_text(root).split())
    assert "(s)" not in text, re.findall(r".{30}\(s\).{10}", text)
    assert not re.search(r"\b1 (pods|findings|pools|nodes|changes)\b", text)
    assert "5 GPU pools" in text
    from gpupool.htmlpage.words import plural, verb

    assert [plural(n, "pod") for n in (0, 1, 2)] == ["0 pods", "1 pod", "2 pods"]
    assert (verb(1, "stays"), verb(9, "stays")) == ("stays", "stay")


def test_svg_text_is_measured_and_wrapped():
    """Text in a chain box is measured (DejaVu Sans advance widths, the widest fallback) and wrapped at
    spaces or, in a long name, after underscores; no line is wider than its box; what does not fit is cut."""
    from gpupool.htmlpage import chain, svg

    bold = svg.Font(12, bold=True)
    width = chain.BOX_W - 2 * chain.PAD
    assert svg.wrap("8 × NVIDIA A100 SXM4 40GB", width, bold) == ["8 × NVIDIA A100 SXM4", "40GB"]
    assert "".join(svg.wrap("Standard_ND96isr_H100_v5", width, chain.TITLE)) == "Standard_ND96isr_H100_v5"
    long = svg.wrap("y" * 400, width, bold)
    assert long[0].endswith("…") and len(long) == 1
    cut = svg.wrap(" ".join(["word"] * 80), width, bold)
    assert len(cut) == 2 and cut[-1].endswith("…")
    assert svg.wrap("short", width, bold) == ["short"]
    for text in ("8 × NVIDIA A100 SXM4 40GB", "x" * 90, "W" * 40 + " m" * 30, "taint a=b:NoSchedule " * 5):
        for font in (bold, chain.TITLE, svg.Font(11.5, mono=True), chain.KICKER):
            assert all(font.width(line) <= width for line in svg.wrap(text, width, font)), (text, font)
    assert svg.text_width("iii", 10) < svg.text_width("MMM", 10) < svg.text_width("MMM", 10, bold=True)
