"""The ``gpupool`` command: a thin Typer app. Each command lives in its own module and registers itself.

Exit codes (stable, for CI): 0 no error findings, 1 error findings (or changes with ``diff --exit-code``),
2 bad usage or unusable input (one line ``file:line: message`` on stderr).
"""

from __future__ import annotations

import importlib

import typer

from gpupool import __version__

COMMAND_MODULES = (
    "gpupool.cli.check",
    "gpupool.cli.plan",
    "gpupool.cli.render",
    "gpupool.cli.lint",
    "gpupool.cli.diff",
    "gpupool.cli.simulate",
    "gpupool.cli.explain",
)

app = typer.Typer(
    name="gpupool",
    help=(
        "Design, check, render, lint, diff and simulate GPU node pools on Azure Kubernetes Service — "
        "offline, before they cost GPU hours.\n\n"
        "Start with: gpupool plan examples/t4-driver-only.yaml"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gpupool {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version."
    ),
) -> None:
    """gpupool: get AKS GPU node pools right before they cost money."""


for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    from gpupool.cli.common import run_app

    run_app(app)


if __name__ == "__main__":  # pragma: no cover
    main()
