"""gpu-insights: per-GPU benchmark articles built on official MLPerf(R) Inference results.

The pipeline reads left to right, a package per stage: load and validate the official files
(``data``) → render the article templates, their figures, footnotes and charts (``article``) →
check each article against the Messaging Guidelines (``check``) → write the site with MkDocs
(``site``). ``cli`` is the thin command line over them.
"""

__version__ = "0.1.0"
