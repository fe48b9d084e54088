"""The human side of ``poolgym play`` (experiments/play.py), driven through pygame's event queue.

A scripted "human" posts real pygame events (``pygame.event.post``: MOUSEBUTTONDOWN clicks,
KEYDOWN keys) while the window waits for input, under the headless SDL driver
(``SDL_VIDEODRIVER=dummy``). The clicks go through the window's pixel -> table mapping, the
human agent's click -> action rules and the referee:

* the opening break (G-3.10 / G-3.16: cue ball in hand behind the head string; 9B-5.4 break):
  one click places the cue ball in the kitchen, one click aims at the rack and shoots; the
  shot must reach the game (a rules verdict, no IllegalActionError);
* ball in hand anywhere after a foul (9B-5.10): an illegal click (on top of a ball) is moved to
  the nearest legal spot, SHIFT gives draw, the P key declares a push-out when 9B-5.6 allows it;
* an option (push-out reply, 9B-5.6) is chosen with the number keys.

Skipped when pygame is not installed.
"""

import math
import os

import numpy as np
import pytest

pygame = pytest.importorskip("pygame")

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def _pixel(win, x, y):
    """Window pixel (px, py) of table point (x, y): inverse of Window.wait_click's mapping."""
    from poolgym.render.table_view import BORDER

    s = win.r.scale
    return int(round((y + BORDER) * s)), int(round((x + BORDER) * s))


def _scripted_window_class(script):
    """A `Window` whose waits first post the next scripted event(s) into pygame's queue.

    `script` is a list of callables ``fn(window) -> list[pygame.event.Event]`` consumed in order,
    one per wait (click or key)."""
    from experiments.play import Window

    class ScriptedWindow(Window):
        waits = 0

        def _post_next(self):
            assert script, "the human was asked for more input than scripted"
            for ev in script.pop(0)(self):
                self.pg.event.post(ev)
            type(self).waits += 1

        def wait_click(self):
            self._post_next()
            return super().wait_click()

        def wait_key(self, n):
            self._post_next()
            return super().wait_key(n)

    return ScriptedWindow


def _click(x, y):
    def fn(win):
        return [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=_pixel(win, x, y), button=1)]

    return fn


def test_human_breaks_through_pygame_events(monkeypatch, capsys):
    """End to end `play()`: the human places the cue ball in the kitchen and breaks."""
    import experiments.play as play_mod
    from agents.tournament import make_rules_config
    from poolgym.rules.core import PlaceCueBall, ShotAction
    from poolgym.rules.game import DISCIPLINES
    from poolgym.rules.geometry import get_table

    cfg = make_rules_config("nine_ball")
    table = get_table(cfg.table)
    state0 = DISCIPLINES["nine_ball"].initial_state(cfg, 3)
    human_seat = state0.seat_to_act
    names = ["geometric", "geometric"]
    names[human_seat] = "human"
    spot = (float(table.w) / 2 + 0.1, float(table.head_string_y) - 0.2)  # in the kitchen (G-3.10)
    apex = state0.positions()[1:][np.asarray(state0.on_table[1:], bool)]
    target = apex[np.argmin(apex[:, 1])]  # the rack's nearest ball
    script = [_click(*spot), _click(*target)]
    W = _scripted_window_class(script)
    monkeypatch.setattr(play_mod, "Window", W)
    steps = play_mod.play("nine_ball", names, seed=3, noise="none", max_shots=1, headless=True, hold_s=0.0)
    assert not script and W.waits == 2
    place, shot = steps[0], steps[1]
    assert isinstance(place.action, PlaceCueBall)
    # the click mapping is exact to a pixel (1/scale m)
    from poolgym.render.table_view import BORDER

    tol = 2.0 * (float(table.l) + 2 * BORDER) / 800  # two pixels of play()'s 800 px window
    assert abs(place.action.x - spot[0]) < tol and abs(place.action.y - spot[1]) < tol
    assert isinstance(shot.action, ShotAction)
    want_phi = math.degrees(math.atan2(target[1] - spot[1], target[0] - spot[0])) % 360.0
    assert abs(shot.action.phi - want_phi) < 0.5
    d = math.hypot(target[0] - spot[0], target[1] - spot[1])
    assert shot.action.V0 == pytest.approx(float(np.clip(0.5 + d / 1.5 * 5.5, 0.3, 7.0)), abs=0.1)
    assert shot.verdict is not None and shot.record is not None  # the referee ruled the shot
    assert shot.before.seat_to_act == human_seat


