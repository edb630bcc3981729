"""gpupool preflight against recorded az JSON (tests/preflight/data; shapes from azure-cli 2.91.0 and the
Azure SDK's models, checked in test_shapes.py).

eastus/ is one subscription's view of eastus: Standard_NC8as_T4_v3 restricted in zone 3,
Standard_NC40ads_H100_v5
NotAvailableForSubscription, no Standard_ND96isr_H200_v5; quota standardNCASv3_T4Family 8/24, cores 40/350,
lowPriorityCores 0/100; Kubernetes 1.33 (LTS only), 1.34, 1.35, 1.36, 1.37 (preview); cluster on 1.35.2 with
Azure CNI Overlay; azure-cli 2.91.0 with aks-preview 19.0.0b29.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from gpupool.preflight import inputs as pin
from gpupool.preflight.engine import preflight_rules, run, surge_nodes
from gpupool.spec import load_many
from support import run_cli, run_program

DATA = Path(__file__).parent / "data"
EASTUS = DATA / "eastus"


def spec(tmp_path: Path, name: str = "gpunp", **fields) -> Path:
    body = {
        "resourceGroup": "myResourceGroup",
        "clusterName": "myAKSCluster",
        "location": "eastus",
        "vmSize": "Standard_NC4as_T4_v3",
        "nodeTaints": ["sku=gpu:NoSchedule"],
        "nodeCount": 1,
    }
    body.update(fields)
    doc = {"apiVersion": "gpupool/v1", "kind": "GpuNodePool", "metadata": {"name": name}, "spec": body}
    f = tmp_path / f"{name}.yaml"
    f.write_text(yaml.safe_dump(doc, sort_keys=False))
    return f


def preflight(*args: str) -> tuple[int, dict]:
    r = run_cli("preflight", *args, "-o", "json")
    assert r.exit_code in (0, 1), r.stderr
    return r.exit_code, json.loads(r.stdout)


def rules_of(d: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for f in d["findings"]:
        out.setdefault(f["rule"], []).append(f)
    return out


def test_clean_pool_passes(tmp_path) -> None:
    code, d = preflight(str(spec(tmp_path, zones=[1, 2], kubernetesVersion="1.35")), "--from", str(EASTUS))
    assert code == 0, d["findings"]
    assert {f["severity"] for f in d["findings"]} <= {"info"}
    assert d["skipped"] == [] and d["source"] == "files" and d["version"] == 1


def test_size_not_in_region(tmp_path) -> None:
    code, d = preflight(str(spec(tmp_path, vmSize="Standard_ND96isr_H200_v5")), "--from", str(EASTUS))
    assert code == 1 and rules_of(d)["GP701"][0]["region"] == "eastus"


def test_not_available_for_subscription(tmp_path) -> None:
    code, d = preflight(str(spec(tmp_path, vmSize="Standard_NC40ads_H100_v5")), "--from", str(EASTUS))
    f = rules_of(d)["GP702"][0]
    assert code == 1 and f["reason"] == "NotAvailableForSubscription" and "GP701" not in rules_of(d)
    # its family quota is 0/0 too: reported as such
    assert rules_of(d)["GP704"][0]["short"] == 80


def test_zone_restricted_and_zone_not_offered(tmp_path) -> None:
    _, d = preflight(
        str(spec(tmp_path, vmSize="Standard_NC8as_T4_v3", zones=[1, 2, 3])), "--from", str(EASTUS)
    )
    z = rules_of(d)["GP703"]
    assert [(f["zone"], f["usableZones"]) for f in z] == [("3", ["1", "2"])]
    assert "restricted for this subscription" in z[0]["message"]
    _, d = preflight(str(spec(tmp_path, vmSize="Standard_NC24ads_A100_v4", zones=[3])), "--from", str(EASTUS))
    assert "does not offer it" in rules_of(d)["GP703"][0]["message"]


def test_family_quota_short_by_n_vcpus(tmp_path) -> None:
    # 4 nodes + ceil(10%) = 1 surge node, x 8 vCPUs = 40; 24 - 8 = 16 free -> short by 24
    f = spec(tmp_path, vmSize="Standard_NC8as_T4_v3", autoscaler={"minCount": 0, "maxCount": 4})
    code, d = preflight(str(f), "--from", str(EASTUS))
    q = rules_of(d)["GP704"][0]
    assert code == 1 and (q["need"], q["free"], q["short"]) == (40, 16, 24)
    assert "short by 24 vCPUs" in q["message"]
    row = next(x for x in d["quota"] if x["counter"] == "standardNCASv3_T4Family")
    assert (row["need"], row["used"], row["limit"]) == (40, 8, 24)
    # 2 nodes + 1 surge = 24 vCPUs: fits in 16? no; 1 node + 1 surge = 16: fits exactly
    _, d = preflight(str(spec(tmp_path, vmSize="Standard_NC8as_T4_v3", nodeCount=1)), "--from", str(EASTUS))
    assert "GP704" not in rules_of(d)


def test_quota_is_summed_over_pools_of_a_family(tmp_path) -> None:
    a = spec(tmp_path, "gpua", vmSize="Standard_NC8as_T4_v3", nodeCount=1)  # 16
    b = spec(tmp_path, "gpub", vmSize="Standard_NC4as_T4_v3", nodeCount=1)  # 8 -> 24 > 16
    _, d = preflight(str(a), str(b), "--from", str(EASTUS))
    q = rules_of(d)["GP704"]
    assert len(q) == 1 and q[0]["need"] == 24 and q[0]["short"] == 8 and q[0]["object"] == "GpuNodePool gpua"


def test_regional_quota(tmp_path, monkeypatch) -> None:
    usage = json.loads((EASTUS / "usage.json").read_text())
    for u in usage:
        if u["name"]["value"] == "cores":
            u["currentValue"] = "340"
    f = tmp_path / "usage.json"
    f.write_text(json.dumps(usage))
    _, d = preflight(str(spec(tmp_path, nodeCount=2)), "--from", str(EASTUS), "--usage", str(f))
    assert rules_of(d)["GP705"][0]["short"] == 2  # (2 + 1) x 4 = 12 > 10 free


def test_spot_quota(tmp_path) -> None:
    f = spec(
        tmp_path,
        vmSize="Standard_NC24ads_A100_v4",
        priority="Spot",
        autoscaler={"minCount": 0, "maxCount": 4},
    )
    code, d = preflight(str(f), "--from", str(EASTUS))
    r = rules_of(d)
    assert code == 1 and r["GP706"][0]["need"] == 120 and r["GP706"][0]["short"] == 20
    assert "GP704" not in r and "GP705" not in r  # Spot counts against low-priority quota only


def test_version_not_offered_preview_and_lts_only(tmp_path) -> None:
    code, d = preflight(str(spec(tmp_path, kubernetesVersion="1.32")), "--from", str(EASTUS))
    f = rules_of(d)["GP707"][0]
    assert code == 1 and f["severity"] == "error" and f["offered"] == ["1.33", "1.34", "1.35", "1.36", "1.37"]
    _, d = preflight(str(spec(tmp_path, kubernetesVersion="1.35.9")), "--from", str(EASTUS))
    assert "patch 1.35.9" in rules_of(d)["GP707"][0]["message"]
    _, d = preflight(str(spec(tmp_path, kubernetesVersion="1.37")), "--from", str(EASTUS))
    assert rules_of(d)["GP707"][0]["severity"] == "warning"
    _, d = preflight(str(spec(tmp_path, kubernetesVersion="1.33")), "--from", str(EASTUS))
    assert rules_of(d)["GP707"][0]["supportPlans"] == ["AKSLongTermSupport"]


def test_cluster_version_is_checked_when_the_spec_has_none(tmp_path) -> None:
    cluster = json.loads((EASTUS / "cluster.json").read_text())
    cluster["currentKubernetesVersion"], cluster["kubernetesVersion"] = "1.32.9", "1.32"
    f = tmp_path / "cluster.json"
    f.write_text(json.dumps(cluster))
    _, d = preflight(
        str(spec(tmp_path, osSku="AzureContainerLinux")), "--from", str(EASTUS), "--cluster", str(f)
    )
    r = rules_of(d)
    assert r["GP708"][0]["clusterVersion"] == "1.32.9"
    assert "the cluster's version" in r["GP707"][0]["message"] and r["GP707"][0]["severity"] == "error"


def test_network_max_pods(tmp_path) -> None:
    _, d = preflight(str(spec(tmp_path)), "--from", str(EASTUS))
    assert rules_of(d)["GP709"][0]["maxPods"] == 250
    cluster = json.loads((EASTUS / "cluster.json").read_text())
    cluster["networkProfile"]["networkPluginMode"] = None  # Azure CNI node subnet (legacy)
    f = tmp_path / "cluster.json"
    f.write_text(json.dumps(cluster))
    _, d = preflight(str(spec(tmp_path)), "--from", str(EASTUS), "--cluster", str(f))
    g = rules_of(d)["GP709"][0]
    assert (g["maxPods"], g["severity"], g["network"]) == (30, "warning", "nodeSubnet")


def test_cli_too_old_for_gpu_driver(tmp_path) -> None:
    f = spec(tmp_path, gpu={"driver": "None"})
    code, d = preflight(
        str(f), "--from", str(EASTUS), "--az-version", str(DATA / "old-cli" / "az-version.json")
    )
    g = rules_of(d)["GP710"]
    assert code == 1 and [(x["flag"], x["need"], x["have"]) for x in g] == [
        ("--gpu-driver", "2.72.2", "2.70.0")
    ]
    _, d = preflight(str(f), "--from", str(EASTUS))
    assert "GP710" not in rules_of(d)


def test_aks_preview_missing_for_managed(tmp_path) -> None:
    f = spec(tmp_path, vmSize="Standard_NC24ads_A100_v4", gpu={"managed": True})
    code, d = preflight(
        str(f), "--from", str(EASTUS), "--az-version", str(DATA / "no-preview" / "az-version.json")
    )
    g = rules_of(d)["GP711"]
    assert code == 1 and g[0]["flag"] == "--enable-managed-gpu" and g[0]["have"] is None
    _, d = preflight(str(f), "--from", str(EASTUS))  # aks-preview 19.0.0b29
    assert "GP711" not in rules_of(d)


def test_every_preflight_rule_is_exercised() -> None:
    text = Path(__file__).read_text()
    for r in preflight_rules():
        assert f'"{r.id}"' in text, r.id


def test_missing_inputs_skip_checks_and_say_so(tmp_path) -> None:
    code, d = preflight(
        str(spec(tmp_path, vmSize="Standard_ND96isr_H200_v5")), "--skus", str(EASTUS / "skus.json")
    )
    assert code == 1 and any("quota" in s for s in d["skipped"]) and len(d["skipped"]) == 4


def test_text_output_and_exit_codes(tmp_path) -> None:
    r = run_cli("preflight", str(spec(tmp_path, kubernetesVersion="1.33")), "--from", str(EASTUS))
    assert r.exit_code == 0 and "warning GP707" in r.stdout
    r = run_cli(
        "preflight",
        str(spec(tmp_path, kubernetesVersion="1.33")),
        "--from",
        str(EASTUS),
        "--fail-on",
        "warning",
    )
    assert r.exit_code == 1
    r = run_cli(
        "preflight", str(spec(tmp_path, kubernetesVersion="1.33")), "--from", str(EASTUS), "--ignore", "GP707"
    )
    assert "GP707" not in r.stdout and "1 ignored" in r.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ((), "no inputs"),
        (("--from", "/no/such/dir"), "not a directory"),
        (("--skus", "/no/such/file.json"), "no such file"),
    ],
)
def test_bad_input_exits_2(tmp_path, args, needle) -> None:
    r = run_cli("preflight", str(spec(tmp_path)), *args)
    assert r.exit_code == 2 and needle in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize(
    ("name", "text", "needle"),
    [
        ("skus.json", "{not json", "not JSON"),
        ("skus.json", '{"a": 1}', "list of resource SKUs"),
        ("usage.json", '[{"name": {"value": "cores"}, "currentValue": "x", "limit": "1"}]', "not a number"),
        ("versions.json", "[]", '"values"'),
        ("az-version.json", "{}", "azure-cli"),
        ("cluster.json", "[]", "managed cluster"),
    ],
)
def test_malformed_files_are_one_line_errors(tmp_path, name, text, needle) -> None:
    d = tmp_path / "in"
    d.mkdir()
    (d / name).write_text(text)
    r = run_cli("preflight", str(spec(tmp_path)), "--from", str(d))
    assert r.exit_code == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("name", "rows", "needle", "line"),
    [
        (  # az prints 2-space indented JSON: the wrong element's own line
            "usage.json",
            [{"name": {"value": "cores"}, "currentValue": 1, "limit": 10},
             {"name": {"value": "standardNCASv3_T4Family"}, "currentValue": 0, "limit": "lots"}],
            "item 1: limit 'lots' is not a number",
            14,
        ),
        (
            "usage.json",
            {"value": [{"name": {"value": "cores"}, "currentValue": 1, "limit": 10}, {"name": "cores"}]},
            "item 1: expected a usage with name.value",
            10,
        ),
        ("skus.json", [{"name": "Standard_D4s_v5"}, {"tier": "S"}], "item 1: expected a resource SKU", 5),
        ("versions.json", {"values": [{"version": "1.35"}, {"isPreview": True}]}, "values[1]", 6),
    ],
)
def test_errors_inside_az_json_carry_the_line(tmp_path, name, rows, needle, line) -> None:
    d = tmp_path / "in"
    d.mkdir()
    (d / name).write_text(json.dumps(rows, indent=2))
    r = run_cli("preflight", str(spec(tmp_path)), "--from", str(d))
    assert r.exit_code == 2 and needle in r.stderr, r.stderr
    assert f"{d / name}:{line}: " in r.stderr


def test_print_commands_quotes_values(tmp_path) -> None:
    f = spec(tmp_path, resourceGroup="rg(prod)")
    r = run_cli("preflight", str(f), "--print-commands", "--from", str(tmp_path / "my out"))
    assert r.exit_code == 0
    assert "az aks show -g 'rg(prod)' -n myAKSCluster -o json > '" in r.stdout  # quoted where needed
    assert "--resource-type virtualMachines --all -o json" in r.stdout and "my out/skus.json'" in r.stdout
    import shlex

    for line in r.stdout.splitlines():
        if line and not line.startswith("#"):
            shlex.split(line)  # every line is valid shell


def test_print_commands_without_a_region_asks_the_cluster(tmp_path) -> None:
    doc = yaml.safe_load(spec(tmp_path).read_text())
    del doc["spec"]["location"]
    f = tmp_path / "noloc.yaml"
    f.write_text(yaml.safe_dump(doc))
    r = run_cli("preflight", str(f), "--print-commands")
    assert '--query location -o tsv)"' in r.stdout and 'list-skus -l "$REGION"' in r.stdout


def test_engine_is_pure_and_sums_surge() -> None:
    assert [surge_nodes(n) for n in (1, 9, 10, 11, 100)] == [1, 1, 1, 2, 10]
    pools = load_many([str(p) for p in sorted((Path(__file__).parents[2] / "examples").glob("*.yaml"))][:1])
    inputs = pin.load_inputs(str(EASTUS))
    assert run(pools, inputs).findings == run(pools, inputs).findings


def test_as_a_real_program(tmp_path) -> None:
    r = run_program(
        "preflight", str(spec(tmp_path, vmSize="Standard_ND96isr_H200_v5")), "--from", str(EASTUS)
    )
    assert r.exit_code == 1 and "GP701" in r.stdout


@pytest.mark.parametrize(
    "name", ["skus.json", "usage.json", "versions.json", "cluster.json", "az-version.json"]
)
@pytest.mark.parametrize(
    "raw",
    [b"\x7fELF\x00\x00\x01\x02" * 64, "caf\xe9".encode("latin-1"), b"[" * 100000, b"null", b'"x"', b"[1, 2]"],
    ids=["binary", "latin1", "deep", "null", "string", "numbers"],
)
def test_hostile_az_files_exit_2_one_line(tmp_path, name, raw) -> None:
    d = tmp_path / "in"
    d.mkdir()
    (d / name).write_bytes(raw)
    r = run_cli("preflight", str(spec(tmp_path)), "--from", str(d))
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith("gpupool: error: ") and r.stderr.count("\n") == 1


def test_specs_in_another_region_than_the_files(tmp_path) -> None:
    f = str(spec(tmp_path, location="westeurope"))
    r = run_cli("preflight", f, "--skus", str(EASTUS / "skus.json"))
    assert r.exit_code == 2 and "lists sizes of eastus only" in r.stderr


def test_spec_region_other_than_its_clusters(tmp_path) -> None:
    """A node pool is created in its cluster's region: a spec naming another is bad input (exit 2, one line,
    the spec's line), whichever az files come with it."""
    f = spec(tmp_path, location="westeurope")
    for args in (["--from", str(EASTUS)], ["--cluster", str(EASTUS / "cluster.json")]):
        r = run_cli("preflight", str(f), *args)
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.stderr
        assert f"{f}:" in r.stderr and "names westeurope, but cluster myAKSCluster" in r.stderr
        assert "is in eastus" in r.stderr and "(write location: eastus," in r.stderr


