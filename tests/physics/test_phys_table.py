"""Table geometry: pooltool PocketTableSpecs construction reproduced exactly."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import physics
from physics.table import INCH

CROSSCHECK = Path(__file__).resolve().parent / "crosscheck"   # pooltool 0.6.0 reference files


def test_geometry_equals_pooltool_reference():
    doc = json.loads((CROSSCHECK / "han.json").read_text())
    t = physics.Table.from_specs(physics.PocketTableSpecs.from_dict(doc["table"]["specs"]))
    g = doc["table"]["geometry"]
    for k, sid in enumerate(t.segment_ids):
        seg = g["linear_cushion_segments"][sid]
        np.testing.assert_allclose(t.segments[k, 0], seg["p1"][:2], rtol=0, atol=1e-15)
        np.testing.assert_allclose(t.segments[k, 1], seg["p2"][:2], rtol=0, atol=1e-15)
        # pooltool's 'direction' says on which side of l_x x + l_y y + l_0 = 0 the bed lies
        p1, p2 = np.array(seg["p1"][:2]), np.array(seg["p2"][:2])
        lx, ly = (1.0, 0.0) if p2[0] == p1[0] else (-(p2[1] - p1[1]) / (p2[0] - p1[0]), 1.0)
        side = np.sign(lx * t.segment_normals[k, 0] + ly * t.segment_normals[k, 1])
        assert side == (1 if seg["direction"] == 1 else -1), sid
    for k, jid in enumerate(t.jaw_ids):
        c = g["circular_cushion_segments"][jid]
        np.testing.assert_allclose(t.jaws[k], [*c["center"][:2], c["radius"]], rtol=0, atol=1e-15)
    for k, name in enumerate(t.POCKET_NAMES):
        p = g["pockets"][name]
        np.testing.assert_allclose(t.pockets[k], [*p["center"][:2], p["radius"]], rtol=0, atol=1e-15)


@pytest.mark.parametrize("size,l,w", [("9ft", 2.54, 1.27), ("8ft", 2.3368, 1.1684), ("7ft", 1.9812, 0.9906)])
def test_wpa_sizes_and_mouths(size, l, w):
    t = physics.Table.wpa(size)
    assert (t.l, t.w) == (l, w)
    assert 4.5 * INCH <= t.specs.corner_pocket_width <= 4.625 * INCH
    assert 5.0 * INCH <= t.specs.side_pocket_width <= 5.125 * INCH
    assert t.head_string_y == pytest.approx(l / 4)
    assert t.foot_spot == pytest.approx((w / 2, 3 * l / 4))
    assert t.segments.shape == (18, 2, 2) and t.jaws.shape == (12, 3) and t.pockets.shape == (6, 3)
    assert not t.segments.flags.writeable
    np.testing.assert_allclose(np.hypot(*t.segment_normals.T), 1.0)


def test_on_bed(table9):
    R = physics.BallParams().R
    xy = np.array([[0.5, 0.5], [R / 2, 0.6], [-0.02, 1.27], [-0.01, -0.01], [table9.w - R, 1.0]])
    np.testing.assert_array_equal(table9.on_bed(xy, R), [True, False, False, False, True])


def test_bad_specs_raise():
    with pytest.raises(ValueError, match="PocketTableSpecs.l"):
        physics.PocketTableSpecs(l=-1.0)
    with pytest.raises(ValueError, match="size"):
        physics.Table.wpa("10ft")