def _bih_state():
    """A nine-ball position after a foul: ball in hand anywhere for seat 1 (9B-5.10)."""
    from agents.tournament import make_rules_config
    from poolgym.rules.core import CueBallPlacement, Phase
    from poolgym.rules.game import DISCIPLINES

    d = DISCIPLINES["nine_ball"]
    cfg = make_rules_config("nine_ball")
    st = d.initial_state(cfg, 5)
    pos = np.array(st.pos, float).reshape(-1, 2)
    on = list(st.on_table)
    rng = np.random.default_rng(0)
    # a spread layout: balls 1..9 on a grid in the upper half of the table
    for k in range(1, 10):
        pos[k] = (0.2 + 0.22 * ((k - 1) % 4) + 0.05 * rng.uniform(), 1.5 + 0.25 * ((k - 1) // 4))
        on[k] = True
    on[0] = False
    st = st.replace(pos=tuple(pos.ravel()), on_table=tuple(on), phase=Phase.PLAY,
                    cue_ball=CueBallPlacement.IN_HAND_ANYWHERE, cue_placed=False, seat_to_act=1,
                    shot_number=1)
    return d, cfg, st


def test_human_ball_in_hand_draw_and_push_out(monkeypatch):
    """Ball in hand anywhere: an illegal click is moved to a legal spot; SHIFT = draw; P = push-out;
    number keys choose the option that follows."""
    from agents.base import Observation
    from experiments.play import HumanAgent
    from poolgym.render.table_view import TableRenderer
    from poolgym.rules.core import PlaceCueBall, ShotAction
    from poolgym.rules.geometry import get_table
    from poolgym.rules.nine_ball import NineBallExtra

    d, cfg, st = _bih_state()
    table = get_table(cfg.table)
    spec = d.legal_actions(st)
    assert spec.must_place
    W = _scripted_window_class([])
    win = W(TableRenderer(table, width=400, n_balls=d.n_balls), fps=200, headless=True)
    try:
        human = HumanAgent(window=win)
        ball1 = st.positions()[1]
        # click right on ball 1: illegal (G-3.22), moved to the nearest legal spot
        script = [_click(*ball1)]
        monkeypatch.setattr(W, "_post_next", lambda self: [pygame.event.post(e) for e in script.pop(0)(self)])
        a = human.act(Observation(st, spec, table, st.seat_to_act, "nine_ball"))
        assert isinstance(a, PlaceCueBall)
        assert math.hypot(a.x - ball1[0], a.y - ball1[1]) >= 2 * 0.028575 - 1e-9
        st2, _ = d.apply(st, a)
        spec2 = d.legal_actions(st2)
        assert spec2.can_shoot and not spec2.must_place
        # a SHIFT-click at ball 9 (far away: a pixel is a small angle): aimed at it, with draw
        tgt = st2.positions()[9]

        def shift_click(win):
            pygame.key.set_mods(pygame.KMOD_LSHIFT)
            return _click(*tgt)(win)

        script.append(shift_click)
        try:
            a2 = human.act(Observation(st2, spec2, table, st2.seat_to_act, "nine_ball"))
        finally:
            pygame.key.set_mods(0)
        assert isinstance(a2, ShotAction) and a2.b == -0.4 and not a2.push_out
        cue = st2.positions()[0]
        px = 1.0 / win.r.scale
        tol = math.degrees(2.0 * px / math.hypot(*(tgt - cue)))
        assert abs(a2.phi - math.degrees(math.atan2(tgt[1] - cue[1], tgt[0] - cue[0])) % 360.0) < tol
        _, verdict = d.apply(st2, a2)  # legal: no IllegalActionError
        assert verdict is not None
        # the shot after a legal break (9B-5.6): the P key, then a click = a push-out
        st_p = st2.replace(extra=NineBallExtra(push_out_available=True))
        spec_p = d.legal_actions(st_p)
        assert spec_p.push_out_allowed
        script.append(lambda win: [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="p",
                                                      scancode=0), *_click(*tgt)(win)])
        a3 = human.act(Observation(st_p, spec_p, table, st_p.seat_to_act, "nine_ball"))
        assert isinstance(a3, ShotAction) and a3.push_out
        st4, verdict = d.apply(st_p, a3)
        assert verdict is not None
        # the opponent's option after a legal push-out (9B-5.6) is chosen with the number keys
        spec4 = d.legal_actions(st4)
        assert len(spec4.options) >= 2, spec4
        script.append(lambda win: [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, mod=0, unicode="2",
                                                      scancode=0)])
        a4 = human.act(Observation(st4, spec4, table, st4.seat_to_act, "nine_ball"))
        assert a4.option == spec4.options[1]
        d.apply(st4, a4)
    finally:
        win.close()