def test_print_commands_refuses_several_regions(tmp_path) -> None:
    a = spec(tmp_path, "gpua")
    b = spec(tmp_path, "gpub", location="westeurope")
    r = run_cli("preflight", str(a), str(b), "--print-commands")
    assert r.exit_code == 2 and "several regions" in r.stderr


def test_print_commands_one_file_per_cluster(tmp_path) -> None:
    a = spec(tmp_path, "gpua")
    b = spec(tmp_path, "gpub", clusterName="other")
    r = run_cli("preflight", str(a), str(b), "--print-commands", "--from", "in")
    assert "> in/cluster-myAKSCluster.json\n" in r.stdout and "> in/cluster-other.json\n" in r.stdout


def test_family_from_the_catalog_not_in_usage_is_a_warning(tmp_path) -> None:
    # no list-skus: the family name is the catalog's (StandardNCADSA10v4Family is [UNVERIFIED])
    f = spec(tmp_path, vmSize="Standard_NC8ads_A10_v4")
    _, d = preflight(str(f), "--usage", str(EASTUS / "usage.json"))
    g = rules_of(d)["GP704"][0]
    assert g["severity"] == "warning" and "not in" in g["message"]


@pytest.mark.parametrize("rule", preflight_rules(), ids=lambda r: r.id)
def test_preflight_rule_docs(rule) -> None:
    import re

    doc = rule.doc
    assert doc.splitlines()[0].startswith(f"{rule.id} {rule.name}:")
    for section in ("What it checks", "Why:", "Fix:", "Source:", "Failing example", "Passing example"):
        assert section in doc, f"{rule.id} doc lacks {section!r}"
    source = doc[doc.index("Source:") : doc.index("Failing example")]
    assert re.search(r"\b20\d\d-\d\d-\d\d\b", source), f"{rule.id}: source needs an as-of date"
    assert rule.id.startswith("GP7")
    r = run_cli("explain", rule.id)
    assert r.exit_code == 0 and "Family: preflight (GP7xx)" in r.stdout


