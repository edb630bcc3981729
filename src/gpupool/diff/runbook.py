"""The migration runbook for changes that need a new pool: a bash script, dry-run unless ``--execute``.

Steps: (1) create the new pool under a new name, exactly as ``gpupool render`` would; (2) wait until its
nodes are Ready and advertise the GPU resources :func:`gpupool.design.node.advertised` expects; (3) stop
if workloads given with ``--workloads`` would not follow; (4) turn the old pool's autoscaler off (so that
evicted pods cannot make it grow) and cordon its nodes; (5) drain them with the eviction API, so
PodDisruptionBudgets are respected, within a timeout (never ``--disable-eviction``); (6) verify the
workloads' pods run on the new pool; (7) scale the old pool to zero and delete it. When it stops half-way,
the script prints the commands that put the old pool back (it never undoes anything by itself). Every value
in the script is single-quoted (``gpupool.shell.quote``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from gpupool import __version__
from gpupool.catalog.mutability import pool_name_rule
from gpupool.design.node import advertised
from gpupool.diff import adapters
from gpupool.diff.engine import Change, Target
from gpupool.diff.spelling import spec_text
from gpupool.diff.workloads import POOL_NAME_LABELS, Follow, selector_of
from gpupool.errors import InputError
from gpupool.k8s.workloads import is_builtin_workload
from gpupool.spec.model import PoolSpec

POOL_LABEL = POOL_NAME_LABELS[0]
DURATION_RE = re.compile(r"^([1-9][0-9]{0,5})([smh])$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
NO_VERIFY_KINDS = ("Job", "CronJob", "Pod")
_MANIFEST_EOF = "GPUPOOL_MANIFEST_EOF"


def seconds(duration: str) -> int:
    """``30m`` -> 1800. Raises ValueError for anything but ``<n>s|m|h``."""
    m = DURATION_RE.match(duration.strip())
    if not m:
        raise ValueError(f"{duration!r} is not a duration such as 90s, 30m or 2h")
    return int(m.group(1)) * {"s": 1, "m": 60, "h": 3600}[m.group(2)]


def _text(value: object, limit: int = 300) -> str:
    """Printable one-line text for comments and messages."""
    out = _CONTROL.sub("?", str(value))
    return out if len(out) <= limit else out[: limit - 1] + "…"


def _q(value: object) -> str:
    return adapters.quote(_text(value, 2000))


# ---- the new pool's name -------------------------------------------------------------------------


def valid_pool_name(name: str, os_type: str = "Linux") -> str | None:
    """None when ``name`` is a valid AKS node pool name for ``os_type``, else why not."""
    rule = pool_name_rule()
    limit = rule.max_length.get(os_type, min(rule.max_length.values()))
    if not re.match(rule.pattern, name):
        return "use lowercase letters and digits, starting with a letter"
    if len(name) > limit:
        return f"{os_type} node pool names have at most {limit} characters"
    return None


def new_pool_name(
    current: PoolSpec, desired: PoolSpec, given: str | None = None, taken: tuple[str, ...] = ()
) -> str:
    """The replacement pool's name: ``given`` (validated), else DESIRED's name when it differs from CURRENT's
    and is free, else that name with the next number (``gpunp`` -> ``gpunp2``, ``gpu7`` -> ``gpu8``), cut to
    AKS's length limit (12 Linux, 6 Windows). ``taken``: names of pools that exist in the cluster. Raises
    InputError for an unusable ``given`` name."""
    os_type = desired.os_type
    if given is not None:
        why = valid_pool_name(given, os_type)
        if why:
            raise InputError(
                None, None, f"--new-name {_text(given, 40)!r} is not a valid AKS node pool name", why
            )
        if given in taken:
            raise InputError(None, None, f"--new-name {given!r}: a node pool of that name already exists")
        if given == current.name:
            raise InputError(
                None,
                None,
                f"--new-name {given!r} is the current pool's name",
                "the new pool must have another name while the old one exists",
            )
        return given
    renamed = desired.name != current.name
    if renamed and desired.name not in taken and not valid_pool_name(desired.name, os_type):
        return desired.name
    source = desired if renamed else current
    rule = pool_name_rule()
    limit = rule.max_length.get(os_type, 12)
    base = re.sub(r"[^a-z0-9]", "", source.name.lower()) or "pool"
    if not base[0].isalpha():
        base = "p" + base
    m = re.match(r"^(.*?)(\d+)$", base)
    stem, n = (m.group(1) or "p", int(m.group(2)) + 1) if m else (base, 2)
    avoid = {current.name, *taken}
    while True:
        suffix = str(n)
        name = stem[: max(1, limit - len(suffix))] + suffix
        if name not in avoid and not valid_pool_name(name, os_type):
            return name
        n += 1


# ---- the plan ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Migration:
    """Everything the runbook needs: the old pool (as it is), the new one (DESIRED under its new name)."""

    old: PoolSpec
    new: PoolSpec
    target: Target
    reasons: tuple[Change, ...]
    follows: tuple[Follow, ...] | None = None
    drain_timeout: str = "30m"
    wait_timeout: str = "20m"

    @property
    def old_selector(self) -> str:
        return f"{POOL_LABEL}={self.target.name}"

    @property
    def new_selector(self) -> str:
        return f"{POOL_LABEL}={self.new.name}"

    def add_argv(self) -> list[str]:
        return adapters.nodepool_add_argv(self.new)

    def initial_nodes(self) -> int:
        argv = self.add_argv()
        if "--node-count" in argv:
            i = argv.index("--node-count")
            try:
                return int(argv[i + 1])
            except (IndexError, ValueError):
                pass
        return self.new.node_count

    def blockers(self) -> list[Follow]:
        return [f for f in self.follows or () if f.relies_on_old and not f.follows]

    def to_verify(self) -> list[Follow]:
        return [
            f
            for f in self.follows or ()
            if f.relies_on_old
            and f.follows
            and f.workload.kind not in NO_VERIFY_KINDS
            and is_builtin_workload(f.workload.obj)  # an operator's pods: its labels, its lifetimes
            and selector_of(f.workload) is not None
        ]

    def _old(self, verb: str, *flags: str) -> list[str]:
        return [*self.target.base(verb), *flags]

    def wait_argvs(self) -> list[list[str]]:
        timeout = f"--timeout={seconds(self.wait_timeout)}s"
        out = [["kubectl", "wait", "--for=condition=Ready", "node", "-l", self.new_selector, timeout]]
        for res, count in advertised(self.new).resources.items():
            path = res.replace(".", "\\.")
            out.append(
                [
                    "kubectl",
                    "wait",
                    f"--for=jsonpath={{.status.allocatable.{path}}}={count}",
                    "node",
                    "-l",
                    self.new_selector,
                    timeout,
                ]
            )
        return out

    def cordon_argv(self) -> list[str]:
        return ["kubectl", "cordon", "-l", self.old_selector]

    def drain_argv(self) -> list[str]:
        # Eviction API (the default): PodDisruptionBudgets are respected; never --disable-eviction or --force.
        return [
            "kubectl",
            "drain",
            "-l",
            self.old_selector,
            "--ignore-daemonsets",
            "--delete-emptydir-data",
            f"--timeout={self.drain_timeout}",
        ]

    def freeze_argv(self) -> list[str] | None:
        """Turn the old pool's autoscaler off before the cordon, so that pods evicted by the drain cannot make
        it add (uncordoned) nodes to the old pool; the scale to zero needs it off anyway."""
        if self.old.autoscaler is None:
            return None
        return self._old("update", "--disable-cluster-autoscaler")

    def unfreeze_argv(self) -> list[str] | None:
        a = self.old.autoscaler
        if a is None:
            return None
        return self._old(
            "update",
            "--enable-cluster-autoscaler",
            "--min-count",
            str(a.min_count),
            "--max-count",
            str(a.max_count),
        )

    def retire_argvs(self) -> list[list[str]]:
        """Scale the old pool to zero (User pools; System pools cannot) and delete it."""
        out = []
        if self.old.mode == "User":
            out.append(self._old("scale", "--node-count", "0"))
        out.append(self._old("delete"))
        return out

    def main_argvs(self) -> list[list[str]]:
        """The commands that matter, in order (for ``diff -o json`` "commands")."""
        waits = self.wait_argvs() if self.initial_nodes() > 0 else []
        freeze = [f] if (f := self.freeze_argv()) else []
        return [self.add_argv(), *waits, *freeze, self.cordon_argv(), self.drain_argv(), *self.retire_argvs()]

    def script(self) -> str:
        return _Script(self).render()


def plan_migration(
    current: PoolSpec,
    desired: PoolSpec,
    target: Target,
    changes: tuple[Change, ...],
    new_name: str,
    follows: tuple[Follow, ...] | None = None,
    drain_timeout: str = "30m",
    wait_timeout: str = "20m",
) -> Migration:
    old = replace(
        current, name=target.name, resource_group=target.resource_group, cluster_name=target.cluster_name
    )
    new = replace(
        desired, name=new_name, resource_group=target.resource_group, cluster_name=target.cluster_name
    )
    for d in (drain_timeout, wait_timeout):
        try:
            seconds(d)
        except ValueError as e:
            raise InputError(None, None, str(e)) from None
    reasons = tuple(c for c in changes if c.action == "recreate")
    return Migration(old, new, target, reasons, follows, drain_timeout, wait_timeout)


# ---- the script ----------------------------------------------------------------------------------

_PRELUDE = r"""set -euo pipefail

