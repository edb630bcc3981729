"""Hostile snapshots through the real program: exit 2 with one line naming the file, or an info finding;
never a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from support import run_cli, run_program

HEALTHY = Path(__file__).resolve().parent / "snapshots" / "healthy-self-managed"


@pytest.fixture
def snap(tmp_path: Path) -> Path:
    d = tmp_path / "snap"
    shutil.copytree(HEALTHY, d)
    return d


def _one_line_exit_2(r, file: str) -> None:  # type: ignore[no-untyped-def]
    assert r.exit_code == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gpupool: error: ") and file in lines[0]
    assert "Traceback" not in r.stderr


def test_truncated_json(snap: Path) -> None:
    text = (snap / "pods.json").read_text()
    (snap / "pods.json").write_text(text[: len(text) // 2])
    r = run_program("doctor", "--snapshot", str(snap))
    _one_line_exit_2(r, "pods.json")
    assert "truncated JSON" in r.stderr


def test_huge_file(snap: Path) -> None:
    with open(snap / "events.json", "r+b") as fh:
        fh.truncate(2**30)  # 1 GiB, sparse
    r = run_program("doctor", "--snapshot", str(snap))
    _one_line_exit_2(r, "events.json")
    assert "over the" in r.stderr


def test_wrong_kind(snap: Path) -> None:
    shutil.copy(snap / "nodes.json", snap / "daemonsets.json")
    r = run_cli("doctor", "--snapshot", str(snap))
    _one_line_exit_2(r, "daemonsets.json")
    assert "is a Node, expected DaemonSet" in r.stderr


def test_missing_required(snap: Path) -> None:
    (snap / "nodes.json").unlink()
    r = run_cli("doctor", "--snapshot", str(snap))
    _one_line_exit_2(r, "nodes.json")
    assert "kubectl get nodes -o json" in r.stderr


def test_missing_directory(tmp_path: Path) -> None:
    r = run_cli("doctor", "--snapshot", str(tmp_path / "nope"))
    _one_line_exit_2(r, "nope")


def test_non_utf8_and_odd_logs_are_read(snap: Path) -> None:
    logs = snap / "logs"
    name = next(p for p in logs.iterdir() if "aks-gpunp" not in p.name)
    name.write_bytes(b"\xff\xfe\x00 garbage \x1b[31m red \x1b[0m\n" * 100)
    (logs / "not-a-log-name.txt").write_text("x")
    (logs / "dir_x_y.log").mkdir()
    r = run_cli("doctor", "--snapshot", str(snap), "-o", "json")
    assert r.exit_code == 0, r.stderr
    rules = [f["rule"] for f in json.loads(r.stdout)["findings"]]
    assert rules == ["GP600", "GP600"]


def test_terminal_escapes_in_logs_are_not_printed(snap: Path) -> None:
    d = Path(snap)
    shutil.rmtree(d)
    shutil.copytree(HEALTHY.parent / "driver-missing", d)
    log = next((d / "logs").glob("*n0d7w*"))
    log.write_text(
        log.read_text().replace(
            "Incompatible strategy detected auto", "Incompatible strategy detected auto \x1b]0;pwned\x07"
        )
    )
    r = run_cli("doctor", "--snapshot", str(d))
    assert (
        r.exit_code == 1
        and "\x1b" not in r.stdout
        and "Incompatible strategy detected auto ?]0;pwned?" in r.stdout
    )


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "List", "items": [{"kind": "Pod", "metadata": "x", "spec": [], "status": 3}]},
        {
            "kind": "List",
            "items": [
                {"kind": "Pod", "spec": {"containers": [{"resources": {"limits": {"nvidia.com/gpu": "x"}}}]}}
            ],
        },
        {
            "kind": "List",
            "items": [
                {
                    "kind": "Pod",
                    "metadata": {"name": 1, "labels": []},
                    "status": {"phase": "Pending", "conditions": [3]},
                }
            ],
        },
    ],
)
def test_odd_shapes_inside_valid_lists(snap: Path, body: dict) -> None:
    (snap / "pods.json").write_text(json.dumps(body))
    r = run_program("doctor", "--snapshot", str(snap), "-o", "json")
    assert r.exit_code in (0, 1, 2) and "Traceback" not in r.stderr, r.stderr


def test_odd_node_shapes(snap: Path) -> None:
    doc = json.loads((snap / "nodes.json").read_text())
    doc["items"][0]["status"] = {"capacity": {"nvidia.com/gpu": "lots"}, "conditions": "x"}
    doc["items"][1]["spec"] = {"taints": [{"key": 3}, "x"]}
    doc["items"][2]["metadata"]["labels"] = None
    (snap / "nodes.json").write_text(json.dumps(doc))
    r = run_program("doctor", "--snapshot", str(snap), "-o", "json")
    _one_line_exit_2(r, "nodes.json")
    assert "item 0 of the NodeList: status.conditions is str, expected a list" in r.stderr


def test_mutated_fixtures_never_crash() -> None:
    """Every field of every fixture object, set to values of the wrong type: InputError or a result."""
    import copy
    import random
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import build_snapshots as b

    from gpupool.cluster.snapshot import Snapshot, _nodepools, list_items
    from gpupool.doctor import diagnose
    from gpupool.errors import InputError

    rnd = random.Random(7)
    values = [None, 3, "x", [], {}, [3], {"a": 1}, True, -1, 1.5, "1Gi", [{"x": None}]]
    kinds = {
        "nodes": "Node",
        "pods": "Pod",
        "daemonsets": "DaemonSet",
        "events": "Event",
        "configmaps": "ConfigMap",
    }

    def paths(o: object, pre: tuple = ()) -> list[tuple]:
        out: list[tuple] = []
        items = o.items() if isinstance(o, dict) else enumerate(o) if isinstance(o, list) else []
        for k, v in items:
            out.append((*pre, k))
            out += paths(v, (*pre, k))
        return out

    for build in b.CASES.values():
        case = build()
        for _ in range(15):
            c = copy.deepcopy(case)
            key = rnd.choice([*kinds, "nodepools"])
            if not c.get(key):
                continue
            obj = rnd.choice(c[key])
            p = rnd.choice(paths(obj))
            target = obj
            for k in p[:-1]:
                target = target[k]
            target[p[-1]] = rnd.choice(values)
            try:
                lists = {
                    k: None if c.get(k) is None else list_items({"kind": "List", "items": c[k]}, k, kind, "")
                    for k, kind in kinds.items()
                }
                pools = _nodepools(c["nodepools"], "nodepools.json", "") if c.get("nodepools") else None
                diagnose(
                    Snapshot(
                        "x",
                        lists["nodes"] or [],
                        lists["pods"] or [],
                        lists["daemonsets"] or [],
                        lists["events"] or [],
                        lists["configmaps"],
                        None,
                        pools,
                    )
                )
            except InputError:
                pass
