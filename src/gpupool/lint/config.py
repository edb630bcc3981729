"""Lint configuration (``.gpupool.yaml``) and in-manifest suppressions (``gpupool.io/ignore``).

Config file, found upward from the working directory (or given with ``--config``); only its ``lint:``
section is read here (other commands may own other sections)::

    lint:
      kubernetesVersion: "1.33"     # like -k
      strict: true                  # like --strict / --no-strict
      rejectUnknown: false          # like --reject-unknown
      crds: [crds/]                 # like --crd, relative to this file
      pools: [pools/gpu.yaml]       # like --pool, relative to this file
      exclude: ["vendor/**", "*.tmpl.yaml"]   # like --exclude (globs on paths under the inputs)
      requireSchemas: false         # like --require-schemas
      rules:                        # rule ID or name -> error | warning | info | off
        GP308: error
        cuda-image-newer-than-driver: warning
      ignore:                       # for objects you cannot annotate (third-party charts)
      - rules: [GP305]              # optional: all rules when omitted
        kind: DaemonSet             # optional glob
        namespace: kube-system      # optional glob
        name: "nvidia-*"            # optional glob
        path: "vendor/*"            # optional glob on the file path
        reason: upstream chart, tolerations patched at install time   # required

Command-line flags win over the file. ``--disallow-ignores`` turns off both the ``ignore`` entries and the
annotations (rule levels still apply).

Annotation, on the object or on its pod template (several entries separated by ``;`` or new lines); an
entry is a rule ID or name, optionally followed by the reason (``ID reason`` or ``name: reason``)::

    gpupool.io/ignore: "GP308 warms the GPU pool before the batch window; GP311 image pinned by vendor"
    gpupool.io/ignore: "gpu-toleration-without-request: warms the pool"
    gpupool.io/ignore: GP308
"""

from __future__ import annotations

import contextlib
import difflib
import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.findings import Severity

CONFIG_NAME = ".gpupool.yaml"
ANNOTATION = "gpupool.io/ignore"
LEVELS = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO, "off": None}
LINT_FIELDS = (
    "kubernetesVersion",
    "strict",
    "rejectUnknown",
    "requireSchemas",
    "crds",
    "pools",
    "rules",
    "ignore",
    "exclude",
)
IGNORE_FIELDS = ("rules", "kind", "namespace", "name", "path", "reason")
_ENTRY_SPLIT = re.compile(r"[;\n]")
_RULE_TOKEN = re.compile(r"^[A-Za-z][A-Za-z0-9-]*$")


def lint_rule_ids() -> dict[str, str]:
    """Lint rule IDs and names -> ID (GP2xx and GP3xx)."""
    from gpupool import rules

    out: dict[str, str] = {}
    for r in rules.family("gpupool.lint.rules"):
        out[r.id] = r.id
        out[r.name] = r.id
    return out


def resolve_rule(token: str) -> str | None:
    known = lint_rule_ids()
    return known.get(token.upper()) or known.get(token.lower())


@dataclass(frozen=True)
class IgnoreEntry:
    reason: str
    rules: frozenset[str] | None = None  # None: every rule
    kind: str | None = None
    namespace: str | None = None
    name: str | None = None
    path: str | None = None
    line: int | None = None

    @property
    def needs_object(self) -> bool:
        return any(x is not None for x in (self.kind, self.namespace, self.name))

    def matches(
        self, rule: str, path: str | None, obj: tuple[str, str, str] | None, base_dir: Path | None = None
    ) -> bool:
        """``obj`` is (kind, namespace, name); namespace "" when the manifest sets none."""
        if self.rules is not None and rule not in self.rules:
            return False
        if self.path is not None:
            if path is None:
                return False
            candidates = [path]
            if base_dir is not None:
                with contextlib.suppress(ValueError, OSError):
                    candidates.append(str(Path(path).resolve().relative_to(base_dir.resolve())))
            if not any(fnmatch.fnmatchcase(c, self.path) for c in candidates):
                return False
        if self.needs_object:
            if obj is None:
                return False
            for pattern, value in ((self.kind, obj[0]), (self.namespace, obj[1]), (self.name, obj[2])):
                if pattern is not None and not fnmatch.fnmatchcase(value, pattern):
                    return False
        return True


