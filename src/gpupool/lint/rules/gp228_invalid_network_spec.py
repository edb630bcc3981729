"""GP228 invalid-network-spec: a Service, Ingress or NetworkPolicy the API server refuses.

What it checks
  Service: type ClusterIP, NodePort, LoadBalancer or ExternalName; ports 1-65535 with RFC 1123 label names
  (required and unique when there are several); targetPort a port number or an IANA port name; no
  nodePort on a ClusterIP Service; clusterIPs valid IP addresses (or None); selector values label values.
  Ingress: pathType Exact, Prefix or ImplementationSpecific (Exact and Prefix paths absolute), hosts DNS
  names (a leading `*.` allowed). NetworkPolicy: ipBlock CIDRs, port protocols, policyTypes.

Why
  Schemas cannot express these rules, so kubeconform and the schema check pass the object, but `kubectl
  apply` fails with `is invalid: <field>: ...`; for a workload nothing runs. The finding names the field
  as the API server does (`spec.ports[0].name`).

Source
  kubernetes/kubernetes `pkg/apis/core/validation/validation.go` ValidateService,
  `pkg/apis/networking/validation`
  (ValidateIngressSpec, ValidateNetworkPolicySpec); checked against a kube-apiserver v1.36 under server-
  side dry
  run, 2026-12-03.

Fix
  Fix the field the finding names.

Failing example:

    kind: Service
    spec:
      ports:
      - name: HTTP_Port
        port: 80

Passing example:

    kind: Service
    spec:
      ports:
      - name: http
        port: 80
"""

from gpupool.findings import Severity

ID = "GP228"
NAME = "invalid-network-spec"
SEVERITY = Severity.ERROR
SUMMARY = "A Service, Ingress or NetworkPolicy the API server refuses."
AREA = "network"  # gpupool.k8s.validation's area this rule reports
FIX = "fix the field the finding names"
