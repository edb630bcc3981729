"""The one configuration file, ``.gpupool.yaml``: a global part every command reads, a section per command.

Found upward from the working directory, or given with ``--config FILE`` (``--no-config``: none) — the same
two options on every command. Every key is checked: an unknown section or key, a wrong type or an unknown rule
is bad input (one line ``file:line``, exit 2) with a did-you-mean::

    kubernetesVersion: "1.34"   # the version assumed where neither a spec nor a cluster says one
    pools: [pools/]             # lint: pool specs to place workloads on (like --pool), relative to this file
    sizes:                      # VM sizes the catalog lacks (see catalog/declared.py)
    - {name: Standard_NC8ads_A10_v9, vcpus: 8, memoryGiB: 100, gpus: 1}
    rules:                      # any rule, ID or name -> error | warning | info | off
      GP128: off
      gpu-toleration-without-request: error
    ignore:                     # findings to leave out; a reason is required
    - rules: [GP126]            # optional: every rule when omitted
      path: "pools/legacy/*"    # optional globs on the file, and on the object the finding is about:
      kind: GpuNodePool         #   kind, namespace, name ("GpuNodePool gpunp", "Pod ns/name", "pool gpunp")
      name: "spot*"
      reason: legacy pools, replaced in Q1
    check:    {rules: ..., ignore: ..., exclude: [...]}
    plan:     {rules: ..., ignore: ..., exclude: [...]}
    lint:     {...}             # as before: kubernetesVersion, strict, crds, pools, rules, ignore, ...
    diff / simulate / doctor / preflight: {rules: ..., ignore: ...}  (simulate also exclude)
    render / report: {rules: ..., ignore: ..., exclude: [...]}

How they combine: a command's section adds to the global part (its ``rules`` win over the global ones for the
same rule; both ``ignore`` lists apply); command-line flags win over both (``--ignore``, ``-k``...).
``--disallow-ignores`` (lint) turns the ignore entries off.

This module only reads and applies: the CLI loads the file once per run (``cli/findings_options``), and the
findings pipeline leaves out or re-levels each command's findings with :meth:`Config.apply`.
"""

from __future__ import annotations

import contextlib
import difflib
import fnmatch
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.findings import Finding, Severity

CONFIG_NAME = ".gpupool.yaml"
LEVELS = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO, "off": None}
GLOBAL_FIELDS = ("kubernetesVersion", "pools", "sizes", "rules", "ignore")
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
SECTIONS: dict[str, tuple[str, ...]] = {
    "check": ("rules", "ignore", "exclude"),
    "plan": ("rules", "ignore", "exclude"),
    "lint": LINT_FIELDS,
    "diff": ("rules", "ignore"),
    "simulate": ("rules", "ignore", "exclude"),
    "doctor": ("rules", "ignore"),
    "preflight": ("rules", "ignore"),
    "render": ("rules", "ignore", "exclude"),
    "report": ("rules", "ignore", "exclude"),
}
IGNORE_FIELDS = ("rules", "kind", "namespace", "name", "path", "reason")
RULE_TOKEN = re.compile(r"^[A-Za-z][A-Za-z0-9-]*$")  # what may name a rule in an annotation
_ENTRY_SPLIT = re.compile(r"[;\n]")
_VERSION = re.compile(r"^1\.\d{1,3}(\.\d{1,4})?$")


# ---- small readers (every error one line, at the key's line) ---------------------------------------


def line_of(mapping: Any, key: Any, default: int | None) -> int | None:
    if isinstance(mapping, yamlio.LineDict) and key in mapping.key_pos:
        return mapping.key_pos[key][0]
    return default


def unknown_key(path: str, where: str, key: Any, allowed: Iterable[str], line: int | None) -> InputError:
    allowed = tuple(allowed)
    close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
    hint = f'did you mean "{close[0]}"?' if close else f"known: {', '.join(allowed)}"
    prefix = f"{where}: " if where else ""
    return InputError(path, line, f'{prefix}unknown field "{key}"', hint)


def mapping(path: str, value: Any, where: str, allowed: tuple[str, ...], line: int | None) -> dict:
    if not isinstance(value, dict):
        raise InputError(path, line, f"{where}: expected a mapping")
    for key in value:
        if key not in allowed:
            raise unknown_key(path, where, key, allowed, line_of(value, key, line))
    return value


