"""Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource), parsed exactly.

``parse_quantity("500m") == Fraction(1, 2)``; ``parse_quantity("1Gi") == 1073741824``.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {
    "n": Fraction(1, 10**9),
    "u": Fraction(1, 10**6),
    "m": Fraction(1, 1000),
    "": Fraction(1),
    "k": Fraction(10**3),
    "M": Fraction(10**6),
    "G": Fraction(10**9),
    "T": Fraction(10**12),
    "P": Fraction(10**15),
    "E": Fraction(10**18),
}
_RE = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$")


def parse_quantity(value: object) -> Fraction:
    """Parse a quantity; raises ValueError with a readable message when it is not one."""
    if isinstance(value, bool):
        raise ValueError(f"quantity must be a number or string, not {value!r}")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError(f"invalid quantity {value!r}")
        return Fraction(str(value))
    if not isinstance(value, str):
        raise ValueError(f"quantity must be a number or string, not {type(value).__name__}")
    m = _RE.match(value.strip())
    if not m or len(value) > 64:
        raise ValueError(
            "quantities must match the regular expression "
            f"'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' (got {value[:64]!r})"
        )
    number = Fraction(m.group(1))
    suffix, exponent = m.group(2), m.group(3)
    if exponent is not None:
        e = int(exponent)
        if abs(e) > 30:
            raise ValueError(f"quantity exponent out of range in {value!r}")
        return number * Fraction(10) ** e
    if suffix in _BINARY:
        return number * _BINARY[suffix]
    return number * _DECIMAL[suffix or ""]


_MEMO: dict[str, Fraction | None] = {}


def try_quantity(value: object) -> Fraction | None:
    """:func:`parse_quantity`, or None when ``value`` is not a quantity. Strings are memoised (manifests
    repeat the same few: ``"2"``, ``8Gi``, ``500m``); Fractions are immutable, so sharing them is safe."""
    if type(value) is str:
        hit = _MEMO.get(value, _MISSING)
        if hit is not _MISSING:
            return hit  # type: ignore[return-value]
        try:
            q: Fraction | None = parse_quantity(value)
        except ValueError:
            q = None
        if len(_MEMO) < 8192:
            _MEMO[value] = q
        return q
    try:
        return parse_quantity(value)
    except ValueError:
        return None


_MISSING = object()


def format_quantity(q: Fraction) -> str:
    """Short human form: integers as-is, fractions of a CPU in millis."""
    if q.denominator == 1:
        return str(q.numerator)
    milli = q * 1000
    if milli.denominator == 1:
        return f"{milli.numerator}m"
    return f"{float(q):g}"
