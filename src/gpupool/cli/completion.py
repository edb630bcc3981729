"""``gpupool completion SHELL``: the shell completion script (bash, zsh, fish), and the completion requests.

The script calls gpupool back with ``_GPUPOOL_COMPLETE=complete_bash`` (``complete_zsh``, ``complete_fish``;
Click's order ``bash_complete`` works too) and the words typed so far; :func:`shell_complete` answers with
the commands, options, choices (``-o``), files, and rule IDs for ``--ignore`` and ``gpupool explain``.
The rule registry is imported only here, for a completion request: a normal run never loads it.

Install (bash): ``gpupool completion bash > ~/.local/share/bash-completion/completions/gpupool``
(or ``eval "$(gpupool completion bash)"`` in ~/.bashrc);
zsh: ``gpupool completion zsh > "${fpath[1]}/_gpupool"``;
fish: ``gpupool completion fish > ~/.config/fish/completions/gpupool.fish``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import typer

from gpupool.cli.commands import COMPLETE_VAR

PROG = "gpupool"


class Shell(StrEnum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


def wants_rule(param: Any) -> bool:
    """A parameter whose values are rule IDs: any ``--ignore`` option, or an argument shown as RULE (explain).

    Commands added later get rule completion by following the same names."""
    return getattr(param, "name", None) in ("ignore", "rule") or getattr(param, "metavar", None) in (
        "RULE",
        "RULE...",
    )


def rule_items(incomplete: str) -> list[Any]:
    """Rule IDs (with their name and summary as help) that complete ``incomplete``; after a comma
    (``--ignore GP101,GP1``) the last item is completed and the ones before are kept."""
    from typer._click.shell_completion import CompletionItem

    from gpupool.rules import all_rules

    head, sep, last = incomplete.rpartition(",")
    prefix = head + sep
    probe = last.strip().lower()
    out = []
    for rule in sorted(all_rules().values(), key=lambda r: r.id):
        if rule.id.lower().startswith(probe) or (probe and rule.name.startswith(probe)):
            value = rule.id if rule.id.lower().startswith(probe) else rule.name
            out.append(CompletionItem(prefix + value, help=f"{rule.name}: {rule.summary}"))
    return out


def _classes() -> dict[str, type]:
    from typer._click.shell_completion import _resolve_context, _resolve_incomplete
    from typer._completion_classes import BashComplete, FishComplete, ZshComplete

    class RuleAware:
        def get_completions(self, args: list[str], incomplete: str) -> list[Any]:
            ctx = _resolve_context(self.cli, self.ctx_args, self.prog_name, args)  # type: ignore[attr-defined]
            obj, incomplete = _resolve_incomplete(ctx, args, incomplete)
            if wants_rule(obj) and not getattr(obj, "is_flag", False):
                return rule_items(incomplete)
            return obj.shell_complete(ctx, incomplete)

    def one_line(text: str | None) -> str:
        return " ".join((text or "").split())

    class Zsh(RuleAware, ZshComplete):
        def format_completion(self, item: Any) -> str:  # one line each, help as plain text (no Rich re-wrap)
            def esc(s: str) -> str:
                return (
                    s.replace('"', '""').replace("'", "''").replace("$", "\\$").replace("`", "\\`")
                    .replace(":", r"\\:")
                )

            help_text = one_line(item.help)
            return f'"{esc(item.value)}":"{esc(help_text)}"' if help_text else f'"{esc(item.value)}"'

    class Fish(RuleAware, FishComplete):
        def format_completion(self, item: Any) -> str:
            help_text = one_line(item.help)
            return f"{item.value}\t{help_text}" if help_text else f"{item.value}"

    return {"bash": type("Bash", (RuleAware, BashComplete), {}), "zsh": Zsh, "fish": Fish}


def completer(cli: Any, shell: str, ctx_args: Any = None) -> Any:
    cls = _classes().get(shell)
    if cls is None:
        return None
    return cls(cli, dict(ctx_args or {}), PROG, COMPLETE_VAR)


def shell_complete(cli: Any, ctx_args: Any, instruction: str) -> int:
    """Answer ``_GPUPOOL_COMPLETE=<instruction>``: ``complete_bash`` / ``bash_complete`` (the words come in
    the shell's environment variables), or ``source_bash`` / ``bash_source`` (the script)."""
    a, _, b = instruction.partition("_")
    shell, action = (a, b) if a in Shell.__members__ else (b, a)
    comp = completer(cli, shell, ctx_args)
    if comp is None or action not in ("complete", "source"):
        typer.echo(f"gpupool: error: unknown completion instruction {instruction!r}", err=True)
        return 2
    out = comp.source() if action == "source" else comp.complete()
    if out:
        typer.echo(out)
    return 0


def register(app: typer.Typer) -> None:
    @app.command("completion")
    def completion(
        ctx: typer.Context,
        shell: Shell = typer.Argument(..., metavar="SHELL", help="bash, zsh or fish."),
    ) -> None:
        """Print the shell completion script for SHELL (commands, options, files, rule IDs).

        bash: gpupool completion bash > ~/.local/share/bash-completion/completions/gpupool
        (or eval "$(gpupool completion bash)" in ~/.bashrc).
        zsh: gpupool completion zsh > "${fpath[1]}/_gpupool".
        fish: gpupool completion fish > ~/.config/fish/completions/gpupool.fish.
        """
        comp = completer(ctx.find_root().command, shell.value)
        typer.echo(comp.source())