def str_list(path: str, value: Any, where: str, line: int | None) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(path, line, f"{where}: expected a list of strings")
    return tuple(value)


def opt_str(path: str, m: dict, key: str, where: str, line: int | None) -> str | None:
    if m.get(key) is None:
        return None
    v = m[key]
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        v = str(v)
    if not isinstance(v, str):
        raise InputError(path, line_of(m, key, line), f"{where}.{key}: expected a string")
    return v


def any_rule(token: str) -> str | None:
    """A rule of any family by ID or name -> its ID."""
    from gpupool import rules

    info = rules.lookup(str(token))
    return info.id if info is not None else None


def rule_id(
    path: str,
    token: Any,
    where: str,
    line: int | None,
    resolve: Callable[[str], str | None] = any_rule,
    family: str = "rule",
) -> str:
    rid = resolve(str(token))
    if rid is None:
        from gpupool import rules

        elsewhere = any_rule(str(token)) if resolve is not any_rule else None
        if elsewhere is not None:
            raise InputError(
                path, line, f"{where}: {elsewhere} is not a {family}",
                "set it in the global rules: or ignore: (every command), or in its command's section",
            )
        infos = None if resolve is any_rule else rules.family("gpupool.lint.rules")
        close = rules.closest(str(token), infos)
        hint = f'did you mean "{close}"?' if close else "list the rules with: gpupool rules"
        raise InputError(path, line, f"{where}: unknown {family} {str(token)!r}", hint)
    return rid


# ---- rules: and ignore: ---------------------------------------------------------------------------


@dataclass(frozen=True)
class IgnoreEntry:
    """One ``ignore:`` entry: which rules (None: every rule), on which files and objects, and why."""

    reason: str
    rules: frozenset[str] | None = None
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
        """``obj`` is (kind, namespace, name); namespace "" when there is none."""
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


def parse_levels(
    path: str,
    value: Any,
    where: str,
    line: int | None,
    resolve: Callable[[str], str | None] = any_rule,
    family: str = "rule",
) -> dict[str, Severity | None]:
    """``rules:`` — rule ID or name -> error | warning | info | off (None)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(path, line, f"{where}: expected a mapping of rule -> error|warning|info|off")
    levels: dict[str, Severity | None] = {}
    for key, level in value.items():
        kline = line_of(value, key, line)
        rid = rule_id(path, key, where, kline, resolve, family)
        lv = "off" if level is False else str(level).lower()
        if lv not in LEVELS:
            raise InputError(path, kline, f"{where}.{key}: {level!r} is not one of error, warning, info, off")
        levels[rid] = LEVELS[lv]
    return levels


def parse_ignores(
    path: str,
    value: Any,
    where: str,
    line: int | None,
    resolve: Callable[[str], str | None] = any_rule,
    family: str = "rule",
) -> tuple[IgnoreEntry, ...]:
    """``ignore:`` — a list of entries, each with a reason."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InputError(path, line, f"{where}: expected a list of entries")
    out: list[IgnoreEntry] = []
    for i, entry in enumerate(value):
        eline = entry.line if isinstance(entry, yamlio.LineDict) else line
        at = f"{where}[{i}]"
        m = mapping(path, entry, at, IGNORE_FIELDS, eline)
        reason = opt_str(path, m, "reason", at, eline)
        if not reason or not reason.strip():
            raise InputError(path, eline, f"{at}: a reason is required", "say why the finding is acceptable")
        rules_set = None
        if m.get("rules") is not None:
            rline = line_of(m, "rules", eline)
            rules_set = frozenset(
                rule_id(path, t, f"{at}.rules", rline, resolve, family)
                for t in str_list(path, m["rules"], f"{at}.rules", rline)
            )
        out.append(
            IgnoreEntry(
                reason=reason.strip(),
                rules=rules_set,
                kind=opt_str(path, m, "kind", at, eline),
                namespace=opt_str(path, m, "namespace", at, eline),
                name=opt_str(path, m, "name", at, eline),
                path=opt_str(path, m, "path", at, eline),
                line=eline,
            )
        )
    return tuple(out)


