"""``gpupool report`` with Karpenter NodePools (Node Auto Provisioning): each NodePool's GPU chain read back
from the HTML and from the page model, GP8xx findings on its stages, what simulate's NAP model provisioned,
escaping, and exit codes."""

from __future__ import annotations

import json
import re

import pytest

from htmlpage.dom import parse
from support import EXAMPLES, REPO, run_cli

NAP = EXAMPLES / "nap"
NAP_STAGES = ["pool", "sizes", "driver", "plugin", "resources", "workloads"]
FIGURES = str(REPO / "tests" / "data" / "prices-test-figures.yaml")  # test figures, not facts


def _report(tmp_path, *args: str):
    out = tmp_path / "report.html"
    r = run_cli("report", *args, "--out", str(out))
    html = out.read_text(encoding="utf-8") if out.is_file() else ""
    return r, html


def _articles(root):
    return {a.attrs["data-pool"]: a for a in root.find_all("article", "pool")}


def _stage_text(art, stage):
    out = ""
    for t in art.find("g", "node", data_stage=stage).find_all("text"):
        if "cont" in t.classes:
            out += ("" if out.endswith("_") else " ") + t.text
        else:
            out += (" | " if out else "") + t.text
    return out


@pytest.fixture(scope="module")
def nap_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("nap")
    r, html = _report(tmp, str(NAP / "gpu-nodepool.yaml"), str(NAP / "workloads.yaml"))
    # the trainer's 4 GPUs fit no admitted size: lint's GP307 (an error) and simulate's GP508
    assert r.exit_code == 1, r.stderr
    assert "1 NodePool" in r.stderr
    root, errors = parse(html)
    assert errors == []
    return html, root


def test_nodepool_has_its_gpu_chain(nap_page):
    _, root = nap_page
    arts = _articles(root)
    assert list(arts) == ["gpu-a100-h100"]
    art = arts["gpu-a100-h100"]
    assert art.attrs["data-kind"] == "nodepool" and "nodepool" in art.classes
    svg = art.find("svg", "chain")
    assert svg.attrs["aria-label"] == "GPU chain of NodePool gpu-a100-h100"
    assert [g.attrs["data-stage"] for g in svg.find_all("g", "node")] == NAP_STAGES
    kickers = [g.find("text", "kicker").text for g in svg.find_all("g", "node")]
    assert kickers[:2] == ["NodePool (NAP)", "Admitted sizes"]
    assert "weight 50 · 3 requirements" in _stage_text(art, "pool")
    sizes = _stage_text(art, "sizes")
    assert "4 GPU sizes" in sizes and "Standard_NC24ads_A100_v4" in sizes and "+1 more" in sizes
    assert "cannot tell: 13 sizes" in sizes  # NAP's registry sizes the catalog lacks (gpu-count unknown)
    assert "NAP installs it" in _stage_text(art, "driver") and "gpu.mode Driver" in _stage_text(art, "driver")
    assert "you deploy it" in _stage_text(art, "plugin")
    assert "nvidia.com/gpu: 1..2" in _stage_text(art, "resources")
    wl = _stage_text(art, "workloads")
    assert "4 pods placed" in wl and "2 NodeClaims by NAP" in wl and "not ranked: no prices" in wl
    assert "default/inference ×4" in wl and "default/trainer · 1" in wl


def test_nodepool_breaks_and_provisioning(nap_page):
    _, root = nap_page
    art = _articles(root)["gpu-a100-h100"]
    assert "broken" in art.classes
    edges = {g.attrs["data-edge"]: g.attrs["data-state"] for g in art.find_all("g", "edge")}
    assert edges["resources-workloads"] == "broken"  # GP307 and the Pending trainer
    assert edges["pool-sizes"] == "ok"
    beside = art.find("ul", "breaks").text
    assert "GP307" in beside and "GP508" in beside
    assert "1 pod meant for this NodePool stays Pending" in beside
    nap = art.find("div", "nap").text
    assert "2 NodeClaims, 4 pods (2 each): 4 × Deployment default/inference" in nap
    assert "Fitting: Standard_NC48ads_A100_v4, Standard_NC80adis_H100_v5" in nap
    assert "Not ranked: no prices for" in nap
    # the summary and the capacity section count NAP's NodeClaims
    assert root.find("span", data_k="node-pools").text == "1 NodePool"
    assert root.find("span", "v", data_k="nodes").text == "0 → 2"
    row = root.find("tr", data_nodepool="gpu-a100-h100")
    assert row.find("td", data_k="nodeclaims").text == "2"
    # the findings are grouped under the NodePool; the Pending pod has Karpenter's words
    group = root.find("div", "fgroup", id="findings-nodepool-0")
    assert group.find("h3").text.startswith("NodePool gpu-a100-h100")
    pending = root.find("div", "pending", data_workload="Job default/trainer")
    assert "Failed to schedule pod, no instance type has enough resources" in pending.text
    assert "NodePool gpu-a100-h100: matches the pod's node selection" in pending.text
    assert "no pool both matches" not in pending.text
    assert "(s)" not in root.find("main").text


