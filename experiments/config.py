"""Experiment configuration: a TOML file validated into frozen dataclasses.

An experiment names the environment, the training, the evaluation, the tournament and the
video. Every table is optional except ``[experiment]``; a missing stage is skipped. Example
(the shipped demo, ``experiments/configs/demo.toml``)::

    [experiment]
    name = "demo"
    seed = 0

    [env]
    id = "poolgym/PotDrill-v0"
    kwargs = { noise = "icga" }

    [training]
    algo = "ppo"                 # ppo | sac | maskable_ppo | expert_iteration
    total_timesteps = 30000
    n_envs = 8
    eval_every = 5000            # learning-curve points (timesteps)
    eval_episodes = 100

    [evaluation]
    episodes = 1000
    seed = 10000

    [tournament]
    discipline = "nine_ball"
    games_per_pair = 10
    noise = "icga"
    agents = [ { name = "geometric" }, { name = "random" }, { name = "trained" } ]

    [video]
    discipline = "nine_ball"
    agents = ["geometric", "geometric"]
    max_shots = 12

Validation errors are `ConfigError` (a ValueError) naming the offending key with its dotted
path, e.g. ``training.total_timesteps: expected an integer, got 'many'`` or
``unknown key 'trainig' in the top level (did you mean 'training'?)``.

The agent name ``trained`` in a tournament or video refers to the policy trained by the
``[training]`` stage of the same experiment.

``training.algo = "expert_iteration"`` trains the nine-ball player of `agents.learned` (an
action-value network distilled from the search agent on the learner's own games,
`agents.expert_iteration`); its settings are the ``training.hyperparams`` table
(`ExpertIterationConfig`: iterations, games, league, epochs, workers, ...), the
``total_timesteps`` / ``n_envs`` / ``eval_*`` fields do not apply, and the player is evaluated
by a ``[tournament]`` (``experiments/configs/nine_ball_expert.toml``).

``training.multi_agent = true`` (with ``--backend ray`` only) trains by self-play on the
PettingZoo env of ``env.id``'s discipline (one of `MULTI_AGENT_IDS`), with
``training.policies = "shared"`` (one policy for every seat) or ``"per_seat"``; see
`experiments.ray_backend`.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import tomllib
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Optional


class ConfigError(ValueError):
    """A bad experiment configuration; the message names the key."""


ALGOS = ("ppo", "sac", "maskable_ppo", "expert_iteration")
NOISES = ("none", "icga")
BACKENDS = ("local", "ray")
#: registered ids whose discipline has a PettingZoo env (``training.multi_agent``, ray backend)
MULTI_AGENT_IDS = {"poolgym/NineBall-v0": "nine_ball", "poolgym/EightBall-v0": "eight_ball",
                   "poolgym/StraightPool-v0": "straight_pool"}
POLICIES = ("shared", "per_seat")


@dataclass(frozen=True)
class ExperimentSection:
    """[experiment]: name, master seed, output folder (default runs/<name>), description."""

    name: str
    seed: int = 0
    output_dir: Optional[str] = None
    description: str = ""
    torch_threads: int = 1


@dataclass(frozen=True)
class EnvSection:
    """[env]: a registered Gymnasium id and its constructor keyword arguments."""

    id: str = "poolgym/PotDrill-v0"
    kwargs: dict = field(default_factory=dict)


@dataclass(frozen=True)
class TrainingSection:
    """[training]: algorithm, budget, vector envs, overrides of the tuned hyperparameters,
    checkpoint and learning-curve cadence (timesteps). ``mean_init_scale`` and
    ``log_std_init`` (SAC): how a fresh policy starts (`agents.sb3.train`: its mean-action
    layer scaled, a SAC's exploration narrowed). ``multi_agent`` (ray backend only):
    self-play on the PettingZoo env of ``env.id``'s discipline with one ``shared`` policy or
    one policy ``per_seat`` (see `experiments.ray_backend`)."""

    algo: str = "ppo"
    total_timesteps: int = 20000
    n_envs: int = 8
    hyperparams: dict = field(default_factory=dict)
    checkpoint_every: int = 10000
    eval_every: int = 5000
    eval_episodes: int = 50
    vector: str = "auto"
    num_workers: int = 1
    multi_agent: bool = False
    policies: str = "shared"
    mean_init_scale: Optional[float] = None
    log_std_init: Optional[float] = None

    def __post_init__(self):
        _choice("training.algo", self.algo, ALGOS)
        _positive("training.total_timesteps", self.total_timesteps)
        _positive("training.n_envs", self.n_envs)
        _positive("training.num_workers", self.num_workers)
        if self.num_workers > self.n_envs:
            raise ConfigError(f"training.num_workers ({self.num_workers}) must not exceed training.n_envs "
                              f"({self.n_envs})")
        _positive("training.checkpoint_every", self.checkpoint_every)
        _positive("training.eval_every", self.eval_every)
        _positive("training.eval_episodes", self.eval_episodes)
        _choice("training.vector", self.vector, ("auto", "native", "sync", "dummy"))
        _choice("training.policies", self.policies, POLICIES)
        if self.mean_init_scale is not None and not (math.isfinite(self.mean_init_scale) and self.mean_init_scale > 0):
            raise ConfigError(f"training.mean_init_scale: expected a positive number, got {self.mean_init_scale!r}")
        if self.log_std_init is not None:
            if self.algo != "sac":
                raise ConfigError("training.log_std_init: SAC's initial log standard deviation (algo = \"sac\"); "
                                  "PPO takes hyperparams.policy_kwargs.log_std_init")
            if not math.isfinite(self.log_std_init):
                raise ConfigError(f"training.log_std_init: expected a finite number, got {self.log_std_init!r}")
        if self.algo == "expert_iteration":  # its settings are the hyperparams table, checked here
            from agents.expert_iteration import ExpertIterationConfig

            try:
                ExpertIterationConfig.from_dict(dict(self.hyperparams))
            except (TypeError, ValueError) as e:
                raise ConfigError(f"training.hyperparams: {e}") from None
        if self.multi_agent and self.algo != "ppo":
            raise ConfigError(f"training.multi_agent: multi-agent training is RLlib PPO (algo = \"ppo\"), "
                              f"got algo = {self.algo!r}")


@dataclass(frozen=True)
class EvaluationSection:
    """[evaluation]: test episodes of the trained policy on seeded positions."""

    episodes: int = 1000
    seed: int = 10_000
    deterministic: bool = True
    #: players compared with the trained policy on the same seeded positions
    #: (`experiments.baselines`): any of "untrained", "random", "geometric", "search"
    baselines: tuple = ()
    #: positions of that comparison (seeds ``seed`` .. ``seed + baseline_episodes - 1``)
    baseline_episodes: int = 200

    def __post_init__(self):
        _positive("evaluation.episodes", self.episodes)
        _positive("evaluation.baseline_episodes", self.baseline_episodes)
        from experiments.baselines import BASELINES

        for n, b in enumerate(self.baselines):
            if b not in BASELINES:
                near = difflib.get_close_matches(str(b), BASELINES, n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                raise ConfigError(f"evaluation.baselines[{n}]: unknown baseline {b!r}{hint}; known: {', '.join(BASELINES)}")
        if len(set(self.baselines)) != len(self.baselines):
            raise ConfigError(f"evaluation.baselines: duplicates in {list(self.baselines)}")


@dataclass(frozen=True)
class AgentEntry:
    """One tournament entry: registry name (or 'trained'), label, constructor kwargs."""

    name: str
    label: str = ""
    kwargs: dict = field(default_factory=dict)


@dataclass(frozen=True)
class TournamentSection:
    """[tournament]: round robin on a discipline (see agents.tournament)."""

    discipline: str = "nine_ball"
    agents: tuple = ()
    games_per_pair: int = 10
    noise: str = "icga"
    max_shots: int = 200
    rules: dict = field(default_factory=dict)
    seed: Optional[int] = None

    def __post_init__(self):
        _positive("tournament.games_per_pair", self.games_per_pair)
        _positive("tournament.max_shots", self.max_shots)
        _choice("tournament.noise", self.noise, NOISES)
        if len(self.agents) < 2:
            raise ConfigError("tournament.agents: a tournament needs at least two agents")


@dataclass(frozen=True)
class VideoSection:
    """[video]: one game between two agents rendered to MP4/GIF."""

    discipline: str = "nine_ball"
    agents: tuple = ("geometric", "geometric")
    max_shots: int = 12
    fps: int = 30
    format: str = "mp4"
    noise: str = "icga"
    seed: Optional[int] = None

    def __post_init__(self):
        if len(self.agents) != 2:
            raise ConfigError(f"video.agents: expected two agent names, got {list(self.agents)}")
        _positive("video.max_shots", self.max_shots)
        _positive("video.fps", self.fps)
        _choice("video.format", self.format, ("mp4", "gif"))
        _choice("video.noise", self.noise, NOISES)


@dataclass(frozen=True)
class ExperimentConfig:
    """A whole experiment (see module docstring)."""

    experiment: ExperimentSection
    env: EnvSection = field(default_factory=EnvSection)
    training: Optional[TrainingSection] = None
    evaluation: Optional[EvaluationSection] = None
    tournament: Optional[TournamentSection] = None
    video: Optional[VideoSection] = None

    def __post_init__(self):
        uses_trained = False
        if self.tournament is not None:
            uses_trained |= any(a.name == "trained" for a in self.tournament.agents)
        if self.video is not None:
            uses_trained |= "trained" in self.video.agents
        if uses_trained and self.training is None:
            raise ConfigError("tournament.agents / video.agents: agent 'trained' needs a [training] section")
        if self.evaluation is not None and self.training is None:
            raise ConfigError("evaluation: evaluating a trained policy needs a [training] section")
        if self.evaluation is not None and self.training.algo == "expert_iteration":
            raise ConfigError("evaluation: the expert-iteration nine-ball player is evaluated by its [tournament]; "
                              "drop [evaluation]")
        if self.training is not None and self.training.multi_agent and self.env.id not in MULTI_AGENT_IDS:
            raise ConfigError(f"training.multi_agent: env.id must be one of {sorted(MULTI_AGENT_IDS)} (a discipline "
                              f"with a PettingZoo env), got {self.env.id!r}")

    def to_dict(self) -> dict:
        return _to_plain(dataclasses.asdict(self))


# ----------------------------------------------------------------------------- validation
def _choice(key: str, value, choices) -> None:
    if value not in choices:
        raise ConfigError(f"{key}: expected one of {list(choices)}, got {value!r}")


def _positive(key: str, value) -> None:
    if value <= 0:
        raise ConfigError(f"{key}: expected a positive number, got {value!r}")


def _to_plain(x):
    if isinstance(x, dict):
        return {k: _to_plain(v) for k, v in x.items() if v is not None}
    if isinstance(x, (list, tuple)):
        return [_to_plain(v) for v in x]
    return x


def _type_name(tp) -> str:
    return {int: "an integer", float: "a number", str: "a string", bool: "true or false",
            dict: "a table", tuple: "an array"}.get(tp, getattr(tp, "__name__", str(tp)))


def _coerce(value, tp, key: str):
    """Check `value` against annotation `tp` (after `from __future__ import annotations`)."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None:
            return None
        return _coerce(value, args[0], key)
    if dataclasses.is_dataclass(tp):
        return _build(tp, value, key)
    if tp is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{key}: expected true or false, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{key}: expected an integer, got {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{key}: expected a number, got {value!r}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise ConfigError(f"{key}: expected a string, got {value!r}")
        return value
    if tp is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{key}: expected a table, got {value!r}")
        return dict(value)
    if tp is tuple:
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{key}: expected an array, got {value!r}")
        return tuple(value)
    return value


def _build(cls, data, path: str):
    """Build dataclass `cls` from mapping `data`, naming `path` in every error."""
    where = path or "the top level"
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a table, got {data!r}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for k in data:
        if k not in fields:
            near = difflib.get_close_matches(k, list(fields), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else f"; known keys: {', '.join(fields)}"
            raise ConfigError(f"unknown key {k!r} in {'[' + path + ']' if path else 'the top level'}{hint}")
    kwargs = {}
    for name, f in fields.items():
        key = f"{path}.{name}" if path else name
        if name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ConfigError(f"{key}: missing required key")
            continue
        kwargs[name] = _coerce(data[name], hints[name], key)
    try:
        return cls(**kwargs)
    except ConfigError:
        raise
    except (TypeError, ValueError) as e:  # pragma: no cover - defensive
        raise ConfigError(f"{where}: {e}") from None


def _agent_entries(raw, key: str) -> tuple:
    if not isinstance(raw, (list, tuple)):
        raise ConfigError(f"{key}: expected an array of agent names or tables, got {raw!r}")
    out = []
    for n, a in enumerate(raw):
        k = f"{key}[{n}]"
        if isinstance(a, str):
            a = {"name": a}
        out.append(_build(AgentEntry, a, k))
    labels = [e.label or e.name for e in out]
    dup = sorted({l for l in labels if labels.count(l) > 1})
    if dup:
        raise ConfigError(f"{key}: duplicate agent labels {dup}; give each entry a distinct 'label'")
    return tuple(out)


def _check_agent_names(entries, key: str) -> None:
    import agents

    known = set(agents.names()) | {"trained"}
    for n, e in enumerate(entries):
        name = e.name if isinstance(e, AgentEntry) else e
        if name not in known:
            near = difflib.get_close_matches(name, sorted(known), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise ConfigError(f"{key}[{n}].name: unknown agent {name!r}{hint}; known: {', '.join(sorted(known))}")


def from_dict(data: dict) -> ExperimentConfig:
    """Validate a parsed TOML mapping into an `ExperimentConfig`."""
    if not isinstance(data, dict):
        raise ConfigError("the top level: expected a table")
    data = dict(data)
    if "experiment" not in data:
        raise ConfigError("experiment: missing required section [experiment] (with at least name = ...)")
    if "tournament" in data and isinstance(data["tournament"], dict):
        t = dict(data["tournament"])
        t["agents"] = _agent_entries(t.get("agents", []), "tournament.agents")
        _check_agent_names(t["agents"], "tournament.agents")
        data["tournament"] = t
    if "video" in data and isinstance(data["video"], dict) and "agents" in data["video"]:
        _check_agent_names(list(data["video"]["agents"]), "video.agents")
    hints = typing.get_type_hints(ExperimentConfig)
    fields = {f.name for f in dataclasses.fields(ExperimentConfig)}
    for k in data:
        if k not in fields:
            near = difflib.get_close_matches(k, sorted(fields), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else f"; known sections: {', '.join(sorted(fields))}"
            raise ConfigError(f"unknown key {k!r} in the top level{hint}")
    kwargs: dict[str, Any] = {}
    for name in fields:
        if name in data:
            tp = hints[name]
            if typing.get_origin(tp) in (typing.Union, types.UnionType):
                tp = [a for a in typing.get_args(tp) if a is not type(None)][0]
            if name == "tournament":
                kwargs[name] = _build_tournament(data[name])
            else:
                kwargs[name] = _build(tp, data[name], name)
    return ExperimentConfig(**kwargs)


def _build_tournament(t) -> TournamentSection:
    agents_ = t.pop("agents", ())
    obj = _build(TournamentSection, {**t, "agents": list(agents_)}, "tournament")
    return dataclasses.replace(obj, agents=tuple(agents_))


def loads(text: str) -> ExperimentConfig:
    """Parse and validate TOML text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"TOML syntax error: {e}") from None
    return from_dict(data)


def load(path: str) -> ExperimentConfig:
    """Read and validate a TOML experiment file."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text ({e})") from None
    try:
        return loads(text)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None


def dumps(cfg: ExperimentConfig) -> str:
    """Resolved config as TOML (every default written out; stable order)."""
    return _toml(cfg.to_dict())


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    raise TypeError(f"cannot write {v!r} as TOML")


def _toml(d: dict) -> str:
    lines = []
    for section, body in d.items():
        lines.append(f"[{section}]")
        for k, v in body.items():
            lines.append(f"{k} = {_toml_value(v)}")
        lines.append("")
    return "\n".join(lines)
