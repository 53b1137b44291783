"""pyab's benchmarks: ``python -m benchmarks`` (or ``make bench``) prints every
figure beside its yardstick, both measured in the same run, and the ratio.
Timings are measured, never unit-tested (see docs/performance.md)."""