def test_nodepool_with_prices_names_the_launch(tmp_path):
    r, html = _report(tmp_path, str(NAP / "gpu-nodepool.yaml"), str(NAP / "workloads.yaml"),
                      "--prices", FIGURES)
    assert r.exit_code == 1, r.stderr
    root, _ = parse(html)
    art = _articles(root)["gpu-a100-h100"]
    nap = art.find("div", "nap").text
    # the cheapest of the fitting sizes by the test figures: NC80adis_H100_v5 13.96 > NC48ads_A100_v4 7.346
    launch = "Launches Standard_NC48ads_A100_v4 (on-demand, 7.346 USD/h per node): the cheapest that fits"
    assert launch in nap
    assert "Standard_NC48ads_A100_v4" in _stage_text(art, "workloads")
    row = root.find("tr", data_nodepool="gpu-a100-h100")
    assert row.find("td", data_k="cost-hour").text == "14.69"


def test_mistakes_break_the_stages_gp8xx_concern(tmp_path):
    r, html = _report(tmp_path, str(NAP / "mistakes.yaml"))
    assert r.exit_code == 1  # GP801/GP804 errors: never passes, whatever --fail-on says
    assert "3 errors in the pool specs and NodePools" in r.stderr
    root, errors = parse(html)
    assert errors == []
    arts = _articles(root)
    assert list(arts) == ["a100-typo", "mi300x", "h100-8"]
    for name in arts:
        edges = {g.attrs["data-edge"]: g.attrs["data-state"] for g in arts[name].find_all("g", "edge")}
        assert edges["pool-sizes"] == "broken", name  # GP801 (admits no size), GP804 (limits)
    typo = arts["a100-typo"]
    assert "admits no GPU size" in _stage_text(typo, "sizes")
    assert "GP801" in typo.find("g", "edge", data_edge="pool-sizes").find("text", "mark").text
    amd = arts["mi300x"]  # gpu.mode Driver installs no AMD driver: the sizes are ruled out
    assert "7 ruled out by the AKSNodeClass" in _stage_text(amd, "sizes")
    assert "NAP installs none" in _stage_text(amd, "driver")
    h100 = arts["h100-8"]
    pool_box = h100.find("g", "node", data_stage="pool")
    assert "warn" in pool_box.classes  # GP802 untainted, GP805 consolidation: warnings on the NodePool
    assert "no taints" in _stage_text(h100, "pool") and "limits nvidia.com/gpu 4" in _stage_text(h100, "pool")
    beside = h100.find("ul", "breaks").text
    assert "Admitted sizes GP804" in beside and "NodePool (NAP) GP802" in beside
    assert "No NodeClaim" in h100.find("div", "nap").text


def test_model_level_nodepool_views():
    from gpupool.htmlpage.gather import gather
    from gpupool.htmlpage.model import build

    res = gather([str(NAP / "gpu-nodepool.yaml"), str(NAP / "workloads.yaml")])
    assert [p.name for p in res.nap.node_pools] == ["gpu-a100-h100"] and res.pools == []
    page = build(res)
    assert page["pools"] == [] and page["heading"] == "Node Auto Provisioning"
    (v,) = page["node_pools"]
    assert v["stages"] == NAP_STAGES and v["state"] == "broken" and v["noun"] == "NodePool"
    assert v["key"] == "NodePool gpu-a100-h100"
    assert {w["ref"]: (w["pods"], w["pending"]) for w in v["workloads"]} == {
        "Deployment default/inference": (4, 0), "Job default/trainer": (0, 1)}
    assert v["nap"]["nodes"] == 2 and v["nap"]["pods"] == 4 and v["nap"]["claims"][0]["chosen"] == ""
    assert page["summary"]["node_pools"] == 1 and page["summary"]["nodes_after"] == 2
    assert "check (GP1xx, GP8xx)" in page["families"]
    (p,) = page["pending"]
    assert p["karpenter"].startswith("Failed to schedule pod")
    assert p["pools"] == ["NodePool gpu-a100-h100"]


