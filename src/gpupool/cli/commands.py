"""The command table: each command's name and the module that registers it, and the environment variable
that makes a run a shell-completion request.

The root command (:mod:`gpupool.cli.common`), the entry point (:mod:`gpupool.cli.main`) and completion
(:mod:`gpupool.cli.completion`) all read these; keeping them in a module of their own, that imports
nothing, lets those three import it without importing each other.
"""

from __future__ import annotations

COMPLETE_VAR = "_GPUPOOL_COMPLETE"

COMMANDS = {  # command name -> the module that registers it
    "check": "gpupool.cli.check",
    "plan": "gpupool.cli.plan",
    "render": "gpupool.cli.render",
    "lint": "gpupool.cli.lint",
    "diff": "gpupool.cli.diff",
    "import": "gpupool.cli.diff",
    "simulate": "gpupool.cli.simulate",
    "report": "gpupool.cli.report",
    "doctor": "gpupool.cli.doctor",
    "explain": "gpupool.cli.explain",
    "rules": "gpupool.cli.explain",
    "completion": "gpupool.cli.completion",
    "preflight": "gpupool.cli.preflight",
    "catalog": "gpupool.cli.catalog",
}
COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))
