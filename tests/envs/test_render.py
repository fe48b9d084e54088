"""`poolgym.render`: rgb_array frames, speed, human mode (headless), video files."""

import time

import numpy as np
import pytest

from poolgym.render import colors
from poolgym.render.table_view import TableRenderer


def test_frame_shape_and_ball_colours(table9):
    tr = TableRenderer(table9, width=640)
    pos = np.array([[0.3, 0.6], [0.6, 1.9], [0.9, 1.2]])
    f = tr.render(pos)
    assert f.dtype == np.uint8 and f.shape == (tr.height, 640, 3)
    # the 2-ball is blue; sample a pixel between its rim and its number disc
    r, c = tr.to_pixels(pos[2])
    px = f[int(r + 0.75 * tr.R * tr.scale), int(c)]
    assert px[2] > px[0] and px[2] > px[1]
    # cue ball centre is near white
    r, c = tr.to_pixels(pos[0])
    assert f[int(r), int(c)].min() > 180
    # a ball off the table is not drawn: the frame equals the background there
    f2 = tr.render(pos, on_table=np.array([True, False, True]))
    r, c = tr.to_pixels(pos[1])
    assert np.array_equal(f2[int(r), int(c)], tr.background[int(r), int(c)])


def test_stripes_have_white_caps(table9):
    tr = TableRenderer(table9, width=1280)
    pos = np.zeros((16, 2))
    pos[11] = (0.6, 1.0)
    on = np.zeros(16, bool)
    on[11] = True
    f = tr.render(pos, on)
    r, c = tr.to_pixels(pos[11])
    top = f[int(r - 0.8 * tr.R * tr.scale), int(c)]
    band = f[int(r), int(c + 0.75 * tr.R * tr.scale)]
    assert top.min() > 150  # white cap
    assert band[0] > 120 and band[1] < 80  # red band of the 11


def test_trajectory_polyline_is_drawn(table9):
    tr = TableRenderer(table9)
    f = tr.render(np.zeros((0, 2)), trajectories=[np.array([[0.2, 0.5], [0.2, 2.0]])])
    r, c = tr.to_pixels(np.array([0.2, 1.2]))
    assert np.array_equal(f[int(r), int(c)], colors.TRAJECTORY)


def test_rgb_array_frame_under_2ms(table9):
    """An rgb_array frame renders in < 2 ms at the default size."""
    tr = TableRenderer(table9)
    rng = np.random.default_rng(0)
    pos = np.c_[rng.uniform(0.1, 1.1, 16), rng.uniform(0.1, 2.4, 16)]
    tr.render(pos)
    times = []
    for _ in range(50):
        t0 = time.perf_counter()
        tr.render(pos)
        times.append(time.perf_counter() - t0)
    assert np.median(times) < 2e-3


def test_env_rgb_array_and_human_modes():
    pytest.importorskip("pygame")  # the render extra
    from poolgym.envs.pool_env import PoolEnv

    env = PoolEnv("nine_ball", render_mode="rgb_array", max_shots=4)
    env.reset(seed=0)
    f = env.render()
    assert f.ndim == 3 and f.dtype == np.uint8
    env_h = PoolEnv("pot_drill", render_mode="human", max_shots=1)
    env_h.reset(seed=0)  # shows a frame in the (dummy) pygame window
    assert env_h.render() is None
    env_h.close()


@pytest.mark.parametrize("suffix", [".gif", ".mp4"])
def test_write_video(tmp_path, table9, suffix):
    pytest.importorskip("imageio")  # the render extra
    from poolgym.render.video import write_video

    tr = TableRenderer(table9, width=320)
    frames = [tr.render(np.array([[0.3, 0.3 + 0.05 * k]])) for k in range(5)]
    out = write_video(frames, tmp_path / f"shot{suffix}", fps=5)
    assert out.exists() and out.stat().st_size > 100
    with pytest.raises(ValueError, match="suffix"):
        write_video(frames, tmp_path / "shot.txt")


