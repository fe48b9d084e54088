"""Pocket-table geometry: straight cushion segments, rounded jaw tips and pocket circles.

Frame (DESIGN.md section 3): x across the width ``[0, w]``, y along the length ``[0, l]``,
both measured between cushion noses; head rail at y = 0. The construction follows the
parametrisation of pooltool's ``PocketTableSpecs`` (Kiefl, "pooltool-alg", 2020, section
"ball-cushion collision times") so that a table built from the same spec values has the
same segments, jaws and pockets:

* each corner pocket of mouth width ``pw`` has two jaw segments meeting the rails at
  ``pw cos 45deg`` from the corner, turned by ``corner_pocket_angle`` from the 45-degree
  line, and ending in a jaw circle of radius ``corner_jaw_radius`` tangent to both the
  jaw and the rail; the rail segment ends where that circle touches it
  (``dc = r / tan((90deg + 45deg + angle) / 2)`` before the nominal mouth point);
* each side pocket (mouth ``sw``) has two jaw segments turned by ``side_pocket_angle``
  and jaw circles of radius ``side_jaw_radius`` (``ds = r / tan((90deg + angle) / 2)``);
* pocket capture circles: corners centred ``corner_pocket_depth / sqrt 2`` diagonally
  outside the rail corner, sides ``side_pocket_depth`` outside the side rail.

Every linear segment also gets the unit normal of its playing side (towards the table
for rails, towards the pocket throat for jaw segments).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

import numpy as np

POCKET_NAMES = ("lb", "lc", "lt", "rb", "rc", "rt")
SEGMENT_IDS = tuple(str(k) for k in range(1, 19))
JAW_IDS = ("1t", "2t", "4t", "5t", "7t", "8t", "10t", "11t", "13t", "14t", "16t", "17t")

INCH = 0.0254


@dataclass(frozen=True)
class PocketTableSpecs:
    """Geometry parameters (metres, pocket angles in degrees), named as pooltool's.

    ``l``/``w`` playing length/width between cushion noses, ``cushion_width`` rail depth
    behind the nose, ``cushion_height`` nose height above the bed, ``*_pocket_width`` mouth
    widths, ``*_pocket_angle`` jaw angles, ``*_pocket_depth`` how far the capture circle
    centre sits outside the rail, ``*_pocket_radius`` capture-circle radius and
    ``*_jaw_radius`` the radius of the rounded jaw tips. ``pocket_drop`` is how far below
    the bed a pocketed ball is placed (pooltool's Pocket.depth, 0.08 m).
    """

    l: float = 2.54
    w: float = 1.27
    cushion_width: float = 0.0508
    cushion_height: float = 0.036576
    corner_pocket_width: float = 0.118
    corner_pocket_angle: float = 5.3
    corner_pocket_depth: float = 0.0417
    corner_pocket_radius: float = 0.062
    corner_jaw_radius: float = 0.02095
    side_pocket_width: float = 0.137
    side_pocket_angle: float = 7.14
    side_pocket_depth: float = 0.0685
    side_pocket_radius: float = 0.0645
    side_jaw_radius: float = 0.00795
    pocket_drop: float = 0.08

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f"PocketTableSpecs.{f.name} must be a finite number, got {v!r}")
            if f.name.endswith("_angle"):
                if not -45.0 < v < 45.0:
                    raise ValueError(f"PocketTableSpecs.{f.name} must be in (-45, 45) degrees")
            elif v <= 0:
                raise ValueError(f"PocketTableSpecs.{f.name} must be > 0, got {v!r}")
        if self.corner_pocket_width * 2 >= self.w or self.side_pocket_width >= self.l / 2:
            raise ValueError("PocketTableSpecs: pocket widths too large for the table")

    @classmethod
    def from_dict(cls, d: dict) -> "PocketTableSpecs":
        """Build from a mapping (extra keys such as pooltool's ``height`` are ignored)."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: float(v) for k, v in d.items() if k in names})


def _geometry(sp: PocketTableSpecs):
    """Return (segments (18,2,2), normals (18,2), jaws (12,3), pockets (6,3))."""
    l, w, cw = sp.l, sp.w, sp.cushion_width
    ca = math.radians(sp.corner_pocket_angle + 45.0)
    sa = math.radians(sp.side_pocket_angle)
    pw, sw = sp.corner_pocket_width, sp.side_pocket_width
    rc, rs = sp.corner_jaw_radius, sp.side_jaw_radius
    dc = rc / math.tan((math.pi / 2 + ca) / 2)
    ds = rs / math.tan((math.pi / 2 + sa) / 2)
    m = pw * math.cos(math.pi / 4)  # nominal distance of a corner mouth point from the corner
    seg = {
        # rails
        "3": ((0, m + dc), (0, (l - sw) / 2 - ds)),
        "6": ((0, (l + sw) / 2 + ds), (0, -m + l - dc)),
        "15": ((w, m + dc), (w, (l - sw) / 2 - ds)),
        "12": ((w, (l + sw) / 2 + ds), (w, -m + l - dc)),
        "18": ((m + dc, 0), (-m + w - dc, 0)),
        "9": ((m + dc, l), (-m + w - dc, l)),
        # side-pocket jaws
        "5": ((-cw, (l + sw) / 2 - cw * math.sin(sa)), (-ds * math.cos(sa), (l + sw) / 2 - ds * math.sin(sa))),
        "4": ((-cw, (l - sw) / 2 + cw * math.sin(sa)), (-ds * math.cos(sa), (l - sw) / 2 + ds * math.sin(sa))),
        "13": ((w + cw, (l + sw) / 2 - cw * math.sin(sa)), (w + ds * math.cos(sa), (l + sw) / 2 - ds * math.sin(sa))),
        "14": ((w + cw, (l - sw) / 2 + cw * math.sin(sa)), (w + ds * math.cos(sa), (l - sw) / 2 + ds * math.sin(sa))),
        # corner-pocket jaws
        "1": ((m - cw * math.tan(ca), -cw), (m - dc * math.sin(ca), -dc * math.cos(ca))),
        "2": ((-cw, m - cw * math.tan(ca)), (-dc * math.cos(ca), m - dc * math.sin(ca))),
        "8": ((m - cw * math.tan(ca), cw + l), (m - dc * math.sin(ca), l + dc * math.cos(ca))),
        "7": ((-cw, -m + cw * math.tan(ca) + l), (-dc * math.cos(ca), -m + l + dc * math.sin(ca))),
        "11": ((cw + w, -m + cw * math.tan(ca) + l), (w + dc * math.cos(ca), -m + l + dc * math.sin(ca))),
        "10": ((-m + cw * math.tan(ca) + w, cw + l), (-m + w + dc * math.sin(ca), l + dc * math.cos(ca))),
        "16": ((cw + w, m - cw * math.tan(ca)), (w + dc * math.cos(ca), m - dc * math.sin(ca))),
        "17": ((-m + cw * math.tan(ca) + w, -cw), (-m + w + dc * math.sin(ca), -dc * math.cos(ca))),
    }
    jaw = {
        "1t": (m + dc, -rc, rc),
        "2t": (-rc, m + dc, rc),
        "4t": (-rs, l / 2 - sw / 2 - ds, rs),
        "5t": (-rs, l / 2 + sw / 2 + ds, rs),
        "7t": (-rc, l - (m + dc), rc),
        "8t": (m + dc, l + rc, rc),
        "10t": (w - m - dc, l + rc, rc),
        "11t": (w + rc, l - (m + dc), rc),
        "13t": (w + rs, l / 2 + sw / 2 + ds, rs),
        "14t": (w + rs, l / 2 - sw / 2 - ds, rs),
        "16t": (w + rc, m + dc, rc),
        "17t": (w - m - dc, -rc, rc),
    }
    cD = sp.corner_pocket_depth / math.sqrt(2)
    sD = sp.side_pocket_depth
    cr, sr = sp.corner_pocket_radius, sp.side_pocket_radius
    pockets = np.array(
        [(-cD, -cD, cr), (-sD, l / 2, sr), (-cD, l + cD, cr),
         (w + cD, -cD, cr), (w + sD, l / 2, sr), (w + cD, l + cD, cr)],
        dtype=np.float64,
    )
    # which pocket each jaw segment guards (rails point at the table centre instead)
    guard = {"1": 0, "2": 0, "4": 1, "5": 1, "7": 2, "8": 2, "17": 3, "16": 3, "13": 4, "14": 4,
             "10": 5, "11": 5}
    segments = np.array([seg[k] for k in SEGMENT_IDS], dtype=np.float64)
    normals = np.empty((len(SEGMENT_IDS), 2))
    centre = np.array([w / 2, l / 2])
    for k, sid in enumerate(SEGMENT_IDS):
        p1, p2 = segments[k]
        d = p2 - p1
        n = np.array([-d[1], d[0]]) / math.hypot(d[0], d[1])
        target = pockets[guard[sid], :2] if sid in guard else centre
        if np.dot(target - (p1 + p2) / 2, n) < 0:
            n = -n
        normals[k] = n
    jaws = np.array([jaw[k] for k in JAW_IDS], dtype=np.float64)
    return segments, normals, jaws, pockets


def _readonly(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=np.float64)
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class Table:
    """A pocket table (immutable). Build with :meth:`wpa` or :meth:`from_specs`.

    Attributes are read-only numpy arrays: ``segments`` (18, 2, 2) end points of the linear
    cushion segments (order of ``segment_ids``, pooltool ids "1".."18"), ``segment_normals``
    (18, 2) unit normals of their playing side, ``jaws`` (12, 3) jaw circles (cx, cy, r) in
    ``jaw_ids`` order, ``pockets`` (6, 3) capture circles (cx, cy, r) in ``POCKET_NAMES``
    order.
    """

    specs: PocketTableSpecs
    name: str = "custom"
    segments: np.ndarray = field(init=False, repr=False, compare=False)
    segment_normals: np.ndarray = field(init=False, repr=False, compare=False)
    jaws: np.ndarray = field(init=False, repr=False, compare=False)
    pockets: np.ndarray = field(init=False, repr=False, compare=False)

    POCKET_NAMES = POCKET_NAMES
    segment_ids = list(SEGMENT_IDS)
    jaw_ids = list(JAW_IDS)

    def __post_init__(self) -> None:
        if not isinstance(self.specs, PocketTableSpecs):
            raise ValueError("Table.specs must be a PocketTableSpecs")
        s, n, j, p = _geometry(self.specs)
        object.__setattr__(self, "segments", _readonly(s))
        object.__setattr__(self, "segment_normals", _readonly(n))
        object.__setattr__(self, "jaws", _readonly(j))
        object.__setattr__(self, "pockets", _readonly(p))

    # --- constructors -------------------------------------------------------------------
    @classmethod
    def from_specs(cls, specs: PocketTableSpecs, name: str = "custom") -> "Table":
        return cls(specs=specs, name=name)

    @classmethod
    def wpa(cls, size: str = "9ft") -> "Table":
        """WPA table of ``size`` in {"9ft", "8ft", "7ft"} (DESIGN.md section 3).

        Playing area 9 ft 2.54 x 1.27 m, 8 ft 2.3368 x 1.1684 m, 7 ft 1.9812 x 0.9906 m;
        corner mouths 4.575 in and side mouths 5.075 in (inside the WPA ranges 4.5-4.625 in and
        5-5.125 in); cushion nose 0.635 ball diameters high. Jaw angles, depths and radii are
        those of the cross-check tables.
        """
        dims = {"9ft": (2.54, 1.27), "8ft": (2.3368, 1.1684), "7ft": (1.9812, 0.9906)}
        if size not in dims:
            raise ValueError(f"size must be one of {sorted(dims)}, got {size!r}")
        l, w = dims[size]
        specs = PocketTableSpecs(
            l=l, w=w, cushion_height=0.635 * 2 * 0.028575,
            corner_pocket_width=4.575 * INCH, side_pocket_width=5.075 * INCH,
        )
        return cls(specs=specs, name=f"wpa_{size}")

    # --- derived quantities --------------------------------------------------------------
    @property
    def w(self) -> float:
        return self.specs.w

    @property
    def l(self) -> float:
        return self.specs.l

    @property
    def cushion_height(self) -> float:
        return self.specs.cushion_height

    @property
    def head_string_y(self) -> float:
        return self.l / 4

    @property
    def foot_spot(self) -> tuple[float, float]:
        return (self.w / 2, 3 * self.l / 4)

    @property
    def center_spot(self) -> tuple[float, float]:
        return (self.w / 2, self.l / 2)

    @property
    def head_spot(self) -> tuple[float, float]:
        return (self.w / 2, self.l / 4)

    def geometry_array(self) -> np.ndarray:
        """Packed float64 geometry read by the kernel (see ``physics.kernel`` layout)."""
        return np.concatenate([
            self.segments.reshape(-1), self.segment_normals.reshape(-1), self.jaws.reshape(-1),
            self.pockets.reshape(-1),
            np.array([self.w, self.l, self.cushion_height, self.specs.pocket_drop]),
        ])

    def on_bed(self, xy: np.ndarray, R: float, tol: float = 1e-9) -> np.ndarray:
        """Boolean mask: ball centres ``xy`` (K, 2) that a ball of radius R can occupy.

        A ball is on the bed when it is on the playing side of every straight segment whose
        extent it faces (distance >= R), clear of every jaw circle, outside every pocket
        capture circle and inside the outer rail box.
        """
        xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        ok = np.ones(len(xy), dtype=bool)
        cw = self.specs.cushion_width
        ok &= (xy[:, 0] > -cw) & (xy[:, 0] < self.w + cw) & (xy[:, 1] > -cw) & (xy[:, 1] < self.l + cw)
        for (p1, p2), n in zip(self.segments, self.segment_normals):
            d = p2 - p1
            s = ((xy - p1) @ d) / (d @ d)
            dist = (xy - p1) @ n
            ok &= ~((s >= 0) & (s <= 1) & (dist < R - tol))
        for cx, cy, r in self.jaws:
            ok &= np.hypot(xy[:, 0] - cx, xy[:, 1] - cy) >= R + r - tol
        for cx, cy, r in self.pockets:
            ok &= np.hypot(xy[:, 0] - cx, xy[:, 1] - cy) > r
        return ok