def test_version_skew_with_the_control_plane(tmp_path) -> None:
    code, d = preflight(
        str(spec(tmp_path, kubernetesVersion="1.36")), "--from", str(EASTUS)
    )  # cluster 1.35.2
    g = rules_of(d)["GP712"][0]
    assert code == 1 and g["clusterVersion"] == "1.35.2" and "newer than the control plane" in g["message"]
    _, d = preflight(str(spec(tmp_path, kubernetesVersion="1.35.9")), "--from", str(EASTUS))
    assert "GP712" in rules_of(d)  # patch newer than the control plane's
    _, d = preflight(str(spec(tmp_path, kubernetesVersion="1.34")), "--from", str(EASTUS))
    assert "GP712" not in rules_of(d)


def test_pool_exists_and_agent_pool_limit(tmp_path) -> None:
    _, d = preflight(str(spec(tmp_path, "nodepool1", vmSize="Standard_D4s_v5")), "--from", str(EASTUS))
    assert rules_of(d)["GP713"][0]["cluster"] == "myAKSCluster"
    cluster = json.loads((EASTUS / "cluster.json").read_text())
    cluster["maxAgentPools"] = 2  # one pool already: room for one more
    f = tmp_path / "cluster.json"
    f.write_text(json.dumps(cluster))
    a, b = spec(tmp_path, "gpua"), spec(tmp_path, "gpub")
    code, d = preflight(str(a), str(b), "--from", str(EASTUS), "--cluster", str(f))
    g = rules_of(d)["GP714"]
    assert code == 1 and [x["object"] for x in g] == ["GpuNodePool gpub"] and g[0]["maxAgentPools"] == 2


