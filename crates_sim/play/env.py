"""A PettingZoo AEC environment for Crates and Crazy Eights, on the engine's step API.

    from crates_sim.play import env
    e = env.env(preset="classic", players=4, partnerships=True, bots={1: "greedy", 3: "pimc"})
    e.reset(seed=7, options={"game": 0})
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.hint("greedy")
        e.step(action)

Contract: agents are `player_<seat>` for the seats not in `bots` (those are played inside
the engine between the agents' turns). `reset(seed=S, options={"game": i})` deals
exactly the hands of `crates trace --seed S --game i`; every decision of the game,
the agents' included, is the engine's (`crates_sim.play.step.Table`). docs/env.md documents
the observation, the actions and the rewards.

Actions (one fixed encoding for every decision, ACTIONS): 0-51 play that card (rank * 4 +
suit), 52 draw (or decline a count), 53 pass, 54-57 call clubs, diamonds, hearts, spades,
58 do not announce a last card, 59 announce it. `observation["action_mask"]` marks the
legal ones.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from ..engine.observe_nb import OBS_HAND, agent_observation, obs_size
from ..engine.state_nb import HD0, NSV, SV0, SV_HAND_N, SV_TOTAL
from ..errors import CratesError
from ..rules import Rules
from .pyagent import ACTIONS, N_ACTIONS, action_of, option_of
from .step import Table

#: the action encoding (ACTIONS, N_ACTIONS, action_of, option_of) lives in `pyagent`,
#: which Python agents at the table use without importing PettingZoo
_NAMES = ACTIONS[:52]


def env(**kwargs):
    """The environment with the checks of PettingZoo's usual wrappers (an illegal action
    ends the game for the agent that made it, with reward -1; an action out of range
    asserts; calls before `reset` and out of order fail), in one class, `checked_env`,
    that costs what `raw_env` costs (docs/env.md). Arguments: those of `raw_env`."""
    return checked_env(**kwargs)


class raw_env(AECEnv):
    """Crates / Crazy Eights as a PettingZoo AEC environment, without wrappers.

    preset, players, partnerships, set: the rules (as `crates simulate --preset --players
    --partnerships --set`); bots: {seat: strategy spec} played inside the engine;
    reward: "rank" (+1 for the winners, -1 for the seats ranked last, 0 otherwise, at the
    game's end) or "score" (the final total, negated in Crates where lower wins);
    hand_rewards: also reward each hand (its points, negated in Crates)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "crates_v0",
                "is_parallelizable": False}

    def __init__(self, preset: str = "classic", players: int = 4, partnerships=None,
                 set: dict | None = None, bots: dict | None = None, reward: str = "rank",
                 hand_rewards: bool = False, render_mode: str | None = None):
        super().__init__()
        overrides = dict(set or {})
        if partnerships is not None:
            overrides["partnerships"] = partnerships
        self.rules = Rules.preset(preset, players, **overrides)
        bots = {int(k): v for k, v in (bots or {}).items()}
        if any(not 0 <= q < players for q in bots):
            raise CratesError(f"bots: seats are 0..{players - 1}")
        if len(bots) == players:
            raise CratesError("bots: leave at least one seat to an agent")
        if reward not in ("rank", "score"):
            raise CratesError(f"reward must be rank or score, not {reward!r}")
        self.bots = bots
        self.reward_kind = reward
        self.hand_rewards = hand_rewards
        self.render_mode = render_mode
        self.possible_agents = [f"player_{q}" for q in range(players) if q not in bots]
        size = obs_size(players)
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), dtype=np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self.table = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the game
    def reset(self, seed=None, options=None):
        game = int((options or {}).get("game", 0))
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (1 << 63))
        n = self.rules.players
        seats = [self.bots.get(q) for q in range(n)]
        self.table = Table(self.rules, seats, int(seed), game)
        self.agents = self.possible_agents[:]
        self._seats = [int(a.split("_")[1]) for a in self.agents]
        self._agent_seats = list(zip(self.agents, self._seats, strict=True))
        self._sign = -1 if self.rules.family == "crates" else 1  # rewards: lower totals win in Crates
        self._names = [f"player_{q}" for q in range(n)]
        self._obs_agent = None  # whose observation _vec and _mask hold
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"hand": [], "total": 0} for a in self.agents}
        self._hand_keys = [b""] * n  # per seat, its cards when its infos' hand was made
        self._vec = np.zeros(obs_size(n), dtype=np.float32)
        self._mask = np.zeros(N_ACTIONS, dtype=np.int8)
        self._hands_scored = 0
        self._after_move()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = int(action)
        if not (0 <= action < N_ACTIONS and self._mask[action]):
            legal = ", ".join(ACTIONS[a] for a in np.flatnonzero(self._mask))
            raise CratesError(f"action {action} is not legal now (legal: {legal})")
        self.table.answer(option_of(self.table.pending_phase, action))
        self._cumulative_rewards[agent] = 0.0
        self._after_move()
        self._accumulate_rewards()

    def _after_move(self):
        t = self.table
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0.0
        scored = len(t.hand_points)
        if scored > self._hands_scored:  # a hand (or more) ended: rewards, new totals
            if self.hand_rewards:
                for points in t.hand_points[self._hands_scored:]:
                    for a, q in self._agent_seats:
                        rewards[a] += self._sign * points[q]
            self._hands_scored = scored
        if t.over:
            self._refresh_infos(None)
            totals, ranks = t.totals, t.ranks
            last = max(ranks)
            for a, q in self._agent_seats:
                if self.reward_kind == "score":
                    rewards[a] += self._sign * totals[q]
                elif last > 1:  # all tied: 0
                    rewards[a] += 1.0 if q in t.winners else (-1.0 if ranks[q] == last else 0.0)
                self.terminations[a] = True
            return
        # the engine fills the mover's observation, once, in one call
        seat = agent_observation(t._G, self._vec, self._mask)
        mover = self._obs_agent = self._names[seat]
        self.agent_selection = mover
        # the mover's hand as it sees it deciding (none at the dealer's blind call)
        self.infos[mover]["hand"] = [_NAMES[c] for c in self._vec[OBS_HAND:OBS_HAND + 52].nonzero()[0].tolist()]
        self._hand_keys[seat] = b""
        self._refresh_infos(mover)

    def _refresh_infos(self, mover):
        """Every agent's total so far (as the observation shows it), and every agent but
        `mover` its cards (remade only for the seats whose cards changed)."""
        G = self.table._G
        keys = self._hand_keys
        totals = G[SV0 + SV_TOTAL:SV0 + len(keys) * NSV:NSV].tolist()
        for a, q in self._agent_seats:
            info = self.infos[a]
            info["total"] = totals[q]
            if a is mover:
                continue
            at = HD0 + q * 52
            cards = G[at:at + G[SV0 + q * NSV + SV_HAND_N]]
            key = cards.tobytes()
            if key != keys[q]:
                keys[q] = key
                info["hand"] = [_NAMES[c] for c in sorted(cards.tolist())]

    def observe(self, agent):
        if self._obs_agent == agent:
            return {"observation": self._vec.copy(), "action_mask": self._mask.copy()}
        return {"observation": np.zeros_like(self._vec), "action_mask": np.zeros_like(self._mask)}

    def hint(self, spec: str) -> int:
        """The action a built-in or user strategy (`greedy`, `pimc:samples=50`,
        `mybots.py:cautious`) would choose for the agent to move."""
        d = self.table.pending
        return action_of(d.phase, self.table.hint(spec))

    def render(self):
        if self.render_mode is None or self.table is None:
            return None
        d = self.table.pending
        text = f"hand {self.table.hand}, totals {self.table.totals}"
        if d is not None:
            hand = " ".join(self.infos.get(f"player_{d.seat}", {}).get("hand", []))
            text += (f"; player_{d.seat} to move, holding {hand};"
                     f" legal: {', '.join(ACTIONS[action_of(d.phase, o)] for o in d.options)}")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        self.table = None


