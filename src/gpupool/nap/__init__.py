"""Node Auto Provisioning (NAP: Karpenter run by AKS), the other way AKS gets GPU nodes.

Data flows one way, as elsewhere: documents -> :mod:`load` (strict, against ``data/crds.yaml``) ->
:mod:`model`
(plain immutable data) -> :mod:`sizes` (which catalog sizes a NodePool admits, with the Karpenter labels and
the
resources each would carry, facts from ``catalog/data/nap.yaml``) -> :mod:`check` (rules GP8xx in
:mod:`gpupool.nap.rules`) and :mod:`plan` (what each NodePool can create).

gpupool's own pool spec also has a kind ``NodePool`` (apiVersion ``gpupool/v1``); Karpenter's is told apart
by its
apiVersion (``karpenter.sh/v1``).
"""
