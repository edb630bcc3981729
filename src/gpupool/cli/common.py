"""Shared CLI plumbing: error handling at the edge, output format choice, file expansion.

:class:`GpupoolGroup` is the root command's class: every usage error (Click's: a bad choice, an unknown
option or command, a missing argument), whatever command it comes from, leaves as ONE line
``gpupool: error: ...`` on stderr with exit code 2, with a did-you-mean for commands and options; and it
answers shell completion requests (``_GPUPOOL_COMPLETE``, see :mod:`gpupool.cli.completion`).
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

import typer
from typer.core import TyperGroup

from gpupool.cli.commands import COMPLETE_VAR
from gpupool.errors import InputError, safe_text


class Format(StrEnum):
    text = "text"
    json = "json"


class LintFormat(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"
    junit = "junit"


class ColorMode(StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


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


def _closest(word: str, choices: Sequence[str]) -> str | None:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
    return close[0] if close else None


def usage_line(err: Exception) -> str:
    """Click's usage error as one line: ``gpupool: error: [command: ]message (hint)``."""
    from typer._click import exceptions as ce

    ctx = getattr(err, "ctx", None)
    where = ""
    if ctx is not None and ctx.parent is not None and ctx.info_name:
        where = f"{ctx.info_name}: "
    hint = None
    if isinstance(err, ce.NoSuchOption):
        message = f"no such option: {err.option_name}"
        best = _closest(err.option_name, err.possibilities or ())
        if best is None and err.possibilities:
            best = sorted(err.possibilities)[0]
        hint = f"did you mean {best}?" if best else None
    else:
        message = err.format_message() if hasattr(err, "format_message") else str(err)
        message = " ".join(message.split()).rstrip(".")
        if message[:1].isupper() and not message[1:2].isupper():
            message = message[0].lower() + message[1:]
    if hint is None and isinstance(err, ce.UsageError) and ctx is not None and not message.endswith(")"):
        hint = f"see: {ctx.command_path} --help"
    text = f"gpupool: error: {where}{safe_text(message, 400)}"
    return f"{text} ({hint})" if hint else text


def _help_keeps_words() -> None:
    """Click wraps help text with textwrap's defaults, which break at hyphens (``--fail-`` / ``on``): keep
    option names and hyphenated words whole (Typer's vendored Click looks the wrapper class up per call)."""
    from typer._click import _textwrap

    base = _textwrap.TextWrapper
    if getattr(base, "gpupool_whole_words", False):
        return

    class Wrapper(base):  # type: ignore[misc, valid-type]
        gpupool_whole_words = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("break_on_hyphens", False)
            super().__init__(*args, **kwargs)

    _textwrap.TextWrapper = Wrapper  # type: ignore[misc]


class GpupoolGroup(TyperGroup):
    """The root command: one-line usage errors (exit 2), did-you-mean for commands, shell completion.

    Every command registered on the app, now or later (``COMMANDS`` in :mod:`gpupool.cli.main`), runs
    under it, so each gets the same error formatting and completion without code of its own.
    """

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        from typer._click.exceptions import UsageError

        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            from gpupool.cli.commands import COMMANDS

            best = _closest(name, sorted(set(self.list_commands(ctx)) | set(COMMANDS)))
            hint = f"did you mean {best}?" if best else f"list the commands with: {ctx.command_path} --help"
            raise UsageError(f'no such command "{safe_text(name, 80)}" ({hint})', ctx)
        return super().resolve_command(ctx, args)

    def _main_shell_completion(self, ctx_args: Any, prog_name: str, complete_var: str | None = None) -> None:
        instruction = os.environ.get(COMPLETE_VAR)
        if not instruction:
            return
        from gpupool.cli.completion import shell_complete

        sys.exit(shell_complete(self, ctx_args, instruction))

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        _help_keeps_words()
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        from typer._click import exceptions as ce

        try:
            rv = super().main(args, prog_name or "gpupool", complete_var, standalone_mode=False, **extra)
        except ce.NoArgsIsHelpError as e:  # a bare `gpupool`: the help, as --help prints it
            typer.echo(e.ctx.get_help())
            sys.exit(0)
        except ce.UsageError as e:
            typer.echo(usage_line(e), err=True)
            sys.exit(2)
        except ce.ClickException as e:  # e.g. a file Click could not open
            typer.echo(usage_line(e), err=True)
            sys.exit(2 if e.exit_code in (1, 2) else e.exit_code)
        except typer.Abort:
            typer.echo("gpupool: aborted", err=True)
            sys.exit(1)
        except InputError as e:  # raised outside a command's own handling (e.g. in a callback)
            typer.echo(f"gpupool: error: {e.render()}", err=True)
            sys.exit(2)
        sys.exit(rv if isinstance(rv, int) else 0)


