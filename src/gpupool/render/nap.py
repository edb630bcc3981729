"""Render Node Auto Provisioning: the ``az aks update --node-provisioning-mode Auto`` step and the Karpenter
NodePool/AKSNodeClass manifests given (normalized), for ``gpupool render``.

A Karpenter object names no cluster, so render takes it from ``--cluster RESOURCE_GROUP/NAME``, else from the
pool specs rendered with it when they all name one cluster (:func:`cluster_for`); neither is bad input.

Files (relative to the output directory)::

    nap/enable-node-auto-provisioning.sh   network policy check, az aks update, kubectl apply  (--format az)
    nap/nodepools.yaml                     AKSNodeClasses, then NodePools, as given          (--format k8s)

The manifests are the documents as read, without ``status`` and the server-set metadata (uid,
resourceVersion, managedFields, kubectl's last-applied annotation...), so an object exported from a cluster
renders as the object to apply. Facts (the flag, the networking NAP supports, the Azure CLI minimum) come
from ``catalog/data/nap.yaml`` ``enable``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gpupool import catalog, shell
from gpupool.errors import InputError
from gpupool.errors import safe_text as _safe
from gpupool.nap.model import NapInputs
from gpupool.render import manifests

SCRIPT = "nap/enable-node-auto-provisioning.sh"
MANIFESTS = "nap/nodepools.yaml"

_RG_RE = re.compile(r"^[-\w.()]{0,89}[-\w()]$")  # as the pool spec's resourceGroup
_CLUSTER_RE = re.compile(r"^[A-Za-z0-9]([-_A-Za-z0-9]{0,61}[A-Za-z0-9])?$")  # as the pool spec's clusterName
_SERVER_SET = ("uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
               "deletionGracePeriodSeconds", "managedFields", "selfLink", "ownerReferences", "finalizers")
_LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


def _facts() -> dict[str, Any]:
    return catalog._data("nap.yaml")["enable"]


def parse_cluster(text: str) -> tuple[str, str]:
    """``RESOURCE_GROUP/NAME`` -> (resource group, cluster name), validated as a pool spec's are. Raises
    InputError (one line, exit 2)."""
    rg, sep, name = text.partition("/")
    if not sep or not _RG_RE.match(rg) or not _CLUSTER_RE.match(name):
        raise InputError(
            None, None, f"--cluster {_safe(text, 120)!r} is not RESOURCE_GROUP/NAME",
            "e.g. --cluster myResourceGroup/myAKSCluster (letters, digits, '-', '_'; a resource group may "
            "also hold '.' and parentheses)",
        )
    return rg, name


def cluster_for(nap: NapInputs, pools: Sequence[Any], given: str | None) -> tuple[str, str] | None:
    """The cluster the NodePools go to: ``--cluster``, else the one cluster all pool specs name. None when
    there is nothing of NAP to render."""
    if not nap:
        if given is not None:
            parse_cluster(given)  # still refuse a malformed value
        return None
    if given is not None:
        return parse_cluster(given)
    clusters = sorted({(p.resource_group, p.cluster_name) for p in pools})
    if len(clusters) == 1:
        return clusters[0]
    first = (nap.node_pools or nap.node_classes)[0]
    why = "the pool specs name several clusters" if clusters else "a NodePool names no cluster"
    raise InputError(first.where.path, first.where.line_of("metadata.name"),
                     f"render: which cluster gets Node Auto Provisioning? {why}",
                     "pass --cluster RESOURCE_GROUP/NAME")


def normalize(data: Any) -> dict[str, Any]:
    """The document to apply: apiVersion, kind, metadata (less what the API server sets), spec; plain data."""
    plain = _plain(data)
    drop = (*_SERVER_SET, "namespace")  # both kinds are cluster-scoped
    meta = {k: v for k, v in (plain.get("metadata") or {}).items() if k not in drop}
    notes = {k: v for k, v in (meta.get("annotations") or {}).items() if k != _LAST_APPLIED}
    if "annotations" in meta:
        if notes:
            meta["annotations"] = notes
        else:
            del meta["annotations"]
    out: dict[str, Any] = {"apiVersion": plain["apiVersion"], "kind": plain["kind"], "metadata": meta}
    if plain.get("spec") is not None:
        out["spec"] = plain["spec"]
    return out


def _plain(data: Any) -> Any:
    if isinstance(data, dict):
        return {str(k): _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    return data


def manifests_text(nap: NapInputs, cluster: tuple[str, str]) -> str:
    docs = [normalize(o.raw) for o in (*nap.node_classes, *nap.node_pools)]
    rg, name = cluster
    header = _comment(
        f"# Rendered by gpupool: the Karpenter objects of Node Auto Provisioning for cluster {name} "
        f"(resource group {rg}).\n# Apply them after NAP is on ({SCRIPT}): the CRDs come with it.\n"
    )
    return manifests.dump(docs, header)


def _comment(text: str) -> str:
    return re.sub(r"[\x00-\x09\x0b-\x1f\x7f]", " ", text)


def enable_argv(cluster: tuple[str, str]) -> list[str]:
    """``az aks update`` that turns NAP on, as the AKS docs write it (no quoting; see shell.command)."""
    rg, name = cluster
    f = _facts()
    return ["az", "aks", "update", "--resource-group", rg, "--name", name, f["flag"], f["mode"]]


def script(cluster: tuple[str, str], nap: NapInputs, with_manifests: bool) -> str:
    f = _facts()
    rg, name = cluster
    show = ["az", "aks", "show", "--resource-group", rg, "--name", name, "--query",
            "networkProfile.networkPolicy", "--output", "tsv"]
    lines = [
        "#!/usr/bin/env bash",
        _comment(f"# Rendered by gpupool: turn on Node Auto Provisioning (NAP) on cluster {name} (resource "
                 f"group {rg})"),
        "# and apply its NodePools. kubectl must already point at the cluster (az aks get-credentials is not "
        "run).",
        f"# NAP needs Azure CLI {f['azCliMin']} or later and a managed identity (not a service principal).",
        "# Networking it supports: " + "; ".join(f["networking"]["supported"]) + " (Cilium recommended);",
        "# not " + ", not ".join(f["networking"]["unsupported"]) + ".",
        "# With the default --node-provisioning-default-pools, AKS also creates its own NodePools (default,",
        "# system-surge).",
        "set -euo pipefail",
        "",
        "# ---- NAP does not support Calico network policy (networkProfile.networkPolicy) ----",
        "policy=\"$(" + shell.command(show, words=3, wrap=False) + ")\"",
        f'if [ "$policy" = {shell.quote(f["networking"]["unsupportedNetworkPolicy"])} ]; then',
        "  echo " + shell.quote(f"cluster {name} uses Calico network policy, which Node Auto Provisioning "
                                "does not support") + " >&2",
        "  exit 1",
        "fi",
        "",
        "# ---- turn NAP on ----",
        shell.command(enable_argv(cluster), words=3),
        "",
    ]
    if with_manifests:
        lines += [
            _comment("# ---- the AKSNodeClasses and NodePools: " + ", ".join(
                [*(f"AKSNodeClass {c.name}" for c in nap.node_classes),
                 *(f"NodePool {p.name}" for p in nap.node_pools)]) + " ----"),
            'ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"',
            f'kubectl apply -f "$ROOT/{MANIFESTS}"',
            "kubectl get nodepools.karpenter.sh",
        ]
    else:
        lines.append("echo " + shell.quote("now apply the NodePools and AKSNodeClasses (render --format k8s "
                                           "writes them)"))
    lines.append('echo "done"')
    return "\n".join(lines) + "\n"


def files(nap: NapInputs, cluster: tuple[str, str], formats: Sequence[str]) -> list[tuple[str, str, bool]]:
    """(relative path, text, executable) of the NAP files for ``formats``."""
    out = []
    if "az" in formats:
        out.append((SCRIPT, script(cluster, nap, "k8s" in formats), True))
    if "k8s" in formats:
        out.append((MANIFESTS, manifests_text(nap, cluster), False))
    return out


def readme_section(nap: NapInputs, cluster: tuple[str, str], paths: Sequence[str], alone: bool) -> str:
    """The README's part on NAP (the whole README when no pool spec is rendered with it)."""
    rg, name = cluster
    title = "# Node Auto Provisioning rendered by gpupool" if alone else "## Node Auto Provisioning"
    lines = [title, ""]
    lines += [_comment(f"Cluster `{name}` (resource group `{rg}`): "
                       + ", ".join([*(f"AKSNodeClass `{c.name}`" for c in nap.node_classes),
                                    *(f"NodePool `{p.name}`" for p in nap.node_pools)]) + "."), ""]
    if SCRIPT in paths:
        lines.append(f"- `{SCRIPT}`: stops if the cluster uses Calico network policy (NAP does not support "
                     "it), turns NAP on (`az aks update --node-provisioning-mode Auto`), then applies the "
                     "manifests when they were rendered.")
    if MANIFESTS in paths:
        lines.append(f"- `{MANIFESTS}`: the AKSNodeClasses and NodePools as given (normalized), to apply "
                     "once NAP is on (its CRDs come with it): `kubectl apply -f nap/nodepools.yaml`.")
    return "\n".join(lines) + "\n"
