"""apps, batch, autoscaling and policy kinds: selectors vs template labels, replica counts, Job and CronJob
specs (schedule, timeZone), HorizontalPodAutoscaler and PodDisruptionBudget invariants."""

from __future__ import annotations

import re
from typing import Any

from gpupool.k8s.validation import cron, names
from gpupool.k8s.validation.core import LABELS, METADATA, POD, SELECTOR, WORKLOAD, Out
from gpupool.k8s.validation.meta import (
    check_annotations,
    check_label_selector,
    check_labels,
    limit,
    selector_is_empty,
    selector_matches,
)
from gpupool.k8s.validation.pod import check_pod_spec

_PERCENT = re.compile(r"[0-9]+%")
_APPS_COUNTS = frozenset(("replicas", "minReadySeconds", "revisionHistoryLimit"))
_JOB_COUNTS = frozenset(
    (
        "parallelism",
        "completions",
        "backoffLimit",
        "activeDeadlineSeconds",
        "ttlSecondsAfterFinished",
        "backoffLimitPerIndex",
        "maxFailedIndexes",
    )
)


def _d(v: Any) -> dict:
    return v if type(v) is dict else {}


def _nonneg(out: Out, spec: dict, key: str, path: tuple, area: str = WORKLOAD) -> None:
    v = spec.get(key)
    if type(v) is int and v < 0:
        out.invalid(area, (*path, key), v, "must be greater than or equal to 0")


def template(
    out: Out,
    tpl: Any,
    path: tuple,
    restart: tuple[str, ...] | None,
    job: bool = False,
    claims: frozenset[str] = frozenset(),
) -> None:
    """A PodTemplateSpec at ``path``: its labels and annotations (reported at ``<path>.labels``, as the
    server does), its pod spec, and the restart policies the owning kind allows."""
    if type(tpl) is not dict:
        return
    meta = _d(tpl.get("metadata"))
    if meta.get("labels"):
        check_labels(out, meta["labels"], (*path, "labels"), LABELS, (*path, "metadata", "labels"))
    if meta.get("annotations"):
        check_annotations(
            out, meta["annotations"], (*path, "annotations"), (*path, "metadata", "annotations")
        )
    spec = tpl.get("spec")
    check_pod_spec(out, spec, (*path, "spec"), restart is None, claims)
    if restart is not None and type(spec) is dict:
        rp = spec.get("restartPolicy", "Always")
        if rp not in restart:
            at = (*path, "spec", "restartPolicy")
            if job:
                out.required(POD, at, 'valid values: "OnFailure", "Never"')
            else:
                out.unsupported(POD, at, rp, restart)


def _selector_vs_template(out: Out, spec: dict, path: tuple, what: str, required: bool = True) -> None:
    sel = spec.get("selector")
    tpl = _d(spec.get("template"))
    if sel is None:
        if required:
            out.required(SELECTOR, (*path, "selector"))
        return
    if selector_is_empty(sel):
        out.invalid(SELECTOR, (*path, "selector"), sel, f"empty selector is invalid for {what}")
        return
    before = len(out.problems)
    check_label_selector(out, sel, (*path, "selector"))
    if len(out.problems) > before:
        return
    labels = _d(_d(tpl.get("metadata")).get("labels"))
    if not selector_matches(sel, labels):
        out.invalid(
            SELECTOR,
            (*path, "template", "metadata", "labels"),
            labels,
            "`selector` does not match template `labels`",
        )


def _int_or_percent(out: Out, v: Any, path: tuple, cap_percent: bool) -> int | None:
    """0-based value of an IntOrString (percent as a number); problems reported."""
    if type(v) is int:
        if v < 0:
            out.invalid(WORKLOAD, path, v, "must be greater than or equal to 0")
        return v
    if type(v) is str:
        if not _PERCENT.fullmatch(v):
            out.invalid(
                WORKLOAD,
                path,
                v,
                "a valid percent string must be a numeric string followed by an ending '%' "
                "(e.g. '1%', or '93%')",
            )
            return None
        n = int(v[:-1])
        if cap_percent and n > 100:
            out.invalid(WORKLOAD, path, v, "must not be greater than 100%")
        return n
    return None


