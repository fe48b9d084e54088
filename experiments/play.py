"""``poolgym play``: watch two agents in a pygame window, or play against one.

The player name ``human`` is a person at the window:

* cue ball in hand: click where to put it (an illegal spot is moved to the nearest legal one);
* shot: click on the table; the cue is aimed from the cue ball at the clicked point and the
  stick speed grows with the distance of the click (0.5 m/s at the cue ball, 6 m/s at 1.5 m);
  hold SHIFT while clicking for draw (b = -0.4), CTRL for follow (b = +0.4). In call-shot games
  the ball nearest the click is called, in the pocket nearest to it;
* options (push-out reply, re-rack, ...): press 1, 2, ... for the listed option (printed in the
  terminal); press P before a shot to declare a push-out when it is allowed;
* declarations of an N-seat game (claim 41, declare a bust, announce your pea ball): in their
  window press 1, 2, ... for the listed one; offered beside a shot, the last number shoots;
* ESC or closing the window quits.

The table after each shot is shown with the cue ball's path. N-seat games (``--agents`` with
one name per seat, e.g. ``human,geometric,geometric`` for pea pool) show a bar under the table:
whose turn it is, and the acting seat's own secret only (its pea, the balls of its hand; built
from `poolgym.rules.seats.observe`, as every agent sees only its own seat's view).
"""

from __future__ import annotations

import dataclasses
import math
import os

import numpy as np

from agents.base import Agent, Observation


class HumanAgent(Agent):
    """A person at the pygame window (see module docstring)."""

    name = "human"

    def __init__(self, seed=None, window=None):
        super().__init__(seed)
        self.window = window

    def act(self, obs: Observation):
        from agents.view import Decision, view_of
        from poolgym.rules.core import ChooseOption, PlaceCueBall, ShotAction

        v = view_of(obs)
        ds = obs.spec.declarations
        if ds:
            from poolgym.rules.core import Declare

            shoot = v.decision is not Decision.DECLARE
            for k, d in enumerate(ds):
                print(f"  [{k + 1}] declare {d.value}")
            if shoot:
                print(f"  [{len(ds) + 1}] play on")
            k = self.window.wait_key(len(ds) + int(shoot))
            if k < len(ds):
                return Declare(ds[k])
        if v.decision is Decision.OPTION:
            for k, o in enumerate(v.options):
                print(f"  [{k + 1}] {o.value}")
            k = self.window.wait_key(len(v.options))
            return ChooseOption(v.options[k])
        if v.decision is Decision.PLACE:
            from poolgym.envs.codec import nearest_legal_placement
            from poolgym.rules.geometry import ball_radius

            print("  click to place the cue ball")
            x, y, _ = self.window.wait_click()
            pl = nearest_legal_placement(x, y, v.balls, v.on, obs.table, ball_radius(), kitchen=v.kitchen)
            return pl if isinstance(pl, PlaceCueBall) else PlaceCueBall(*pl)
        print("  click to shoot (SHIFT draw, CTRL follow, P before clicking = push-out)")
        x, y, mods = self.window.wait_click()
        cue = v.balls[0]
        if v.is_lag:  # the seat's lag ball stands behind the head string on its side (G-3.6)
            from poolgym.rules.geometry import ball_radius
            from poolgym.rules.lag import lag_start_position

            cue = lag_start_position(obs.seat, obs.table, ball_radius())
        d = math.hypot(x - cue[0], y - cue[1])
        V0 = float(np.clip(0.5 + d / 1.5 * 5.5, 0.3, 7.0))
        phi = math.degrees(math.atan2(y - cue[1], x - cue[0])) % 360.0
        b = -0.4 if "shift" in mods else (0.4 if "ctrl" in mods else 0.0)
        called_ball = called_pocket = None
        if v.call_required and v.callable_balls:
            P = v.balls[list(v.callable_balls)]
            called_ball = int(v.callable_balls[int(np.argmin(np.hypot(P[:, 0] - x, P[:, 1] - y)))])
            pk = np.asarray(obs.table.pockets)[:, :2]
            bxy = v.balls[called_ball]
            called_pocket = int(np.argmin(np.hypot(pk[:, 0] - bxy[0], pk[:, 1] - bxy[1])))
        push = bool(v.push_out_allowed and "push" in mods)
        return ShotAction(V0=V0, phi=phi, b=b, called_ball=called_ball, called_pocket=called_pocket, push_out=push)


class Window:
    """A pygame window showing frames and collecting clicks / keys."""

    def __init__(self, renderer, fps: int = 30, headless: bool = False, height: int | None = None):
        if headless:
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        from poolgym.render.display import init_display

        pygame = init_display("poolgym play")
        self.pg = pygame
        self.r = renderer
        self.screen = pygame.display.set_mode((renderer.width, height or renderer.height))
        pygame.display.set_caption("poolgym")
        self.clock = pygame.time.Clock()
        self.fps = fps
        self.push_flag = False

    def show(self, frame: np.ndarray, hold_s: float = 0.0) -> None:
        pg = self.pg
        surf = pg.surfarray.make_surface(np.ascontiguousarray(frame.transpose(1, 0, 2)))
        self.screen.blit(surf, (0, 0))
        pg.display.flip()
        t = 0.0
        while True:
            self._pump()
            self.clock.tick(self.fps)
            t += 1.0 / self.fps
            if t >= hold_s:
                break

    def _pump(self, want=None):
        pg = self.pg
        for ev in pg.event.get():
            if ev.type == pg.QUIT or (ev.type == pg.KEYDOWN and ev.key == pg.K_ESCAPE):
                raise KeyboardInterrupt
            if ev.type == pg.KEYDOWN and ev.key == pg.K_p:
                self.push_flag = True
            if want is not None:
                r = want(ev)
                if r is not None:
                    return r
        return None

    def wait_click(self):
        pg = self.pg

        def want(ev):
            if ev.type == pg.MOUSEBUTTONDOWN:
                row, col = ev.pos[1], ev.pos[0]
                from poolgym.render.table_view import BORDER

                x = row / self.r.scale - BORDER
                y = col / self.r.scale - BORDER
                keys = pg.key.get_mods()
                mods = set()
                if keys & pg.KMOD_SHIFT:
                    mods.add("shift")
                if keys & pg.KMOD_CTRL:
                    mods.add("ctrl")
                if self.push_flag:
                    mods.add("push")
                    self.push_flag = False
                return x, y, mods
            return None

        while True:
            r = self._pump(want)
            if r is not None:
                return r
            self.clock.tick(self.fps)

    def wait_key(self, n: int) -> int:
        pg = self.pg

        def want(ev):
            if ev.type == pg.KEYDOWN and pg.K_1 <= ev.key < pg.K_1 + n:
                return ev.key - pg.K_1
            return None

        while True:
            r = self._pump(want)
            if r is not None:
                return r
            self.clock.tick(self.fps)

    def close(self):
        self.pg.display.quit()