def test_gp8xx_rules_have_a_stage():
    from gpupool.htmlpage import chain
    from gpupool.rules import all_rules

    gp8 = sorted(rid for rid in all_rules() if rid.startswith("GP8"))
    assert gp8 and all(r in chain.STAGE_OF for r in gp8), set(gp8) - set(chain.STAGE_OF)
    assert chain.STAGE_OF["GP801"] == "sizes" and chain.STAGE_OF["GP802"] == "pool"
    assert chain.STAGE_OF["GP508"] == "workloads"
    assert set(chain.NAP_STAGES) <= set(chain.ORDER) and set(chain.STAGES) <= set(chain.ORDER)


def test_pools_and_nodepools_on_one_page(tmp_path):
    r, html = _report(tmp_path, str(EXAMPLES / "t4-driver-only.yaml"), str(NAP / "gpu-nodepool.yaml"),
                      str(NAP / "workloads.yaml"))
    assert r.exit_code == 1, r.stderr
    assert "1 pool, 1 NodePool" in r.stderr
    root, errors = parse(html)
    assert errors == []
    arts = _articles(root)
    assert list(arts) == ["gpunp", "gpu-a100-h100"]
    assert "data-kind" not in arts["gpunp"].attrs
    assert [g.attrs["data-stage"] for g in arts["gpunp"].find_all("g", "node")][1] == "vm"
    ids = {e.attrs["id"] for e in root.iter() if "id" in e.attrs}
    links = {e.attrs["href"][1:] for e in root.find_all("a") if e.attrs.get("href", "").startswith("#")}
    assert links <= ids, links - ids


def test_pool_page_has_no_nodepool_parts(tmp_path):
    r, html = _report(tmp_path, str(EXAMPLES / "t4-driver-only.yaml"))
    assert r.exit_code == 0, r.stderr
    assert "NodePool" not in r.stderr
    assert 'data-kind="nodepool"' not in html and "Node Auto Provisioning" not in html
    assert "<h4>Node Auto Provisioning</h4>" not in html


EVIL = "</svg></title><script>alert('np')</script><img src=x onerror=alert(1)>\"'"


def test_hostile_inputs_are_escaped(tmp_path):
    """NodePool names are checked (DNS names), but the file's name and the pods NAP places are the user's."""
    nodepool = (NAP / "gpu-nodepool.yaml").read_text(encoding="utf-8")
    np_file = tmp_path / "np<script>alert(9)<'.yaml"
    np_file.write_text(nodepool, encoding="utf-8")
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": EVIL + "z" * 200, "namespace": "ns\"><svg onload=alert(2)>"},
        "spec": {"tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
                 "containers": [{"name": "c", "image": "x<script>alert(3)</script>",
                                 "resources": {"requests": {"cpu": "1", "memory": "1Gi"},
                                               "limits": {"nvidia.com/gpu": 1}}}]},
    }
    w_file = tmp_path / "w<b>.yaml"
    w_file.write_text(json.dumps(pod), encoding="utf-8")
    r, html = _report(tmp_path, str(np_file), str(w_file))
    assert r.exit_code in (0, 1), r.stderr
    root, errors = parse(html)
    assert errors == []
    assert "<script>alert" not in html and "<img" not in html and "<svg onload" not in html
    assert len(root.find_all("script")) == 1
    assert not any(k.startswith("on") for e in root.iter() for k in e.attrs)
    art = _articles(root)["gpu-a100-h100"]
    # the pod landed on a NodeClaim: its (escaped) name is in the drawing's tooltip and the NodeClaim line
    assert "<script>alert('np')</script>" in art.find("div", "nap").text
    assert "1 NodeClaim, 1 pod (1 each)" in art.find("div", "nap").text
    assert "np&lt;script&gt;alert(9)&lt;&#39;.yaml" in html


def test_bad_nodepool_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "np.yaml"
    bad.write_text(
        "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: gpu}\nspec:\n  template:\n"
        "    spec:\n      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: gpu}\n"
        "      requirements:\n"
        "        - {key: karpenter.azure.com/sku-gpu-name, operator: Maybe, values: [T4]}\n",
        encoding="utf-8",
    )
    out = tmp_path / "r.html"
    r = run_cli("report", str(bad), "--out", str(out))
    assert r.exit_code == 2 and not out.exists()
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and re.match(rf"gpupool: error: {re.escape(str(bad))}:\d+: ", lines[0]), r.stderr


def test_node_class_alone_is_no_landing_place(tmp_path):
    nc = tmp_path / "nc.yaml"
    nc.write_text("apiVersion: karpenter.azure.com/v1beta1\nkind: AKSNodeClass\nmetadata: {name: gpu}\n"
                  "spec: {}\n", encoding="utf-8")
    out = tmp_path / "r.html"
    r = run_cli("report", str(nc), "--out", str(out))
    assert r.exit_code == 2 and not out.exists()
    assert "no pool spec" in r.stderr
