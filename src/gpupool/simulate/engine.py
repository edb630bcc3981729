"""``gpupool simulate``: pools and workloads in, placement, pending reasons, scale-up and cost out. Pure.

The run (:mod:`.runner`): create each pool's ``nodeCount`` nodes (DaemonSet pods land on every eligible
node as they join), then schedule the workload pods in kube-scheduler's queue order (priority, then creation
order); then, while pods stay Pending, let the cluster autoscaler add nodes to autoscaled pools (one scale-up
per loop, as CA does) and schedule the pending pods again. Pending pods get kube-scheduler's message for the
final cluster and the autoscaler's ``pod didn't trigger scale-up`` reasons (:mod:`.explain`); the GP5xx
rules judge the runs; :mod:`.result` reports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpupool.findings import Finding, Severity
from gpupool.simulate.cost import PriceTable, bundled
from gpupool.simulate.explain import explain
from gpupool.simulate.inputs import Inputs
from gpupool.simulate.model import Options, Run, WorkloadInfo
from gpupool.simulate.result import SimulationResult, build
from gpupool.simulate.runner import Runner

__all__ = ["Options", "RuleContext", "Run", "Simulation", "SimulationResult", "WorkloadInfo", "simulate"]


class Simulation(Runner):
    """Everything a run needs, built once; :meth:`run` simulates one autoscaler model, with its words."""

    def run(self, mode: str) -> Run:
        run = super().run(mode)
        explain(self, run)
        return run

    def result(
        self, run: Run, prices: PriceTable, findings: list[Finding], notes: list[str]
    ) -> SimulationResult:
        """The result of one run (see :func:`gpupool.simulate.result.build`)."""
        return build(self, run, prices, findings, notes)


@dataclass
class RuleContext:
    """What GP5xx rules see: the simulation, the chosen run and (when autoscaled pools exist) both models."""

    simulation: Simulation
    run: Run
    aks: Run | None
    exact: Run | None
    prices: PriceTable

    def finding(
        self,
        rule_id: str,
        severity: Severity,
        message: str,
        *,
        at_pool: Any = None,
        workload: WorkloadInfo | None = None,
        fix: str | None = None,
        **extra: Any,
    ) -> Finding:
        """A finding located at the workload (its document) or else at the pool's autoscaler/vmSize line."""
        path = line = None
        obj = None
        if workload is not None:
            path, line, obj = workload.input.path, workload.input.line, workload.ref
        elif at_pool is not None:
            path, line = at_pool.where.path, at_pool.where.line_of("autoscaler", "vmSize")
            obj = f"{at_pool.kind} {at_pool.name}"
        return Finding(rule_id, severity, message, path, line, None, obj, fix, extra)


def simulate(inputs: Inputs, options: Options | None = None) -> SimulationResult:
    """Run the simulation (and, for the findings, the other autoscaler model too). Raises InputError."""
    from gpupool.rules import family

    options = options or Options()
    sim = Simulation(inputs, options)
    prices = options.prices or bundled()
    run = sim.run(options.autoscaler)
    aks = exact = None
    if any(p.autoscaler is not None for p in sim.pools) and options.autoscaler != "none":
        other = "exact" if options.autoscaler == "aks" else "aks"
        second = sim.run(other) if options.compare else None
        aks, exact = (run, second) if options.autoscaler == "aks" else (second, run)
    if inputs.nap and inputs.nap.node_pools:
        from gpupool.simulate.nap import provision

        run.nap = provision(sim, run, inputs.nap, prices)
    ctx = RuleContext(sim, run, aks, exact, prices)
    findings: list[Finding] = []
    for rule in family("gpupool.simulate.rules"):
        findings.extend(rule.module.check(ctx))
    notes = _notes(sim, prices)
    return sim.result(run, prices, findings, notes)


def _notes(sim: Simulation, prices: PriceTable) -> list[str]:
    notes = []
    if prices.any_estimate:
        notes.append(
            f"prices are estimates ({prices.region}, {prices.currency}, asOf {prices.as_of}); "
            "use --prices FILE or --fetch-prices for real ones"
        )
    locations = {p.location for p in sim.pools if p.location}
    if locations and locations != {prices.region}:
        notes.append(f"prices are for {prices.region}; pools are in {', '.join(sorted(locations))}")
    for p in sim.pools:
        if prices.get(p.vm_size) is None:
            notes.append(f"no price for {p.vm_size} (pool {p.name}): its cost is unknown")
        if p.priority == "Spot":
            price = prices.get(p.vm_size)
            if price is not None and price.spot is None:
                notes.append(
                    f"pool {p.name} is Spot but the table has no Spot price for {p.vm_size}: "
                    "the pay-as-you-go price is used (an upper bound)"
                )
    if any("ephemeral-storage" in str(w.input.workload.pod_spec) for w in sim.workloads):
        notes.append("ephemeral-storage requests are not simulated")
    return notes
