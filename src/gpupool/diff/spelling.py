"""A pool-spec value as the spec writes it: ``renameByDefault: false``, not ``renameByDefault=False``.

Every place that shows a field's current or desired value (the diff table, the runbook's comments, GP4xx
messages) prints it through :func:`spec_text`, so users read the spelling they type in a pool spec.
"""

from __future__ import annotations

from typing import Any


def spec_text(value: Any, *, none: str = "(none)") -> str:
    """``value`` in YAML flow spelling: true/false, null inside mappings, ``{key: value, ...}``, ``a, b``."""
    if value is None:
        return none
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ", ".join(spec_text(v, none="null") for v in value) or none
    if isinstance(value, dict):
        if not value:
            return none
        return "{" + ", ".join(f"{k}: {spec_text(v, none='null')}" for k, v in value.items()) + "}"
    return str(value)
