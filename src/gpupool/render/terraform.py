"""Terraform (HCL text) for the pools: ``azurerm_kubernetes_cluster_node_pool``, or ``azapi_resource`` where
azurerm has no argument (managed GPU and its MIG strategy).

The cluster is read with a ``data "azurerm_kubernetes_cluster"`` block per cluster. Every string goes
through :func:`hcl_string` (escapes ``\\``, ``"``, control characters and the template sequences ``${`` and
``%{``), so no spec value can become an expression.

Sources: hashicorp/terraform-provider-azurerm website/docs/r/kubernetes_cluster_node_pool.html.markdown
(``gpu_instance``; ``gpu_driver`` since v4.40.0; Spot pools must list AKS's Spot label and taint to avoid a
perpetual diff; ``node_count`` ignored while the autoscaler runs); no azurerm argument for
``gpuProfile.nvidia`` at 69697b7fe6a9, so managed pools use Azure/azapi ``azapi_resource`` with the API
``gpupool.render.arm.api_version`` chooses: stable 2026-08-01, preview only for a MIG strategy (body as in
``gpupool.render.arm``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gpupool.render import arm
from gpupool.render.naming import stems, tf_ident
from gpupool.spec.model import SPOT_TAINT_KEY, PoolSpec, Taint

AZURERM_MIN = "4.40.0"  # gpu_driver (PR #29954, CHANGELOG-v4.md)
AZAPI_MIN = "2.0.0"  # body as an HCL object
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def hcl_string(value: str) -> str:
    """A quoted HCL string literal that evaluates to exactly ``value``."""
    out = value.replace("\\", "\\\\").replace('"', '\\"')
    out = out.replace("${", "$${").replace("%{", "%%{")
    out = _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", out)
    return f'"{out}"'


def hcl_key(key: str) -> str:
    return key if _IDENT.match(key) else hcl_string(key)


def hcl_value(value: Any, indent: int = 0) -> str:
    """Python data -> HCL expression (strings, numbers, bools, lists, objects)."""
    pad = "  " * indent
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return hcl_string(value)
    if isinstance(value, (list, tuple)):
        if all(not isinstance(v, (dict, list, tuple)) for v in value):
            return "[" + ", ".join(hcl_value(v) for v in value) + "]"
        inner = ",\n".join(f"{pad}  {hcl_value(v, indent + 1)}" for v in value)
        return "[\n" + inner + f"\n{pad}]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        pairs = [(hcl_key(str(k)), hcl_value(v, indent + 1)) for k, v in value.items()]
        return "{\n" + "\n".join(_aligned(pairs, pad + "  ")) + f"\n{pad}}}"
    raise TypeError(f"cannot render {type(value).__name__} as HCL")


def _aligned(pairs: list[tuple[str, str]], pad: str) -> list[str]:
    """``key = value`` lines aligned the way ``terraform fmt`` does: ``=`` lines up within each run of
    single-line values; a multi-line value ends the run and is not padded."""
    lines: list[str] = []
    run: list[tuple[str, str]] = []

    def flush() -> None:
        width = max((len(k) for k, _ in run), default=0)
        lines.extend(f"{pad}{k.ljust(width)} = {v}" for k, v in run)
        run.clear()

    for key, text in pairs:
        if "\n" in text:
            flush()
            lines.append(f"{pad}{key} = {text}")
        else:
            run.append((key, text))
    flush()
    return lines


def _block(header: str, attrs: list[tuple[str, Any]], extra: str = "") -> str:
    pairs = [(k, v.text if isinstance(v, _Raw) else hcl_value(v, 1)) for k, v in attrs]
    lines = [f"{header} {{", *_aligned(pairs, "  ")]
    if extra:
        lines.append(extra)
    lines.append("}")
    return "\n".join(lines)


class _Raw:
    """An HCL expression written as is (references such as ``data.x.y.id``; never user text)."""

    def __init__(self, text: str) -> None:
        self.text = text


def cluster_ident(pool: PoolSpec) -> str:
    return tf_ident(f"{pool.resource_group}_{pool.cluster_name}")


def cluster_data_source(pool: PoolSpec) -> str:
    return _block(
        f'data "azurerm_kubernetes_cluster" "{cluster_ident(pool)}"',
        [("name", pool.cluster_name), ("resource_group_name", pool.resource_group)],
    )


def node_pool_attrs(pool: PoolSpec) -> list[tuple[str, Any]]:
    """Arguments of ``azurerm_kubernetes_cluster_node_pool`` the spec implies."""
    attrs: list[tuple[str, Any]] = [
        ("name", pool.name),
        ("kubernetes_cluster_id", _Raw(f"data.azurerm_kubernetes_cluster.{cluster_ident(pool)}.id")),
        ("vm_size", pool.vm_size),
        ("node_count", pool.node_count),
    ]
    if pool.autoscaler:
        attrs += [
            ("auto_scaling_enabled", True),
            ("min_count", pool.autoscaler.min_count),
            ("max_count", pool.autoscaler.max_count),
        ]
    taints = list(pool.node_taints)
    labels = dict(pool.node_labels)
    if pool.priority == "Spot":
        # azurerm: Spot pools must carry the label and taint AKS adds, or every plan shows a change.
        if not any(t.key == SPOT_TAINT_KEY for t in taints):
            taints.append(Taint(SPOT_TAINT_KEY, "spot", "NoSchedule"))
        labels.setdefault(SPOT_TAINT_KEY, "spot")
    if taints:
        attrs.append(("node_taints", [str(t) for t in taints]))
    if labels:
        attrs.append(("node_labels", labels))
    attrs += [("mode", pool.mode), ("os_type", pool.os_type), ("os_sku", pool.os_sku)]
    if pool.priority == "Spot":
        price = -1 if pool.spot_max_price == -1 else pool.spot_max_price
        attrs += [("priority", "Spot"), ("eviction_policy", pool.eviction_policy), ("spot_max_price", price)]
    if pool.is_gpu_pool:
        g = pool.gpu_settings
        if g.instance_profile:
            attrs.append(("gpu_instance", g.instance_profile))
        attrs.append(("gpu_driver", g.driver))
    if pool.zones:
        attrs.append(("zones", list(pool.zones)))
    if pool.max_pods:
        attrs.append(("max_pods", pool.max_pods))
    if pool.kubernetes_version:
        attrs.append(("orchestrator_version", pool.kubernetes_version))
    return attrs


def _lifecycle(attribute: str) -> str:
    return f"\n  lifecycle {{\n    ignore_changes = [{attribute}] # the cluster autoscaler owns it\n  }}"


def _provider(name: str, source: str, version: str) -> str:
    return f'    {name} = {{\n      source  = "{source}"\n      version = ">= {version}"\n    }}'


def node_pool_resource(pool: PoolSpec, ident: str | None = None) -> str:
    ident = ident or tf_ident(pool.name)
    extra = ""
    if pool.autoscaler:
        extra = _lifecycle("node_count")
    return _block(f'resource "azurerm_kubernetes_cluster_node_pool" "{ident}"', node_pool_attrs(pool), extra)


def azapi_resource(pool: PoolSpec, ident: str | None = None) -> str:
    """The agent pool through azapi (for settings azurerm cannot express), at arm.api_version."""
    ident = ident or tf_ident(pool.name)
    attrs: list[tuple[str, Any]] = [
        ("type", f"{arm.RESOURCE_TYPE}@{arm.api_version(pool)}"),
        ("name", pool.name),
        ("parent_id", _Raw(f"data.azurerm_kubernetes_cluster.{cluster_ident(pool)}.id")),
        ("body", {"properties": arm.agent_pool_properties(pool)}),
    ]
    extra = ""
    if pool.autoscaler:
        extra = _lifecycle("body.properties.count")
    return _block(f'resource "azapi_resource" "{ident}"', attrs, extra)


def needs_azapi(pool: PoolSpec) -> bool:
    return pool.is_gpu_pool and pool.gpu_settings.managed


def render(pools: Sequence[PoolSpec]) -> str:
    """One ``main.tf`` for all pools."""
    use_azapi = any(needs_azapi(p) for p in pools)
    providers = [_provider("azurerm", "hashicorp/azurerm", AZURERM_MIN)]
    if use_azapi:
        providers.append(_provider("azapi", "Azure/azapi", AZAPI_MIN))
    parts = [
        "# Rendered by gpupool: the node pools of the spec, added to existing AKS clusters.\n"
        "# terraform init && terraform plan && terraform apply",
        "terraform {\n  required_providers {\n" + "\n".join(providers) + "\n  }\n}",
        'provider "azurerm" {\n  features {}\n}',
    ]
    if use_azapi:
        parts.append('provider "azapi" {}')
    seen: set[str] = set()
    for p in pools:
        ident = cluster_ident(p)
        if ident not in seen:
            seen.add(ident)
            parts.append(cluster_data_source(p))
    idents = {}
    for p, stem in zip(pools, stems(pools), strict=True):
        idents[id(p)] = tf_ident(stem)
    for p in pools:
        if needs_azapi(p):
            api = "the preview API" if arm.needs_preview(p) else f"the stable API {arm.api_version(p)}"
            parts.append(
                "# Managed GPU: azurerm has no argument for gpuProfile.nvidia, so this pool is created\n"
                f"# through {api} with azapi. GA is not announced: register the feature\n"
                "# ManagedGPUExperiencePreview first.\n"
                + azapi_resource(p, idents[id(p)])
            )
        else:
            parts.append(node_pool_resource(p, idents[id(p)]))
    return "\n\n".join(parts) + "\n"
