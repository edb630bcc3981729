"""Name and value formats of the API server (k8s.io/apimachinery/pkg/util/validation), written from its rules.

Each checker returns ``None`` when the value is valid, else the server's reason text (the part after
``Invalid value: "x": ``). Results are memoised per string: manifests repeat the same few names.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_LABEL_RE = re.compile(_LABEL)
DNS1123_SUBDOMAIN_RE = re.compile(rf"{_LABEL}(\.{_LABEL})*")
DNS1035_LABEL_RE = re.compile("[a-z]([-a-z0-9]*[a-z0-9])?")
QUALIFIED_NAME_RE = re.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
LABEL_VALUE_RE = re.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?")
CONFIG_KEY_RE = re.compile("[-._a-zA-Z0-9]+")
ENV_NAME_STRICT_RE = re.compile("[-._a-zA-Z][-._a-zA-Z0-9]*")
ENV_NAME_RELAXED_RE = re.compile("[\x20-\x3c\x3e-\x7e]+")  # printable ASCII but '='
IANA_SVC_NAME_RE = re.compile("[-a-z0-9]+")
_HAS_LETTER = re.compile("[a-z]")

DNS1123_LABEL_MAX = 63
DNS1123_SUBDOMAIN_MAX = 253
QUALIFIED_NAME_MAX = 63
LABEL_VALUE_MAX = 63
CONFIG_KEY_MAX = DNS1123_SUBDOMAIN_MAX

_LABEL_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
    "and end with an alphanumeric character (e.g. 'my-name', or '123-abc')"
)
_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
    "must start and end with an alphanumeric character (e.g. 'example.com')"
)
_DNS1035_MSG = (
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
    "character, and end with an alphanumeric character (e.g. 'my-name', or 'abc-123')"
)


class _Memo(dict):
    """value -> verdict; a miss computes it (``__missing__``), a hit is one C-level dict lookup."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[str], str | None]) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, value: str) -> str | None:
        out = self.fn(value)
        if len(self) >= 50_000:
            self.clear()
        self[value] = out
        return out


def _memo(fn: Callable[[str], str | None]) -> Callable[[str], str | None]:
    """The checker, memoised per string: the bound ``__getitem__`` of a :class:`_Memo`."""
    return _Memo(fn).__getitem__


@_memo
def dns1123_label(value: str) -> str | None:
    """RFC 1123 label: 1-63 lower-case alphanumerics or '-', alphanumeric at both ends."""
    if len(value) > DNS1123_LABEL_MAX:
        return f"must be no more than {DNS1123_LABEL_MAX} characters"
    if not DNS1123_LABEL_RE.fullmatch(value):
        if DNS1123_SUBDOMAIN_RE.fullmatch(value):
            return "must not contain dots"
        return _LABEL_MSG
    return None


@_memo
def dns1123_subdomain(value: str) -> str | None:
    """RFC 1123 subdomain: dot-separated labels, at most 253 characters."""
    if len(value) > DNS1123_SUBDOMAIN_MAX:
        return f"must be no more than {DNS1123_SUBDOMAIN_MAX} characters"
    if not DNS1123_SUBDOMAIN_RE.fullmatch(value):
        return _SUBDOMAIN_MSG
    return None


@_memo
def dns1035_label(value: str) -> str | None:
    """RFC 1035 label: an RFC 1123 label that starts with a letter."""
    if len(value) > DNS1123_LABEL_MAX:
        return f"must be no more than {DNS1123_LABEL_MAX} characters"
    if not DNS1035_LABEL_RE.fullmatch(value):
        return _DNS1035_MSG
    return None


@_memo
def path_segment(value: str) -> str | None:
    """Any name that can be one segment of a URL path (RBAC objects, PodDisruptionBudgets; every object)."""
    if value in (".", ".."):
        return f"may not be '{value}'"
    for bad in ("/", "%"):
        if bad in value:
            return f"may not contain '{bad}'"
    return None


def prefixed(check: Callable[[str], str | None]) -> Callable[[str], str | None]:
    """The same rule for a ``generateName`` prefix: a trailing '-' is allowed (a suffix follows)."""

    def for_prefix(value: str) -> str | None:
        if value.endswith("-"):
            value = value[:-1] + "a"
        return check(value)

    return for_prefix


@_memo
def qualified_name(value: str) -> str | None:
    """A label or annotation key: ``[prefix/]name``, prefix an RFC 1123 subdomain, name 1-63 characters."""
    name = value
    if "/" in value:
        prefix, _, name = value.rpartition("/")
        if "/" in prefix:
            return (
                "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start "
                "and end with an alphanumeric character, with an optional DNS subdomain prefix and '/'"
            )
        if not prefix:
            return "prefix part must be non-empty"
        bad = dns1123_subdomain(prefix)
        if bad:
            return f"prefix part {bad}"
    if not name:
        return "name part must be non-empty"
    if len(name) > QUALIFIED_NAME_MAX:
        return f"name part must be no more than {QUALIFIED_NAME_MAX} bytes"
    if not QUALIFIED_NAME_RE.fullmatch(name):
        return (
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
            "with an alphanumeric character (e.g. 'MyName', or 'my.name', or '123-abc')"
        )
    return None


@_memo
def label_value(value: str) -> str | None:
    """A label value: empty, or up to 63 alphanumerics, '-', '_', '.', alphanumeric at both ends."""
    if len(value) > LABEL_VALUE_MAX:
        return f"must be no more than {LABEL_VALUE_MAX} bytes"
    if not LABEL_VALUE_RE.fullmatch(value):
        return (
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
            "and must start and end with an alphanumeric character (e.g. 'MyValue', or 'my_value', or "
            "'12345')"
        )
    return None


@_memo
def config_key(value: str) -> str | None:
    """A ConfigMap or Secret key: a file name (alphanumerics, '-', '_', '.'), not '.' or '..'."""
    if len(value) > CONFIG_KEY_MAX:
        return f"must be no more than {CONFIG_KEY_MAX} characters"
    if not CONFIG_KEY_RE.fullmatch(value):
        return (
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name', "
            "or 'KEY_NAME', or 'key-name')"
        )
    if value == ".":
        return "must not be '.'"
    if value == "..":
        return "must not be '..'"
    if value.startswith(".."):
        return "must not start with '..'"
    return None


@_memo
def env_name_strict(value: str) -> str | None:
    """An environment variable name before the relaxed rule: a C identifier that may hold '-' and '.'."""
    if not ENV_NAME_STRICT_RE.fullmatch(value):
        return (
            "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or "
            "'.', and must not start with a digit"
        )
    return None


@_memo
def env_name_relaxed(value: str) -> str | None:
    """An environment variable name under the relaxed rule: printable ASCII except '='."""
    if not ENV_NAME_RELAXED_RE.fullmatch(value):
        return (
            "a valid environment variable name must consist only of printable ASCII characters other than '='"
        )
    return None


@_memo
def port_name(value: str) -> str | None:
    """A container port name (IANA service name): 1-15 lower-case alphanumerics or '-', at least one
    letter, no '-' at either end or twice in a row."""
    if len(value) > 15:
        return "must be no more than 15 characters"
    if not IANA_SVC_NAME_RE.fullmatch(value):
        return "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"
    if "--" in value:
        return "must not contain consecutive hyphens"
    if not _HAS_LETTER.search(value):
        return "must contain at least one letter (a-z)"
    if value.startswith("-") or value.endswith("-"):
        return "must not begin or end with a hyphen"
    return None
