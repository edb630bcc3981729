"""The API server's validation in lint (GP220-GP229): k8s.validation's problems as findings.

``findings(obj, version, builtin, path, locate, ref)``: one finding per problem, under the rule of its area,
at the position of the field in the file; ``extra`` carries the server's field path (``field``) and reason
(``reason``), as ``kubectl apply`` would print them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from types import ModuleType

from gpupool.findings import Finding
from gpupool.k8s.validation import validate
from gpupool.lint.rules import (
    gp220_invalid_object_name,
    gp221_invalid_label_or_annotation,
    gp222_invalid_selector,
    gp223_invalid_container,
    gp224_invalid_resources,
    gp225_invalid_pod_spec,
    gp226_invalid_scheduling,
    gp227_invalid_workload_spec,
    gp228_invalid_network_spec,
    gp229_invalid_config_or_access,
)
from gpupool.lint.schema import safe

RULES: tuple[ModuleType, ...] = (
    gp220_invalid_object_name,
    gp221_invalid_label_or_annotation,
    gp222_invalid_selector,
    gp223_invalid_container,
    gp224_invalid_resources,
    gp225_invalid_pod_spec,
    gp226_invalid_scheduling,
    gp227_invalid_workload_spec,
    gp228_invalid_network_spec,
    gp229_invalid_config_or_access,
)
BY_AREA: dict[str, ModuleType] = {m.AREA: m for m in RULES}
IDS = frozenset(m.ID for m in RULES)


@cache
def minor(version: str) -> tuple[int, int]:
    major, _, rest = version.partition(".")
    return int(major), int(rest.split(".")[0])


def findings(
    obj: dict,
    version: str,
    builtin: bool,
    path: str,
    locate: Callable[[tuple], tuple[int, int] | None],
    ref: str | None,
) -> list[Finding]:
    problems = validate(obj, minor(version), builtin)
    if not problems:
        return []
    out = []
    for p in problems:
        rule = BY_AREA[p.area]
        pos = locate(p.where)
        out.append(
            Finding(
                rule=rule.ID,
                severity=rule.SEVERITY,
                message=safe(p.message, 400),
                path=path,
                line=pos[0] if pos else None,
                column=pos[1] if pos else None,
                object=ref,
                fix=rule.FIX,
                extra={"field": p.field, "reason": p.reason},
            )
        )
    return out
