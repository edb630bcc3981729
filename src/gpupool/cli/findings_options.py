"""The one findings pipeline: the options and the ending every command that yields findings shares.

check, plan, lint, diff, simulate, doctor and preflight each declare their own inputs and then::

    @app.command("check")
    @guard
    @findings_options("check")
    def check(..., opts: FindingsOptions) -> None:
        ...
        finish(opts, Report(findings, families=..., text=..., json=...))

:func:`findings_options` adds the same options to every such command — ``-o/--output
text|json|sarif|junit|github``, ``--output-file FILE``, ``--fail-on``, ``--exit-zero``, ``--severity``,
``--fail-if-empty`` — and :func:`finish` renders, writes and exits the same way everywhere:

- ``--severity`` is a display filter: only findings at or above it are shown (every format); the exit code
  still counts every finding.
- ``--output-file FILE`` writes the chosen format to FILE atomically (a temporary file in the same directory,
  then a rename: nothing half-written); with a machine format the text report still goes to stdout, so a CI
  log shows the findings of the same run.
- Exit codes (:data:`EXIT_CODES`, the README's table): 0 clean, 1 a finding at or above ``--fail-on``
  (``--exit-zero``: 0), 2 unusable input or environment, 3 internal error, 4 nothing to check with
  ``--fail-if-empty``.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import typer

from gpupool.cli.common import FailOn
from gpupool.findings import Finding, Severity

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_UNUSABLE = 2
EXIT_INTERNAL = 3
EXIT_EMPTY = 4
EXIT_CODES = {
    EXIT_CLEAN: "clean: no finding at or above --fail-on (or --exit-zero)",
    EXIT_FINDINGS: "a finding at or above --fail-on (default error)",
    EXIT_UNUSABLE: "unusable input or environment (a missing, unreadable or unparsable file, bad usage, a "
    "cluster or Azure that cannot be reached or stops answering mid-read)",
    EXIT_INTERNAL: "internal error (a bug: one line asks for a report, with the version)",
    EXIT_EMPTY: "nothing to check, with --fail-if-empty (without it: exit 0 and a note on stderr)",
}


class OutputFormat(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"
    junit = "junit"
    github = "github"


class ShowSeverity(StrEnum):
    """``--severity``: the least severe finding shown."""

    error = "error"
    warning = "warning"
    info = "info"


@dataclass
class FindingsOptions:
    command: str
    output: OutputFormat = OutputFormat.text
    output_file: str | None = None
    fail_on: FailOn = FailOn.error
    exit_zero: bool = False
    severity: ShowSeverity = ShowSeverity.info
    fail_if_empty: bool = False
    config_file: str | None = None
    no_config: bool = False
    config: Any = None  # the run's gpupool.config.Config (None: no .gpupool.yaml)


@dataclass
class Report:
    """What a command found, and how it prints itself as text and JSON (its versioned document).

    ``text(shown)`` prints the command's text report with the findings to show (the summary line is
    :func:`summary_line` unless the command prints its own); ``json(shown)`` returns the JSON document.
    ``empty``: there was nothing to check (no objects, no pools). ``objects``: (path, object, status) test
    cases for JUnit (default: one per object that has findings). ``code``: an exit code of the command's own
    (simulate's Pending pods: 1) merged with the findings' one.
    """

    findings: list[Finding]
    families: tuple[str, ...] = ()
    text: Callable[[list[Finding]], None] | None = None
    json: Callable[[list[Finding]], dict[str, Any]] | None = None
    empty: bool = False
    empty_note: str = "nothing to check"
    objects: list[tuple[str, str, str]] | None = None
    junit_findings: list[Finding] | None = None  # findings per test case, when not ``findings`` (lint)
    code: int = 0
    pools: list[Any] | None = None  # the pool specs read: their gpupool.io/ignore annotations apply
    configured: bool = False  # the command applied the config's rules and ignore itself (lint, plan)
    left_out: int = 0  # findings the command left out itself (config, annotations), for the note


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 error``, ``2 errors``, ``0 warnings``; ``info`` has no plural."""
    if n == 1 or word == "info":
        return f"{n} {word}"
    return f"{n} {many or word + 's'}"


def counts(findings: Iterable[Finding]) -> dict[str, int]:
    c = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        c[f.severity.value] += 1
    return c


def summary_tail(findings: Iterable[Finding]) -> str:
    c = counts(findings)
    return f"{plural(c['error'], 'error')}, {plural(c['warning'], 'warning')}, {plural(c['info'], 'info')}"


def shown(findings: Iterable[Finding], severity: ShowSeverity) -> list[Finding]:
    least = Severity(severity.value).rank
    return [f for f in findings if f.severity.rank >= least]


def _options() -> list[inspect.Parameter]:
    kw = inspect.Parameter.KEYWORD_ONLY

    def p(name: str, annotation: Any, default: Any) -> inspect.Parameter:
        return inspect.Parameter(name, kw, default=default, annotation=annotation)

    return [
        p("output", OutputFormat, typer.Option(
            OutputFormat.text, "-o", "--output", metavar="FORMAT",
            help="text (people), json (versioned document), sarif (code scanning), junit (CI dashboards) or "
            "github (workflow annotations).",
        )),
        p("output_file", str | None, typer.Option(
            None, "--output-file", metavar="FILE",
            help="Write the -o format to FILE (atomically) instead of stdout; with a machine format the "
            "text report still goes to stdout.",
        )),
        p("fail_on", FailOn, typer.Option(
            FailOn.error, "--fail-on", metavar="SEVERITY",
            help="Exit 1 when a finding is at least this severe: error (default), warning, info, or none.",
        )),
        p("exit_zero", bool, typer.Option(
            False, "--exit-zero", help="Exit 0 even with findings at --fail-on (bad input still exits 2).",
        )),
        p("severity", ShowSeverity, typer.Option(
            ShowSeverity.info, "--severity", metavar="SEVERITY",
            help="Show only findings at least this severe: error, warning or info (default). A display "
            "filter: the exit code still counts every finding.",
        )),
        p("fail_if_empty", bool, typer.Option(
            False, "--fail-if-empty", help="Exit 4 when there is nothing to check (no objects or pools).",
        )),
        p("config_file", str | None, typer.Option(
            None, "--config", metavar="FILE",
            help="Config file (default: .gpupool.yaml found upward from the working directory): rules, "
            "ignore, kubernetesVersion, sizes, and a section per command.",
        )),
        p("no_config", bool, typer.Option(False, "--no-config", help="Do not read any config file.")),
    ]


def findings_options(command: str, fail_on_default: FailOn = FailOn.error) -> Callable[..., Any]:
    """Decorator: add the shared findings options to a command whose function takes ``opts``."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        sig = inspect.signature(fn, eval_str=True)
        params = [q for q in sig.parameters.values() if q.name != "opts"]
        extra = _options()
        if fail_on_default is not FailOn.error:
            extra = [
                q.replace(default=typer.Option(
                    fail_on_default, "--fail-on", metavar="SEVERITY",
                    help=f"Exit 1 when a finding is at least this severe (default {fail_on_default.value}).",
                )) if q.name == "fail_on" else q
                for q in extra
            ]
        names = {q.name for q in extra}

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            opts = FindingsOptions(command=command, **{k: kwargs.pop(k) for k in list(kwargs) if k in names})
            from gpupool.cli.common import use_config

            opts.config = use_config(opts.config_file, opts.no_config)
            return fn(*args, opts=opts, **kwargs)

        positional = [q for q in params if q.kind is not inspect.Parameter.KEYWORD_ONLY]
        keyword = [q for q in params if q.kind is inspect.Parameter.KEYWORD_ONLY]
        wrapper.__signature__ = sig.replace(  # type: ignore[attr-defined]
            parameters=[q.replace(kind=inspect.Parameter.KEYWORD_ONLY) for q in positional] + keyword + extra
        )
        wrapper.__annotations__ = {k: v for k, v in fn.__annotations__.items() if k != "opts"}
        return wrapper

    return deco


def _rules(report: Report, findings: list[Finding]) -> list[Any]:
    from gpupool import rules as registry

    out = {r.id: r for fam in report.families for r in registry.family(fam)}
    for f in findings:
        if f.rule not in out:
            info = registry.lookup(f.rule)
            if info is not None:
                out[info.id] = info
    return [out[k] for k in sorted(out)]


def _junit_objects(findings: list[Finding]) -> list[tuple[str, str, str]]:
    seen: dict[tuple[str, str], str] = {}
    for f in findings:
        key = (f.path or "", f.object or "file")
        if f.severity is Severity.ERROR or key not in seen:
            seen[key] = "valid"
    return [(p, o, s) for (p, o), s in seen.items()]


def render(opts: FindingsOptions, report: Report, show: list[Finding]) -> str | None:
    """The report in a machine format (None for text, which the command prints itself)."""
    fmt = opts.output
    if fmt is OutputFormat.json:
        from gpupool.report import jsonout

        payload = report.json(show) if report.json else {"findings": jsonout.findings_list(show)}
        return jsonout.dumps(payload) + "\n"
    if fmt is OutputFormat.sarif:
        from gpupool.report import sarif

        return sarif.dumps(show, _rules(report, show), category=opts.command) + "\n"
    if fmt is OutputFormat.junit:
        from gpupool.report import junit

        objects = report.objects if report.objects is not None else _junit_objects(show)
        per_object = show
        if report.junit_findings is not None:
            per_object = shown(report.junit_findings, opts.severity)
        return junit.dumps(per_object, objects, name=f"gpupool {opts.command}")
    if fmt is OutputFormat.github:
        from gpupool.report import github

        return github.dumps(show)
    return None


def print_text(report: Report, show: list[Finding]) -> None:
    if report.text is not None:
        report.text(show)
        return
    from gpupool.report.text import console, print_findings

    con = console()
    print_findings(show, con)
    con.print(summary_tail(show), markup=False)


def exit_code(opts: FindingsOptions, report: Report) -> int:
    from gpupool.findings import exit_code as findings_exit

    if report.code == EXIT_UNUSABLE:
        return EXIT_UNUSABLE
    code = max(report.code, findings_exit(report.findings, opts.fail_on.severity))
    if opts.fail_on is FailOn.none and not report.code:
        code = 0
    if opts.exit_zero:
        code = 0
    if report.empty and opts.fail_if_empty:
        code = max(code, EXIT_EMPTY)
    return code


def suppress(opts: FindingsOptions, report: Report) -> int:
    """Leave out what the pool specs' ``gpupool.io/ignore`` annotations and the config's ``ignore`` entries
    name, and apply the config's ``rules`` levels (global part and the command's section); returns how
    many findings were left out."""
    dropped = report.left_out
    if report.pools:
        from gpupool.spec.suppress import apply_pool_ignores

        report.findings, n = apply_pool_ignores(report.findings, report.pools)
        dropped += n
    if opts.config is not None and not report.configured:
        report.findings, n = opts.config.apply(opts.command, report.findings)
        dropped += n
    return dropped


def finish(opts: FindingsOptions, report: Report) -> None:
    """Print or write the report in the chosen format, then exit with the contract's code."""
    left_out = suppress(opts, report)
    show = shown(report.findings, opts.severity)
    text = render(opts, report, show)
    if opts.output_file:
        from gpupool.atomicfile import write_atomic

        if text is None:
            import io

            buf = io.StringIO()
            real = sys.stdout
            sys.stdout = buf
            try:
                from gpupool.report import text as textmod

                saved = textmod._color
                textmod.set_color("never")
                try:
                    print_text(report, show)
                finally:
                    textmod.set_color(saved)
            finally:
                sys.stdout = real
            write_atomic(opts.output_file, buf.getvalue())
        else:
            write_atomic(opts.output_file, text)
            print_text(report, show)
    elif text is None:
        print_text(report, show)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    if left_out:
        typer.echo(f"gpupool: {plural(left_out, 'finding')} left out by gpupool.io/ignore annotations or "
                   f"{opts.config.path if opts.config is not None else 'the config'} (ignore, rules: off)",
                   err=True)
    hidden = len(report.findings) - len(show)
    if hidden:
        typer.echo(f"gpupool: {plural(hidden, 'finding')} below --severity {opts.severity.value} not shown "
                   "(they still count for the exit code)", err=True)
    if report.empty:
        typer.echo(f"gpupool: {report.empty_note}" + ("" if opts.fail_if_empty else
                   " (exit 0; --fail-if-empty makes it exit 4)"), err=True)
    raise typer.Exit(exit_code(opts, report))
