"""What the Azure CLI prints for an Azure SDK model: azure-cli-core 2.91.0 ``util.todict`` (typespec
models through ``azure.core.serialization.attribute_list``, attribute names camel-cased, None kept) and
knack's JSON output (``sort_keys=True``, indent 2). Used to make and check the recorded az fixtures from
the SDK's own models."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, time, timedelta
from enum import Enum
from typing import Any


def to_camel_case(s: str) -> str:
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), s)


def todict(obj: Any) -> Any:
    from azure.core.serialization import attribute_list, get_backcompat_attr_name

    if isinstance(obj, dict):
        return {k: todict(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [todict(a) for a in obj]
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, (date, time, datetime)):
        return obj.isoformat()
    if isinstance(obj, timedelta):
        return str(obj)
    if getattr(obj, "_is_model", False):
        return {
            to_camel_case(get_backcompat_attr_name(obj, a)): todict(getattr(obj, a))
            for a in attribute_list(obj)
            if hasattr(obj, a)
        }
    if hasattr(obj, "__dict__"):
        return {
            to_camel_case(k): todict(v)
            for k, v in obj.__dict__.items()
            if not callable(v) and not k.startswith("_")
        }
    return obj


def az_json(obj: Any) -> str:
    return json.dumps(todict(obj), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
