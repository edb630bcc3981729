"""``gpupool preflight --live`` against a local stub of the ARM endpoints (127.0.0.1, stdlib http.server).

The Azure SDK for Python runs unmodified: real clients, pipelines, request building and paging; the
stub answers with bodies made from the SDK's own response models (``ResourceSku``, ``Usage``,
``KubernetesVersionListResult``, ``ManagedCluster``) and a static token credential stands in for
DefaultAzureCredential. Nothing of the SDK is mocked.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
import yaml

compute = pytest.importorskip("azure.mgmt.compute.models")
aks = pytest.importorskip("azure.mgmt.containerservice.models")
pytest.importorskip("azure.identity")

from azure.core.credentials import AccessToken  # noqa: E402
from azure.core.exceptions import ClientAuthenticationError  # noqa: E402

from gpupool.errors import InputError  # noqa: E402
from gpupool.preflight import inputs as pin  # noqa: E402
from gpupool.preflight.engine import run  # noqa: E402
from gpupool.preflight.live import load_live  # noqa: E402
from gpupool.spec import load_many  # noqa: E402

EASTUS = Path(__file__).parent / "data" / "eastus"
SUB = "00000000-0000-0000-0000-000000000000"


class StaticToken:
    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.scopes: list[tuple[str, ...]] = []

    def get_token(self, *scopes, **kwargs):
        self.scopes.append(scopes)
        if self.fail:
            raise ClientAuthenticationError("AADSTS700016: application not found in the directory")
        return AccessToken("stub-token", int(time.time()) + 3600)


def _bodies() -> dict[str, dict]:
    skus = [compute.ResourceSku(x).as_dict() for x in json.loads((EASTUS / "skus.json").read_text())]
    usage = []
    for u in json.loads((EASTUS / "usage.json").read_text()):
        rest = {
            "currentValue": int(u["currentValue"]),
            "limit": int(u["limit"]),
            "name": u["name"],
            "unit": "Count",
        }
        usage.append(compute.Usage(rest).as_dict())
    versions = aks.KubernetesVersionListResult(json.loads((EASTUS / "versions.json").read_text())).as_dict()
    cluster = aks.ManagedCluster(
        {
            "id": f"/subscriptions/{SUB}/resourcegroups/myResourceGroup/providers/Microsoft.ContainerService/"
            "managedClusters/myAKSCluster",
            "name": "myAKSCluster",
            "location": "eastus",
            "type": "Microsoft.ContainerService/ManagedClusters",
            "sku": {"name": "Base", "tier": "Free"},
            "properties": {
                "kubernetesVersion": "1.35",
                "currentKubernetesVersion": "1.35.2",
                "networkProfile": {"networkPlugin": "azure", "networkPluginMode": "overlay"},
                "agentPoolProfiles": [
                    {"name": "nodepool1", "count": 3, "vmSize": "Standard_D4s_v5", "mode": "System"}
                ],
            },
        }
    ).as_dict()
    base = f"/subscriptions/{SUB}/providers"
    return {
        f"{base}/Microsoft.Compute/skus": {"value": skus},
        f"{base}/Microsoft.Compute/locations/eastus/usages": {"value": usage},
        f"{base}/Microsoft.ContainerService/locations/eastus/kubernetesVersions": versions,
        f"/subscriptions/{SUB}/resourceGroups/myResourceGroup/providers/Microsoft.ContainerService/"
        "managedClusters/myAKSCluster": cluster,
    }


class Stub:
    def __init__(self, status: dict[str, int] | None = None, delay: float = 0.0) -> None:
        self.bodies = _bodies()
        self.status = status or {}
        self.delay = delay
        self.requests: list[tuple[str, str, dict, str | None]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a) -> None:
                pass

            def _reply(self) -> None:
                u = urlparse(self.path)
                stub.requests.append(
                    (self.command, u.path, parse_qs(u.query), self.headers.get("Authorization"))
                )
                if stub.delay:
                    time.sleep(stub.delay)
                key = next((k for k in stub.bodies if k.lower() == u.path.lower()), None)
                code = next((c for k, c in stub.status.items() if k in u.path), 200 if key else 404)
                if code != 200 or self.command != "GET":
                    body = {
                        "error": {
                            "code": "AuthorizationFailed" if code == 403 else "NotFound",
                            "message": f"stub says {code}",
                        }
                    }
                    code = code if code != 200 else 405
                else:
                    body = stub.bodies[key]
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_PUT = do_POST = do_DELETE = do_PATCH = _reply

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def stub():
    s = Stub()
    yield s
    s.close()


def _pools(tmp_path: Path, **fields):
    body = {
        "resourceGroup": "myResourceGroup",
        "clusterName": "myAKSCluster",
        "location": "eastus",
        "vmSize": "Standard_NC8as_T4_v3",
        "nodeTaints": ["sku=gpu:NoSchedule"],
        "zones": [1, 2, 3],
        "autoscaler": {"minCount": 0, "maxCount": 4},
    }
    body.update(fields)
    f = tmp_path / "p.yaml"
    f.write_text(
        yaml.safe_dump(
            {"apiVersion": "gpupool/v1", "kind": "GpuNodePool", "metadata": {"name": "gpunp"}, "spec": body}
        )
    )
    return load_many([str(f)])


def test_live_reads_the_same_facts_as_the_az_files(tmp_path, stub) -> None:
    pools = _pools(tmp_path)
    cred = StaticToken()
    live = load_live(pools, subscription=SUB, credential=cred, base_url=stub.url, timeout=5)
    files = pin.load_inputs(str(EASTUS))
    key = lambda fs: [(f.rule, f.severity, f.extra.get("short"), f.extra.get("zone")) for f in fs]  # noqa: E731
    got, want = run(pools, live).findings, run(pools, files).findings
    assert key(got) == key(want) and {f.rule for f in got} >= {"GP703", "GP704", "GP709"}
    assert live.source == "live" and live.skus.get("Standard_NC8as_T4_v3").restricted_zones("eastus") == {"3"}
    # read-only, authenticated, versioned, filtered to the region
    assert {m for m, *_ in stub.requests} == {"GET"}
    assert all(auth == "Bearer stub-token" for *_, auth in stub.requests)
    assert all("api-version" in q for _, _, q, _ in stub.requests)
    sku_q = next(q for _, p, q, _ in stub.requests if p.endswith("/skus"))
    assert sku_q["$filter"] == ["location eq 'eastus'"]
    assert cred.scopes and cred.scopes[0] == ("https://management.azure.com/.default",)


def test_permission_denied_is_one_line(tmp_path) -> None:
    s = Stub(status={"/usages": 403})
    try:
        with pytest.raises(InputError) as e:
            load_live(_pools(tmp_path), subscription=SUB, credential=StaticToken(), base_url=s.url, timeout=5)
    finally:
        s.close()
    assert (
        "permission denied reading compute usage (HTTP 403)" in e.value.message and "Reader" in e.value.hint
    )


def test_cluster_not_found(tmp_path) -> None:
    s = Stub(status={"managedClusters/myAKSCluster": 404})
    try:
        with pytest.raises(InputError, match="not found: cluster myResourceGroup/myAKSCluster"):
            load_live(_pools(tmp_path), subscription=SUB, credential=StaticToken(), base_url=s.url, timeout=5)
    finally:
        s.close()


def test_authentication_failure_is_one_line(tmp_path, stub) -> None:
    with pytest.raises(InputError) as e:
        load_live(_pools(tmp_path), subscription=SUB, credential=StaticToken(fail=True), base_url=stub.url)
    assert e.value.message.startswith("Azure authentication failed") and "az login" in e.value.hint


def test_timeout_is_one_line(tmp_path) -> None:
    s = Stub(delay=1.5)
    try:
        with pytest.raises(InputError, match=r"did not answer within 0.3 s"):
            load_live(
                _pools(tmp_path), subscription=SUB, credential=StaticToken(), base_url=s.url, timeout=0.3
            )
    finally:
        s.close()


def test_unreachable_endpoint(tmp_path) -> None:
    s = Stub()
    url = s.url
    s.close()
    with pytest.raises(InputError, match="cannot reach Azure"):
        load_live(_pools(tmp_path), subscription=SUB, credential=StaticToken(), base_url=url, timeout=2)


def test_needs_a_subscription_and_refuses_plain_http(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("AZURE_SUBSCRIPTION_ID", raising=False)
    with pytest.raises(InputError, match="needs a subscription ID"):
        load_live(_pools(tmp_path), credential=StaticToken())
    with pytest.raises(InputError, match="plain HTTP"):
        load_live(_pools(tmp_path), subscription=SUB, credential=StaticToken(), base_url="http://example.com")


def test_cli_live_through_the_entry_point(tmp_path, stub, monkeypatch) -> None:
    from support import run_cli

    monkeypatch.setenv("GPUPOOL_ARM_ENDPOINT", stub.url)
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", SUB)
    import gpupool.preflight.live as live

    monkeypatch.setattr(live, "_sdk", lambda real=live._sdk: (*real()[:2], StaticToken))
    f = tmp_path / "p.yaml"
    _pools(tmp_path)
    r = run_cli("preflight", str(f), "--live", "-o", "json")
    assert r.exit_code == 1, r.stderr
    d = json.loads(r.stdout)
    assert d["source"] == "live" and "GP704" in {x["rule"] for x in d["findings"]}
    r = run_cli("preflight", str(f), "--live", "--from", str(EASTUS))
    assert r.exit_code == 2 and "takes no input files" in r.stderr


def test_missing_extra_is_a_one_line_error(tmp_path, monkeypatch) -> None:
    import builtins

    real = builtins.__import__

    def no_azure(name, *a, **k):
        if name.startswith("azure.mgmt"):
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_azure)
    with pytest.raises(InputError) as e:
        load_live(_pools(tmp_path), subscription=SUB)
    assert "pip install '.[azure]' in the gpupool checkout" in e.value.hint



def test_subscription_is_a_guid_before_any_request(tmp_path) -> None:
    """A subscription that is not a GUID is a one-line error before anything is sent (port 9: nothing
    listens there, so a request would fail differently)."""
    with pytest.raises(InputError, match="is not a subscription ID"):
        load_live(_pools(tmp_path), subscription="x; rm", credential=StaticToken(), base_url="http://127.0.0.1:9")


def test_region_cannot_break_out_of_the_odata_filter(tmp_path, stub) -> None:
    with pytest.raises(InputError, match="is not an Azure region name"):
        load_live(
            _pools(tmp_path),
            subscription=SUB,
            credential=StaticToken(),
            base_url=stub.url,
            location="eastus' or location eq 'westus",
        )


def test_sdk_warnings_do_not_reach_stderr(capsys, caplog, monkeypatch) -> None:
    """DefaultAzureCredential logs every failed credential as multi-line warnings; gpupool's one line is
    the only thing on stderr (GPUPOOL_DEBUG=1 keeps them)."""
    import logging

    from gpupool.preflight.live import _quiet_sdk_logs

    monkeypatch.delenv("GPUPOOL_DEBUG", raising=False)
    log = logging.getLogger("azure")
    monkeypatch.setattr(log, "handlers", [])
    monkeypatch.setattr(log, "propagate", True)
    chained = logging.getLogger("azure.identity._credentials.chained")
    with caplog.at_level(logging.WARNING):
        chained.warning("before")
        _quiet_sdk_logs()
        chained.warning("DefaultAzureCredential failed\nline 2")
    assert [r.getMessage() for r in caplog.records] == ["before"]  # nothing after: not to root, not stderr
    assert "DefaultAzureCredential" not in capsys.readouterr().err


def test_live_cluster_pod_subnet_in_rest_casing() -> None:
    """The SDK's REST shape spells a pool's pod subnet podSubnetID (az: podSubnetId): read either way, so a
    cluster with a pod subnet is not taken for the legacy node subnet (30 pods per node)."""
    from gpupool.preflight.live import _flatten_cluster

    body = aks.ManagedCluster(
        {
            "name": "c",
            "location": "eastus",
            "properties": {
                "networkProfile": {"networkPlugin": "azure"},
                "agentPoolProfiles": [{"name": "np", "podSubnetID": "/subscriptions/s/x/subnets/pods"}],
            },
        }
    ).as_dict()
    assert pin.cluster_from_data(_flatten_cluster(body, "rg"), "live").network == "podSubnet"
