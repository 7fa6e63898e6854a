"""Shared fixtures: the project manifest and the official results in ../shared/mlperf."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.manifest import Manifest, load_manifest
from generator.table import ResultsTable

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "corpus"


def shared_results_dir() -> Path:
    """Official results: $GPU_INSIGHTS_SHARED or ../shared/mlperf beside the checkout."""
    env = os.environ.get("GPU_INSIGHTS_SHARED")
    return Path(env) if env else ROOT.parent / "shared" / "mlperf"


def shared_reference_dir() -> Path:
    return shared_results_dir().parent / "reference"


@pytest.fixture(scope="session")
def manifest() -> Manifest:
    return load_manifest()


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    d = shared_results_dir()
    if not (d / "v6.1").is_dir():
        pytest.fail(f"official results not found at {d}; set GPU_INSIGHTS_SHARED")
    return d


@pytest.fixture(scope="session")
def official(manifest: Manifest, shared_dir: Path) -> ResultsTable:
    """All three official rounds, loaded once per test session."""
    return ResultsTable.from_dir(shared_dir, manifest)