class checked_env(raw_env):
    """`raw_env` with what PettingZoo's OrderEnforcingWrapper, AssertOutOfBoundsWrapper and
    TerminateIllegalWrapper add, without their cost (each forwards every attribute through
    `__getattr__`; here the attributes are the environment's own): `reset` must come
    first; `step` asserts its action is in the action space; an illegal action ends the
    game for every agent, with `illegal_reward` for the agent that made it and 0 for the
    others (and a warning); a `step` after the last agent is done warns and does nothing.
    `unwrapped` is the environment itself. It passes PettingZoo's `api_test`."""

    def __init__(self, illegal_reward: float = -1.0, **kwargs):
        super().__init__(**kwargs)
        self.illegal_reward = float(illegal_reward)
        self._has_reset = False
        self._has_updated = False

    def __getattr__(self, name):  # only for attributes the environment does not have (yet)
        if name in _NEED_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def reset(self, seed=None, options=None):
        self._has_reset = True
        self._has_updated = True
        super().reset(seed=seed, options=options)

    def step(self, action):
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not (isinstance(action, (int, np.integer)) and 0 <= action < N_ACTIONS):
            if not self.action_spaces[agent].contains(action):  # e.g. a 0-d integer array
                raise AssertionError("action is not in action space")
            action = int(action)
        if self._mask[action]:
            super().step(action)
            return
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0)
        self.rewards[agent] = self.illegal_reward
        self._accumulate_rewards()
        self._deads_step_first()

    def observe(self, agent):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return super().observe(agent)

    def render(self):
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def state(self):
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return super().state()

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return self._agents_in_turn(max_iter)

    def _agents_in_turn(self, max_iter):
        while self.agents and max_iter > 0:
            max_iter -= 1
            assert self._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
            self._has_updated = False
            yield self.agent_selection


_NEED_RESET = frozenset({"rewards", "terminations", "truncations", "infos", "agent_selection",
                         "num_agents", "agents"})
