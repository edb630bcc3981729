"""The two rules every pool-spec verdict rests on, written once: how severe a finding is (the evidence
behind it), and which Kubernetes version a spec without one is judged on. ``gpupool explain severity`` and
``gpupool explain kubernetes-version`` print them; docs/DEVELOPING.md and the README repeat them."""

from __future__ import annotations

SEVERITY = """Severity follows evidence

gpupool's verdicts are as strong as the evidence behind them:

* error: a primary source proves the spec cannot work - Azure has no such size (not in the catalog, not
  in --skus FILE, not declared in .gpupool.yaml sizes:), the hardware lacks the feature (MIG on an A10),
  AKS or its node provisioning refuses the combination (an OS SKU outside its Kubernetes range, the RTX PRO
  6000 GRID v20 driver on Azure Linux, a GPU size on Ubuntu2604), or the thing is retired on today's date;
* warning: a documented limitation, a preview (managed GPU, Windows GPU pools, Ubuntu2604, a Kubernetes
  minor whose AKS GA is only planned), a retirement within 90 days (the date is named), or a fact no primary
  source confirms (never an error);
* info: worth knowing.

Retirements are dated data judged on today's date (GPUPOOL_TODAY pins it). render, plan and report never
pass a spec with an error: render writes nothing, plan prints no command, report exits 1.
"""


def kubernetes_version_text() -> str:
    from gpupool.catalog.aks import default_kubernetes_version, today

    d = default_kubernetes_version(today())  # AKS's default, whatever a config says
    return f"""Kubernetes version without kubernetesVersion

A spec or run that states no Kubernetes version is judged on AKS's own default for a new cluster: N-1 of
the minors whose AKS GA the release calendar confirms. A GA the calendar only plans is not a GA. Today
({d.on.isoformat()}) the confirmed GA minors end at {d.ga_minors[-1]}, so the default is {d.minor}.

check, plan, lint, simulate and doctor use this one default and say so, in text and in JSON ("assumed"):
  {d.note()} A finding that rests only on the assumed version is a warning, never an error. For
doctor and simulate --live/--snapshot the cluster's own version (the server's, else the kubelets') always
wins over the default. A kubernetesVersion at the top of .gpupool.yaml replaces the default for every
command (the note then names the file).

Source: {d.source}; the calendar in catalog/data/kubernetes_versions.yaml.
"""


TOPICS = {"severity": lambda: SEVERITY, "kubernetes-version": kubernetes_version_text}
