"""``gpupool explain RULE`` (one rule's documentation) and ``gpupool rules`` (every rule, all families)."""

from __future__ import annotations

import difflib
from pathlib import Path

import typer

from gpupool.cli.common import Format, guard
from gpupool.errors import InputError
from gpupool.report import jsonout
from gpupool.ruledocs import family_of, render_doc
from gpupool.rules import RuleInfo, all_rules, lookup

__all__ = ["family_of", "find_rule", "register", "render_doc", "rule_dict"]

EXPLAIN_HELP = "\n\n".join(
    (
        "Print a rule's documentation: what it checks, why, how to fix it, the source of the fact (with its "
        "date), and a failing and a passing example.",
        "RULE is an ID such as GP105 or a name such as retired-vm-size; gpupool rules lists them all. "
        "Two topics explain what every verdict rests on: gpupool explain severity (severity follows "
        "evidence) and gpupool explain kubernetes-version (AKS's default when a spec states none).",
    )
)

RULES_HELP = "\n\n".join(
    (
        "List every rule gpupool knows, in all families: GP1xx design (gpupool check), GP2xx/GP3xx lint, "
        "GP4xx diff, GP5xx simulate, GP6xx doctor, GP7xx preflight, GP8xx NodePools (check, plan); with ID, "
        "severity, name and summary.",
        "The severity shown is the highest a rule reports; some rules report a lower level for cases that "
        "rest on unverified facts. Read one rule in full with gpupool explain ID. --write-docs DIR writes "
        "every rule's documentation as Markdown (DIR/GPxxx.md and an index, DIR/README.md), as in the "
        "repository's docs/rules.",
    )
)


def find_rule(key: str) -> RuleInfo:
    """Rule by ID or name; unknown -> InputError with the closest IDs or names."""
    info = lookup(key)
    if info is not None:
        return info
    rules = all_rules()
    names = {r.name: r.id for r in rules.values()}
    probe = key.strip()
    close = difflib.get_close_matches(probe.upper(), list(rules), n=3, cutoff=0.6)
    digits = probe.upper()[:2] + probe.upper()[2:].translate(str.maketrans("OIL", "011"))
    if digits in rules:  # GP1O5 -> GP105 first: letters typed for digits
        close = [digits, *(c for c in close if c != digits)][:3]
    close += [n for n in difflib.get_close_matches(probe.lower(), list(names), n=3, cutoff=0.6)]
    hint = f"did you mean {', '.join(close)}?" if close else "list the rules with: gpupool rules"
    raise InputError(None, None, f'unknown rule "{probe}"', hint)


def rule_dict(r: RuleInfo, with_doc: bool = False) -> dict:
    d = {
        "id": r.id,
        "name": r.name,
        "severity": r.severity.value,
        "summary": r.summary,
        "family": family_of(r),
    }
    if with_doc:
        d["doc"] = r.doc
    return d


def render_table(rules: list[RuleInfo]) -> str:
    if not rules:
        return "no rules\n"
    name_w = max(len(r.name) for r in rules)
    lines = [f"{'ID':<6} {'SEVERITY':<8} {'NAME':<{name_w}}  SUMMARY"]
    for r in rules:
        lines.append(f"{r.id:<6} {r.severity.value:<8} {r.name:<{name_w}}  {r.summary}")
    return "\n".join(lines) + "\n"


def register(app: typer.Typer) -> None:
    @app.command("explain", help=EXPLAIN_HELP)
    @guard
    def explain(
        rule: str = typer.Argument(..., metavar="RULE", help="Rule ID (GP105) or name (retired-vm-size).",
                                   show_default=False),
        output: Format = typer.Option(Format.text, "-o", "--output", help="text, or json with the doc text."),
    ) -> None:
        from gpupool.design.policy import TOPICS

        topic = TOPICS.get(rule.strip().lower())
        if topic is not None:  # the policies every verdict rests on: severity, kubernetes-version
            text = topic()
            if output is Format.json:
                typer.echo(jsonout.dumps({"topic": rule.strip().lower(), "text": text}))
            else:
                typer.echo(text, nl=False)
            return
        info = find_rule(rule)
        if output is Format.json:
            typer.echo(jsonout.dumps({"rule": rule_dict(info, with_doc=True)}))
        else:
            typer.echo(render_doc(info), nl=False)

    @app.command("rules", help=RULES_HELP)
    @guard
    def rules(
        output: Format = typer.Option(Format.text, "-o", "--output", help="text table, or json."),
        write_docs: Path | None = typer.Option(
            None, "--write-docs", metavar="DIR", file_okay=False,
            help="Write every rule's documentation as Markdown into DIR (GPxxx.md and README.md) and exit.",
        ),
    ) -> None:
        if write_docs is not None:
            from gpupool.ruledocs import write_docs as write

            changed, removed = write(write_docs)
            typer.echo(f"{write_docs}: {len(changed)} written or changed, {len(removed)} removed "
                       f"({len(all_rules())} rules)")
            return
        listed = sorted(all_rules().values(), key=lambda r: r.id)
        if output is Format.json:
            typer.echo(jsonout.dumps({"rules": [rule_dict(r) for r in listed]}))
        else:
            typer.echo(render_table(listed), nl=False)
