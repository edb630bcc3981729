"""The ``gpupool`` command: a thin Typer app. Each command lives in its own module and registers itself.

Exit codes (stable, for CI): 0 no error findings, 1 error findings (or changes with ``diff --exit-code``),
2 bad usage or unusable input (one line ``gpupool: error: ...`` on stderr: Click's usage errors too, see
``gpupool.cli.common.GpupoolGroup``, which every command in ``COMMANDS`` runs under).

Entry points: ``gpupool`` (:func:`main`) and ``kubectl-gpupool`` (:func:`kubectl_main`, so that
``kubectl gpupool ...`` runs it as a kubectl plugin).
"""

from __future__ import annotations

import importlib
import os
import sys

import typer

from gpupool import __version__
from gpupool.cli.commands import COMMAND_MODULES, COMMANDS, COMPLETE_VAR
from gpupool.cli.common import ColorMode, GpupoolGroup


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gpupool {__version__}")
        raise typer.Exit()


def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version."
    ),
    color: ColorMode = typer.Option(
        ColorMode.auto,
        "--color",
        metavar="WHEN",
        help="Colour: auto (on a terminal, unless NO_COLOR is set), always, or never.",
    ),
) -> None:
    """gpupool: get AKS GPU node pools right before they cost money."""
    from gpupool.report.text import set_color

    set_color(color.value)


def build_app(modules: tuple[str, ...] = COMMAND_MODULES) -> typer.Typer:
    """The app with the commands of ``modules`` registered (all of them by default)."""
    new = typer.Typer(
        name="gpupool",
        help=(
            "Get GPU node pools on Azure Kubernetes Service right before they cost GPU hours (check, plan, "
            "render, lint, diff, simulate, preflight, report — offline), and find out why a GPU pod is "
            "Pending on a running cluster (doctor: read-only, or from a snapshot).\n\n"
            "Only doctor without --snapshot, --live and --fetch-prices touch a network.\n\n"
            "Start with: gpupool plan examples/t4-driver-only.yaml"
        ),
        cls=GpupoolGroup,
        no_args_is_help=True,
        add_completion=False,  # `gpupool completion SHELL` instead (gpupool.cli.completion)
        pretty_exceptions_enable=False,
        # Click's plain help, not Rich panels: clean in CI logs, and an option name longer than its column
        # gets a line of its own instead of being cut ("--kubernetes-ver…").
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110},
    )
    new.callback()(_root)
    for name in modules:
        importlib.import_module(name).register(new)
    return new


def __getattr__(name: str) -> typer.Typer:
    """``gpupool.cli.main.app``: the full app (every command), built on first use; tests drive it."""
    if name == "app":
        full = build_app()
        globals()["app"] = full
        return full
    raise AttributeError(name)


def _modules_for(argv: list[str]) -> tuple[str, ...]:
    """Only the module of the command being run (start-up time matters in CI loops); all for help."""
    words = [a for a in argv if not a.startswith("-")]
    if words and words[0] in COMMANDS and argv.index(words[0]) == 0:
        return (COMMANDS[words[0]],)
    return COMMAND_MODULES


def main(prog_name: str = "gpupool") -> None:
    from gpupool.cli.common import run_app
    from gpupool.gcpolicy import batch

    argv = [] if os.environ.get(COMPLETE_VAR) else sys.argv[1:]  # completion needs every command
    with batch():  # a batch run: far fewer garbage collections (gpupool.gcpolicy)
        run_app(build_app(_modules_for(argv)), prog_name=prog_name)


def kubectl_main() -> None:
    """``kubectl-gpupool``: kubectl runs an executable of that name on PATH for ``kubectl gpupool ...``."""
    main(prog_name="kubectl gpupool")


if __name__ == "__main__":  # pragma: no cover
    main()
