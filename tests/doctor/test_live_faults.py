"""doctor (and simulate --live) when the cluster does not cooperate: the loopback API server refuses, resets
or stalls mid-body, dies mid-page, or answers 403/404/410/500 per resource. Every fault goes through the
real entry point; the exit code is always 0, 1 or 2 (3 is the documented internal error: never here)."""

from __future__ import annotations

import copy
import json
import socket
import time
from pathlib import Path

import pytest

from loopback_apiserver import Cluster, Fault, Server, kubeconfig
from support import DATA, run_cli, run_program

PODS, NODES, EVENTS, DS = "/api/v1/pods", "/api/v1/nodes", "/api/v1/events", "/apis/apps/v1/daemonsets"
PLUGIN = "nvidia-device-plugin-daemonset-2xq8k"
DRIVER = "nvidia-driver-daemonset-7kq2x"


def _pod(name: str, ns: str, node: str, owner: str, image: str, containers: list[str]) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": name,
            "namespace": ns,
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": owner}],
        },
        "spec": {"nodeName": node, "containers": [{"name": c, "image": image} for c in containers]},
        "status": {
            "phase": "Running",
            "containerStatuses": [{"name": c, "restartCount": 0, "ready": True} for c in containers],
        },
    }


def _broken_node(cluster: Cluster, name: str = "gpu-node-3") -> dict:
    """A GPU node that advertises no GPU (its capacity lost nvidia.com/gpu)."""
    node = copy.deepcopy(cluster.lists[NODES][2][0])
    node["metadata"]["name"] = name
    node["metadata"]["labels"]["kubernetes.io/hostname"] = name
    for part in ("capacity", "allocatable"):
        node["status"][part].pop("nvidia.com/gpu")
    cluster.add(NODES, node)
    return node


def _crashloop_plugin(cluster: Cluster, node: str) -> dict:
    pod = _pod(
        PLUGIN,
        "kube-system",
        node,
        "nvidia-device-plugin-daemonset",
        "nvcr.io/nvidia/k8s-device-plugin:v0.17.0",
        ["nvidia-device-plugin-ctr"],
    )
    pod["metadata"]["labels"] = {"name": "nvidia-device-plugin-ds"}
    pod["status"]["containerStatuses"][0].update(
        restartCount=7,
        ready=False,
        state={"waiting": {"reason": "CrashLoopBackOff"}},
        lastState={"terminated": {"reason": "Error", "exitCode": 1}},
    )
    cluster.add(PODS, pod)
    return pod


def _doctor(srv: Server, tmp_path: Path, *args: str, program: bool = False):  # type: ignore[no-untyped-def]
    kc = str(kubeconfig(tmp_path / "kc", srv.url))
    run = run_program if program else run_cli
    r = run("doctor", "--kubeconfig", kc, *args)
    assert r.exit_code in (0, 1, 2), (r.exit_code, r.stderr)
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    return r


