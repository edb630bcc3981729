"""Lint configuration (``.gpupool.yaml``) and in-manifest suppressions (``gpupool.io/ignore``).

Config file (:mod:`gpupool.config`: found upward from the working directory, or ``--config``): lint reads
its ``lint:`` section over the file's global part (``rules``, ``ignore``, ``kubernetesVersion``, ``pools``)::

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

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpupool import config
from gpupool.findings import Severity

ANNOTATION = "gpupool.io/ignore"
LEVELS = config.LEVELS
LINT_FIELDS = config.LINT_FIELDS
IGNORE_FIELDS = config.IGNORE_FIELDS
CONFIG_NAME = config.CONFIG_NAME
IgnoreEntry = config.IgnoreEntry


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
class LintConfig:
    """What lint reads of ``.gpupool.yaml``: its ``lint:`` section over the global part (``rules``,
    ``ignore``, ``kubernetesVersion``, ``pools``)."""

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


def from_config(cfg: config.Config | None) -> LintConfig | None:
    """Lint's view of the run's config (None: no config)."""
    if cfg is None:
        return None
    sec = cfg.section("lint")
    return LintConfig(
        path=cfg.path,
        levels=sec.levels,
        ignores=sec.ignores,
        kubernetes_version=sec.kubernetes_version,
        strict=sec.strict,
        reject_unknown=sec.reject_unknown,
        crds=sec.crds,
        pools=sec.pools,
        exclude=sec.exclude,
    )


def find_config(start: Path | None = None) -> Path | None:
    """The nearest ``.gpupool.yaml`` in ``start`` (default: the working directory) or a parent."""
    return config.find(start)


def parse_config(data: Any, path: str) -> LintConfig:
    """Validate a loaded config document (all of it: :func:`gpupool.config.parse`) and return lint's view."""
    return from_config(config.parse(data, path)) or LintConfig(path=path)


def load_config(path: str | Path) -> LintConfig:
    return from_config(config.load(path)) or LintConfig(path=str(path))


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
    for entry, tokens, reason in config.ignore_entries(value):
        ids = []
        for t in tokens:
            rid = resolve_rule(t) if config.RULE_TOKEN.match(t) else None
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
