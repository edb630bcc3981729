"""Where diff meets render and lint.

``gpupool.render`` owns how a pool is created (quoting, ``az aks nodepool add``, device plugin manifests) and
``gpupool.lint`` owns whether a workload can run on a pool; a runbook reuses both so the new pool is
created exactly as ``gpupool render`` would, and "will this workload follow?" gets the same answer as
``gpupool lint``.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpupool import shell
from gpupool.render import manifests
from gpupool.render.az import nodepool_add_argv as _nodepool_add_argv
from gpupool.spec.model import PoolSpec

LINT_PLACEMENT_RULES = ("GP304", "GP305", "GP306", "GP307")
"""lint rules whose errors mean "the pod cannot be scheduled onto the given pool"."""


def quote(value: str | int) -> str:
    """One POSIX shell word. Raises ValueError on control characters."""
    return shell.quote(value)


def command_line(argv: Sequence[str], words: int) -> str:
    """``argv`` as one line: the first ``words`` tokens and option names bare, every value quoted."""
    return shell.command(list(argv), words, wrap=False)


def nodepool_add_argv(pool: PoolSpec) -> list[str]:
    """``az aks nodepool add ...`` for ``pool``, as ``gpupool render`` writes it."""
    return list(_nodepool_add_argv(pool))


def device_plugin_manifest(pool: PoolSpec) -> str:
    """The self-managed device plugin objects ``gpupool render`` writes for ``pool`` (Namespace, ConfigMap
    when the plugin has a config, DaemonSet scoped to the pool) as one YAML stream."""
    docs = [manifests.namespace()]
    cm = manifests.device_plugin_configmap(pool)
    if cm is not None:
        docs.append(cm)
    docs.append(manifests.device_plugin_daemonset(pool))
    return str(manifests.dump(docs))


def lint_will_not_follow(
    workload: object, pool: PoolSpec, path: str | None = None, root: object = None, base: tuple = ()
) -> list[str]:
    """Messages of lint's placement rules (GP304-GP307, errors) for ``workload`` against ``pool`` alone: the
    lint engine's verdict that the workload would not run there."""
    from gpupool.lint.gpu import check_workload

    findings = check_workload(workload, [pool], path=path, root=root, base=base)
    return [
        f"{f.rule}: {f.message}" for f in findings if f.rule in LINT_PLACEMENT_RULES and f.severity == "error"
    ]