def run_app(app: typer.Typer, prog_name: str = "gpupool") -> None:
    """Run the Typer app as a program; unexpected crashes become one clear line (exit 3)."""
    try:
        app(prog_name=prog_name)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except SystemExit:
        raise
    except Exception as e:  # pragma: no cover - a bug, not bad input
        if os.environ.get("GPUPOOL_DEBUG"):
            raise
        typer.echo(internal_error_line(e), err=True)
        sys.exit(3)


def internal_error_line(e: BaseException) -> str:
    """The one line an unexpected crash prints (exit 3, the README's code for a bug): what broke, and a
    request for a bug report naming the version."""
    from gpupool import __version__

    return (
        f"gpupool: internal error: {type(e).__name__}: {safe_text(str(e), 300)} — this is a bug in gpupool "
        f"{__version__}; please report it with this line and the command (GPUPOOL_DEBUG=1 shows a traceback)"
    )


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

    from gpupool.rules import closest, lookup

    ids: set[str] = set()
    for value in values or ():
        for item in (v.strip() for v in value.split(",")):
            if not item:
                continue
            info = lookup(item)
            if info is None:
                close = closest(item)
                hint = f"did you mean {close}?" if close else "list the rules with: gpupool rules"
                raise InputError(None, None, f'--ignore: unknown rule "{item}"', hint)
            ids.add(info.id)
    return ids


def use_skus(path: str | None) -> None:
    """``--skus FILE``: let the catalog use sizes it lacks from the user's ``az vm list-skus -o json`` (the
    sizes declared in ``.gpupool.yaml`` come with the config: :func:`use_config`)."""
    if path:
        from gpupool.preflight.listskus import use_list_skus

        use_list_skus(path)


def use_config(path: str | None = None, no_config: bool = False) -> Any:
    """The run's ``.gpupool.yaml`` (``--config FILE``, else found upward; ``--no-config``: none), read and
    checked whole, and put to use: its ``kubernetesVersion`` becomes the version assumed where nothing says
    one, its ``sizes`` join the catalog. Returns the :class:`gpupool.config.Config` (None without one)."""
    from gpupool import config
    from gpupool.catalog.aks import configure_default_version

    cfg = config.resolve(path, no_config)
    configure_default_version(cfg.kubernetes_version if cfg else None, cfg.path if cfg else None)
    if cfg is not None and isinstance(cfg.data, dict) and cfg.data.get("sizes") is not None:
        from gpupool.catalog import add_user_sizes
        from gpupool.catalog.declared import parse_sizes

        add_user_sizes(parse_sizes(cfg.data, str(cfg.path)))
    return cfg


def config_option() -> Any:
    """``--config FILE`` for the commands outside the findings pipeline (render, report)."""
    return typer.Option(
        None, "--config", metavar="FILE",
        help="Config file (default: .gpupool.yaml found upward from the working directory).",
    )


def no_config_option() -> Any:
    return typer.Option(False, "--no-config", help="Do not read any config file.")


