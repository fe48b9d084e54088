"""`bca.triangle_rack` (cached slots and free lists) gives the rack of the plain formula."""

import numpy as np
import pytest

from poolgym.rules.games.bca import (APEX_SLOT, LEFT_CORNER_SLOT, OBJECT_BALLS, RIGHT_CORNER_SLOT, BCAConfig,
                                     triangle_rack)
from poolgym.rules.geometry import ball_radius, get_table, triangle_slots


def _plain(config, rng, fixed=None):
    table = get_table(config.table)
    slots = triangle_slots(table, ball_radius(), config.rack_gap)
    fixed = dict(fixed or {})
    free_slots = [k for k in range(15) if k not in fixed.values()]
    free_balls = [b for b in OBJECT_BALLS if b not in fixed]
    pos = np.zeros((16, 2))
    pos[0] = table.head_spot
    for b, k in fixed.items():
        pos[b] = slots[k]
    for b, k in zip(free_balls, rng.permutation(len(free_slots)).tolist()):
        pos[b] = slots[free_slots[k]]
    on = np.ones(16, bool)
    on[0] = False
    return pos, on


@pytest.mark.parametrize("fixed", [None, {1: APEX_SLOT, 2: RIGHT_CORNER_SLOT, 3: LEFT_CORNER_SLOT},
                                   {8: 4, 1: APEX_SLOT}, {}])
@pytest.mark.parametrize("gap", [0.0, 0.0005])
def test_triangle_rack_is_the_plain_formula(fixed, gap):
    config = BCAConfig(rack_gap=gap)
    for seed in range(20):
        pos, on = triangle_rack(config, np.random.default_rng(seed), fixed)
        want_pos, want_on = _plain(config, np.random.default_rng(seed), fixed)
        assert pos.dtype == want_pos.dtype and pos.shape == want_pos.shape
        assert pos.tobytes() == want_pos.tobytes()
        assert on.dtype == want_on.dtype and on.tobytes() == want_on.tobytes()
    on[1] = False  # the caller's array is its own
    assert triangle_rack(config, np.random.default_rng(0), fixed)[1][1]


@pytest.mark.parametrize("discipline", ["pea_pool", "cutthroat", "odd_ball", "mr_and_mrs"])
def test_rerack_draws_what_the_state_generator_draws(discipline):
    """`BCAGame.rerack` (the re-rack options of PP-8, CT-8, OB-7, MM-7) racks with
    ``draw_rng``'s Generator, and the state's RNG counter advances once."""
    from poolgym.rules.game import draw_rng, get_discipline

    d = get_discipline(discipline)
    n = min(p for p in d.allowed_players if p >= 2) if d.allowed_players else 2
    for seed in range(12):
        st = d.initial_state(d.config_cls(n_players=n), seed)
        st = st.replace(rng=(st.rng[0], st.rng[1] + seed))
        want = d.rack(st.config, draw_rng(st)[0])
        s2 = d.rerack(st, 0)
        assert s2.rng == draw_rng(st)[1]
        assert s2.pos == tuple(np.asarray(want[0], np.float64).reshape(-1).tolist())
        assert s2.on_table == tuple(bool(v) for v in want[1])
