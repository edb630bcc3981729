"""Read a running cluster into a :class:`~gpupool.cluster.Snapshot`, read-only, with the official client.

Only GET requests: nodes, pods, DaemonSets and events (all namespaces, paginated with ``limit`` and
``continue``), ConfigMaps of kube-system and of the namespaces the GPU stack runs in (never Secrets),
``clusterpolicies.nvidia.com`` when installed, and the last lines of the GPU stack's pod logs. Every call
has a timeout. A read RBAC forbids (403) or a resource the server does not have (404) becomes a note; an
unreachable or unauthorised cluster is an InputError (exit 2). ``kubernetes`` is imported here only.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from gpupool import __version__
from gpupool.cluster.snapshot import LogKey, Snapshot
from gpupool.errors import InputError, safe_text
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
SYSTEM_NAMESPACES = ("kube-system",)


class _Unreadable(Exception):
    """A read that gave nothing usable (the note is already recorded)."""


class LiveReader:
    def __init__(
        self,
        context: str | None = None,
        kubeconfig: str | None = None,
        timeout: float = 15.0,
        page_size: int = PAGE_SIZE,
        log_lines: int = LOG_LINES,
    ) -> None:
        from kubernetes import client, config
        from kubernetes.config.config_exception import ConfigException

        self.timeout = timeout
        self.page_size = page_size
        self.log_lines = log_lines
        self.notes: list[str] = []
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

    # ---- one call ---------------------------------------------------------------------------------------

    def _call(self, what: str, fn: Any, *args: Any, fatal_timeout: bool = False, **kw: Any) -> Any:
        import urllib3
        from kubernetes.client.rest import ApiException

        kw.setdefault("_request_timeout", (min(self.timeout, 10.0), self.timeout))
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
            if e.status == 403:
                self.notes.append(f"could not read {what}: forbidden ({message})")
            elif e.status == 404:
                self.notes.append(f"could not read {what}: not found on this cluster ({message})")
            else:
                self.notes.append(f"could not read {what}: HTTP {e.status} ({message})")
            raise _Unreadable from None
        except (urllib3.exceptions.HTTPError, OSError) as e:
            reason = getattr(e, "reason", None) or e
            timed_out = isinstance(reason, (urllib3.exceptions.TimeoutError, TimeoutError))
            if timed_out and not fatal_timeout:
                self.notes.append(f"could not read {what}: no answer within {self.timeout:g} s")
                raise _Unreadable from None
            why = f"no answer within {self.timeout:g} s" if timed_out else safe_text(reason, 160)
            raise InputError(
                None,
                None,
                f"cluster {safe_text(self.context)} unreachable at {safe_text(self.host)}: {why}",
                "check the context (--context), VPN/private cluster access, and credentials",
            ) from None

    def _json(self, what: str, resp: Any) -> Any:
        try:
            return json.loads(resp.data)
        except (ValueError, UnicodeDecodeError):
            self.notes.append(f"could not read {what}: the server did not answer JSON")
            raise _Unreadable from None

    def list(self, what: str, fn: Any, *args: Any, fatal_timeout: bool = False) -> list[dict] | None:
        """Every item of a list call, page by page (``limit``/``continue``); None when unreadable."""
        items: list[dict] = []
        token: str | None = None
        restarted = False
        for _ in range(MAX_PAGES):
            kw: dict[str, Any] = {"limit": self.page_size}
            if token:
                kw["_continue"] = token
            try:
                body = self._json(what, self._call(what, fn, *args, fatal_timeout=fatal_timeout, **kw))
            except _Unreadable:
                if token and not restarted and self.notes and "HTTP 410" in self.notes[-1]:
                    self.notes.pop()  # the continue token expired: read the list again from the start
                    items, token, restarted = [], None, True
                    continue
                return None if not items else _partial(self.notes, what, items)
            if not isinstance(body, dict):
                self.notes.append(f"could not read {what}: not a list")
                return None
            page = body.get("items") or []
            items.extend(i for i in page if isinstance(i, dict))
            meta = body.get("metadata") if isinstance(body.get("metadata"), dict) else {}
            token = meta.get("continue") or None
            if not token:
                return items
        self.notes.append(f"{what}: stopped after {MAX_PAGES} pages")
        return items

    # ---- the snapshot -----------------------------------------------------------------------------------

    def read(self) -> Snapshot:
        nodes = self.list("nodes", self.core.list_node, fatal_timeout=True)
        pods = self.list("pods", self.core.list_pod_for_all_namespaces, fatal_timeout=True)
        daemonsets = self.list("daemonsets", self.apps.list_daemon_set_for_all_namespaces)
        events = self.list("events", self.core.list_event_for_all_namespaces)
        configmaps = self._configmaps(pods or [], daemonsets or [])
        policies = self.list(
            "clusterpolicies.nvidia.com",
            self.custom.list_cluster_custom_object,
            "nvidia.com",
            "v1",
            "clusterpolicies",
        )
        logs = self._logs(pods or [], nodes or [])
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
        return Snapshot(
            source=f"context {self.context}",
            nodes=nodes or [],
            pods=pods or [],
            daemonsets=daemonsets or [],
            events=events or [],
            configmaps=configmaps,
            clusterpolicies=policies,
            nodepools=None,
            logs=logs,
            meta=meta,
            notes=list(self.notes),
        )

    def _configmaps(self, pods: list[dict], daemonsets: list[dict]) -> list[dict] | None:
        out: list[dict] = []
        readable = False
        for ns in gpu_namespaces(pods, daemonsets):
            items = self.list(f"configmaps in {ns}", self.core.list_namespaced_config_map, ns)
            if items is not None:
                readable = True
                out.extend(items)
        return out if readable else None

    def _logs(self, pods: list[dict], nodes: list[dict]) -> dict[LogKey, str]:
        """Logs of the GPU stack's pods; within the bound, pods on GPU nodes that advertise no GPU first,
        then pods that are not ready, then the rest (a plugin on a CPU node says only "No devices found")."""
        logs: dict[LogKey, str] = {}
        suspect = {kn.name(n) for n in nodes if _gpu_node_without_gpu(n)}

        def rank(p: dict) -> tuple:
            ready = all(
                s.get("ready")
                for s in (p.get("status") or {}).get("containerStatuses") or []
                if isinstance(s, dict)
            )
            meta = p["metadata"]
            node = (p.get("spec") or {}).get("nodeName")
            return (node not in suspect, ready, meta.get("namespace", ""), meta.get("name", ""))

        chosen = sorted((p for p in pods if gpustack.role(p) in LOG_ROLES), key=rank)
        if len(chosen) > MAX_LOG_PODS:
            self.notes.append(f"logs: read from the first {MAX_LOG_PODS} of {len(chosen)} GPU stack pods")
        for pod in chosen[:MAX_LOG_PODS]:
            ns, name = pod["metadata"].get("namespace", ""), pod["metadata"].get("name", "")
            restarts = {
                s.get("name"): s.get("restartCount") or 0
                for s in (pod.get("status") or {}).get("containerStatuses") or []
                if isinstance(s, dict)
            }
            for c in (pod.get("spec") or {}).get("containers") or []:
                cname = c.get("name") if isinstance(c, dict) else None
                if not cname or cname not in restarts:
                    continue  # never started: there is no log
                for previous in (False, True) if restarts[cname] else (False,):
                    text = self._log(ns, name, cname, previous)
                    if text is None and self.notes and "forbidden" in self.notes[-1]:
                        return logs  # RBAC: one note is enough
                    if text is not None:
                        logs[LogKey(ns, name, cname, previous)] = text
        return logs

    def _log(self, ns: str, pod: str, container: str, previous: bool) -> str | None:
        from kubernetes.client.rest import ApiException

        what = f"logs of {ns}/{pod} {container}{' (previous)' if previous else ''}"
        kw = {"container": container, "tail_lines": self.log_lines, "limit_bytes": LOG_BYTES}
        if previous:
            kw["previous"] = True
        try:
            resp = self._call(what, self.core.read_namespaced_pod_log, pod, ns, **kw)
        except _Unreadable:
            if self.notes and ("HTTP 400" in self.notes[-1] or "not found" in self.notes[-1]):
                self.notes.pop()  # no previous container, or the pod is gone: nothing to say
            return None
        except ApiException:  # pragma: no cover - _call converts every ApiException
            return None
        return bytes(resp.data[:LOG_BYTES]).decode("utf-8", errors="replace")


def _gpu_node_without_gpu(node: dict) -> bool:
    labels = kn.labels(node)
    gpu_label = kn.accelerator(node) == "nvidia" or labels.get("nvidia.com/gpu.present") == "true"
    cap = kn.capacity(node)
    return gpu_label and not any(k.startswith("nvidia.com/") and v > 0 for k, v in cap.items())


def _partial(notes: list[str], what: str, items: list[dict]) -> list[dict]:
    notes.append(f"{what}: only {len(items)} item(s) read before the error above")
    return items


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
) -> Snapshot:
    return LiveReader(context, kubeconfig, timeout, page_size).read()