def test_record_video_wrapper(tmp_path):
    pytest.importorskip("moviepy")  # gymnasium's RecordVideo writes through moviepy
    import gymnasium as gym

    env = gym.make("poolgym/PotDrill-v0", render_mode="rgb_array")
    env = gym.wrappers.RecordVideo(env, str(tmp_path), episode_trigger=lambda e: True, disable_logger=True)
    env.reset(seed=0)
    env.step(env.action_space.sample())
    env.close()
    assert list(tmp_path.glob("*.mp4"))


def test_record_video_wrapper_without_moviepy(tmp_path, monkeypatch):
    """gymnasium's RecordVideo over our env, with moviepy replaced by a stand-in that writes
    the captured frames through `poolgym.render.video.write_video` (imageio): checks the
    env's frames are what RecordVideo expects (one uint8 (H, W, 3) frame per reset/step,
    one video per episode) even where moviepy is not installed."""
    pytest.importorskip("imageio")  # the render extra
    import sys
    import types

    import gymnasium as gym

    from poolgym.render.video import write_video

    clips = []

    class ImageSequenceClip:
        def __init__(self, frames, fps):
            self.frames, self.fps = list(frames), fps
            clips.append(self)

        def write_videofile(self, path, logger=None):
            write_video(self.frames, path, fps=int(self.fps))

    mods = {"moviepy": types.ModuleType("moviepy"), "moviepy.video": types.ModuleType("moviepy.video"),
            "moviepy.video.io": types.ModuleType("moviepy.video.io"),
            "moviepy.video.io.ImageSequenceClip": types.ModuleType("moviepy.video.io.ImageSequenceClip")}
    mods["moviepy.video.io.ImageSequenceClip"].ImageSequenceClip = ImageSequenceClip
    for name, mod in mods.items():
        monkeypatch.setitem(sys.modules, name, mod)
    env = gym.make("poolgym/PotDrill-v0", render_mode="rgb_array")
    env = gym.wrappers.RecordVideo(env, str(tmp_path), episode_trigger=lambda e: True, disable_logger=True)
    for ep in range(2):
        env.reset(seed=ep)
        done, steps = False, 0
        while not done:
            _, _, term, trunc, _ = env.step(env.action_space.sample())
            done, steps = term or trunc, steps + 1
    env.close()
    assert len(clips) == 2
    shapes = {f.shape for c in clips for f in c.frames}
    assert len(shapes) == 1 and next(iter(shapes))[2] == 3
    assert all(f.dtype == np.uint8 for c in clips for f in c.frames)
    assert len(clips[0].frames) >= 2  # reset frame + one per step
    videos = sorted(tmp_path.glob("*.mp4"))
    assert len(videos) == 2 and all(v.stat().st_size > 100 for v in videos)


def test_trajectories_follow_the_physics_and_record_episode(tmp_path):
    pytest.importorskip("imageio")  # the render extra
    from poolgym.envs.pool_env import PoolEnv
    from poolgym.render.video import record_episode

    env = PoolEnv("pot_drill", render_mode="rgb_array", render_trajectories=True)
    env.reset(seed=0)
    before = env.state.positions()
    env.step(env.action_space.sample())
    _, rvw, s, row = env.session.log.shots[-1]
    from poolgym.render.trajectory import sample_shot

    times, pos, on = sample_shot(env.table, rvw, s, row, n_samples=10)
    np.testing.assert_allclose(pos[0, 0], before[0])  # starts where the cue ball was
    if on[-1, 0]:
        np.testing.assert_allclose(pos[-1, 0], env.state.positions()[0], atol=1e-9)  # ends at rest
    assert env.render().shape[2] == 3
    out = record_episode(PoolEnv("pot_drill", render_width=200), tmp_path / "ep.gif", seed=1, fps=5)
    assert out.exists()


def test_write_video_pads_odd_frame_sizes_for_h264(tmp_path):
    """libx264 (yuv420p) rejects odd sizes: write_video pads them by one edge row/column."""
    pytest.importorskip("imageio")  # the render extra
    import imageio.v2 as iio

    from poolgym.render.video import write_video

    frames = [np.full((101, 203, 3), 10 * i, np.uint8) for i in range(4)]
    path = write_video(frames, tmp_path / "odd.mp4", fps=4)
    with iio.get_reader(path) as r:
        assert r.get_data(0).shape == (102, 204, 3)
