"""Read a running cluster into a :class:`~gpupool.cluster.Snapshot`, read-only, with the official client.

Only GET requests: nodes, pods, DaemonSets and events (all namespaces, paginated with ``limit`` and
``continue``), ConfigMaps of kube-system and of the namespaces the GPU stack runs in (never Secrets),
``clusterpolicies.nvidia.com`` when installed, Node Auto Provisioning's ``nodeclaims.karpenter.sh`` and
``nodepools.karpenter.sh`` (karpenter.sh/v1, cluster-scoped) when installed, and the last lines of the GPU
stack's pod logs. Every call has a timeout. A read RBAC forbids (403), a resource the server does not have
(404), a server error or a timeout of an optional read becomes a note with its cause (``Snapshot.causes``)
and marks the kind unread (``Snapshot.unread``: doctor's rules that read it do not conclude). Nodes and pods
are required: failing to read them, an unreachable server (refused, DNS, no connection), a connection that
breaks or stalls mid-answer, or an unauthorised user is an InputError (exit 2). Logs have a per-read timeout
and an overall budget. A Karpenter kind the server does not serve (404: the CRD is absent, no NAP on this
cluster) is a plain fact, not a note: ``meta["notInstalled"]`` names it, and its Snapshot field stays None
(doctor's NAP rules then have nothing to read, and say nothing). ``kubernetes`` is imported here only.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from datetime import UTC, datetime
from typing import Any

from gpupool import __version__
from gpupool.cluster.snapshot import LogKey, Snapshot
from gpupool.errors import InputError, safe_text
from gpupool.findings import plural
from gpupool.k8s import gpustack
from gpupool.k8s import nodes as kn

PAGE_SIZE = 500
MAX_PAGES = 10_000
LOG_LINES = 200
LOG_BYTES = 256 * 1024
# GPU stack roles whose pod logs doctor reads (k8s.gpustack roles)
LOG_ROLES = frozenset(
    {gpustack.DEVICE_PLUGIN, gpustack.GFD, gpustack.DRIVER, gpustack.DCGM_EXPORTER, gpustack.VALIDATOR}
)
MAX_LOG_PODS = 60
LOG_BUDGET = 30.0  # seconds for every log read together (--log-budget)
LOG_TIMEOUT = 5.0  # seconds per log read at most: a log comes through the node's kubelet
SYSTEM_NAMESPACES = ("kube-system",)
# Node Auto Provisioning's API (kubernetes-sigs/karpenter pkg/apis/v1: NodeClaim, NodePool; cluster-scoped)
KARPENTER_GROUP, KARPENTER_VERSION = "karpenter.sh", "v1"

# why a read gave nothing usable (Snapshot.causes): doctor's GP600 words its fix from it
FORBIDDEN, NOT_FOUND, GONE, BAD_REQUEST, SERVER_ERROR, TIMEOUT = (
    "forbidden",
    "not-found",
    "gone",
    "bad-request",
    "server-error",
    "timeout",
)
SKIPPED, BUDGET, PARTIAL, INVALID = "skipped", "budget", "partial", "invalid"


class _Unreadable(Exception):
    """A read that gave nothing usable: ``cause`` (one of the causes above) and what the server said."""

    def __init__(self, cause: str, detail: str, status: int | None = None) -> None:
        super().__init__(detail)
        self.cause = cause
        self.detail = detail
        self.status = status


class LiveReader:
    def __init__(
        self,
        context: str | None = None,
        kubeconfig: str | None = None,
        timeout: float = 15.0,
        page_size: int = PAGE_SIZE,
        log_lines: int = LOG_LINES,
        log_budget: float = LOG_BUDGET,
    ) -> None:
        from kubernetes import client, config
        from kubernetes.config.config_exception import ConfigException

        self.timeout = timeout
        self.page_size = page_size
        self.log_lines = log_lines
        self.log_budget = log_budget  # 0: read no logs (simulate --live)
        self.notes: list[str] = []
        self.causes: dict[str, str] = {}
        self.unread: dict[str, str] = {}
        self.not_installed: dict[str, str] = {}  # what -> why: optional APIs this cluster does not serve
        shown = kubeconfig or "kubeconfig"
        cfg = client.Configuration()
        try:
            if context is None:
                _, active = config.list_kube_config_contexts(config_file=kubeconfig)
                context = active["name"] if isinstance(active, dict) else None
            config.load_kube_config(
                config_file=kubeconfig, context=context, client_configuration=cfg, persist_config=False
            )
        except ConfigException as e:
            raise InputError(shown, None, f"cannot use the kubeconfig: {safe_text(e, 200)}") from None
        except OSError as e:
            raise InputError(shown, None, f"cannot read the kubeconfig: {e.strerror or e}") from None
        except Exception as e:  # malformed YAML or shapes the loader trips over
            raise InputError(
                shown, None, f"cannot use the kubeconfig: {type(e).__name__}: {safe_text(e, 160)}"
            ) from None
        cfg.retries = 0  # fail fast; a slow or absent server is reported, not retried for minutes
        self.context = context or "(current)"
        self.host = cfg.host
        self.api = client.ApiClient(cfg)
        self.core = client.CoreV1Api(self.api)
        self.apps = client.AppsV1Api(self.api)
        self.custom = client.CustomObjectsApi(self.api)
        self.version_api = client.VersionApi(self.api)

    # ---- notes --------------------------------------------------------------------------------------------

    def note(self, text: str, cause: str, kind: str | None = None) -> None:
        """Record what could not be read; ``kind`` (a READABLE_KINDS name) marks it unread for doctor."""
        self.notes.append(text)
        self.causes[text] = cause
        if kind is not None:
            self.unread.setdefault(kind, text)

    # ---- one call ---------------------------------------------------------------------------------------

    def _unreachable(self, why: str) -> InputError:
        return InputError(
            None,
            None,
            f"cluster {safe_text(self.context)} unreachable at {safe_text(self.host)}: {why}",
            "check the context (--context), VPN/private cluster access, and credentials",
        )

    def _transport(self, e: BaseException, what: str, reading: bool = False) -> tuple[str, str]:
        """(cause, words) for an error below HTTP: TIMEOUT for a read that got no answer in time (the
        server is up: the caller may go on), else "unreachable" (refused, DNS, reset, no connection)."""
        import urllib3

        reason = getattr(e, "reason", None) or e  # MaxRetryError wraps the cause
        if isinstance(reason, urllib3.exceptions.NewConnectionError):  # a ConnectTimeoutError subclass
            inner = reason.__cause__ or reason.__context__
            text = safe_text(inner or reason, 160)
            if isinstance(reason, urllib3.exceptions.NameResolutionError):
                return "unreachable", f"the name does not resolve ({text})"
            if isinstance(inner, ConnectionRefusedError) or "refused" in text.lower():
                return "unreachable", "connection refused"
            return "unreachable", f"no connection ({text})"
        if isinstance(reason, urllib3.exceptions.ConnectTimeoutError):
            return "unreachable", f"no connection within {self.timeout:g} s"
        if isinstance(reason, (urllib3.exceptions.ReadTimeoutError, TimeoutError, socket.timeout)):
            if reading:
                return TIMEOUT, f"the answer stalled for {self.timeout:g} s while reading {what}"
            return TIMEOUT, f"no answer within {self.timeout:g} s"
        if isinstance(reason, urllib3.exceptions.ProtocolError) or reading:
            return "unreachable", f"the connection broke while reading {what} ({safe_text(reason, 160)})"
        return "unreachable", safe_text(reason, 160)

    def _call(
        self, what: str, fn: Any, *args: Any, required: bool = False, timeout: float | None = None, **kw: Any
    ) -> Any:
        """One GET; raises InputError (exit 2) for an unreachable server or, when ``required``, for any
        failure; else _Unreadable with the cause."""
        import urllib3
        from kubernetes.client.rest import ApiException

        t = self.timeout if timeout is None else timeout
        kw.setdefault("_request_timeout", (self.timeout, t))
        kw["_preload_content"] = False
        try:
            return fn(*args, **kw)
        except ApiException as e:
            message = _status_message(e)
            if e.status == 401:
                raise InputError(
                    None,
                    None,
                    f"cluster {safe_text(self.context)}: unauthorized ({message})",
                    "log in again: az aks get-credentials ... / kubelogin",
                ) from None
            if e.status == 0:  # the client's own wrapper: TLS errors
                raise self._unreachable(message) from None
            cause, words = _http_cause(e.status, message)
            if required and cause != GONE:  # an expired continue token: list() reads again
                raise InputError(
                    None,
                    None,
                    f"cluster {safe_text(self.context)}: cannot read {what}: {words}",
                    _REQUIRED_FIX.get(cause, "retry; doctor needs nodes and pods to say anything"),
                ) from None
            raise _Unreadable(cause, words, e.status) from None
        except (urllib3.exceptions.HTTPError, OSError) as e:
            cause, why = self._transport(e, what)
            if cause == TIMEOUT and not required:
                raise _Unreadable(TIMEOUT, f"no answer within {t:g} s") from None
            if cause == TIMEOUT:
                why = f"no answer to {what} within {t:g} s"
            raise self._unreachable(why) from None

    def _body(self, what: str, resp: Any, lenient: bool = False) -> bytes:
        """The response body; a connection that breaks or stalls mid-body is InputError (exit 2), or,
        when ``lenient`` (logs), _Unreadable."""
        import urllib3

        try:
            return bytes(resp.data)
        except (urllib3.exceptions.HTTPError, OSError) as e:
            cause, why = self._transport(e, what, reading=True)
            if lenient:
                raise _Unreadable(cause if cause == TIMEOUT else SERVER_ERROR, why) from None
            raise self._unreachable(why) from None
        finally:
            with contextlib.suppress(Exception):
                resp.release_conn()

    def _json(self, what: str, resp: Any) -> Any:
        data = self._body(what, resp)
        try:
            return json.loads(data)
        except (ValueError, UnicodeDecodeError):
            raise _Unreadable(INVALID, "the server did not answer JSON") from None

    def list(
        self,
        what: str,
        fn: Any,
        *args: Any,
        kind: str | None = None,
        required: bool = False,
        absent_is_answer: bool = False,
        absent_is_fact: bool = False,
    ) -> list[dict] | None:
        """Every item of a list call, page by page (``limit``/``continue``), managedFields dropped; None
        when unreadable (noted, and ``kind`` marked unread); InputError when ``required`` fails. With
        ``absent_is_answer``, a 404 (no such API on this cluster) is noted but leaves ``kind`` read; with
        ``absent_is_fact``, a 404 is no note at all: ``what`` goes into :attr:`not_installed`."""
        items: list[dict] = []
        token: str | None = None
        restarted = False
        for _ in range(MAX_PAGES):
            kw: dict[str, Any] = {"limit": self.page_size}
            if token:
                kw["_continue"] = token
            try:
                body = self._json(what, self._call(what, fn, *args, required=required, **kw))
            except _Unreadable as u:
                if u.cause == GONE and token and not restarted:
                    items, token, restarted = [], None, True  # the continue token expired: start again
                    continue
                if required:
                    raise InputError(
                        None, None, f"cluster {safe_text(self.context)}: cannot read {what}: {u.detail}"
                    ) from None
                answered = (absent_is_answer or absent_is_fact) and u.cause == NOT_FOUND and not items
                if answered and absent_is_fact:
                    self.not_installed[what] = u.detail
                    return None
                self.note(f"could not read {what}: {u.detail}", u.cause, None if answered else kind)
                if items:
                    read = plural(len(items), "item")
                    self.note(f"{what}: only {read} read before the error above", PARTIAL, kind)
                    return items
                return None
            if not isinstance(body, dict):
                if required:
                    raise InputError(None, None, f"cluster {safe_text(self.context)}: {what}: not a list")
                self.note(f"could not read {what}: not a list", INVALID, kind)
                return None
            page = body.get("items") or []
            for i in page:
                if isinstance(i, dict):
                    meta = i.get("metadata")
                    if isinstance(meta, dict):
                        meta.pop("managedFields", None)  # a third of a pod's bytes; nothing reads it
                    items.append(i)
            meta = body.get("metadata") if isinstance(body.get("metadata"), dict) else {}
            token = meta.get("continue") or None
            if not token:
                return items
        self.note(f"{what}: stopped after {MAX_PAGES} pages", PARTIAL, kind)
        return items

    # ---- the snapshot -----------------------------------------------------------------------------------

    def read(self) -> Snapshot:
        nodes = self.list("nodes", self.core.list_node, required=True) or []
        pods = self.list("pods", self.core.list_pod_for_all_namespaces, required=True) or []
        daemonsets = self.list("daemonsets", self.apps.list_daemon_set_for_all_namespaces, kind="daemonsets")
        events = self.list("events", self.core.list_event_for_all_namespaces, kind="events")
        configmaps = self._configmaps(pods, daemonsets or [])
        policies = self._clusterpolicies()
        nodeclaims = self._karpenter("nodeclaims", "nodeclaims")
        karpenter_pools = self._karpenter("nodepools", "karpenternodepools")
        logs = self._logs(pods, nodes) if self.log_budget > 0 else {}
        meta: dict[str, Any] = {
            "capturedAt": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "context": self.context,
            "server": self.host,
            "gpupoolVersion": __version__,
        }
        try:
            ver = self._json("version", self._call("version", self.version_api.get_code))
            if isinstance(ver, dict) and isinstance(ver.get("gitVersion"), str):
                meta["kubernetesVersion"] = ver["gitVersion"]
        except _Unreadable:
            pass
        meta["notes"] = list(self.notes)
        if self.not_installed:
            meta["notInstalled"] = dict(self.not_installed)
        return Snapshot(
            source=f"context {self.context}",
            nodes=nodes,
            pods=pods,
            daemonsets=daemonsets or [],
            events=events or [],
            configmaps=configmaps,
            clusterpolicies=policies,
            nodepools=None,
            logs=logs,
            meta=meta,
            notes=list(self.notes),
            unread=dict(self.unread),
            causes=dict(self.causes),
            nodeclaims=nodeclaims,
            karpenter_nodepools=karpenter_pools,
        )

    def _clusterpolicies(self) -> list[dict] | None:
        """The GPU Operator's ClusterPolicies; None when the CRD is not installed (a 404: no GPU Operator,
        which is an answer, not a gap) or the read failed (then marked unread)."""
        what = "clusterpolicies.nvidia.com"
        return self.list(
            what,
            self.custom.list_cluster_custom_object,
            "nvidia.com",
            "v1",
            "clusterpolicies",
            kind=what,
            absent_is_answer=True,  # no such API here: the GPU Operator is not installed
        )

    def _karpenter(self, plural_name: str, kind: str) -> list[dict] | None:
        """Node Auto Provisioning's objects (karpenter.sh/v1, cluster-scoped); None when the CRD is not
        installed (a 404: no NAP here, recorded in :attr:`not_installed`, no note) or the read failed (a
        note with its cause, and ``kind`` marked unread: GP690/GP692 cannot tell)."""
        return self.list(
            f"{plural_name}.{KARPENTER_GROUP}",
            self.custom.list_cluster_custom_object,
            KARPENTER_GROUP,
            KARPENTER_VERSION,
            plural_name,
            kind=kind,
            absent_is_fact=True,
        )

    def _configmaps(self, pods: list[dict], daemonsets: list[dict]) -> list[dict] | None:
        out: list[dict] = []
        readable = False
        for ns in gpu_namespaces(pods, daemonsets):
            items = self.list(
                f"configmaps in {ns}", self.core.list_namespaced_config_map, ns, kind="configmaps"
            )
            if items is not None:
                readable = True
                out.extend(items)
        return out if readable else None

    def _logs(self, pods: list[dict], nodes: list[dict]) -> dict[LogKey, str]:
        """Logs of the GPU stack's pods (init containers too: the GPU Operator's k8s-driver-manager), within
        :data:`MAX_LOG_PODS` and the time budget; pods on GPU nodes that advertise no GPU first, then pods
        that are not ready, then the rest. Pods on NotReady nodes are skipped (their kubelet does not
        answer), and so are the other pods of a node whose kubelet timed out once."""
        logs: dict[LogKey, str] = {}
        suspect = {kn.name(n) for n in nodes if _gpu_node_without_gpu(n)}
        ready = {kn.name(n) for n in nodes if kn.is_ready(n)}

        def rank(p: dict) -> tuple:
            ok = all(
                s.get("ready")
                for s in (p.get("status") or {}).get("containerStatuses") or []
                if isinstance(s, dict)
            )
            meta = p["metadata"]
            node = (p.get("spec") or {}).get("nodeName")
            return (node not in suspect, ok, meta.get("namespace", ""), meta.get("name", ""))

        stack = sorted((p for p in pods if gpustack.role(p) in LOG_ROLES), key=rank)
        reachable = [p for p in stack if (p.get("spec") or {}).get("nodeName") in ready]
        if len(reachable) < len(stack):
            off = sorted(
                {
                    str((p.get("spec") or {}).get("nodeName") or "(none)")
                    for p in stack
                    if (p.get("spec") or {}).get("nodeName") not in ready
                }
            )
            self.note(
                f"logs: skipped {plural(len(stack) - len(reachable), 'GPU stack pod')} on nodes that are "
                f"not Ready "
                f"or not scheduled ({', '.join(off[:5])}{' ...' if len(off) > 5 else ''})",
                SKIPPED,
            )
        if len(reachable) > MAX_LOG_PODS:
            self.note(f"logs: read from the first {MAX_LOG_PODS} of {len(reachable)} GPU stack pods", SKIPPED)
        failed: dict[str, list[tuple[str, str]]] = {}  # cause -> [(what, detail)]: one note per cause
        try:
            self._read_logs(reachable[:MAX_LOG_PODS], len(reachable), logs, failed)
        finally:
            for cause, misses in failed.items():
                what, detail = misses[0]
                if len(misses) == 1:
                    text = f"could not read {what}: {detail}"
                else:
                    first = what.removeprefix("logs of ")
                    text = f"could not read the logs of {len(misses)} containers (first {first}): {detail}"
                self.note(text, cause, None if logs else "logs")  # none read at all: rules cannot tell
        return logs

    def _read_logs(
        self,
        pods: list[dict],
        total: int,
        logs: dict[LogKey, str],
        failed: dict[str, list[tuple[str, str]]],
    ) -> None:
        started = time.monotonic()
        dead: set[str] = set()  # nodes whose kubelet did not answer
        for done, pod in enumerate(pods):
            ns, name = pod["metadata"].get("namespace", ""), pod["metadata"].get("name", "")
            node = str((pod.get("spec") or {}).get("nodeName") or "")
            if node in dead:
                continue
            for cname, previous in _log_targets(pod):
                left = self.log_budget - (time.monotonic() - started)
                if left <= 0.05:
                    self.note(
                        f"logs: stopped at the {self.log_budget:g} s log budget after {done} of "
                        f"{min(total, MAX_LOG_PODS)} GPU stack pods",
                        BUDGET,
                    )
                    return
                try:
                    text = self._log(ns, name, cname, previous, min(LOG_TIMEOUT, self.timeout, left))
                except _Unreadable as u:
                    what = f"logs of {ns}/{name} {cname}{' (previous)' if previous else ''}"
                    if u.cause == FORBIDDEN:
                        self.note(f"could not read {what}: {u.detail}", FORBIDDEN, "logs")
                        return  # RBAC: one note is enough
                    if u.cause in (BAD_REQUEST, NOT_FOUND):
                        continue  # no previous container, or the pod is gone: nothing to say
                    failed.setdefault(u.cause, []).append((what, u.detail))
                    if u.cause == TIMEOUT:
                        dead.add(node)
                        break
                    continue
                logs[LogKey(ns, name, cname, previous)] = text

    def _log(self, ns: str, pod: str, container: str, previous: bool, timeout: float) -> str:
        what = f"logs of {ns}/{pod} {container}{' (previous)' if previous else ''}"
        kw: dict[str, Any] = {"container": container, "tail_lines": self.log_lines, "limit_bytes": LOG_BYTES}
        if previous:
            kw["previous"] = True
        resp = self._call(what, self.core.read_namespaced_pod_log, pod, ns, timeout=timeout, **kw)
        return self._body(what, resp, lenient=True)[:LOG_BYTES].decode("utf-8", errors="replace")


_REQUIRED_FIX = {
    FORBIDDEN: "grant get/list on nodes and pods (e.g. the ClusterRole view plus nodes); "
    "doctor needs both to say anything",
    SERVER_ERROR: "the API server failed the request: retry; if it persists, check the control plane",
    TIMEOUT: "retry with a larger --timeout",
}


def _http_cause(status: int | None, message: str) -> tuple[str, str]:
    if status == 403:
        return FORBIDDEN, f"forbidden ({message})"
    if status == 404:
        return NOT_FOUND, f"not found on this cluster ({message})"
    if status == 410:
        return GONE, f"HTTP 410, the list expired ({message})"
    if status == 400:
        return BAD_REQUEST, f"HTTP 400 ({message})"
    return SERVER_ERROR, f"HTTP {status} ({message})"


def _log_targets(pod: dict) -> list[tuple[str, bool]]:
    """(container, previous) pairs whose logs exist: every init and app container that started, and the
    previous instance of those that restarted."""
    status = pod.get("status") or {}
    restarts: dict[str, int] = {}
    for key in ("initContainerStatuses", "containerStatuses"):
        for s in status.get(key) or []:
            if isinstance(s, dict) and isinstance(s.get("name"), str):
                restarts[s["name"]] = int(s.get("restartCount") or 0)
    out = []
    spec = pod.get("spec") or {}
    for key in ("initContainers", "containers"):
        for c in spec.get(key) or []:
            cname = c.get("name") if isinstance(c, dict) else None
            if not cname or cname not in restarts:
                continue  # never started: there is no log
            out.append((cname, False))
            if restarts[cname]:
                out.append((cname, True))
    return out


def _gpu_node_without_gpu(node: dict) -> bool:
    labels = kn.labels(node)
    gpu_label = kn.accelerator(node) == "nvidia" or labels.get("nvidia.com/gpu.present") == "true"
    cap = kn.capacity(node)
    return gpu_label and not any(k.startswith("nvidia.com/") and v > 0 for k, v in cap.items())


def _status_message(e: Any) -> str:
    """The ``message`` of a Kubernetes ``Status`` body, else the body's first line, else the HTTP reason."""
    body = e.body
    if isinstance(body, bytes):
        body = body.decode("utf-8", errors="replace")
    if isinstance(body, str) and body.strip():
        try:
            doc = json.loads(body)
        except ValueError:
            return safe_text(body.strip().splitlines()[0], 200)
        if isinstance(doc, dict) and doc.get("message"):
            return safe_text(doc["message"], 200)
    return safe_text(e.reason or f"HTTP {e.status}", 200)


def gpu_namespaces(pods: list[dict], daemonsets: list[dict]) -> list[str]:
    """kube-system and every namespace a GPU stack Pod or DaemonSet runs in (where plugin configs live)."""
    found = set(SYSTEM_NAMESPACES)
    for obj in (*daemonsets, *pods):
        if gpustack.role(obj) is not None:
            ns = (obj.get("metadata") or {}).get("namespace")
            if isinstance(ns, str) and ns:
                found.add(ns)
    return sorted(found)


def read_live(
    context: str | None = None,
    kubeconfig: str | None = None,
    timeout: float = 15.0,
    page_size: int = PAGE_SIZE,
    log_budget: float = LOG_BUDGET,
) -> Snapshot:
    """``log_budget``: seconds for all pod log reads together; 0 reads no logs (simulate uses none)."""
    return LiveReader(context, kubeconfig, timeout, page_size, log_budget=log_budget).read()
