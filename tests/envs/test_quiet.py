"""No noise: creating an env, stepping it and rendering it (``rgb_array``, and ``human`` on a
headless display) writes nothing to stdout or stderr, and neither does the CLI's help. Run in a
fresh interpreter, where pygame's greeting and the audio device's ALSA errors would appear
(`poolgym.render.display` opens the display only)."""

from __future__ import annotations

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCRIPT = r"""
import gymnasium as gym
import poolgym

env = gym.make("poolgym/NineBall-v0", render_mode="rgb_array")
env.reset(seed=0)
env.action_space.seed(0)
env.step(env.action_space.sample())
frame = env.render()
assert frame.ndim == 3 and frame.shape[2] == 3
env.close()

env = gym.make("poolgym/PotDrill-v0", render_mode="human")
env.reset(seed=1)
env.render()
env.close()
"""


def _run(args, **env_extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYGAME_HIDE_SUPPORT_PROMPT", "SDL_AUDIODRIVER")}
    env.update(SDL_VIDEODRIVER="dummy", PYTHONPATH=REPO + os.pathsep + env.get("PYTHONPATH", ""), **env_extra)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=REPO,
                          timeout=600)


def test_env_creation_step_and_render_write_nothing():
    out = _run(["-c", SCRIPT])
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout == ""
    assert out.stderr == ""


def test_cli_help_writes_only_the_help():
    out = _run(["-m", "experiments.cli", "--help"])
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stderr == ""
    assert out.stdout.lstrip().startswith("usage:")