def apps(out: Out, obj: dict, kind: str) -> None:
    spec = obj.get("spec")
    if type(spec) is not dict:
        return
    p = ("spec",)
    for key, v in spec.items():
        if type(v) is int and v < 0 and key in _APPS_COUNTS:
            out.invalid(WORKLOAD, (*p, key), v, "must be greater than or equal to 0")
    _selector_vs_template(out, spec, p, kind.lower())
    claims: frozenset[str] = frozenset()
    if kind == "StatefulSet" and type(spec.get("volumeClaimTemplates")) is list:
        claims = frozenset(
            str(_d(c.get("metadata")).get("name")) for c in spec["volumeClaimTemplates"] if type(c) is dict
        )
    template(out, spec.get("template"), (*p, "template"), ("Always",), claims=claims)
    if kind == "Deployment":
        _deployment_strategy(out, spec, p)
        pds, mrs = spec.get("progressDeadlineSeconds"), spec.get("minReadySeconds")
        if type(pds) is int and type(mrs) is int and pds <= mrs:
            out.invalid(
                WORKLOAD, (*p, "progressDeadlineSeconds"), pds, "must be greater than minReadySeconds"
            )
    elif kind == "StatefulSet":
        pmp = spec.get("podManagementPolicy")
        if type(pmp) is str and pmp not in ("OrderedReady", "Parallel"):
            out.unsupported(WORKLOAD, (*p, "podManagementPolicy"), pmp, ("OrderedReady", "Parallel"))
        _update_type(out, spec, p)
    elif kind == "DaemonSet":
        _update_type(out, spec, p)


def _update_type(out: Out, spec: dict, p: tuple) -> None:
    t = _d(spec.get("updateStrategy")).get("type")
    if type(t) is str and t not in ("RollingUpdate", "OnDelete"):
        out.unsupported(WORKLOAD, (*p, "updateStrategy", "type"), t, ("RollingUpdate", "OnDelete"))