usage() {
  cat <<'USAGE'
usage: bash RUNBOOK [--execute] [--force]
  (no option)  dry run: print every command, change nothing
  --execute    run the commands against the cluster (kubectl must point at it)
  --force      go on even though some workloads would not follow to the new pool
USAGE
}

EXECUTE=0
FORCE=0
for arg in "$@"; do
  case "$arg" in
    --execute) EXECUTE=1 ;;
    --force) FORCE=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown argument: $arg" >&2; usage >&2; exit 2 ;;
  esac
done

if [ "$FORCE" = 1 ]; then
  echo "--force: going on even where workloads would not follow to the new pool"
fi

say() { printf '\n==> %s\n' "$*"; }

# What to run by hand to put the old pool back if the runbook stops half-way (it never undoes by itself).
UNDO=()
on_exit() {
  local rc=$?
  if [ "$rc" != 0 ] && [ "$EXECUTE" = 1 ] && [ "${#UNDO[@]}" -gt 0 ]; then
    echo "stopped (exit $rc). The old pool is still there; to put it back as it was, run:" >&2
    printf '  %s\n' "${UNDO[@]}" >&2
  fi
}
trap on_exit EXIT

# Dry run: print the command. --execute: print it, then run it (set -e stops at the first failure).
run() {
  if [ "$EXECUTE" = 1 ]; then
    printf '+'; printf ' %q' "$@"; printf '\n'
    "$@"
  else
    printf 'would run:'; printf ' %q' "$@"; printf '\n'
  fi
}

