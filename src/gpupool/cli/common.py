"""Shared CLI plumbing: error handling at the edge, output format choice, file expansion."""

from __future__ import annotations

import os
import sys
from enum import StrEnum

import typer

from gpupool.errors import InputError


class Format(StrEnum):
    text = "text"
    json = "json"


class LintFormat(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"
    junit = "junit"


class FailOn(StrEnum):
    """``--fail-on``: the least severe finding that makes the exit code 1."""

    error = "error"
    warning = "warning"
    info = "info"
    none = "none"

    @property
    def severity(self):  # type: ignore[no-untyped-def]
        from gpupool.findings import Severity

        return None if self is FailOn.none else Severity(self.value)


def fail_on_option(default: FailOn = FailOn.error):  # type: ignore[no-untyped-def]
    """The ``--fail-on`` option every command that reports findings takes (same words everywhere)."""
    return typer.Option(
        default,
        "--fail-on",
        metavar="SEVERITY",
        help="Exit 1 when a finding is at least this severe: error (default), warning, info, or none.",
    )


def fail_input(err: InputError) -> None:
    """Print the one-line input error and exit 2."""
    typer.echo(f"gpupool: error: {err.render()}", err=True)
    raise typer.Exit(2)


def run_app(app: typer.Typer) -> None:
    """Run the Typer app; turn InputError into exit 2 and unexpected crashes into one clear line."""
    try:
        app(standalone_mode=True)
    except InputError as e:  # raised outside a command's own handling
        typer.echo(f"gpupool: error: {e.render()}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except SystemExit:
        raise
    except Exception as e:  # pragma: no cover - a bug, not bad input
        if os.environ.get("GPUPOOL_DEBUG"):
            raise
        typer.echo(
            f"gpupool: internal error: {type(e).__name__}: {e} (set GPUPOOL_DEBUG=1 for a traceback; "
            "please report it)",
            err=True,
        )
        sys.exit(3)


def guard(fn):  # type: ignore[no-untyped-def]
    """Decorator for command functions: InputError -> one line on stderr and exit 2.

    Apply it under ``@app.command()`` so the CLI behaves the same in-process (tests) and as a program.
    """
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        try:
            return fn(*args, **kwargs)
        except InputError as e:
            fail_input(e)

    return wrapper


def parse_ignores(values: list[str] | None) -> set[str]:
    """``--ignore`` values (IDs or names, repeated or comma-separated) -> rule IDs; unknown -> InputError.

    The rule registry (every family) is only loaded when there is something to look up.
    """
    import difflib

    from gpupool.rules import all_rules, lookup

    ids: set[str] = set()
    for value in values or ():
        for item in (v.strip() for v in value.split(",")):
            if not item:
                continue
            info = lookup(item)
            if info is None:
                known = all_rules()
                choices = list(known) + [r.name for r in known.values()]
                probe = item.upper() if item[:2].lower() == "gp" else item.lower()
                close = difflib.get_close_matches(probe, choices, n=1)
                hint = f"did you mean {close[0]}?" if close else "list the rules with: gpupool rules"
                raise InputError(None, None, f'--ignore: unknown rule "{item}"', hint)
            ids.add(info.id)
    return ids


def use_skus(path: str | None) -> None:
    """``--skus FILE``: let the catalog use sizes it lacks from the user's ``az vm list-skus -o json``."""
    if path:
        from gpupool.catalog.listskus import use_list_skus

        use_list_skus(path)
