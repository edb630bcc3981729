"""doctor --live and --collect read Node Auto Provisioning's objects (nodeclaims.karpenter.sh,
nodepools.karpenter.sh: karpenter.sh/v1, cluster-scoped) through the loopback API server.

The recorded server had no Karpenter CRD: its ``404 page not found`` (plain text, no Status body) is what an
absent CRD answers, and is a plain "not installed" fact here, no GP600 note. The lists of an installed CRD
are built from the CRDs' shapes (the NodeClaim and NodePool of build_snapshots.py), as apiextensions-apiserver
serves custom resources: ``<Kind>List``, each item with its apiVersion and kind, paginated like any list."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

from gpupool.cluster import read_snapshot
from gpupool.cluster.collect import write_snapshot
from gpupool.cluster.live import LiveReader
from loopback_apiserver import KARPENTER, Cluster, Fault, Server, kubeconfig
from support import run_cli

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_snapshots

CLAIMS, POOLS = KARPENTER + "nodeclaims", KARPENTER + "nodepools"
QUOTA = ("Unknown", "SubscriptionQuotaReached", "exceeding approved standardNCADSA100v4Family Cores quota")


def _nap_cluster() -> Cluster:
    """The recorded cluster plus NAP: two NodeClaims (one stuck on quota) and a GPU NodePool."""
    cluster = Cluster()
    stuck = build_snapshots.nodeclaim("gpu-x7k2p", "gpu", "Standard_NC24ads_A100_v4", QUOTA)
    stuck["metadata"]["managedFields"] = [{"manager": "karpenter", "operation": "Update", "fieldsV1": {}}]
    ok = build_snapshots.nodeclaim(
        "gpu-a1b2c", "gpu", "Standard_NC24ads_A100_v4", ("True", "Launched", ""), ("True", "Registered", "")
    )
    cluster.crds[CLAIMS] = [stuck, ok]
    cluster.crds[POOLS] = [build_snapshots.karpenter_nodepool("gpu")]
    return cluster


def _reader(srv: Server, tmp_path: Path, **kw: object) -> LiveReader:
    return LiveReader(kubeconfig=str(kubeconfig(tmp_path / "kc", srv.url)), log_budget=0, **kw)  # type: ignore[arg-type]


def _doctor_json(srv: Server, tmp_path: Path, *args: str) -> dict:
    r = run_cli("doctor", "--kubeconfig", str(kubeconfig(tmp_path / "kc", srv.url)), "-o", "json", *args)
    assert r.exit_code in (0, 1), (r.exit_code, r.stderr)
    return json.loads(r.stdout)


def test_absent_crds_are_a_fact_not_a_note(tmp_path: Path) -> None:
    cluster = Cluster()  # as recorded: no karpenter.sh API, 404 page not found
    with Server(cluster) as srv:
        snap = _reader(srv, tmp_path).read()
        doc = _doctor_json(srv, tmp_path)
        text = run_cli("doctor", "--kubeconfig", str(tmp_path / "kc")).stdout
    assert snap.nodeclaims is None and snap.karpenter_nodepools is None
    assert not any("karpenter" in n for n in snap.notes)
    assert "nodeclaims" not in snap.unread and "karpenternodepools" not in snap.unread
    assert snap.meta is not None
    assert sorted(snap.meta["notInstalled"]) == ["nodeclaims.karpenter.sh", "nodepools.karpenter.sh"]
    assert ("GET", CLAIMS + "?limit=500") in cluster.requests
    assert not any(f["rule"] == "GP600" and "karpenter" in f["message"] for f in doc["findings"])
    assert not any(f["rule"] in ("GP690", "GP691", "GP692") for f in doc["findings"])
    assert doc["summary"]["notInstalled"] == ["nodeclaims.karpenter.sh", "nodepools.karpenter.sh"]
    assert "karpenter" not in json.dumps(doc["summary"].get("notRead", {}))
    assert (
        "not installed: nodeclaims.karpenter.sh, nodepools.karpenter.sh (the cluster does not serve them)"
        in text
    )


def test_nodeclaims_and_nodepools_are_read_page_by_page(tmp_path: Path) -> None:
    cluster = _nap_cluster()
    with Server(cluster) as srv:
        snap = _reader(srv, tmp_path, page_size=1).read()
        claim_calls = [p for m, p in cluster.requests if p.startswith(CLAIMS + "?")]
        doc = _doctor_json(srv, tmp_path)
    assert [c["metadata"]["name"] for c in snap.nodeclaims or []] == ["gpu-a1b2c", "gpu-x7k2p"]
    assert [p["metadata"]["name"] for p in snap.karpenter_nodepools or []] == ["gpu"]
    assert all("managedFields" not in c["metadata"] for c in snap.nodeclaims or [])
    assert len(claim_calls) == 2 and "continue=" in claim_calls[1]
    assert {m for m, _ in cluster.requests} == {"GET"}
    assert "notInstalled" not in (snap.meta or {})
    gp690 = [f for f in doc["findings"] if f["rule"] == "GP690"]
    assert [(f["object"], f["severity"]) for f in gp690] == [("NodeClaim gpu-x7k2p", "error")]
    assert "notInstalled" not in doc["summary"]


def test_collect_writes_the_karpenter_files_and_doctor_reads_them_back(tmp_path: Path) -> None:
    cluster = _nap_cluster()
    out = tmp_path / "snap"
    with Server(cluster) as srv:
        live = _doctor_json(srv, tmp_path)
        r = run_cli("doctor", "--kubeconfig", str(tmp_path / "kc"), "--collect", str(out))
    assert r.exit_code == 1, r.stderr  # GP690's error: the NodeClaim stuck on quota
    text = (out / "nodeclaims.json").read_text()
    assert "managedFields" not in text and "\n " not in text
    doc = json.loads(text)
    assert doc["kind"] == "List"
    assert {(i["apiVersion"], i["kind"]) for i in doc["items"]} == {("karpenter.sh/v1", "NodeClaim")}
    pools = json.loads((out / "karpenter-nodepools.json").read_text())["items"]
    assert [(p["kind"], p["metadata"]["name"]) for p in pools] == [("NodePool", "gpu")]
    assert "nodepools.json" not in {p.name for p in out.iterdir()}  # az's agent pools: not from the API
    back = read_snapshot(out)
    assert len(back.nodeclaims or []) == 2 and len(back.karpenter_nodepools or []) == 1
    offline = json.loads(run_cli("doctor", "--snapshot", str(out), "-o", "json").stdout)
    assert [(f["rule"], f["object"]) for f in offline["findings"]] == [
        (f["rule"], f["object"]) for f in live["findings"]
    ]


def test_collect_keeps_not_installed(tmp_path: Path) -> None:
    with Server(Cluster()) as srv:
        snap = _reader(srv, tmp_path).read()
    out = write_snapshot(snap, tmp_path / "snap")
    assert not (out / "nodeclaims.json").exists() and not (out / "karpenter-nodepools.json").exists()
    doc = json.loads(run_cli("doctor", "--snapshot", str(out), "-o", "json").stdout)
    assert doc["summary"]["notInstalled"] == ["nodeclaims.karpenter.sh", "nodepools.karpenter.sh"]


@pytest.mark.parametrize(
    ("status", "cause", "fix"), [(403, "forbidden", "grant read access"), (500, "HTTP 500", "")]
)
def test_unreadable_karpenter_objects_make_nap_rules_cannot_tell(
    tmp_path: Path, status: int, cause: str, fix: str
) -> None:
    cluster = _nap_cluster()
    cluster.faults["/apis/karpenter.sh/"] = Fault("status", status)
    out = tmp_path / "snap"
    with Server(cluster) as srv:
        snap = _reader(srv, tmp_path).read()
        doc = _doctor_json(srv, tmp_path)
        run_cli("doctor", "--kubeconfig", str(tmp_path / "kc"), "--collect", str(out))
    assert snap.nodeclaims is None and snap.karpenter_nodepools is None
    assert set(snap.unread) >= {"nodeclaims", "karpenternodepools"}
    gp600 = {f["message"]: f["fix"] for f in doc["findings"] if f["rule"] == "GP600"}
    note = next(m for m in gp600 if m.startswith("could not read nodeclaims.karpenter.sh:"))
    assert cause in note and fix in gp600[note]
    tell = {f["rule"]: f for f in doc["findings"] if f["rule"] in ("GP690", "GP692")}
    assert sorted(tell) == ["GP690", "GP692"]
    assert all(f["severity"] == "info" and f["message"].startswith("cannot tell") for f in tell.values())
    assert "nodeclaims" in doc["summary"]["notRead"] and "notInstalled" not in doc["summary"]
    # the snapshot written by --collect keeps it: doctor --snapshot cannot tell either
    offline = json.loads(run_cli("doctor", "--snapshot", str(out), "-o", "json").stdout)
    assert sorted(f["rule"] for f in offline["findings"] if f["message"].startswith("cannot tell")) == sorted(
        f["rule"] for f in doc["findings"] if f["message"].startswith("cannot tell")
    )


def test_a_404_after_the_first_page_is_a_gap_not_absence(tmp_path: Path) -> None:
    """The CRD was removed mid-read: what was read is partial, and the kind is unread."""
    cluster = _nap_cluster()
    cluster.faults[CLAIMS] = Fault("status", 404, only_continue=True)
    with Server(cluster) as srv:
        snap = _reader(srv, tmp_path, page_size=1).read()
    assert snap.nodeclaims is not None and len(snap.nodeclaims) == 1
    assert "nodeclaims" in snap.unread and "notInstalled" not in (snap.meta or {})


def test_print_commands_make_the_karpenter_files() -> None:
    r = run_cli("doctor", "--print-commands", "--context", "prod")
    assert (
        "kubectl --context 'prod' get nodeclaims.karpenter.sh -o json > nodeclaims.json "
        "|| rm -f nodeclaims.json" in r.stdout
    )
    assert (
        "kubectl --context 'prod' get nodepools.karpenter.sh -o json > karpenter-nodepools.json "
        "|| rm -f karpenter-nodepools.json" in r.stdout
    )


def test_nodeclaims_in_the_loopback_server_are_not_mutated(tmp_path: Path) -> None:
    """managedFields are dropped from the client's copy, not from what the server holds."""
    cluster = _nap_cluster()
    before = copy.deepcopy(cluster.crds[CLAIMS])
    with Server(cluster) as srv:
        _reader(srv, tmp_path).read()
    assert cluster.crds[CLAIMS] == before