def test_quota_json_per_pool_shares_and_fix(tmp_path) -> None:
    """The quota table gives each pool's share as numbers; the fix names the new limit and the current one."""
    f = spec(tmp_path, vmSize="Standard_NC8as_T4_v3", autoscaler={"minCount": 0, "maxCount": 4})
    _, d = preflight(str(f), "--from", str(EASTUS))
    row = next(x for x in d["quota"] if x["counter"] == "standardNCASv3_T4Family")
    assert row["pools"] == [{"pool": "gpunp", "nodes": 4, "surge": 1, "vcpusPerNode": 8, "vcpus": 40}]
    q = rules_of(d)["GP704"][0]
    assert q["fix"] == (
        "raise the standardNCASv3_T4Family quota limit to 48 vCPUs (now 24; Azure portal: Quotas), "
        "or lower maxCount"
    )
    # a fixed-size pool of one node: "1 node", and the fix speaks of nodeCount
    h100 = spec(tmp_path, vmSize="Standard_NC40ads_H100_v5", nodeCount=1)
    _, d = preflight(str(h100), "--from", str(EASTUS))
    q = rules_of(d)["GP704"][0]
    assert "(1 node + 1 surge) x 40 vCPUs" in q["message"] and q["fix"].endswith("or lower nodeCount")