@dataclass(frozen=True)
class LintConfig:
    path: str | None = None
    levels: dict[str, Severity | None] = field(default_factory=dict)  # rule ID -> severity (None = off)
    ignores: tuple[IgnoreEntry, ...] = ()
    kubernetes_version: str | None = None
    strict: bool | None = None
    reject_unknown: bool | None = None
    crds: tuple[str, ...] = ()
    pools: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()  # globs, as written (matched against paths relative to each input)

    @property
    def base_dir(self) -> Path | None:
        return Path(self.path).parent if self.path else None


def find_config(start: Path | None = None) -> Path | None:
    """The nearest ``.gpupool.yaml`` in ``start`` (default: the working directory) or a parent."""
    here = (start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        candidate = d / CONFIG_NAME
        if candidate.is_file():
            return candidate
    return None


def _line(mapping: Any, key: Any, default: int | None) -> int | None:
    if isinstance(mapping, yamlio.LineDict) and key in mapping.key_pos:
        return mapping.key_pos[key][0]
    return default


def _mapping(path: str, value: Any, where: str, allowed: tuple[str, ...], line: int | None) -> dict:
    if not isinstance(value, dict):
        raise InputError(path, line, f"{where}: expected a mapping")
    for key in value:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
            hint = f'did you mean "{close[0]}"?' if close else f"known: {', '.join(allowed)}"
            raise InputError(path, _line(value, key, line), f'{where}: unknown field "{key}"', hint)
    return value


def _str_list(path: str, value: Any, where: str, line: int | None) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(path, line, f"{where}: expected a list of strings")
    return tuple(value)


def _opt_str(path: str, m: dict, key: str, where: str, line: int | None) -> str | None:
    if m.get(key) is None:
        return None
    v = m[key]
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        v = str(v)
    if not isinstance(v, str):
        raise InputError(path, _line(m, key, line), f"{where}.{key}: expected a string")
    return v


def _rule_id(path: str, token: Any, where: str, line: int | None) -> str:
    rid = resolve_rule(str(token))
    if rid is None:
        known = sorted(lint_rule_ids())
        close = difflib.get_close_matches(str(token), known, n=1, cutoff=0.6)
        hint = (
            f'did you mean "{close[0]}"?'
            if close
            else "see gpupool explain for the lint rules (GP2xx, GP3xx)"
        )
        raise InputError(path, line, f"{where}: unknown lint rule {str(token)!r}", hint)
    return rid


def parse_config(data: Any, path: str) -> LintConfig:
    """Validate the ``lint:`` section of a loaded config document."""
    if data is None:
        return LintConfig(path=path)
    if not isinstance(data, dict):
        raise InputError(path, 1, "expected a mapping at the top level (with a 'lint:' section)")
    if data.get("lint") is None:
        return LintConfig(path=path)
    top_line = _line(data, "lint", 1)
    lint = _mapping(path, data["lint"], "lint", LINT_FIELDS, top_line)
    levels: dict[str, Severity | None] = {}
    if lint.get("rules") is not None:
        rules_line = _line(lint, "rules", top_line)
        rules = lint["rules"]
        if not isinstance(rules, dict):
            raise InputError(
                path, rules_line, "lint.rules: expected a mapping of rule -> error|warning|info|off"
            )
        for key, level in rules.items():
            kline = _line(rules, key, rules_line)
            rid = _rule_id(path, key, "lint.rules", kline)
            lv = "off" if level is False else str(level).lower()
            if lv not in LEVELS:
                raise InputError(
                    path, kline, f"lint.rules.{key}: {level!r} is not one of error, warning, info, off"
                )
            levels[rid] = LEVELS[lv]
    ignores: list[IgnoreEntry] = []
    if lint.get("ignore") is not None:
        iline = _line(lint, "ignore", top_line)
        if not isinstance(lint["ignore"], list):
            raise InputError(path, iline, "lint.ignore: expected a list of entries")
        for i, entry in enumerate(lint["ignore"]):
            eline = entry.line if isinstance(entry, yamlio.LineDict) else iline
            where = f"lint.ignore[{i}]"
            m = _mapping(path, entry, where, IGNORE_FIELDS, eline)
            reason = _opt_str(path, m, "reason", where, eline)
            if not reason or not reason.strip():
                raise InputError(
                    path, eline, f"{where}: a reason is required", "say why the finding is acceptable"
                )
            rules_set = None
            if m.get("rules") is not None:
                rline = _line(m, "rules", eline)
                rules_set = frozenset(
                    _rule_id(path, t, f"{where}.rules", rline)
                    for t in _str_list(path, m["rules"], f"{where}.rules", rline)
                )
            ignores.append(
                IgnoreEntry(
                    reason=reason.strip(),
                    rules=rules_set,
                    kind=_opt_str(path, m, "kind", where, eline),
                    namespace=_opt_str(path, m, "namespace", where, eline),
                    name=_opt_str(path, m, "name", where, eline),
                    path=_opt_str(path, m, "path", where, eline),
                    line=eline,
                )
            )
    base = Path(path).parent

    def paths(key: str) -> tuple[str, ...]:
        if lint.get(key) is None:
            return ()
        items = _str_list(path, lint[key], f"lint.{key}", _line(lint, key, top_line))
        return tuple(str(base / p) for p in items)

    def flag(key: str) -> bool | None:
        if lint.get(key) is None:
            return None
        if not isinstance(lint[key], bool):
            raise InputError(path, _line(lint, key, top_line), f"lint.{key}: expected true or false")
        return lint[key]

    version = lint.get("kubernetesVersion")
    if version is not None and not isinstance(version, str):
        raise InputError(
            path,
            _line(lint, "kubernetesVersion", top_line),
            f'lint.kubernetesVersion: write the version as a quoted string, e.g. "{version}"',
        )
    return LintConfig(
        path=path,
        levels=levels,
        ignores=tuple(ignores),
        kubernetes_version=version,
        strict=flag("strict"),
        reject_unknown=flag("requireSchemas" if lint.get("requireSchemas") is not None else "rejectUnknown"),
        crds=paths("crds"),
        exclude=(
            _str_list(path, lint["exclude"], "lint.exclude", _line(lint, "exclude", top_line))
            if lint.get("exclude") is not None
            else ()
        ),
        pools=paths("pools"),
    )


def load_config(path: str | Path) -> LintConfig:
    docs = [d for d in yamlio.load_file(path) if d.data is not None]
    if len(docs) > 1:
        raise InputError(str(path), docs[1].line, "expected one YAML document")
    if docs and docs[0].duplicates:
        d = docs[0].duplicates[0]
        raise InputError(str(path), d.line, f'duplicate key "{d.key}" (first at line {d.first_line})')
    return parse_config(docs[0].data if docs else None, str(path))


# ---- annotations -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Suppressions:
    rules: dict[str, str]  # rule ID -> reason
    problems: tuple[str, ...]  # what was wrong with the entries that are not honoured


def parse_ignore_annotation(value: Any) -> Suppressions:
    """``"GP301,GP305 reason; gpu-toleration-without-request: why; GP311"`` -> {GP301: reason, GP305: reason,
    GP308: why, GP311: "(no reason given)"}: an entry is an ID or name, then optionally its reason."""
    if not isinstance(value, str):
        return Suppressions({}, (f'{ANNOTATION} must be a string such as "GP308 <reason>"',))
    rules: dict[str, str] = {}
    problems: list[str] = []
    for raw in _ENTRY_SPLIT.split(value):
        entry = raw.strip()
        if not entry:
            continue
        head, _, reason = entry.partition(" ")
        reason = reason.strip()
        if ":" in head:  # "name: reason" / "GP308:reason"
            head, _, rest = entry.partition(":")
            reason = rest.strip()
        tokens = [t.strip() for t in head.split(",") if t.strip()]
        ids = []
        for t in tokens:
            rid = resolve_rule(t) if _RULE_TOKEN.match(t) else None
            if rid is None:
                problems.append(f"{ANNOTATION}: unknown rule {t[:40]!r}")
            else:
                ids.append(rid)
        if not ids:
            if not tokens:
                problems.append(f"{ANNOTATION}: entry {entry[:40]!r} names no rule")
            continue
        reason = reason or "(no reason given)"
        for rid in ids:
            rules[rid] = reason
    return Suppressions(rules, tuple(problems))