def test_seat_bar_shows_whose_turn_and_only_the_acting_seats_secret():
    """N-seat games: the frame of ``poolgym play`` is byte-identical when every other seat's
    secret changes, and changes with the acting seat's own secret (pea pool, PP-5)."""
    from experiments.play import frame
    from poolgym.render.table_view import TableRenderer
    from poolgym.rules.game import get_discipline
    from poolgym.rules.geometry import get_table
    from poolgym.rules.testing import perturb_secrets

    d = get_discipline("pea_pool")
    st = d.initial_state(d.config_cls(n_players=4), 7)
    r = TableRenderer(get_table("9ft"), width=400, n_balls=16)
    f0 = frame(r, d, st)
    assert f0.shape[0] > r.height  # the seat bar below the table
    assert np.array_equal(f0, frame(r, d, perturb_secrets(st, st.seat_to_act)))
    own = st.private[st.seat_to_act]
    mine = st.replace(private=tuple(type(own)(own.number % 15 + 1) if k == st.seat_to_act else p
                                    for k, p in enumerate(st.private)))
    assert not np.array_equal(f0, frame(r, d, mine))
    # whose turn: a different seat to act gives a different bar
    assert not np.array_equal(f0, frame(r, d, st.replace(seat_to_act=(st.seat_to_act + 1) % 4)))


def test_window_with_one_human_shows_only_the_humans_secret():
    """With one human among agents, the window shows the human seat's secret only, also
    while an agent's seat acts: the frame is byte-identical when every other seat's secret
    changes (pea pool, PP-5)."""
    from experiments.play import frame, shown_seat
    from poolgym.render.table_view import TableRenderer
    from poolgym.rules.game import get_discipline
    from poolgym.rules.geometry import get_table
    from poolgym.rules.testing import perturb_secrets

    assert shown_seat(["geometric", "human", "random"]) == 1
    assert shown_seat(["geometric", "random", "geometric"]) is None
    assert shown_seat(["human", "human", "geometric"]) is None
    d = get_discipline("pea_pool")
    st = d.initial_state(d.config_cls(n_players=3), 7)
    human = (st.seat_to_act + 1) % 3
    r = TableRenderer(get_table("9ft"), width=400, n_balls=16)
    f0 = frame(r, d, st, shown=human)
    assert np.array_equal(f0, frame(r, d, perturb_secrets(st, human), shown=human))
    assert not np.array_equal(f0, frame(r, d, st))  # not the acting agent's box and pea


def test_play_headless_n_seat_game_with_agents():
    """``poolgym play`` runs a three-seat pea pool game between agents, headless."""
    from experiments.play import play

    steps = play("pea_pool", ["geometric", "random", "geometric"], seed=1, max_shots=12, headless=True,
                 hold_s=0.0)
    assert steps and all(s.before.n_players == 3 for s in steps)
    assert {s.before.seat_to_act for s in steps} == {0, 1, 2}
