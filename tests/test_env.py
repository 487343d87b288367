"""crates_sim.play.env: PettingZoo's own API and seed tests, the traced game under hints, the
action encoding."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from crates_sim import CratesError, Rules  # noqa: E402
from crates_sim import cards as C  # noqa: E402
from crates_sim.engine.api import trace_game  # noqa: E402
from crates_sim.engine.observe_nb import OBS_SEAT  # noqa: E402
from crates_sim.play import env as cenv  # noqa: E402


@pytest.mark.parametrize("kwargs", [dict(preset="classic", players=4),
                                    dict(preset="crazy-eights", players=3, bots={1: "greedy"}),
                                    dict(preset="league", players=4, bots={0: "aggressive"},
                                         reward="score", hand_rewards=True)])
def test_pettingzoo_api_test(kwargs):
    api_test(cenv.env(**kwargs), num_cycles=300)


def test_pettingzoo_seed_test():
    seed_test(lambda: cenv.env(preset="classic", players=4, bots={3: "greedy"}), num_cycles=100)


@pytest.mark.parametrize("preset,players", [("classic", 4), ("very-crazy-eights", 3)])
def test_hints_at_every_seat_replay_the_trace(preset, players):
    e = cenv.env(preset=preset, players=players)
    e.reset(seed=5, options={"game": 1})
    for _agent in e.agent_iter():
        _obs, _reward, done, cut, _info = e.last()
        e.step(None if done or cut else e.unwrapped.hint("greedy"))
    end = trace_game(Rules.preset(preset, players), ["greedy"] * players, 5, 1)[-1]
    assert e.unwrapped.table.totals == end["totals"]


def test_reset_deals_the_traced_hands_and_infos_name_them():
    e = cenv.env(preset="classic", players=4, bots={1: "greedy", 2: "greedy", 3: "greedy"})
    e.reset(seed=7, options={"game": 3})
    deal = next(ev for ev in trace_game(Rules.preset("classic", 4), ["greedy"] * 4, 7, 3)
                if ev["ev"] == "deal")
    obs, _r, _d, _c, info = e.last()
    assert e.agent_selection == "player_0"
    assert info["hand"] == sorted(deal["hands"][0], key=C.parse_card)
    held = np.flatnonzero(obs["observation"][:52]).tolist()
    assert held == sorted(C.parse_card(c) for c in deal["hands"][0])
    assert obs["action_mask"].sum() >= 1 and obs["action_mask"].dtype == np.int8


def test_rank_rewards_sum_to_the_outcome():
    e = cenv.env(preset="classic", players=4)
    e.reset(seed=2, options={"game": 0})
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        _obs, reward, done, cut, _info = e.last()
        total[agent] += reward
        e.step(None if done or cut else e.unwrapped.hint("random"))
    t = e.unwrapped.table
    for q in range(4):
        want = 1.0 if q in t.winners else -1.0
        assert total[f"player_{q}"] == want


def test_an_illegal_action_in_the_raw_env_is_one_line_naming_the_legal_ones():
    e = cenv.raw_env(preset="classic", players=4)
    e.reset(seed=3)
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(CratesError, match=r"is not legal now \(legal: "):
        e.step(illegal)
    with pytest.raises(CratesError, match="is not legal now"):
        e.step(99)


def test_every_agents_infos_hold_its_hand_and_total_from_reset_on():
    e = cenv.env(preset="classic", players=4)
    e.reset(seed=7, options={"game": 3})
    deal = next(ev for ev in trace_game(Rules.preset("classic", 4), ["greedy"] * 4, 7, 3)
                if ev["ev"] == "deal")
    for q in range(4):
        assert e.infos[f"player_{q}"]["hand"] == sorted(deal["hands"][q], key=C.parse_card)
        assert e.infos[f"player_{q}"]["total"] == 0
    per_seat = OBS_SEAT + 4  # then per seat: hand size, total, pressures
    for agent in e.agent_iter():
        obs, _r, done, cut, info = e.last()
        table = e.unwrapped.table
        if not (done or cut):  # every agent's cards: as many as the mover sees it hold
            vec = obs["observation"]
            hands = [e.infos[f"player_{q}"]["hand"] for q in range(4)]
            for q in range(4):
                if f"player_{q}" != agent or info["hand"]:  # (the dealer's blind call: none)
                    assert len(hands[q]) == vec[per_seat + 3 * q]
                assert e.infos[f"player_{q}"]["total"] == vec[per_seat + 3 * q + 1]
            cards = [c for h in hands for c in h]
            assert len(cards) == len(set(cards))
        e.step(None if done or cut else e.unwrapped.hint("greedy"))
    assert table.over and table.hand > 1


def test_env_checks_order_and_actions_without_pettingzoos_wrappers():
    e = cenv.env(preset="classic", players=4)
    assert e.unwrapped is e
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agents
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    e.reset(seed=3)
    with pytest.raises(AssertionError, match="action space"):
        e.step(60)
    agent = e.agent_selection
    illegal = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    e.step(np.int64(illegal))  # PettingZoo's EnvLogger warns of it
    assert all(e.terminations.values()) and all(e.truncations.values())
    assert e._cumulative_rewards[agent] == -1.0
    assert sum(e._cumulative_rewards.values()) == -1.0
    for _agent in e.agent_iter():
        e.step(None)
    assert e.agents == []