@pytest.mark.parametrize(
    ("version", "want"),
    [
        ("1.37", "use a GA version (1.34, 1.35, 1.36)"),  # preview: never suggested back
        ("1.33", "use a version under standard support (1.34, 1.35, 1.36), or enable LTS"),  # LTS only
    ],
)
def test_version_warning_fix_never_names_the_version_itself(tmp_path, version: str, want: str) -> None:
    _, d = preflight(str(spec(tmp_path, kubernetesVersion=version)), "--from", str(EASTUS))
    fix = rules_of(d)["GP707"][0]["fix"]
    assert fix.startswith(want) and version not in fix.split("(")[1].split(")")[0]


def test_print_commands_names_the_next_command(tmp_path) -> None:
    """The comment on top is the preflight command to run next, with the specs as given; a path with a
    control character (it would end the comment) is a one-line error, never an internal one."""
    f = spec(tmp_path)
    r = run_cli("preflight", str(f), "--print-commands", "--from", "az out")
    first = r.stdout.splitlines()[0]
    assert first.endswith(f"then: gpupool preflight {f} --from 'az out'"), first
    r = run_program("preflight", str(f), "--print-commands", "--from", "a\nb")
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1 and "control character" in r.stderr


def test_input_files_from_a_pipe_and_not_files(tmp_path) -> None:
    """--skus <(az vm list-skus ...) reads the pipe; a directory or an empty input is a one-line error."""
    import os

    fifo = tmp_path / "skus.fifo"
    os.mkfifo(fifo)
    import threading

    def feed() -> None:
        with open(fifo, "wb") as fh:
            fh.write((EASTUS / "skus.json").read_bytes())

    t = threading.Thread(target=feed)
    t.start()
    code, d = preflight(str(spec(tmp_path, zones=[3], vmSize="Standard_NC8as_T4_v3")), "--skus", str(fifo))
    t.join(10)
    assert code == 1 and "GP703" in rules_of(d)
    r = run_cli("preflight", str(spec(tmp_path)), "--skus", str(tmp_path))
    assert r.exit_code == 2 and "a directory, not a file" in r.stderr
    r = run_cli("preflight", str(spec(tmp_path)), "--usage", os.devnull)
    assert r.exit_code == 2 and "empty file" in r.stderr


def test_quota_reported_once_when_pool_names_repeat(tmp_path) -> None:
    """Two files with a pool of the same name (another branch's copy, say): the summed quota need is one
    finding, on the first pool (was one per pool of that name)."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    fa = spec(a, vmSize="Standard_NC8as_T4_v3", nodeCount=2)
    fb = spec(b, vmSize="Standard_NC4as_T4_v3", nodeCount=2)
    _, d = preflight(str(fa), str(fb), "--from", str(EASTUS))
    found = rules_of(d)["GP704"]
    assert len(found) == 1 and found[0]["path"] == str(fa) and found[0]["need"] == 24 + 12


def test_cluster_file_of_another_cluster_is_named(tmp_path) -> None:
    """A spec of a cluster no az aks show file covers: the skipped line says which cluster they are of."""
    _, d = preflight(str(spec(tmp_path, clusterName="otherCluster")), "--from", str(EASTUS))
    assert (
        "cluster version and network (no az aks show output for otherCluster; the az aks show output given "
        "is for myAKSCluster)"
    ) in d["skipped"]
