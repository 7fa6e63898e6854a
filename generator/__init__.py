"""gpu-insights: per-GPU benchmark articles built on official MLPerf(R) Inference results.

The pipeline reads left to right: load (``results``) → derive (``metrics``) →
render (``render``) → footnote (``footnotes``) → check (``check``) → write (``site``).
"""

__version__ = "0.1.0"
