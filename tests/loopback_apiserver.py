"""A loopback API server for live-mode tests: stdlib http.server on 127.0.0.1, answering the paths doctor
reads with the objects and body shapes a real kube-apiserver sent (tests/data/apiserver/responses.json).

Lists paginate as the real server does (``limit``, an opaque base64 ``continue`` token,
``remainingItemCount``); ``forbidden`` paths answer the real 403 ``Status`` body (message rewritten for the
resource); CRDs that are not installed answer the real ``404 page not found``; installed ones
(``Cluster.crds``) answer lists shaped as apiextensions-apiserver serves custom resources (the recording
holds none: built from the CRDs); ``slow`` paths sleep before answering. Every request is recorded, so tests
can assert that only GETs were sent and no Secret was read.

Faults, per path prefix (``Cluster.faults``, a :class:`Fault` each): answer a status (403, 404, 410
``Expired``, 500) with the real ``Status`` body shape; ``reset`` the connection mid-body (the client sees
``IncompleteRead``); ``stall`` mid-body; ``die``: stop listening and cut the answer mid-body (every later
connection is refused, as when the API server is killed during a page). ``Server.stop()`` refuses from then
on. ``only_continue`` limits a fault to later pages of a list; ``times`` to the first N matching requests.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import json
import re
import socket
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

# the kind of a custom resource list, by resource (the recording has no installed CRD: these lists are built
# from the CRDs' shapes, as apiextensions-apiserver serves them: "<Kind>List", items with apiVersion and kind)
CRD_KINDS = {"clusterpolicies": "ClusterPolicy", "nodeclaims": "NodeClaim", "nodepools": "NodePool"}
KARPENTER = "/apis/karpenter.sh/v1/"
RECORDED = Path(__file__).resolve().parent / "data" / "apiserver" / "responses.json"


def recorded() -> dict[str, Any]:
    return json.loads(RECORDED.read_text())


def _items(responses: list[dict], prefix: str) -> list[dict]:
    out: list[dict] = []
    for r in responses:
        if r["as"] == "admin" and r["path"].split("?")[0] == prefix and r["status"] == 200:
            out.extend(r["body"]["items"])
    return out


@dataclass
class Fault:
    kind: str  # "status" | "reset" | "stall" | "die"
    status: int = 0  # for "status": 403, 404, 410, 500, ...
    seconds: float = 0.0  # for "stall"
    times: int | None = None  # the first N matching requests only; None: every one
    only_continue: bool = False  # only requests carrying a continue token (a later page of a list)


class Cluster:
    """The objects the server holds, per collection path, plus logs and the failure switches."""

    def __init__(self) -> None:
        rec = recorded()
        self.version = rec["server"]
        responses = rec["responses"]
        self.resource_version = "281"
        self.lists: dict[str, tuple[str, str, list[dict]]] = {
            "/api/v1/nodes": ("NodeList", "v1", _items(responses, "/api/v1/nodes")),
            "/api/v1/pods": ("PodList", "v1", _items(responses, "/api/v1/pods")),
            "/api/v1/events": ("EventList", "v1", _items(responses, "/api/v1/events")),
            "/apis/apps/v1/daemonsets": (
                "DaemonSetList",
                "apps/v1",
                _items(responses, "/apis/apps/v1/daemonsets"),
            ),
        }
        cms = _items(responses, "/api/v1/namespaces/kube-system/configmaps")
        self.configmaps = cms
        self.forbidden_body = next(r["body"] for r in responses if r["status"] == 403)
        self.not_found_body = next(r["body"] for r in responses if r["status"] == 404)
        # "/apis/nvidia.com/v1/clusterpolicies" -> items, when installed; the list's kind from CRD_KINDS
        self.crds: dict[str, list[dict]] = {}
        self.logs: dict[tuple[str, str, str, bool], str] = {}
        self.forbidden: set[str] = set()  # path prefixes that answer 403
        self.slow: dict[str, float] = {}  # path prefix -> seconds to sleep
        self.faults: dict[str, Fault] = {}  # path prefix -> the fault it answers with
        self.static: dict[str, Any] = {}  # exact path -> JSON body (e.g. discovery documents for kubectl)
        self.cache_pages = False  # benchmarks: serialise each page once (the server then costs little)
        self._pages: dict[tuple[str, str, int], bytes] = {}
        self.requests: list[tuple[str, str]] = []
        self.auth: list[str] = []  # the Authorization header of each GET
        self.lock = threading.Lock()

    def add(self, collection: str, obj: dict) -> None:
        self.lists[collection][2].append(obj)


def _token(rv: str, start: str) -> str:
    raw = json.dumps({"v": "meta.k8s.io/v1", "rv": int(rv), "start": start + "\u0000"}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _start(token: str) -> str:
    pad = "=" * (-len(token) % 4)
    return json.loads(base64.urlsafe_b64decode(token + pad))["start"].rstrip("\u0000")


def _key(obj: dict) -> str:
    m = obj["metadata"]
    return f"{m['namespace']}/{m['name']}" if m.get("namespace") else m["name"]


class Handler(BaseHTTPRequestHandler):
    cluster: Cluster

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _fault(self, path: str, query: dict[str, list[str]]) -> Fault | None:
        c = self.cluster
        with c.lock:
            for prefix, f in c.faults.items():
                if not path.startswith(prefix) or (f.only_continue and "continue" not in query):
                    continue
                if f.times is not None:
                    if f.times <= 0:
                        continue
                    f.times -= 1
                return f
        return None

    def _fault_status(self, code: int, path: str) -> None:
        resource = path.rstrip("/").split("/")[-1]
        if code == 403:
            self._status(
                403,
                "Forbidden",
                f'{resource} is forbidden: User "viewer" cannot list resource "{resource}"',
                resource,
            )
        elif code == 404:
            self._send(404, self.cluster.not_found_body, "text/plain; charset=utf-8")
        elif code == 410:
            self._status(
                410,
                "Expired",
                "The provided continue parameter is too old to display a consistent list result. You can "
                "start a new list without the continue parameter, or use the continue token in this "
                "response to retrieve the remainder of the results. Continuing with the provided token "
                "results in an inconsistent list - objects that were created, modified, or deleted between "
                "the time the first chunk was returned and now may show up in the list.",
                resource,
            )
        else:
            self._status(code, "InternalError", f"Internal error occurred: injected {code}", resource)

    def _send(self, status: int, body: Any, content_type: str = "application/json") -> None:
        data = (
            body
            if isinstance(body, bytes)
            else (body.encode() if isinstance(body, str) else json.dumps(body).encode())
        )
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        fault = getattr(self, "body_fault", None)
        if fault is None:
            self.wfile.write(data)
            return
        self.wfile.write(data[: max(1, len(data) // 2)])
        self.wfile.flush()
        self.close_connection = True
        if fault.kind == "stall":
            time.sleep(fault.seconds)
        elif fault.kind == "die":
            threading.Thread(target=self.server.shutdown, daemon=True).start()
            self.server.socket.close()  # from now on every connection is refused
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def _status(self, code: int, reason: str, message: str, kind: str) -> None:
        body = copy.deepcopy(self.cluster.forbidden_body)
        body.update({"message": message, "reason": reason, "code": code, "details": {"kind": kind}})
        self._send(code, body)

    def do_GET(self) -> None:
        c = self.cluster
        url = urlsplit(self.path)
        path, query = url.path, parse_qs(url.query)
        with c.lock:
            c.requests.append(("GET", self.path))
            c.auth.append(self.headers.get("Authorization", ""))
        for prefix, seconds in c.slow.items():
            if path.startswith(prefix):
                time.sleep(seconds)
        self.body_fault: Fault | None = None
        fault = self._fault(path, query)
        if fault is not None and fault.kind == "status":
            self._fault_status(fault.status, path)
            return
        self.body_fault = fault
        for prefix in c.forbidden:
            if path.startswith(prefix):
                resource = path.rstrip("/").split("/")[-1]
                ns = re.search(r"/namespaces/([^/]+)/", path)
                scope = f'in the namespace "{ns.group(1)}"' if ns else "at the cluster scope"
                group = '"apps"' if "/apis/apps/" in path else '""'
                self._status(
                    403,
                    "Forbidden",
                    f'{resource} is forbidden: User "viewer" cannot list resource "{resource}" '
                    f"in API group {group} {scope}",
                    resource,
                )
                return
        if path in c.static:
            self._send(200, c.static[path])
            return
        if path.rstrip("/") == "/version":
            self._send(200, c.version)
            return
        if path in c.lists:
            kind, api_version, items = c.lists[path]
            self._list(kind, api_version, items, query)
            return
        m = re.fullmatch(r"/api/v1/namespaces/([^/]+)/configmaps", path)
        if m:
            items = [i for i in c.configmaps if i["metadata"]["namespace"] == m.group(1)]
            self._list("ConfigMapList", "v1", items, query)
            return
        if path in c.crds:
            _, group, version, resource = path.split("/", 4)[1:]
            self._list(CRD_KINDS[resource] + "List", f"{group}/{version}", c.crds[path], query)
            return
        if path.startswith("/apis/"):  # a group/version the server does not serve: no CRD installed
            self._send(404, c.not_found_body, "text/plain; charset=utf-8")
            return
        m = re.fullmatch(r"/api/v1/namespaces/([^/]+)/pods/([^/]+)/log", path)
        if m:
            self._log(m.group(1), m.group(2), query)
            return
        self._send(404, c.not_found_body, "text/plain; charset=utf-8")

    def do_POST(self) -> None:
        with self.cluster.lock:
            self.cluster.requests.append(("POST", self.path))
        self._status(405, "MethodNotAllowed", "the loopback server is read-only", "")

    do_PUT = do_PATCH = do_DELETE = do_POST

    def _list(self, kind: str, api_version: str, items: list[dict], query: dict[str, list[str]]) -> None:
        c = self.cluster
        if c.cache_pages:
            key = (
                urlsplit(self.path).path,
                query.get("continue", [""])[0],
                int(query.get("limit", ["0"])[0]),
            )
            if key not in c._pages:
                c._pages[key] = self._page(kind, api_version, items, query)
            self._send(200, c._pages[key])
            return
        self._send(200, self._page(kind, api_version, items, query))

    def _page(self, kind: str, api_version: str, items: list[dict], query: dict[str, list[str]]) -> bytes:
        c = self.cluster
        ordered = sorted(items, key=_key)
        if "continue" in query:
            start = _start(query["continue"][0])
            ordered = [i for i in ordered if _key(i) > start]
        meta: dict[str, Any] = {"resourceVersion": c.resource_version}
        limit = int(query.get("limit", ["0"])[0] or 0)
        if limit and len(ordered) > limit:
            page = ordered[:limit]
            meta["continue"] = _token(c.resource_version, _key(page[-1]))
            meta["remainingItemCount"] = len(ordered) - limit
        else:
            page = ordered
        doc = {"kind": kind, "apiVersion": api_version, "metadata": meta, "items": page}
        return json.dumps(doc, separators=(",", ":")).encode()

    def _log(self, ns: str, pod: str, query: dict[str, list[str]]) -> None:
        c = self.cluster
        container = query.get("container", [""])[0]
        previous = query.get("previous", ["false"])[0] == "true"
        text = c.logs.get((ns, pod, container, previous))
        if text is None:
            what = "previous terminated container" if previous else "container"
            self._status(400, "BadRequest", f'{what} "{container}" in pod "{pod}" not found', "pods/log")
            return
        lines = text.splitlines(keepends=True)
        tail = int(query.get("tailLines", ["0"])[0] or 0)
        if tail:
            lines = lines[-tail:]
        data = "".join(lines).encode()
        limit = int(query.get("limitBytes", ["0"])[0] or 0)
        self._send(200, data[:limit] if limit else data, "text/plain")


class _Quiet(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up (timeout tests) closes the socket mid-answer


class Server:
    def __init__(self, cluster: Cluster) -> None:
        handler = type("BoundHandler", (Handler,), {"cluster": cluster})
        self.httpd = _Quiet(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def stop(self) -> None:
        """Stop listening: from now on every connection is refused."""
        self.httpd.shutdown()
        self.httpd.server_close()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def kubeconfig(
    path: Path, server: str, context: str = "loopback", exec_argv: list[str] | None = None
) -> Path:
    """A kubeconfig for the loopback server: a bearer token, or an exec credential plugin (as kubelogin)."""
    user: dict[str, Any] = {"token": "loopback-token"}
    if exec_argv:
        user = {
            "exec": {
                "apiVersion": "client.authentication.k8s.io/v1beta1",
                "command": exec_argv[0],
                "args": exec_argv[1:],
                "interactiveMode": "Never",
            }
        }
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "loop", "cluster": {"server": server}}],
        "users": [{"name": "viewer", "user": user}],
        "contexts": [{"name": context, "context": {"cluster": "loop", "user": "viewer"}}],
        "current-context": context,
    }
    path.write_text(json.dumps(doc))
    return path
