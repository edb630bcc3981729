"""``gpupool lint``: strict, offline Kubernetes schema validation and GPU workload rules in one pass.

Library API (stable; the CLI is a thin layer over it)::

    from gpupool.lint.engine import LintOptions, lint_paths, lint_text
    from gpupool.lint.gpu import PoolIndex, check_workload, placement

    result = lint_paths(["manifests/", "-"], pools=pools,
                        options=LintOptions(kubernetes_version="1.33", strict=True, crds=("crds/",)))
    result.findings        # list[Finding] (gpupool.findings), sorted by path, line, column
    result.summary         # {"files", "resources", "valid", "invalid", "errors", "skipped", "suppressed",
                           #  "unreadable", "findings": {"error", "warning", "info"}, "kubernetesVersion",
                           #  "strict", "pools"}
    result.objects         # [(path, "Kind ns/name", "valid" | "invalid" | "error" | "skipped"), ...]
    result.exit_code       # 0 no error, 1 error findings, 2 an input could not be read

    lint_text(text, "name.yaml", pools=pools)       # the same for text in memory

    check_workload(workload, [new_pool])            # list[Finding]: GP212 + GP3xx for one workload
    placement(workload, pools)                      # list[PoolFit]: per pool, may the pod land, and why not

``workload`` is a :class:`gpupool.k8s.workloads.Workload` (``workload_of(obj)``); pass ``path=``, ``root=``
(the YAML document) and ``base=`` (the object's path in it) to get ``file:line`` in the findings.
``diff``'s runbook uses ``check_workload(w, [new_pool])`` and reads GP304-GP307 errors as "this workload
will not follow to the new pool".

Modules:

- :mod:`~gpupool.lint.reader`  inputs: files, directories, stdin; documents (fast libyaml path, falling back
  to :mod:`gpupool.yamlio`); ``kind: List`` expansion
- :mod:`~gpupool.lint.schema`  kubernetes-validate's schema bundle + jsonschema-rs: validators compiled once
  per (Kubernetes version, strict, kind); readable messages (unknown field + did-you-mean, type, required,
  enum)
- :mod:`~gpupool.lint.crd`     ``--crd``: CustomResourceDefinitions -> validators of their custom resources
- :mod:`~gpupool.lint.gpu`     GPU rules' context: pools, placement, effective requests (from
  :mod:`gpupool.k8s`)
- :mod:`~gpupool.lint.config`  ``.gpupool.yaml`` (levels, ignores) and ``gpupool.io/ignore`` annotations
- :mod:`~gpupool.lint.model`   options and results (plain data)
- :mod:`~gpupool.lint.scan`    read before linting: the pools among the inputs (vetted by design's check), the
  runtimes
- :mod:`~gpupool.lint.linter`  the steps: a file, a document, an object (schema, API server, GPU rules)
- :mod:`~gpupool.lint.engine`  the pass over everything, in worker processes for large inputs
- :mod:`~gpupool.lint.rules`   one module per rule: GP200-GP212 (reading and schema), GP301-GP311 (GPU)
"""
