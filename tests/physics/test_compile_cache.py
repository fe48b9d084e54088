"""`physics.compile_cache`: a cold numba cache is recognised without compiling anything, and a
warmed-up one is not cold."""

from __future__ import annotations

import os
import subprocess
import sys

from physics import compile_cache

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_warm_after_warm_up():
    compile_cache.warm_up()
    assert compile_cache.is_cold() is False


def test_empty_cache_dir_is_cold(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path),
               PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    code = ("import time; from physics import compile_cache; t = time.process_time(); "
            "c = compile_cache.is_cold(); print(c, time.process_time() - t)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    cold, cpu = out.stdout.split()
    assert cold == "True"
    assert not any(tmp_path.rglob("*.nbc"))  # it compiled nothing