def _one_line_exit_2(r) -> str:  # type: ignore[no-untyped-def]
    assert r.exit_code == 2, (r.exit_code, r.stdout[-500:], r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gpupool: error: "), r.stderr
    assert r.stdout == ""
    return lines[0]


# ---- 1. init-container logs ---------------------------------------------------------------------------


def test_init_container_log_is_read_live_and_in_the_recipe(tmp_path: Path) -> None:
    """The GPU Operator's k8s-driver-manager is an init container; its log is GP640's evidence."""
    cluster = Cluster()
    pod = _pod(
        DRIVER,
        "gpu-operator",
        "gpu-node-1",
        "nvidia-driver-daemonset",
        "nvcr.io/nvidia/driver:550.127.05-ubuntu22.04",
        ["nvidia-driver-ctr"],
    )
    pod["spec"]["initContainers"] = [
        {"name": "k8s-driver-manager", "image": "nvcr.io/nvidia/cloud-native/k8s-driver-manager:v0.7.0"}
    ]
    pod["status"]["initContainerStatuses"] = [{"name": "k8s-driver-manager", "restartCount": 0}]
    cluster.add(PODS, pod)
    cluster.logs[("gpu-operator", DRIVER, "k8s-driver-manager", False)] = (
        "Could not unload NVIDIA driver kernel modules, driver is in use\n"
    )
    with Server(cluster) as srv:
        r = _doctor(srv, tmp_path, "-o", "json")
    gp640 = [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "GP640"]
    assert gp640 and any("k8s-driver-manager" in e for e in gp640[0]["evidence"])
    assert any("/pods/" + DRIVER + "/log" in p and "k8s-driver-manager" in p for _, p in cluster.requests)
    recipe = run_cli("doctor", "--print-commands").stdout
    assert "{.spec.initContainers[*].name} {.spec.containers[*].name}" in recipe


# ---- 2. refused connection, DNS failure, a server that dies ---------------------------------------------


def test_refused_connection_is_unreachable_not_a_timeout(tmp_path: Path) -> None:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    kc = str(kubeconfig(tmp_path / "kc", f"http://127.0.0.1:{port}"))
    t0 = time.monotonic()
    line = _one_line_exit_2(run_cli("doctor", "--kubeconfig", kc))
    assert "unreachable" in line and "connection refused" in line
    assert "no answer within" not in line and time.monotonic() - t0 < 10


def test_dns_failure_is_unreachable(tmp_path: Path) -> None:
    kc = str(kubeconfig(tmp_path / "kc", "https://no-such-cluster.invalid:443"))
    line = _one_line_exit_2(run_cli("doctor", "--kubeconfig", kc, "--timeout", "5"))
    assert "unreachable" in line and "no answer within" not in line


def test_server_dies_during_an_optional_read_is_exit_2_not_notes(tmp_path: Path) -> None:
    """Killed while sending events: every later read is refused; one line, not a diagnosis of nothing."""
    cluster = Cluster()
    cluster.faults[EVENTS] = Fault("die")
    with Server(cluster) as srv:
        r = _doctor(srv, tmp_path, program=True)
    line = _one_line_exit_2(r)
    assert "unreachable" in line and "GP600" not in r.stdout


# ---- 3. errors while reading a response body -----------------------------------------------------------


def _many_pods(cluster: Cluster, n: int = 600) -> None:
    """Enough pods for a second page (the reader asks for 500 at a time)."""
    base = cluster.lists[PODS][2][0]
    for i in range(n):
        p = copy.deepcopy(base)
        p["metadata"]["name"] = f"filler-{i:05d}"
        cluster.add(PODS, p)


@pytest.mark.parametrize("kind", ["die", "reset"])
def test_killed_or_reset_mid_page_is_exit_2(tmp_path: Path, kind: str) -> None:
    cluster = Cluster()
    _many_pods(cluster)
    cluster.faults[PODS] = Fault(kind, only_continue=True)  # the second page, mid-body
    with Server(cluster) as srv:
        line = _one_line_exit_2(_doctor(srv, tmp_path, program=True))
    assert "unreachable" in line and "the connection broke while reading pods" in line
    assert sum(PODS + "?" in p for _, p in cluster.requests) == 2


def test_reset_mid_body_of_the_first_page(tmp_path: Path) -> None:
    cluster = Cluster()
    cluster.faults[PODS] = Fault("reset")
    with Server(cluster) as srv:
        line = _one_line_exit_2(_doctor(srv, tmp_path, program=True))
    assert "the connection broke while reading pods" in line


@pytest.mark.parametrize("path", [PODS, EVENTS])
def test_stall_mid_body_is_exit_2(tmp_path: Path, path: str) -> None:
    cluster = Cluster()
    cluster.faults[path] = Fault("stall", seconds=3.0)
    with Server(cluster) as srv:
        t0 = time.monotonic()
        line = _one_line_exit_2(_doctor(srv, tmp_path, "--timeout", "0.5"))
        assert time.monotonic() - t0 < 3.0
    assert "stalled for 0.5 s while reading" in line


# ---- 4. no conclusions from what could not be read ------------------------------------------------------


def test_daemonsets_forbidden_does_not_claim_no_device_plugin(tmp_path: Path) -> None:
    cluster = Cluster()
    _broken_node(cluster)
    _crashloop_plugin(cluster, "gpu-node-3")
    cluster.faults[DS] = Fault("status", 403)
    with Server(cluster) as srv:
        r = _doctor(srv, tmp_path, "-o", "json")
        text = _doctor(srv, tmp_path)
    doc = json.loads(r.stdout)
    by_rule = {f["rule"]: f for f in doc["findings"]}
    assert by_rule["GP601"]["severity"] == "info"
    assert by_rule["GP601"]["message"].startswith("cannot tell: could not read daemonsets")
    assert "daemonsets" in by_rule["GP601"]["fix"]
    assert by_rule["GP604"]["severity"] == "error"  # the readable pods show the crash loop
    assert not any(
        f["severity"] == "error" and f["rule"] in ("GP601", "GP602", "GP603") for f in doc["findings"]
    )
    assert "daemonsets" in doc["summary"]["notRead"]
    assert "not read: daemonsets (could not read daemonsets: forbidden" in text.stdout


def test_collect_keeps_what_was_not_read(tmp_path: Path) -> None:
    cluster = Cluster()
    _broken_node(cluster)
    cluster.faults[DS] = Fault("status", 403)
    out = tmp_path / "snap"
    with Server(cluster) as srv:
        live = _doctor(srv, tmp_path, "--collect", str(out), "-o", "json")
    again = run_cli("doctor", "--snapshot", str(out), "-o", "json")
    a, b = json.loads(live.stdout), json.loads(again.stdout)
    assert [(f["rule"], f["message"]) for f in a["findings"]] == [
        (f["rule"], f["message"]) for f in b["findings"]
    ]
    assert b["summary"]["notRead"] == a["summary"]["notRead"]
    assert not any(f["rule"] == "GP601" and f["severity"] == "error" for f in b["findings"])


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [(NODES, 403, "forbidden"), (PODS, 403, "forbidden"), (NODES, 500, "HTTP 500"), (PODS, 404, "not found")],
)
def test_nodes_or_pods_unreadable_is_exit_2(tmp_path: Path, path: str, status: int, words: str) -> None:
    cluster = Cluster()
    cluster.faults[path] = Fault("status", status)
    with Server(cluster) as srv:
        line = _one_line_exit_2(_doctor(srv, tmp_path))
    what = "nodes" if path == NODES else "pods"
    assert f"cannot read {what}: {words}" in line


