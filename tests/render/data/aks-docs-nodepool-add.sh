# The GPU node pool command of the AKS docs, as quoted in the gpupool design notes (section 3).
# Source: MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md (commit fb060abe6a8f, 2026-08-21),
# code licensed under the MIT License (LICENSE-CODE of that repository); see README.md here.
az aks nodepool add \
    --resource-group myResourceGroup \
    --cluster-name myAKSCluster \
    --name gpunp \
    --node-count 1 \
    --node-vm-size Standard_NC4as_T4_v3 \
    --node-taints sku=gpu:NoSchedule \
    --enable-cluster-autoscaler \
    --min-count 1 \
    --max-count 3
