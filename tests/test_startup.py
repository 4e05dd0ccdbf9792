"""Start-up costs that a command pays: what loading a module drags in (figures are in benchmarks/)."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_the_dealing_group_loads_gmp_without_importlib_metadata_and_gmpy2_knows_its_version():
    pytest.importorskip("gmpy2")
    got = _run("import sys\nfrom pbd.table import group\n"
               "print(group.FAST, 'importlib.metadata' in sys.modules, group._gmpy2.__version__)\n"
               "import importlib.metadata\nprint(importlib.metadata.version('gmpy2'))")
    fast, metadata_loaded, version, real = got.split()
    assert (fast, metadata_loaded) == ("True", "False")
    assert version == real


def test_the_gmp_stand_in_is_gone_once_gmpy2_is_loaded():
    pytest.importorskip("gmpy2")
    got = _run("import sys\nfrom pbd.table import group\nimport importlib.metadata as m\n"
               "print(hasattr(m, 'entry_points'), hasattr(m, 'distributions'))")
    assert got == "True True"
