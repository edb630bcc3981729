"""GP6xx: doctor's rules, one module each (``check(ctx) -> Iterator[Finding]``); see gpupool.doctor.engine."""