def _deployment_strategy(out: Out, spec: dict, p: tuple) -> None:
    st = spec.get("strategy")
    if type(st) is not dict:
        return
    sp = (*p, "strategy")
    t = st.get("type")
    if type(t) is str and t not in ("Recreate", "RollingUpdate"):
        out.unsupported(WORKLOAD, (*sp, "type"), t, ("Recreate", "RollingUpdate"))
    ru = st.get("rollingUpdate")
    if t == "Recreate" and ru is not None:
        out.forbidden(
            WORKLOAD, (*sp, "rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'"
        )
    elif type(ru) is dict:
        rp = (*sp, "rollingUpdate")
        mu = _int_or_percent(out, ru.get("maxUnavailable"), (*rp, "maxUnavailable"), True)
        ms = _int_or_percent(out, ru.get("maxSurge"), (*rp, "maxSurge"), False)
        if mu == 0 and ms == 0:
            out.invalid(
                WORKLOAD,
                (*rp, "maxUnavailable"),
                ru.get("maxUnavailable"),
                "may not be 0 when `maxSurge` is 0",
            )


def job_spec(out: Out, spec: Any, p: tuple) -> None:
    if type(spec) is not dict:
        return
    for key, v in spec.items():
        if type(v) is int and v < 0 and key in _JOB_COUNTS:
            out.invalid(WORKLOAD, (*p, key), v, "must be greater than or equal to 0")
    if spec.get("manualSelector") is True:
        _selector_vs_template(out, spec, p, "job")
    elif spec.get("selector") is not None:
        out.invalid(SELECTOR, (*p, "selector"), spec["selector"], "`selector` will be auto-generated")
    mode = spec.get("completionMode")
    if type(mode) is str and mode not in ("NonIndexed", "Indexed"):
        out.unsupported(WORKLOAD, (*p, "completionMode"), mode, ("NonIndexed", "Indexed"))
    elif mode == "Indexed" and spec.get("completions") is None:
        out.required(WORKLOAD, (*p, "completions"), "when completion mode is Indexed")
    template(out, spec.get("template"), (*p, "template"), ("OnFailure", "Never"), job=True)


def job(out: Out, obj: dict) -> None:
    job_spec(out, obj.get("spec"), ("spec",))
    name = _d(obj.get("metadata")).get("name")
    if type(name) is str and len(name) > 63 and type(obj.get("spec")) is dict:
        # the server adds the labels job-name and batch.kubernetes.io/job-name (= the name) to the template
        out.invalid(
            LABELS,
            ("spec", "template", "labels"),
            name,
            "must be no more than 63 bytes (the Job's name becomes the value of its pods' job-name label)",
            at=("metadata", "name"),
        )


def cronjob(out: Out, obj: dict) -> None:
    name = _d(obj.get("metadata")).get("name")
    cap = limit("cronJobNameMax")
    if type(name) is str and len(name) > cap:
        out.invalid(METADATA, ("metadata", "name"), name, f"must be no more than {cap} characters")
    spec = obj.get("spec")
    if type(spec) is not dict:
        return
    p = ("spec",)
    sched = spec.get("schedule")
    tz = spec.get("timeZone")
    if type(sched) is str:
        bad = cron.parse_error(sched)
        if bad is None and "TZ" in sched:
            bad = (
                "cannot use both timeZone field and TZ or CRON_TZ in schedule"
                if tz is not None
                else "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"
            )
        if bad:
            out.invalid(WORKLOAD, (*p, "schedule"), sched, bad)
    if type(tz) is str:
        bad = cron.time_zone_error(tz)
        if bad:
            out.invalid(WORKLOAD, (*p, "timeZone"), tz, bad)
    cp = spec.get("concurrencyPolicy")
    if type(cp) is str and cp not in ("Allow", "Forbid", "Replace"):
        out.unsupported(WORKLOAD, (*p, "concurrencyPolicy"), cp, ("Allow", "Forbid", "Replace"))
    for key in ("startingDeadlineSeconds", "successfulJobsHistoryLimit", "failedJobsHistoryLimit"):
        _nonneg(out, spec, key, p)
    jt = _d(spec.get("jobTemplate"))
    job_spec(out, jt.get("spec"), (*p, "jobTemplate", "spec"))


def hpa(out: Out, obj: dict, api: str) -> None:
    spec = obj.get("spec")
    if type(spec) is not dict:
        return
    p = ("spec",)
    lo, hi = spec.get("minReplicas"), spec.get("maxReplicas")
    if type(lo) is int and lo < 1:
        out.invalid(WORKLOAD, (*p, "minReplicas"), lo, "must be greater than or equal to 1")
    if type(hi) is int:
        if hi < 1:
            out.invalid(WORKLOAD, (*p, "maxReplicas"), hi, "must be greater than 0")
        elif type(lo) is int and hi < lo:
            out.invalid(WORKLOAD, (*p, "maxReplicas"), hi, "must be greater than or equal to `minReplicas`")
    ref = spec.get("scaleTargetRef")
    if type(ref) is dict:
        for key in ("kind", "name"):
            v = ref.get(key)
            if v is None or v == "":
                out.required(WORKLOAD, (*p, "scaleTargetRef", key))
            elif type(v) is str:
                bad = names.path_segment(v)
                if bad:
                    out.invalid(WORKLOAD, (*p, "scaleTargetRef", key), v, bad)
    cpu = spec.get("targetCPUUtilizationPercentage")
    if api.endswith("/v1") and type(cpu) is int and cpu < 1:
        out.invalid(WORKLOAD, (*p, "targetCPUUtilizationPercentage"), cpu, "must be greater than 0")


def pdb(out: Out, obj: dict) -> None:
    spec = obj.get("spec")
    if type(spec) is not dict:
        return
    p = ("spec",)
    if spec.get("minAvailable") is not None and spec.get("maxUnavailable") is not None:
        out.invalid(WORKLOAD, p, spec, "minAvailable and maxUnavailable cannot be both set")
    for key in ("minAvailable", "maxUnavailable"):
        if spec.get(key) is not None:
            _int_or_percent(out, spec[key], (*p, key), True)
    if spec.get("selector") is not None:
        check_label_selector(out, spec["selector"], (*p, "selector"))
    pol = spec.get("unhealthyPodEvictionPolicy")
    if type(pol) is str and pol not in ("IfHealthyBudget", "AlwaysAllow"):
        out.unsupported(WORKLOAD, (*p, "unhealthyPodEvictionPolicy"), pol, ("IfHealthyBudget", "AlwaysAllow"))
