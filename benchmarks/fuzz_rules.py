"""Rules fuzz: long seeded random play of every registered env id in the native vector env,
every table's state checked after every step.

For each configuration (env id x seat count x opponent x action mode) and seed it plays
``--steps`` steps of ``--tables`` tables with random actions (``box`` and ``param``: uniform
in the action space; ``macro``: uniform over the unmasked actions, so the games reach runs,
re-racks and endgames) and asserts

* batch == single: every batch of shots the env hands the referee is ruled by the batched
  referee (`DisciplineBase.adjudicate_batch` and its overrides, with their compiled calls) and
  by `adjudicate_validated` table by table, with equal states (also as JSON) and verdicts
  (also as repr);
* the state invariants of `poolgym.rules.testing.check_invariants` (one seat to act with a
  legal action, no overlaps, cue-ball flags, JSON round trip) on every table after every step;
* privacy (`check_privacy`) of the N-seat games: each seat's observation is byte-identical when
  the others' secrets change;
* no exception, no illegal action reported for a masked macro action, rewards finite;
* with ``--sharded W``: the same run in a twin env whose tables are sharded over W worker
  processes (`poolgym.envs.workers.ShardedVectorEnv`, what ``gymnasium.make_vec`` does by
  default with many tables), given the same actions, returns byte-identical observations,
  rewards, flags and infos at every step (the digest of `benchmarks/hash_runs.py`).

With ``--knobs`` every run of a discipline's env also draws its rules options (`random_rules`:
each Enum and bool field of the discipline's config, the ``conflicts.md`` readings and the
variants, changed with probability 1/2, and the break's cushion counts), so that the batched
referees' compiled calls are checked against the referee under every reading they read.

Configurations are cycled, seed after seed (in an order shuffled by the seed, so that a
campaign cut short by ``--minutes`` still samples every kind of configuration), until
``--minutes`` have passed (or every configuration has played ``--seeds`` seeds). A failure prints the configuration, seed, step and
table with the message (enough to reproduce it with ``--only ID --modes M --opponents O
--players N --seed S``, and ``--knobs`` when it was on: the knobs drawn are printed); the
configuration then moves on to its next seed.

Usage::

    python benchmarks/fuzz_rules.py --minutes 30
    python benchmarks/fuzz_rules.py --only poolgym/StraightPool-v0 --modes macro --seeds 20
    python benchmarks/fuzz_rules.py --minutes 30 --knobs
    python benchmarks/fuzz_rules.py --minutes 10 --knobs --sharded 2

Exit status 1 if any check failed.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import enum
import time
import typing
import traceback
from collections import Counter

import gymnasium as gym
import numpy as np

import poolgym  # noqa: F401  (registers the env ids)
from poolgym.envs.disciplines import ENV_IDS, SEATED_IDS
from poolgym.rules.game import DISCIPLINES as REGISTRY, DisciplineBase, get_discipline
from poolgym.rules.testing import check_invariants, check_privacy, ruled_both_ways

#: ids whose env has no opponent argument worth varying (single-seat drills and solo games)
SOLO = {"poolgym/PotDrill-v0", "poolgym/BreakDrill-v0", "poolgym/NineBallRunout-v0", "poolgym/Bowlliards-v0"}

STATS = Counter()
DISCIPLINES = set(REGISTRY)
#: ids whose rules are not drawn with ``--knobs`` (drills, and the runout drill's own start)
NO_KNOBS = {"poolgym/PotDrill-v0", "poolgym/BreakDrill-v0", "poolgym/NineBallRunout-v0"}
#: config fields `random_rules` leaves alone (the seats are the configuration's own)
FIXED_FIELDS = {"n_players", "first_breaker"}
#: int fields drawn by `random_rules`, with their range (the break's cushion counts, 8B-4.5, 9B-5.4, ...)
INT_KNOBS = {"break_min_rail_balls": (1, 8), "open_break_min_rail_balls": (1, 8)}


def object_balls(discipline: str) -> int:
    """The number of object balls ``discipline`` racks (its default initial state's)."""
    return len(get_discipline(discipline).initial_state().on_table) - 1


def random_rules(discipline: str, rng: np.random.Generator, seats: int | None = None) -> dict:
    """A rules dict for ``discipline``'s env (``rules=``): each Enum field of its config set to
    a random member, each bool field flipped and each of `INT_KNOBS` drawn from its range (at
    most the rack's object balls), every one with probability 1/2 (else the default); the
    G-3.6 ``lag`` only for two seats (``seats``, else the config's default count); with
    probability 1/2 the first game's breaker (``first_breaker``) a random seat."""
    cls = get_discipline(discipline).config_cls
    hints = typing.get_type_hints(cls)
    seats = cls().n_players if seats is None else seats
    out = {}
    for f in dataclasses.fields(cls):
        t = hints[f.name]
        if f.name in FIXED_FIELDS or rng.random() >= 0.5 or (f.name == "lag" and seats != 2):
            continue
        if isinstance(t, type) and issubclass(t, enum.Enum):
            out[f.name] = list(t)[int(rng.integers(len(t)))].value
        elif t is bool:
            out[f.name] = not f.default
        elif f.name in INT_KNOBS:
            lo, hi = INT_KNOBS[f.name]  # at most every object ball of the rack (a break's count)
            out[f.name] = int(rng.integers(lo, min(hi, object_balls(discipline) + 1)))
    if seats > 1 and rng.random() < 0.5:  # (drawn last: the draws above are those of earlier campaigns)
        out["first_breaker"] = int(rng.integers(seats))
    return out


_DISCIPLINE_OF: dict = {}


def discipline_of(env_id: str) -> str:
    """The rules discipline ``env_id`` plays (its env's ``disc.name``)."""
    if env_id not in _DISCIPLINE_OF:
        env = gym.make(env_id)
        _DISCIPLINE_OF[env_id] = env.unwrapped.disc.name
        env.close()
    return _DISCIPLINE_OF[env_id]


def _batched_classes() -> list:
    """Every discipline class that defines its own `adjudicate_batch`."""
    out, todo = [], [DisciplineBase]
    while todo:
        c = todo.pop()
        if "adjudicate_batch" in c.__dict__:
            out.append(c)
        todo.extend(c.__subclasses__())
    return out


@contextlib.contextmanager
def batch_checks():
    """Inside the block every `adjudicate_batch` rules its batch both ways and asserts the
    rulings equal (restored on exit)."""
    saved = []
    for cls in _batched_classes():
        real = cls.__dict__["adjudicate_batch"]

        def checked(self, states, actions, recs, _real=real):
            got = ruled_both_ways(_real, self, states, actions, recs)
            STATS["shots ruled both ways"] += len(got)
            return got

        saved.append((cls, real))
        cls.adjudicate_batch = checked
    try:
        yield
    finally:
        for cls, real in saved:
            cls.adjudicate_batch = real


def configs(only, modes, opponents, players_arg) -> list:
    """(env id, players or None, opponent, mode) tuples to play."""
    out = []
    for env_id in ENV_IDS:
        if only and env_id not in only:
            continue
        if env_id in SEATED_IDS:
            allowed = sorted(get_discipline(SEATED_IDS[env_id]).allowed_players)
            seats = [p for p in players_arg if p in allowed] if players_arg else \
                sorted({allowed[0], allowed[len(allowed) // 2], allowed[-1]})
        else:
            seats = [None]
        opps = ["default"] if env_id in SOLO else opponents
        for p in seats:
            for o in opps:
                for m in modes:
                    out.append((env_id, p, o, m))
    return out


def knobs_for(env_id: str, seed: int, players: int | None = None) -> dict | None:
    """The rules ``--knobs`` draws for ``env_id``'s run of ``seed`` with ``players`` seats
    (None: the game's default; returns None: no draw for this id)."""
    if env_id in NO_KNOBS or discipline_of(env_id) not in DISCIPLINES:
        return None
    return random_rules(discipline_of(env_id), np.random.default_rng([seed, 41]), players)


def _digest(parts) -> str:
    """`hash_runs`' digest of one step's returns."""
    import hashlib
    import importlib.util
    import sys
    from pathlib import Path

    mod = sys.modules.get("hash_runs")
    if mod is None:  # the script next to this one (benchmarks/ is not a package)
        spec = importlib.util.spec_from_file_location("hash_runs", Path(__file__).with_name("hash_runs.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        sys.modules["hash_runs"] = mod
    h = hashlib.sha256()
    mod._feed(h, parts)
    return h.hexdigest()


def play(env_id, players, opponent, mode, seed, tables, steps, rules=None, sharded=0) -> str | None:
    """One seeded run (``rules``: the env's rules options; ``sharded`` W > 1: the twin run over
    W worker processes, compared step by step); None when every check held, else the
    failure's description."""
    kw = {"action_mode": mode, "noise": "icga"}
    if rules:
        kw["rules"] = rules
    if players is not None:
        kw["players"] = players
    if opponent == "none":
        kw["opponent"] = None
    elif opponent != "default":
        kw["opponent"] = opponent
    where = "make"
    try:
        env = gym.make_vec(env_id, num_envs=tables, vectorization_mode="vector_entry_point", num_workers=1,
                           **kw)  # the tables' states are read in this process
    except (TypeError, ValueError) as err:  # an id without this argument
        return f"skip: {err}"
    rng = np.random.default_rng(seed)
    env.action_space.seed(seed)
    twin = None
    try:
        if sharded > 1:
            where = "make (sharded)"
            twin = gym.make_vec(env_id, num_envs=tables, vectorization_mode="vector_entry_point",
                                num_workers=min(sharded, tables), **kw)
        where = "reset"
        got = env.reset(seed=seed)
        if twin is not None:
            assert _digest(twin.reset(seed=seed)) == _digest(got), "the sharded twin's reset differs"
        seated = players is not None
        for t in range(steps):
            where = f"step {t}"
            if mode == "macro":
                masks = env.action_masks()
                acts = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
            else:
                acts = env.action_space.sample()
            got = env.step(acts)
            obs, rew, term, trunc, info = got
            if twin is not None:
                assert _digest(twin.step(acts)) == _digest(got), "the sharded twin's step differs"
            assert np.all(np.isfinite(rew)), f"non-finite reward {rew}"
            if mode == "macro" and "illegal_action" in info:
                bad = np.flatnonzero(np.asarray(info["illegal_action"]))
                assert len(bad) == 0, f"masked macro actions reported illegal on tables {bad.tolist()}"
            for i, e in enumerate(env.envs):
                where = f"step {t} table {i}"
                st = e.session.state
                if st.discipline not in DISCIPLINES:  # a drill's own state
                    continue
                check_invariants(st)
                if seated:
                    check_privacy(st)
            STATS["table steps"] += tables
            STATS["episodes ended"] += int(np.sum(term | trunc))
    except Exception as err:  # noqa: BLE001 -- reported with its place
        tb = traceback.format_exc(limit=-4)
        return f"{where}: {type(err).__name__}: {err}\n{tb}"
    finally:
        env.close()
        if twin is not None:
            twin.close()
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--seeds", type=int, default=10**9, help="at most this many seeds per configuration")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--tables", type=int, default=16)
    ap.add_argument("--steps", type=int, default=120)
    ap.add_argument("--only", nargs="*", default=None, help="env ids")
    ap.add_argument("--modes", nargs="*", default=["box", "macro", "param"])
    ap.add_argument("--opponents", nargs="*", default=["geometric", "none"])
    ap.add_argument("--players", nargs="*", type=int, default=None)
    ap.add_argument("--in-order", action="store_true",
                    help="the configurations in their listed order (default: shuffled by each seed)")
    ap.add_argument("--knobs", action="store_true",
                    help="draw each run's rules options (random_rules) instead of the defaults")
    ap.add_argument("--sharded", type=int, default=0, metavar="W",
                    help="also play each run in a twin env sharded over W worker processes and compare every step")
    args = ap.parse_args(argv)
    STATS.clear()
    cfgs = configs(args.only, args.modes, args.opponents, args.players)
    print(f"{len(cfgs)} configurations; {args.tables} tables x {args.steps} steps a run", flush=True)
    with batch_checks():
        failures, runs = _campaign(cfgs, args)
    refused = f", {STATS['rules refused']} draws of the rules refused at make" if args.knobs else ""
    print(f"\n{runs} runs, {STATS['table steps']} table steps, {STATS['episodes ended']} episodes ended, "
          f"{STATS['shots ruled both ways']} shots ruled both ways{refused}; {len(failures)} failures")
    for cfg, seed, res in failures:
        print(f"  seed {seed} {cfg}: {res.splitlines()[0]}")
    return 1 if failures else 0


def _campaign(cfgs, args) -> tuple:
    """Cycle the configurations seed after seed (module docstring): (failures, runs)."""
    deadline = time.monotonic() + 60.0 * args.minutes
    failures, runs, skipped = [], 0, set()
    for k in range(args.seeds):
        seed = args.seed + k
        order = cfgs if args.in_order else [cfgs[i] for i in np.random.default_rng(seed).permutation(len(cfgs))]
        for cfg in order:
            if cfg in skipped:
                continue
            if time.monotonic() > deadline:
                break
            t0 = time.perf_counter()
            rules = knobs_for(cfg[0], seed, cfg[1]) if args.knobs else None
            res = play(*cfg, seed, args.tables, args.steps, rules, args.sharded)
            runs += 1
            if res is not None and res.startswith("skip"):
                if rules:  # the env refused this draw of its rules with a clear error: the next seed draws again
                    STATS["rules refused"] += 1
                    print(f"seed {seed} {cfg} rules={rules}: refused ({res[6:]})", flush=True)
                    continue
                skipped.add(cfg)
                print(f"{cfg}: {res}", flush=True)
                continue
            status = "ok" if res is None else "FAIL"
            print(f"seed {seed} {cfg[0]} players={cfg[1]} opponent={cfg[2]} mode={cfg[3]}"
                  f"{f' rules={rules}' if rules else ''}: {status} ({time.perf_counter() - t0:.1f} s)", flush=True)
            if res is not None:
                failures.append((cfg, seed, res))
                print(res, flush=True)
        else:
            continue
        break
    return failures, runs


if __name__ == "__main__":
    raise SystemExit(main())
