"""kube-scheduler's ``FailedScheduling`` text and the cluster autoscaler's event texts, byte for byte.

``FitError.Error()`` (kubernetes/kubernetes pkg/scheduler/framework/types.go): ``0/N nodes are available:``,
then the per-node reasons counted into ``"<count> <reason>"`` strings sorted as plain strings (so
``"10 …"`` sorts before ``"2 …"``) and joined with ``", "`` plus ``"."``, then the post-filter
(preemption) message after a space — followed by ``"."`` again before 1.28, the double period.
"""

from __future__ import annotations

from collections import Counter

from gpupool.k8s.facts import Messages


def histogram(counts: Counter[str] | dict[str, int]) -> list[str]:
    """``["<count> <reason>", ...]`` sorted as Go's sort.Strings does (byte order)."""
    items = [f"{n} {reason}" for reason, n in counts.items() if n > 0]
    return sorted(items, key=lambda s: s.encode("utf-8"))


def fit_error(
    msgs: Messages,
    num_nodes: int,
    reasons: Counter[str] | dict[str, int],
    post_filter: str | None = None,
    pre_filter: str | None = None,
) -> str:
    text = msgs.fit_error.format(n=num_nodes)
    if pre_filter:
        text += f" {pre_filter}."
    else:
        items = histogram(reasons)
        if items:
            text += " " + ", ".join(items) + "."
    if post_filter:
        text += f" {post_filter}" + ("." if msgs.double_period else "")
    return text


def post_filter(msgs: Messages, preemption_text: str) -> str:
    """PostFilter reasons joined with ", ": DynamicResources' (from 1.34), then DefaultPreemption's."""
    if msgs.dra_post_filter:
        return f"{msgs.dra_post_filter}, {preemption_text}"
    return preemption_text


def preemption(msgs: Messages, num_nodes: int, reasons: Counter[str] | dict[str, int]) -> str:
    """DefaultPreemption's message when no node has victims that would make room."""
    return post_filter(msgs, msgs.preemption_prefix + fit_error(msgs, num_nodes, reasons))


def preemption_never(msgs: Messages) -> str:
    return post_filter(msgs, msgs.preemption_prefix + msgs.never)


def ca_triggered(msgs: Messages, group: str, current: int, new: int, maximum: int) -> str:
    g = msgs.ca_triggered_group.format(group=group, current=current, new=new, max=maximum)
    return msgs.ca_triggered.format(groups=g)


def ca_not_triggered(msgs: Messages, reasons: Counter[str] | dict[str, int]) -> str:
    """Each reason counted once per node group; sorted (real CA prints them in Go map order)."""
    return msgs.ca_not_triggered.format(reasons=", ".join(histogram(reasons)))