def ignore_entries(value: str) -> list[tuple[str, list[str], str]]:
    """A ``gpupool.io/ignore`` annotation's entries (separated by ``;`` or new lines), each as (the entry,
    its rule tokens, its reason): ``"GP301,GP305 vendor chart; name: why"`` ->
    [("GP301,GP305 vendor chart", ["GP301", "GP305"], "vendor chart"), ("name: why", ["name"], "why")].
    Manifests (lint) and pool specs read the same words; what an entry lacks is each caller's to judge."""
    out = []
    for raw in _ENTRY_SPLIT.split(value):
        entry = raw.strip()
        if not entry:
            continue
        head, _, reason = entry.partition(" ")
        if ":" in head:  # "name: reason" / "GP308:reason"
            head, _, reason = entry.partition(":")
        out.append((entry, [t.strip() for t in head.split(",") if t.strip()], reason.strip()))
    return out


def object_ident(obj: str | None) -> tuple[str, str, str] | None:
    """A finding's ``object`` ("Deployment ml/train", "GpuNodePool gpunp", "pool gpunp") as
    (kind, namespace, name)."""
    if not obj:
        return None
    kind, _, rest = obj.partition(" ")
    rest = rest.strip()
    if " " in rest:  # "Pod ml/x (role)": the name is the first word
        rest = rest.split(" ", 1)[0]
    ns, _, name = rest.rpartition("/")
    return (kind, ns, name)


# ---- the file -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """What one command reads: the global part with its own section over it."""

    levels: dict[str, Severity | None] = field(default_factory=dict)
    ignores: tuple[IgnoreEntry, ...] = ()
    exclude: tuple[str, ...] = ()
    # lint's own (None: not given)
    kubernetes_version: str | None = None
    strict: bool | None = None
    reject_unknown: bool | None = None
    crds: tuple[str, ...] = ()
    pools: tuple[str, ...] = ()


@dataclass(frozen=True)
class Config:
    path: str | None = None
    data: Any = None  # the document as read (the lint section is parsed by lint/config.py)
    kubernetes_version: str | None = None
    pools: tuple[str, ...] = ()  # relative to the file, made absolute
    levels: dict[str, Severity | None] = field(default_factory=dict)
    ignores: tuple[IgnoreEntry, ...] = ()
    sections: dict[str, Section] = field(default_factory=dict)

    @property
    def base_dir(self) -> Path | None:
        return Path(self.path).parent if self.path else None

    def section(self, command: str) -> Section:
        own = self.sections.get(command, Section())
        return Section(
            levels={**self.levels, **own.levels},
            ignores=self.ignores + own.ignores,
            exclude=own.exclude,
            kubernetes_version=own.kubernetes_version or self.kubernetes_version,
            strict=own.strict,
            reject_unknown=own.reject_unknown,
            crds=own.crds,
            pools=own.pools or self.pools,
        )

    def apply(self, command: str, findings: Iterable[Finding]) -> tuple[list[Finding], int]:
        """``command``'s findings with the ``ignore`` entries left out and ``rules`` levels applied; and how
        many were left out."""
        sec = self.section(command)
        return apply(findings, sec.levels, sec.ignores, self.base_dir)


def apply(
    findings: Iterable[Finding],
    levels: dict[str, Severity | None],
    ignores: tuple[IgnoreEntry, ...],
    base_dir: Path | None = None,
) -> tuple[list[Finding], int]:
    kept: list[Finding] = []
    dropped = 0
    for f in findings:
        if ignores and any(e.matches(f.rule, f.path, object_ident(f.object), base_dir) for e in ignores):
            dropped += 1
            continue
        if f.rule in levels:
            sev = levels[f.rule]
            if sev is None:
                dropped += 1
                continue
            f = f.with_severity(sev)
        kept.append(f)
    return kept, dropped


