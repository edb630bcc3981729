"""Lint rules, one module per rule (``ID``, ``NAME``, ``SEVERITY``, ``SUMMARY``; the docstring is the
documentation ``gpupool explain ID`` prints).

GP2xx are found while reading and schema-validating manifests (:mod:`gpupool.lint.engine`,
:mod:`gpupool.lint.schema`); their modules only document them. GP212 and GP3xx have ``check(ctx)``, a
generator of findings called once per workload with a :class:`gpupool.lint.gpu.WorkloadContext`.
"""