def config_exclude(cfg: Any, command: str, exclude: Sequence[str]) -> list[str]:
    """``--exclude`` globs plus the config section's ``exclude``."""
    extra = cfg.section(command).exclude if cfg is not None else ()
    return [*exclude, *extra]


def discover_files(paths: Sequence[str | os.PathLike[str]], exclude: Sequence[str] = ()) -> list[str]:
    """Every command's file discovery (``gpupool.lint.reader.discover_inputs``): files as given, directories
    recursively (``*.yaml``, ``*.yml``, ``*.json``, hidden ones skipped), ``-`` for stdin,
    ``--exclude`` globs.
    A directory with no such file is bad input (exit 2)."""
    from gpupool.lint.reader import discover_inputs

    out: list[str] = []
    for p in paths:
        found = discover_inputs([str(p)], tuple(exclude), charts=False).files
        if not found and str(p) != "-" and os.path.isdir(p):
            raise InputError(str(p), None, "no .yaml, .yml or .json file in this directory")
        out.extend(found)
    return list(dict.fromkeys(out))


def input_files(
    paths: Sequence[str | os.PathLike[str]],
    exclude: Sequence[str],
    allow_empty: bool,
    wanted: Any,
    what: str = "pool spec (GpuNodePool or NodePool)",
) -> list[tuple[str, list[Any]]]:
    """The files a pool-reading command reads, each with its documents: a file or ``-`` named on the command
    line (all of it: a document that is not ``wanted`` is the caller's error to raise), and in a directory
    (:func:`discover_files`) the files holding a ``wanted`` document (manifests beside them are left to
    lint and simulate).

    ``allow_empty`` (the commands with ``--fail-if-empty``): inputs with nothing in them — an empty or
    comment-only file, a directory with no YAML/JSON file or only empty or binary ones — give nothing
    instead of an error ("nothing to check"); a named file none of whose documents is wanted is still bad
    input (exit 2)."""
    from gpupool import yamlio

    def documents(f: str, walked: bool) -> list[Any]:
        try:
            return [d for d in yamlio.load_file(f) if d.data is not None]
        except yamlio.BinaryFileError:
            if allow_empty and walked:  # a binary file found by a walk is skipped; a named one is bad input
                return []
            raise

    out: list[tuple[str, list[Any]]] = []
    for p in paths:
        name = str(p)
        if name != "-" and os.path.isdir(p):
            try:
                files = discover_files([p], exclude)
            except InputError:
                if allow_empty:
                    continue
                raise
            read = {f: documents(f, True) for f in files}
            found = [f for f, docs in read.items() if any(wanted(d.data) for d in docs)]
            if not found:
                if allow_empty and not any(read.values()):
                    continue
                raise InputError(name, None, f"no {what} in this directory")
            out.extend((f, read[f]) for f in found)
            continue
        docs = documents(name, False)
        if not docs and allow_empty and name != "-" and os.path.isfile(p):
            continue
        out.append((name, docs))
    return out


def load_pool_specs(
    paths: Sequence[str | os.PathLike[str]], exclude: Sequence[str] = (), allow_empty: bool = False
) -> list[Any]:
    """Pool specs from files, ``-`` and directories (:func:`input_files`)."""
    from gpupool.spec.load import is_pool_document, pools_from_documents

    out: list[Any] = []
    for name, docs in input_files(paths, exclude, allow_empty, is_pool_document):
        out.extend(pools_from_documents(name, docs))
    return out


def moved_destination(command: str, out: Any, old: str | None, spelling: str) -> Any:
    """``render``/``report`` take their destination as ``--out``/``-d``: ``-o`` is a format in every command.
    The old ``-o PATH``/``--output PATH`` is refused with one line saying what changed (exit 2)."""
    if old is not None:
        raise InputError(
            None, None,
            f"{command}: -o/--output no longer names the destination (-o is an output format in every "
            f"command); write to {safe_text(old, 80)} with {spelling}",
        )
    if out is None:
        raise InputError(None, None, f"{command}: missing {spelling}")
    return out