# Wait until pool $1 has at least $2 nodes registered (a pool's nodes join a little after `nodepool add`).
wait_nodes_registered() {
  local pool=$1 want=$2 count deadline
  deadline=$((SECONDS + WAIT_TIMEOUT_S))
  while :; do
    count=$(kubectl get nodes -l "$POOL_LABEL=$pool" -o name | grep -c . || true)
    if [ "$count" -ge "$want" ]; then
      echo "pool $pool: nodes registered: $count"
      return 0
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "timed out: pool $pool: nodes registered: $count of $want" >&2
      return 1
    fi
    sleep 15
  done
}

# True when every pod line ("<node> <phase>") is Running (or Succeeded) and at least one runs on a node
# listed in $1 (space-separated, padded with spaces).
pods_on_pool() {
  local nodes=$1 pods=$2 on_pool=0 node phase
  [ -n "$pods" ] || return 1
  while read -r node phase; do
    [ -n "$node$phase" ] || continue
    case "$phase" in
      Running) ;;
      Succeeded) continue ;;
      *) return 1 ;;
    esac
    case "$nodes" in
      *" $node "*) on_pool=$((on_pool + 1)) ;;
    esac
  done <<< "$pods"
  [ "$on_pool" -gt 0 ]
}

# Wait until the pods of one workload run on the new pool: verify_workload NAMESPACE WHAT FLAG SELECTOR
verify_workload() {
  local ns=$1 what=$2 flag=$3 selector=$4 nodes pods deadline
  deadline=$((SECONDS + VERIFY_TIMEOUT_S))
  while :; do
    nodes=" $(kubectl get nodes -l "$POOL_LABEL=$NEW_POOL" -o jsonpath='{.items[*].metadata.name}') "
    pods=$(kubectl get pods -n "$ns" "$flag" "$selector" \
      -o jsonpath='{range .items[*]}{.spec.nodeName}{" "}{.status.phase}{"\n"}{end}')
    if pods_on_pool "$nodes" "$pods"; then
      echo "ok: $what runs on pool $NEW_POOL"
      return 0
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "timed out: $what does not run on pool $NEW_POOL; its pods (node phase):" >&2
      printf '%s\n' "$pods" >&2
      return 1
    fi
    sleep 10
  done
}
"""


class _Script:
    def __init__(self, m: Migration) -> None:
        self.m = m
        self.lines: list[str] = []

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def comment(self, text: str) -> None:
        self.add(f"# {_text(text, 2000)}")

    def echo(self, text: str, err: bool = False) -> None:
        self.add(f"echo {_q(text)}" + (" >&2" if err else ""))

    def run(self, argv: list[str], indent: str = "") -> None:
        self.add(indent + "run " + " ".join(_q(a) if not _plain(a) else a for a in argv))

    def render(self) -> str:
        m = self.m
        t = m.target
        steps = 7
        self.add("#!/usr/bin/env bash")
        self.comment(
            f"gpupool runbook (gpupool {__version__}): replace node pool {t.name} with a new pool "
            f"{m.new.name} in cluster {t.cluster_name} (resource group {t.resource_group})."
        )
        self.comment("Why a new pool:")
        for c in m.reasons:
            self.comment(f"  {c.field}: {_short(c.before)} -> {_short(c.after)}: {c.rule.reason}")
            self.comment(f"    source: {c.rule.source_text}")
            if c.rule.preview is not None:
                self.comment(f"    {c.rule.preview.note}")
        self.comment(
            "Steps: 1 create the new pool; 2 wait until its nodes are Ready and advertise their GPUs;"
        )
        self.comment(
            "3 check workloads; 4 old autoscaler off, cordon; 5 drain (PodDisruptionBudgets respected);"
        )
        self.comment(
            "6 verify the workloads run on the new pool; 7 scale the old pool to zero and delete it."
        )
        self.comment("Dry run by default (prints each command). To run it: bash THIS_FILE --execute")
        self.comment("Needs az (Azure CLI >= 2.34.0) and kubectl >= 1.23 (kubectl wait --for=jsonpath).")
        self.comment(
            f"kubectl must point at the cluster: az aks get-credentials --resource-group "
            f"{t.resource_group} --name {t.cluster_name}"
        )
        self.comment(f"Afterwards set metadata.name to {m.new.name} in the pool spec (the old name is gone).")
        self.add(_PRELUDE.rstrip("\n"), "")
        self.add(
            f"RESOURCE_GROUP={_q(t.resource_group)}",
            f"CLUSTER={_q(t.cluster_name)}",
            f"OLD_POOL={_q(t.name)}",
            f"NEW_POOL={_q(m.new.name)}",
            f"POOL_LABEL={_q(POOL_LABEL)}",
            f"WAIT_TIMEOUT_S={seconds(m.wait_timeout)}",
            f"VERIFY_TIMEOUT_S={seconds(m.wait_timeout)}",
            'echo "runbook: pool $OLD_POOL -> $NEW_POOL (cluster $CLUSTER, resource group $RESOURCE_GROUP)"',
            'if [ "$EXECUTE" = 1 ]; then',
            '  echo "kubectl context: $(kubectl config current-context)"',
            "else",
            '  echo "dry run: nothing is changed; add --execute to run the commands"',
            "fi",
        )

        self.add("", f'say "1/{steps} Create the new pool $NEW_POOL"')
        self.run(m.add_argv())
        self._device_plugin()

        self.add("", f'say "2/{steps} Wait until the nodes of $NEW_POOL are Ready and advertise their GPUs"')
        want = m.initial_nodes()
        adv = advertised(m.new)
        if want <= 0:
            self.echo(
                f"pool {m.new.name} starts with 0 nodes (autoscaler min 0): nothing to wait for; "
                "its nodes appear when pending pods need them"
            )
        else:
            self.run(["wait_nodes_registered", m.new.name, str(want)])
            if adv.resources:
                expect = ", ".join(f"{k}: {v}" for k, v in adv.resources.items())
                self.comment(f"expected per node: {expect} ({adv.plugin} device plugin)")
            for argv in m.wait_argvs():
                self.run(argv)

        self.add("", f'say "3/{steps} Workloads that would not follow to $NEW_POOL"')
        self._workload_check()

        freeze, unfreeze = m.freeze_argv(), m.unfreeze_argv()
        title = (
            "Turn off the autoscaler of $OLD_POOL and cordon its nodes"
            if freeze
            else "Cordon the nodes of $OLD_POOL"
        )
        self.add("", f'say "4/{steps} {title}"')
        if freeze and unfreeze:
            self.comment("the old pool's autoscaler goes off first: drained pods must not make it add nodes")
            self.run(freeze)
            self.add(f"UNDO+=({_q(adapters.command_line(unfreeze, 4))})")
        self.run(m.cordon_argv())
        self.add(f"UNDO+=({_q(adapters.command_line(['kubectl', 'uncordon', '-l', m.old_selector], 2))})")
        self.add("", f'say "5/{steps} Drain the nodes of $OLD_POOL (evictions respect PodDisruptionBudgets)"')
        self.run(m.drain_argv())

        self.add("", f'say "6/{steps} Verify the workloads run on $NEW_POOL"')
        verify = m.to_verify()
        if m.follows is None:
            self.echo(
                "no --workloads given to gpupool diff: check your workloads on the new pool yourself, e.g."
            )
            self.echo(f"  kubectl get pods --all-namespaces -o wide | grep {m.new.name}")
        elif not verify:
            self.echo(
                "none of the given workloads relies on the old pool (Jobs, CronJobs, bare Pods and "
                "custom resources are not verified)"
            )
        for f in verify:
            flag, sel = selector_of(f.workload) or ("-l", "")
            self.run(["verify_workload", f.workload.namespace, f.ref, flag, sel])

        self.add("", f'say "7/{steps} Scale $OLD_POOL to zero and delete it"')
        if m.old.mode != "User":
            self.comment(
                f"{t.name} is a System pool: System pools cannot scale to 0 nodes; it is deleted directly "
                "(another System pool must remain)"
            )
        self.add("UNDO=()")
        for argv in m.retire_argvs():
            self.run(argv)
        if advertised(m.old).plugin == "self-managed":
            self.echo(
                f"if gpupool render deployed the device plugin of {t.name} (DaemonSet "
                f"nvidia-device-plugin-{t.name} in gpu-resources), it now selects no node: delete it"
            )
        self.add("", 'say "done: pool $OLD_POOL replaced by $NEW_POOL"')
        return "\n".join(self.lines) + "\n"

    def _device_plugin(self) -> None:
        m = self.m
        if advertised(m.new).plugin != "self-managed":
            return
        manifest = adapters.device_plugin_manifest(m.new)
        if (
            any(line.strip() == _MANIFEST_EOF for line in manifest.splitlines())
            or _CONTROL.search(manifest.replace("\n", "").replace("\t", ""))
        ):
            self.comment(
                f"{m.new.name} runs the self-managed NVIDIA device plugin: make sure its DaemonSet also "
                f"selects the new pool (gpupool render DESIRED writes it), or step 2 times out."
            )
            return
        self.comment("The self-managed NVIDIA device plugin for the new pool (from gpupool render):")
        self.add(f"run kubectl apply -f - <<'{_MANIFEST_EOF}'", manifest.rstrip("\n"), _MANIFEST_EOF)

    def _workload_check(self) -> None:
        m = self.m
        if m.follows is None:
            self.echo(
                "no --workloads given to gpupool diff: it could not check which workloads would not follow "
                "(nodeSelector/affinity on the old pool name, tolerations for new taints, GPU resources)"
            )
            return
        blockers = m.blockers()
        self.add(f"BLOCKERS={len(blockers)}")
        if not blockers:
            self.add('if [ "$BLOCKERS" = 0 ]; then')
            self.echo(f"every given workload that relies on {m.target.name} can run on {m.new.name}")
            self.lines[-1] = "  " + self.lines[-1]
            self.add("fi")
            return
        for f in blockers:
            it = f.item
            self.echo(f"  {f.ref} ({it.path}:{it.line}): " + "; ".join(f.problems), err=True)
            for fix in f.fixes:
                self.echo(f"    fix: {fix}", err=True)
        self.add(
            'if [ "$BLOCKERS" -gt 0 ] && [ "$FORCE" != 1 ]; then',
            '  echo "stopping before the old pool is touched: fix the workloads above, or pass --force" >&2',
            '  if [ "$EXECUTE" = 1 ]; then exit 1; fi',
            "fi",
        )


def _plain(token: str) -> bool:
    """Tokens safe to write bare: fixed words and option names (no user data)."""
    return (bool(re.match(r"^[A-Za-z0-9_][A-Za-z0-9_-]*$", token)) and token in _WORDS) or bool(
        re.match(r"^--?[a-z][a-z0-9-]*$", token)
    )


_WORDS = {
    "az",
    "aks",
    "nodepool",
    "add",
    "update",
    "scale",
    "delete",
    "upgrade",
    "show",
    "kubectl",
    "wait",
    "node",
    "cordon",
    "drain",
    "apply",
    "wait_nodes_registered",
    "verify_workload",
}


def _short(value: object) -> str:
    return _text(spec_text(value), 80)