def frame(renderer, disc, state, trajectories=None, shown: int | None = None) -> np.ndarray:
    """The frame of ``state``: the table, and for an N-seat game the seat bar with whose turn
    it is and the own secret of seat ``shown`` only (default: the acting seat;
    `poolgym.render.seats.seat_bar`)."""
    from poolgym.envs.seating import seat_bar_args, uses_seats
    from poolgym.render.seats import seat_bar

    f = renderer.render(state.positions(), state.on_mask(), trajectories=trajectories)
    if uses_seats(disc, state.config):
        seat = state.seat_to_act if shown is None else int(shown)
        f = seat_bar(renderer, f, *seat_bar_args(disc, state, seat))
    return f


def shown_seat(names) -> int | None:
    """The seat whose secret the window may show: the human's seat when exactly one seat is
    ``human`` (the person at the window must not see the agents' secrets), else None (the
    acting seat: agents only, or humans sharing the window in turn)."""
    humans = [k for k, n in enumerate(names) if n == "human"]
    return humans[0] if len(humans) == 1 else None


def play(discipline: str, names, seed: int = 0, noise: str = "icga", max_shots: int = 200, fps: int = 30,
         headless: bool = False, hold_s: float = 0.8, lag: bool = False) -> list:
    """Play one game with a window; returns the recorded steps. ``lag``: the game opens with
    the G-3.6 lag (two seats; both strokes are played at once after the second seat's, then
    the winner chooses who breaks, G-3.7)."""
    import agents
    from agents.replay import Step, cue_path
    from agents.tournament import canonical_discipline, make_rules_config
    from poolgym.envs.physics_io import make_noise
    from poolgym.rules.core import Phase, ShotAction
    from poolgym.rules.game import DISCIPLINES, simulate_record
    from poolgym.rules.geometry import get_table
    from poolgym.render.table_view import TableRenderer

    from poolgym.rules.seats import observe

    name = canonical_discipline(discipline)
    disc = DISCIPLINES[name]
    seated = disc.allowed_players is not None or len(names) != 2
    cfg = make_rules_config(name, {"n_players": len(names)} if seated else None)
    if lag:
        if cfg.n_players != 2:
            raise SystemExit("--lag: the lag (G-3.6) is between two players")
        cfg = dataclasses.replace(cfg, lag=True)
    table = get_table(cfg.table)
    r = TableRenderer(table, width=800, n_balls=disc.n_balls)
    state = disc.initial_state(cfg, seed)
    shown = shown_seat(names)
    win = Window(r, fps=fps, headless=headless, height=frame(r, disc, state, shown=shown).shape[0])
    players = [HumanAgent(window=win) if n == "human" else agents.make(n, seed=seed + 1 + k)
               for k, n in enumerate(names)]
    nz = make_noise(noise)
    nrng = np.random.default_rng(seed)
    steps, shots = [], 0
    try:
        win.show(frame(r, disc, state, shown=shown), 0.1)
        while not state.game_over and shots < max_shots:
            spec = disc.legal_actions(state)
            seat = state.seat_to_act
            print(f"seat {seat} ({names[seat]}): {spec.phase.value}")
            a = players[seat].act(Observation(observe(state, seat).state, spec, table, seat, name))
            holder = {}
            if isinstance(a, ShotAction):
                shots += 1
                if nz is not None:
                    row = nz.apply(a.shot_array()[None], nrng)[0]
                    a = ShotAction(*[float(x) for x in row], a.called_ball, a.called_pocket, a.safety, a.push_out)

                def sim(st, act):
                    holder["rec"] = simulate_record(st, act)
                    return holder["rec"]

                if state.phase is Phase.LAG:  # G-3.6: both lag strokes are played together
                    new, verdict = disc.apply(state, a)
                else:
                    new, verdict = disc.apply(state, a, simulate=sim)
            else:
                new, verdict = disc.apply(state, a)
            st = Step(state, a, new, verdict, holder.get("rec"))
            steps.append(st)
            path = cue_path(st)
            win.show(frame(r, disc, new, trajectories=[path] if path is not None else None, shown=shown),
                     hold_s if st.record is not None else 0.05)
            if verdict is not None and verdict.fouls:
                print("  foul:", ", ".join(f"{f.kind.value} ({f.rule})" for f in verdict.fouls))
            state = new
        print("game over:", "draw" if state.winner is None else f"seat {state.winner} ({names[state.winner]}) wins")
    except KeyboardInterrupt:
        print("quit")
    finally:
        win.close()
    return steps