# ---- 7. GP600's fix follows the cause; 410 restarts; --collect output ----------------------------------


def test_gp600_fix_depends_on_the_cause(tmp_path: Path) -> None:
    cluster = Cluster()  # no ClusterPolicy CRD: 404
    cluster.faults[EVENTS] = Fault("status", 500)
    with Server(cluster) as srv:
        doc = json.loads(_doctor(srv, tmp_path, "-o", "json").stdout)
    gp600 = {f["message"].split(":")[0]: f["fix"] for f in doc["findings"] if f["rule"] == "GP600"}
    assert "GPU Operator is not installed" in gp600["could not read clusterpolicies.nvidia.com"]
    assert "grant read access" not in gp600["could not read clusterpolicies.nvidia.com"]
    assert "API server failed the request" in gp600["could not read events"]
    assert "clusterpolicies.nvidia.com" not in doc["summary"]["notRead"]  # no CRD is an answer
    gp632 = next(f for f in doc["findings"] if f["rule"] == "GP632")
    assert gp632["severity"] == "info" and gp632["message"].startswith("cannot tell: could not read events")


def test_expired_continue_token_restarts_the_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gpupool.cluster.live import LiveReader

    cluster = Cluster()
    cluster.faults[PODS] = Fault("status", 410, times=1, only_continue=True)
    with Server(cluster) as srv:
        snap = LiveReader(kubeconfig=str(kubeconfig(tmp_path / "kc", srv.url)), page_size=5).read()
    assert len(snap.pods) == len(cluster.lists[PODS][2]) and not any("pods" in n for n in snap.notes)
    firsts = [p for _, p in cluster.requests if p.startswith(PODS + "?") and "continue=" not in p]
    assert len(firsts) == 2  # the expired token made it read the list again from the start