def find(start: Path | None = None) -> Path | None:
    """The nearest ``.gpupool.yaml`` in ``start`` (default: the working directory) or a parent."""
    here = (start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        candidate = d / CONFIG_NAME
        if candidate.is_file():
            return candidate
    return None


def version_text(path: str, value: Any, where: str, line: int | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        raise InputError(path, line, f'{where}: write the version as a quoted string, e.g. "{value}"')
    if not isinstance(value, str) or not _VERSION.match(value.strip()):
        raise InputError(
            path, line, f'{where}: {str(value)[:40]!r} is not a Kubernetes version such as "1.34"'
        )
    return value.strip()


def lint_rule(token: str) -> str | None:
    """A lint rule (GP2xx, GP3xx) by ID or name -> its ID."""
    from gpupool import rules

    for r in rules.family("gpupool.lint.rules"):
        if token.upper() == r.id or token.lower() == r.name:
            return r.id
    return None


def _section(path: str, name: str, value: Any, line: int | None) -> Section:
    sec = mapping(path, value, name, SECTIONS[name], line)
    lint = name == "lint"
    resolve, family = (lint_rule, "lint rule") if lint else (any_rule, "rule")

    def flag(key: str) -> bool | None:
        if sec.get(key) is None:
            return None
        if not isinstance(sec[key], bool):
            raise InputError(path, line_of(sec, key, line), f"{name}.{key}: expected true or false")
        return sec[key]

    def paths(key: str) -> tuple[str, ...]:
        if sec.get(key) is None:
            return ()
        items = str_list(path, sec[key], f"{name}.{key}", line_of(sec, key, line))
        return tuple(str(Path(path).parent / p) for p in items)

    return Section(
        levels=parse_levels(
            path, sec.get("rules"), f"{name}.rules", line_of(sec, "rules", line), resolve, family
        ),
        ignores=parse_ignores(
            path, sec.get("ignore"), f"{name}.ignore", line_of(sec, "ignore", line), resolve, family
        ),
        exclude=(
            str_list(path, sec["exclude"], f"{name}.exclude", line_of(sec, "exclude", line))
            if sec.get("exclude") is not None
            else ()
        ),
        kubernetes_version=version_text(
            path,
            sec.get("kubernetesVersion"),
            f"{name}.kubernetesVersion",
            line_of(sec, "kubernetesVersion", line),
        ),
        strict=flag("strict"),
        reject_unknown=flag("requireSchemas" if sec.get("requireSchemas") is not None else "rejectUnknown"),
        crds=paths("crds"),
        pools=paths("pools"),
    )


def parse(data: Any, path: str) -> Config:
    """Validate a loaded config document (every key of every section, and the ``sizes``) and return it."""
    if data is None:
        return Config(path=path)
    if not isinstance(data, dict):
        raise InputError(
            path,
            1,
            "expected a mapping at the top level (kubernetesVersion, rules, ignore, "
            "sizes, or a section per command such as lint:)",
        )
    known = (*GLOBAL_FIELDS, *SECTIONS)
    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
            hint = (
                f'did you mean "{close[0]}"?'
                if close
                else f"the global keys are {', '.join(GLOBAL_FIELDS)}; the sections: {', '.join(SECTIONS)}"
            )
            raise InputError(path, line_of(data, key, 1), f'unknown section or key "{key}"', hint)
    sections = {
        name: _section(path, name, data[name], line_of(data, name, 1))
        for name in SECTIONS
        if data.get(name) is not None
    }
    pools: tuple[str, ...] = ()
    if data.get("pools") is not None:
        base = Path(path).parent
        pools = tuple(
            str(base / p) for p in str_list(path, data["pools"], "pools", line_of(data, "pools", 1))
        )
    if data.get("sizes") is not None:
        from gpupool.catalog.declared import parse_sizes

        parse_sizes(data, path)  # validated now; added to the catalog by :func:`use`
    return Config(
        path=path,
        data=data,
        kubernetes_version=version_text(
            path, data.get("kubernetesVersion"), "kubernetesVersion", line_of(data, "kubernetesVersion", 1)
        ),
        pools=pools,
        levels=parse_levels(path, data.get("rules"), "rules", line_of(data, "rules", 1)),
        ignores=parse_ignores(path, data.get("ignore"), "ignore", line_of(data, "ignore", 1)),
        sections=sections,
    )


def load(path: str | Path) -> Config:
    """Read and validate ``path`` (one YAML document; duplicate keys are errors)."""
    docs = [d for d in yamlio.load_file(path) if d.data is not None]
    if len(docs) > 1:
        raise InputError(str(path), docs[1].line, "expected one YAML document")
    if docs and docs[0].duplicates:
        d = docs[0].duplicates[0]
        raise InputError(str(path), d.line, f'duplicate key "{d.key}" (first at line {d.first_line})')
    return parse(docs[0].data if docs else None, str(path))


def resolve(config: str | Path | None = None, no_config: bool = False) -> Config | None:
    """The run's config: ``--config FILE``, else the nearest ``.gpupool.yaml``, else none (``--no-config``:
    none)."""
    if no_config and config is not None:
        raise InputError(None, None, "--config and --no-config: give one of them")
    if no_config:
        return None
    if config is not None:
        return load(config)
    found = find()
    return load(found) if found else None
