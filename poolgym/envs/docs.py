"""Environment reference generator: ``python -m poolgym.envs.docs [--out FILE] [--check]``.

Writes ``docs/environments.md``, one section per ``poolgym/*`` id of the Gymnasium registry
(so a newly registered id appears without editing this module), in the style of Gymnasium's
environment pages: the env class docstring as the description (its ``## Starting state`` and
``## Rewards`` sections, when present, printed for that id); the rules file the id
referees; the action and observation spaces and the starting state read from a constructed
env; the rules options (the discipline config's fields and defaults); the version. The parts
common to every id (action and observation layout, rewards, episode end, info, arguments,
reset options, version history) are the sections of the `PoolEnv` docstring, which is the
spec. ``--check`` exits 1 when the file differs from what would be generated
(``tests/envs/test_environments_doc.py`` runs the same comparison).
"""
from __future__ import annotations

import argparse
import dataclasses
import inspect
import re
import sys
from enum import Enum
from pathlib import Path

__all__ = ["env_ids", "docstring_sections", "render", "main"]

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "docs" / "environments.md"
#: `PoolEnv` docstring sections printed once, for every id, in this order
COMMON_SECTIONS = ("Action space", "Observation space", "Rewards", "Episode end", "Info", "Arguments",
                   "N-seat games", "Reset options", "Version history")


def env_ids() -> list:
    """The registered ``poolgym/*`` ids, sorted."""
    import gymnasium

    import poolgym  # noqa: F401  (registers the ids)

    return sorted(k for k in gymnasium.registry if k.startswith("poolgym/"))


def docstring_sections(obj) -> dict:
    """{title: text} of a docstring written with ``## Title`` sections ("" = the summary)."""
    doc = inspect.cleandoc(obj.__doc__ or "")
    out, title, lines = {}, "", []
    for line in doc.splitlines():
        m = re.match(r"^## (.+)$", line)
        if m:
            out[title] = "\n".join(lines).strip()
            title, lines = m.group(1).strip(), []
        else:
            lines.append(line)
    out[title] = "\n".join(lines).strip()
    return out


def _value(v) -> str:
    if isinstance(v, Enum):
        return repr(v.value)
    return repr(v)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _balls(state) -> str:
    on = [k for k in range(1, len(state.on_table)) if state.on_table[k]]
    if not on:
        return "none"
    runs, start = [], on[0]
    for a, b in zip(on, on[1:] + [None]):
        if b != a + 1:
            runs.append(f"{start}" if start == a else f"{start}-{a}")
            start = b
    return ", ".join(runs)


def _env_section(env_id: str) -> list:
    import gymnasium

    spec = gymnasium.spec(env_id)
    env = gymnasium.make(env_id, disable_env_checker=True).unwrapped
    macro = gymnasium.make(env_id, action_mode="macro", disable_env_checker=True).unwrapped
    param = gymnasium.make(env_id, action_mode="param", disable_env_checker=True).unwrapped
    _, info = env.reset(seed=0)
    st = env.state
    disc = env.disc
    cls = type(env)
    rules_file = getattr(disc, "rules_file", None)
    rules = (f"`shared/rules/{rules_file}` (`{type(disc).__module__}`)" if rules_file
             else f"none: a drill judged by `{type(disc).__module__}.{type(disc).__name__}`")
    version = env_id.rsplit("-", 1)[-1]
    cfg = env.config
    own = docstring_sections(cls)
    out = [f"## `{env_id}`", "", own.pop("", ""), "",
           "| | |", "|---|---|",
           f"| env class | `{cls.__module__}.{cls.__name__}` (discipline `{disc.name}`) |",
           f"| rules | {rules} |",
           f"| action space (`action_mode=\"box\"`, default) | `{env.action_space}` |",
           f"| action space (`action_mode=\"macro\"`) | `{macro.action_space}` |",
           f"| action space (`action_mode=\"param\"`; `\"param_dict\"`) | `{param.action_space}`; "
           f"`Dict(choice=Discrete({param.param.n_choice}), corrections=Box(-1.0, 1.0, (7,), float32))` |",
           f"| observation space | `{env.observation_space}` (param modes: "
           f"`{param.observation_space.shape}`, with the candidate block) |",
           f"| seats | {cfg.n_players} (`n_players`); "
           + ("the built-in opponent (`opponent=`, default `\"geometric\"`) plays every other seat |"
              if env.opponent is not None else "no opponent: the learner plays every turn |"),
           f"| max_shots | {env.max_shots} |",
           f"| make | `gymnasium.make(\"{env_id}\")` |",
           f"| vector | `gymnasium.make_vec(\"{env_id}\", num_envs=N, vectorization_mode=\"vector_entry_point\")`"
           f" (`{spec.vector_entry_point}`; `num_workers`: processes, default `\"auto\"`, one per 32 tables "
           f"and core, 64 where one process pipelines the steps) |",
           f"| version | `{version}` (see Version history) |",
           "",
           *[line for title, text in own.items() for line in (f"**{title}.** {_one_line(text)}", "")],
           "**At `reset(seed=0)`**: "
           f"phase `{st.phase.value}`, seat to act {st.seat_to_act} (learner seat {info['learner_seat']}), "
           f"cue ball `{st.cue_ball.value}`, object balls on the table: {_balls(st)}.",
           "",
           f"**Options** (`rules=` a `{type(cfg).__name__}` or a dict of its fields; defaults):",
           ""]
    for f in dataclasses.fields(cfg):
        out.append(f"- `{f.name}` = `{_value(getattr(type(disc).config_cls(), f.name))}`")
    out.append("")
    env.close()
    macro.close()
    param.close()
    return out


def render() -> str:
    """The whole ``docs/environments.md`` text."""
    from poolgym.envs.pool_env import PoolEnv

    sec = docstring_sections(PoolEnv)
    ids = env_ids()
    lines = ["# poolgym environments", "",
             "<!-- Generated by `python -m poolgym.envs.docs` from the env docstrings and the registry;"
             " do not edit by hand. -->", "",
             sec.get("", ""), "", sec.get("Description", ""), "",
             "| id | env |", "|---|---|"]
    for env_id in ids:
        import gymnasium

        ep = gymnasium.spec(env_id).entry_point
        mod, name = ep.split(":")
        cls = getattr(__import__(mod, fromlist=[name]), name)
        summary = inspect.cleandoc(cls.__doc__ or "").split("\n\n")[0].replace("\n", " ")
        lines.append(f"| [`{env_id}`](#{re.sub(r'[^a-z0-9-]', '', env_id.lower())}) | {summary} |")
    lines += ["", "# Common to every id (the `PoolEnv` docstring)", ""]
    for title in COMMON_SECTIONS:
        if title in sec:
            lines += [f"### {title}", "", sec[title], ""]
    lines += ["# Environments", ""]
    for env_id in ids:
        lines += _env_section(env_id)
    return "\n".join(lines).rstrip() + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m poolgym.envs.docs", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output file (docs/environments.md)")
    ap.add_argument("--check", action="store_true", help="exit 1 if the file is not up to date")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is stale: run python -m poolgym.envs.docs", file=sys.stderr)
            return 1
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(env_ids())} ids)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
