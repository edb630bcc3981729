"""Service, Ingress and NetworkPolicy as the API server validates them on create."""

from __future__ import annotations

import ipaddress
from functools import cache
from typing import Any

from gpupool.k8s.validation import names
from gpupool.k8s.validation.core import DUPLICATE, NETWORK, Out
from gpupool.k8s.validation.meta import check_label_selector, check_labels

SERVICE_TYPES = ("ClusterIP", "ExternalName", "LoadBalancer", "NodePort")
PROTOCOLS = ("SCTP", "TCP", "UDP")
PATH_TYPES = ("Exact", "ImplementationSpecific", "Prefix")
POLICY_TYPES = ("Ingress", "Egress")


@cache
def _ip_ok(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        return False


@cache
def _cidr_ok(text: str) -> bool:
    if "/" not in text:
        return False
    try:
        ipaddress.ip_network(text, strict=False)
        return True
    except ValueError:
        return False


def _port_ok(v: Any) -> bool:
    return type(v) is int and 1 <= v <= 65535


def service(out: Out, obj: dict, version: tuple[int, int]) -> None:
    spec = obj.get("spec")
    if type(spec) is not dict:
        return
    p = ("spec",)
    stype = spec.get("type", "ClusterIP")
    if type(stype) is str and stype not in SERVICE_TYPES:
        out.unsupported(NETWORK, (*p, "type"), stype, SERVICE_TYPES)
    ips = spec.get("clusterIPs")
    single = type(ips) is not list  # the server copies clusterIP into clusterIPs[0] before validating
    if single:
        ip = spec.get("clusterIP")
        ips = [ip] if type(ip) is str and ip else []
    headless = bool(ips) and ips[0] == "None"
    for i, ip in enumerate(ips):
        if type(ip) is str and ip != "None" and not _ip_ok(ip):
            out.invalid(
                NETWORK,
                (*p, "clusterIPs", i),
                ip,
                "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
                at=(*p, "clusterIP") if single else None,
            )
    if stype == "ExternalName":
        en = spec.get("externalName")
        if en is None or en == "":
            out.required(NETWORK, (*p, "externalName"))
        elif type(en) is str:
            bad = names.dns1123_subdomain(en.rstrip("."))
            if bad:
                out.invalid(NETWORK, (*p, "externalName"), en, bad)
    ports = spec.get("ports")
    if type(ports) is not list or not ports:
        if stype != "ExternalName" and not headless:
            out.required(NETWORK, (*p, "ports"))
        ports = []
    seen_names: set[str] = set()
    for i, port in enumerate(ports):
        if type(port) is not dict:
            continue
        pp = (*p, "ports", i)
        name = port.get("name")
        if (name is None or name == "") and len(ports) > 1:
            out.required(NETWORK, (*pp, "name"))
        elif type(name) is str and name:
            bad = names.dns1123_label(name)
            if bad:
                out.invalid(NETWORK, (*pp, "name"), name, bad)
            elif name in seen_names:
                out.add(NETWORK, (*pp, "name"), DUPLICATE, value=name)
            seen_names.add(name)
        num = port.get("port")
        if type(num) is int and not _port_ok(num):
            out.invalid(NETWORK, (*pp, "port"), num, "must be between 1 and 65535, inclusive")
        proto = port.get("protocol")
        if type(proto) is str and proto not in PROTOCOLS:
            out.unsupported(NETWORK, (*pp, "protocol"), proto, PROTOCOLS)
        tp = port.get("targetPort")
        if type(tp) is int and tp != 0 and not _port_ok(tp):
            out.invalid(NETWORK, (*pp, "targetPort"), tp, "must be between 1 and 65535, inclusive")
        elif type(tp) is str:
            bad = names.port_name(tp)
            if bad:
                out.invalid(NETWORK, (*pp, "targetPort"), tp, bad)
        np = port.get("nodePort")
        if type(np) is int and np != 0:
            if stype in ("ClusterIP", "ExternalName"):
                out.forbidden(NETWORK, (*pp, "nodePort"), f"may not be used when `type` is '{stype}'")
            elif not _port_ok(np):
                out.invalid(NETWORK, (*pp, "nodePort"), np, "must be between 1 and 65535, inclusive")
    sel = spec.get("selector")
    if sel:
        check_labels(out, sel, (*p, "selector"), NETWORK)
    sa = spec.get("sessionAffinity")
    if type(sa) is str and sa not in ("ClientIP", "None"):
        out.unsupported(NETWORK, (*p, "sessionAffinity"), sa, ("ClientIP", "None"))
    etp = spec.get("externalTrafficPolicy")
    if type(etp) is str and etp:
        if stype not in ("NodePort", "LoadBalancer"):
            out.invalid(
                NETWORK,
                (*p, "externalTrafficPolicy"),
                etp,
                "may only be set for externally-accessible services",
            )
        elif etp not in ("Cluster", "Local"):
            out.unsupported(NETWORK, (*p, "externalTrafficPolicy"), etp, ("Cluster", "Local"))


def ingress(out: Out, obj: dict) -> None:
    spec = obj.get("spec")
    if type(spec) is not dict:
        return
    rules = spec.get("rules")
    if type(rules) is not list:
        return
    for i, rule in enumerate(rules):
        if type(rule) is not dict:
            continue
        rp = ("spec", "rules", i)
        host = rule.get("host")
        if type(host) is str and host:
            bare = host[2:] if host.startswith("*.") else host
            bad = names.dns1123_subdomain(bare)
            if bad:
                out.invalid(NETWORK, (*rp, "host"), host, bad)
        http = rule.get("http")
        paths = http.get("paths") if type(http) is dict else None
        if type(paths) is not list:
            continue
        for j, path in enumerate(paths):
            if type(path) is not dict:
                continue
            pp = (*rp, "http", "paths", j)
            pt = path.get("pathType")
            if pt is None:
                out.required(NETWORK, (*pp, "pathType"), "pathType must be specified")
            elif type(pt) is str and pt not in PATH_TYPES:
                out.unsupported(NETWORK, (*pp, "pathType"), pt, PATH_TYPES)
            elif pt in ("Exact", "Prefix"):
                text = path.get("path")
                if type(text) is not str or not text.startswith("/"):
                    out.invalid(
                        NETWORK, (*pp, "path"), text if text is not None else "", "must be an absolute path"
                    )


def network_policy(out: Out, obj: dict) -> None:
    spec = obj.get("spec")
    if type(spec) is not dict:
        return
    p = ("spec",)
    if spec.get("podSelector") is not None:
        check_label_selector(out, spec["podSelector"], (*p, "podSelector"))
    types = spec.get("policyTypes")
    if type(types) is list:
        for i, t in enumerate(types):
            if type(t) is str and t not in POLICY_TYPES:
                out.unsupported(NETWORK, (*p, "policyTypes", i), t, POLICY_TYPES)
    for direction, peers_key in (("ingress", "from"), ("egress", "to")):
        rules = spec.get(direction)
        if type(rules) is not list:
            continue
        for i, rule in enumerate(rules):
            if type(rule) is not dict:
                continue
            rp = (*p, direction, i)
            ports = rule.get("ports")
            if type(ports) is list:
                for j, port in enumerate(ports):
                    if type(port) is not dict:
                        continue
                    proto = port.get("protocol")
                    if type(proto) is str and proto not in PROTOCOLS:
                        out.unsupported(NETWORK, (*rp, "ports", j, "protocol"), proto, PROTOCOLS)
                    num = port.get("port")
                    if type(num) is int and not _port_ok(num):
                        out.invalid(
                            NETWORK, (*rp, "ports", j, "port"), num, "must be between 1 and 65535, inclusive"
                        )
            peers = rule.get(peers_key)
            if type(peers) is not list:
                continue
            for j, peer in enumerate(peers):
                if type(peer) is not dict:
                    continue
                pp = (*rp, peers_key, j)
                for key in ("podSelector", "namespaceSelector"):
                    if peer.get(key) is not None:
                        check_label_selector(out, peer[key], (*pp, key))
                block = peer.get("ipBlock")
                if type(block) is dict:
                    cidr = block.get("cidr")
                    if type(cidr) is str and not _cidr_ok(cidr):
                        out.invalid(
                            NETWORK,
                            (*pp, "ipBlock", "cidr"),
                            cidr,
                            "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
                        )
                    exc = block.get("except")
                    if type(exc) is list:
                        for k, e in enumerate(exc):
                            if type(e) is str and not _cidr_ok(e):
                                out.invalid(
                                    NETWORK,
                                    (*pp, "ipBlock", "except", k),
                                    e,
                                    "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
                                )