def test_collect_drops_managed_fields_and_writes_compact_json(tmp_path: Path) -> None:
    cluster = Cluster()
    for p in cluster.lists[PODS][2]:
        p["metadata"]["managedFields"] = [
            {"manager": "kubelet", "operation": "Update", "fieldsV1": {"f:x": {}}}
        ]
    out = tmp_path / "snap"
    with Server(cluster) as srv:
        _doctor(srv, tmp_path, "--collect", str(out))
    text = (out / "pods.json").read_text()
    assert "managedFields" not in text and "\n " not in text
    assert len(json.loads(text)["items"]) == len(cluster.lists[PODS][2])


def test_connect_timeout_is_the_timeout(tmp_path: Path) -> None:
    from gpupool.cluster.live import LiveReader

    seen = {}
    reader = LiveReader(kubeconfig=str(kubeconfig(tmp_path / "kc", "http://127.0.0.1:1")), timeout=42.0)
    reader._call("x", lambda **kw: seen.update(kw))
    assert seen["_request_timeout"] == (42.0, 42.0)


# ---- 6. logs: NotReady nodes, budgets, none for simulate ----------------------------------------------


def _stack_pods(cluster: Cluster, n: int) -> list[str]:
    names = []
    for i in range(n):
        name = f"nvidia-dcgm-exporter-{i:05d}"
        cluster.add(
            PODS,
            _pod(
                name,
                "gpu-operator",
                "gpu-node-1",
                "nvidia-dcgm-exporter",
                "nvcr.io/nvidia/k8s/dcgm-exporter:4.1",
                ["nvidia-dcgm-exporter"],
            ),
        )
        names.append(name)
    return names


def test_logs_skip_notready_nodes_and_keep_to_the_budget(tmp_path: Path) -> None:
    cluster = Cluster()
    node = _broken_node(cluster)
    for c in node["status"]["conditions"]:
        if c["type"] == "Ready":
            c["status"] = "Unknown"
    _crashloop_plugin(cluster, "gpu-node-3")
    _stack_pods(cluster, 12)
    cluster.slow["/api/v1/namespaces/gpu-operator/pods/"] = 10  # an unreachable kubelet: no answer
    with Server(cluster) as srv:
        t0 = time.monotonic()
        r = _doctor(srv, tmp_path, "-o", "json", "--log-budget", "2")
        took = time.monotonic() - t0
    notes = [f["message"] for f in json.loads(r.stdout)["findings"] if f["rule"] == "GP600"]
    assert not any(f"/pods/{PLUGIN}/log" in p for _, p in cluster.requests)  # NotReady: skipped
    assert any("skipped 1 GPU stack pod on nodes that are not Ready" in n for n in notes)
    # one log read timed out (5 s cap, but the budget leaves 2 s): the node's other pods are not tried
    log_calls = [p for _, p in cluster.requests if "/log?" in p]
    assert len(log_calls) == 1 and took < 6
    assert any("no answer within" in n for n in notes)


def test_overall_log_budget(tmp_path: Path) -> None:
    cluster = Cluster()
    names = _stack_pods(cluster, 20)
    for i, name in enumerate(names):
        cluster.logs[("gpu-operator", name, "nvidia-dcgm-exporter", False)] = "ok\n"
        node = copy.deepcopy(cluster.lists[NODES][2][0])
        node["metadata"]["name"] = f"n{i}"
        cluster.add(NODES, node)
        cluster.lists[PODS][2][-20 + i]["spec"]["nodeName"] = f"n{i}"
    cluster.slow["/api/v1/namespaces/gpu-operator/pods/"] = 0.3
    with Server(cluster) as srv:
        t0 = time.monotonic()
        r = _doctor(srv, tmp_path, "-o", "json", "--log-budget", "1")
        took = time.monotonic() - t0
    notes = [f["message"] for f in json.loads(r.stdout)["findings"] if f["rule"] == "GP600"]
    assert any(n.startswith("logs: stopped at the 1 s log budget after") for n in notes)
    assert took < 5
    assert run_cli("doctor", "--log-budget", "-1").exit_code == 2


