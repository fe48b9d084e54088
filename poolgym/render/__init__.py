"""Rendering of pool tables (numpy only; pygame and imageio are imported lazily).

* `poolgym.render.table_view.TableRenderer` — fast top-down `rgb_array` frames;
* `poolgym.render.trajectory` — ball paths of a shot sampled from the physics;
* `poolgym.render.human.HumanWindow` — the pygame window behind ``render_mode="human"``;
* `poolgym.render.video` — `write_video`, `shot_frames`, `record_episode` (MP4/GIF).
"""
