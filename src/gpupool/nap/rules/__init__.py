"""NodePool rules (GP8xx): Karpenter NodePools and AKSNodeClasses for Node Auto Provisioning.

A family of its own, not GP1xx: GP1xx judge a gpupool pool spec (one VM size, one AKS agent pool, `az aks
nodepool` flags), while these judge a Karpenter NodePool, a set of requirements over many sizes whose nodes
NAP creates; the inputs, the engine and the facts (catalog/data/nap.yaml) differ. The next free family number
keeps IDs stable and lets `--ignore GP8` style filters and SARIF families name NAP findings apart.
"""