def test_log_budget_zero_and_simulate_live_read_no_logs(tmp_path: Path) -> None:
    cluster = Cluster()
    _crashloop_plugin(cluster, "gpu-node-1")
    for node in cluster.lists[NODES][2]:  # AKS labels, so simulate can model the pool
        labels = node["metadata"].setdefault("labels", {})
        labels["kubernetes.azure.com/agentpool"] = "gpunp"
        labels["node.kubernetes.io/instance-type"] = "Standard_NC4as_T4_v3"
    wl = tmp_path / "w.yaml"
    wl.write_text(
        "apiVersion: batch/v1\nkind: Job\nmetadata: {name: t, namespace: ml}\nspec:\n  template:\n    spec:\n"
        "      restartPolicy: Never\n      containers:\n      - name: c\n        image: x\n"
        "        resources: {limits: {nvidia.com/gpu: 1}}\n"
    )
    with Server(cluster) as srv:
        kc = str(kubeconfig(tmp_path / "kc", srv.url))
        _doctor(srv, tmp_path, "--log-budget", "0")
        r = run_cli("simulate", "--live", "--kubeconfig", kc, str(wl), "-o", "json")
    assert r.exit_code in (0, 1), r.stderr
    assert not any("/log" in p for _, p in cluster.requests)
    notes = json.loads(r.stdout)["start"]["notes"]
    pending = next(n for n in notes if "Pending" in n)
    assert "Pending in the cluster (" in pending and "in the snapshot" not in pending
    assert "gpupool doctor explains" in pending
    assert "; the scheduler said of ml/train-1: 0/2 nodes are available" in pending


# ---- 8. a specific rule's fix wins over GP610's generic advice -----------------------------------------


def test_gp610_defers_to_gp620() -> None:
    snap = DATA.parent / "doctor" / "snapshots" / "mig-single-mismatch"
    r = run_cli("doctor", "--snapshot", str(snap), "-o", "json")
    gp610 = next(f for f in json.loads(r.stdout)["findings"] if f["rule"] == "GP610")
    assert gp610["fix"].startswith("request nvidia.com/gpu instead of nvidia.com/mig-1g.10gb (see GP620")
    assert "scale the pool" not in gp610["fix"]


def test_every_rule_declares_what_it_reads() -> None:
    from gpupool.cluster.snapshot import READABLE_KINDS
    from gpupool.doctor.engine import SETTLE, rule_modules

    for mod in rule_modules():
        assert isinstance(mod.READS, tuple), mod.ID
        assert set(mod.READS) <= set(READABLE_KINDS), mod.ID
        assert mod.ID == "GP600" or "nodes" in mod.READS, mod.ID
    assert set(SETTLE) >= set(READABLE_KINDS)


def test_failed_log_reads_make_one_note_and_no_conclusion(tmp_path: Path) -> None:
    """A kubelet proxy answering 500 for every log: one GP600 note, and the rules that need logs say
    "cannot tell" instead of concluding from their absence."""
    cluster = Cluster()
    for i, name in enumerate(_stack_pods(cluster, 8)):
        cluster.logs[("gpu-operator", name, "nvidia-dcgm-exporter", False)] = f"line {i}\n"
    _crashloop_plugin(cluster, "gpu-node-1")
    cluster.faults["/api/v1/namespaces/"] = Fault("status", 500)  # configmaps and logs
    with Server(cluster) as srv:
        doc = json.loads(_doctor(srv, tmp_path, "-o", "json").stdout)
    notes = [f for f in doc["findings"] if f["rule"] == "GP600" and "logs" in f["message"]]
    assert len(notes) == 1 and notes[0]["message"].startswith(
        "could not read the logs of 10 containers (first kube-system/nvidia-device-plugin-daemonset-2xq8k"
    )
    assert "HTTP 500" in notes[0]["message"] and "control plane" in notes[0]["fix"]
    assert doc["summary"]["notRead"].keys() >= {"logs", "configmaps"}
    for rule in ("GP605", "GP640"):
        f = next(f for f in doc["findings"] if f["rule"] == rule)
        assert f["severity"] == "info" and f["message"].startswith("cannot tell: could not read logs")
