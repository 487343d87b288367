"""Python agents at the table (crates_sim.play.pyagent): the same games as the @njit strategy
they re-implement, in every command, and one clear error for a bad agent."""

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from crates_sim.cli.main import cli
from crates_sim.errors import CratesError
from crates_sim.play.pyagent_run import run_games, trace_game
from crates_sim.play.step import Table
from crates_sim.rules import PRESETS, Rules

ROOT = Path(__file__).resolve().parent.parent
GREEDY_AGENT = f"{ROOT}/examples/agents.py:GreedyAgent"
FIRST = f"{ROOT}/examples/agents.py:first_legal"

BAD = '''
import numpy as np

class Raises:
    def act(self, observation, action_mask, seat, game):
        raise ValueError("no idea")

def illegal(observation, action_mask, seat, game):
    return int(np.flatnonzero(action_mask == 0)[0])

def floating(observation, action_mask, seat, game):
    return 1.5

def numpy_int(observation, action_mask, seat, game):
    return np.int64(np.flatnonzero(action_mask)[-1])

class Memory:
    """Counts its decisions per game; `rules` given since __init__ takes it."""
    def __init__(self, rules, start=0):
        self.rules, self.seen = rules, {}
        self.start = start
    def act(self, observation, action_mask, seat, game):
        self.seen[game] = self.seen.get(game, 0) + 1
        return int(np.flatnonzero(action_mask)[0])
'''


@pytest.fixture
def bots(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text(BAD)
    return str(path)


def _seatings(rules):
    n = rules.players
    return [[GREEDY_AGENT] * n, [GREEDY_AGENT] + ["greedy"] * (n - 1)]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_greedy_agent_plays_greedys_games_on_every_preset(preset):
    """examples/agents.py:GreedyAgent (plain Python) plays the games of `greedy`: every
    column of the game and hand rows equal, in a partnership and an individual game."""
    lo, hi = PRESETS[preset][1]
    for players in sorted({lo, min(max(4, lo), hi)}):
        rules = Rules.preset(preset, players)
        want = run_games(rules, ["greedy"] * players, 5, 0, 2)
        for specs in _seatings(rules):
            got = run_games(rules, specs, 5, 0, 2)
            for key in want.games:
                if key != "strategy":
                    assert np.array_equal(want.games[key], got.games[key]), (preset, players, key)
            for key in want.hands:
                assert np.array_equal(want.hands[key], got.hands[key]), (preset, players, key)
            assert got.turns == want.turns


def test_simulate_cli_same_totals_and_says_it_is_slower(tmp_path):
    runner = CliRunner()
    out = {}
    for name, spec in (("njit", "greedy"), ("py", GREEDY_AGENT)):
        res = runner.invoke(cli, ["simulate", "--strategies", spec, "--games", "3", "--seed", "2",
                                  "--workers", "1", "--out", str(tmp_path / name)])
        assert res.exit_code == 0, res.output
        out[name] = pl.read_parquet(tmp_path / name / "games").sort("game", "seat")
        if name == "py":
            assert "Python agent" in res.output and "slower" in res.output
    assert out["njit"]["total"].to_list() == out["py"]["total"].to_list()


def test_trace_and_compare_with_a_python_agent(tmp_path):
    rules = Rules.preset("league", 3)
    a = trace_game(rules, ["greedy", "random", "greedy"], 4, 1)
    b = trace_game(rules, [GREEDY_AGENT, "random", GREEDY_AGENT], 4, 1)
    assert a[1:] == b[1:]
    assert b[0]["strategies"][0] == GREEDY_AGENT
    res = CliRunner().invoke(cli, ["compare", "--strategies", f"{GREEDY_AGENT},random", "--games", "4",
                                   "--workers", "1", "--out", str(tmp_path / "cmp")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "cmp" / "pairs.csv").exists()


def test_a_python_agent_at_a_table_with_an_outside_seat_answers_its_own_decisions():
    """`crates play` and the environment: a Python agent among the opponents decides by
    itself; the outside seat is asked only its own decisions."""
    rules = Rules.preset("classic", 4)
    t = Table(rules, [None, GREEDY_AGENT, "greedy", GREEDY_AGENT], 3, 0)
    asked = 0
    while t.pending is not None:
        assert t.pending.seat == 0
        t.act(t.hint("greedy"))
        asked += 1
    want = trace_game(rules, ["greedy"] * 4, 3, 0)[-1]["totals"]
    assert t.totals == want and asked > 0
    from crates_sim.play import env

    e = env.env(preset="classic", players=4, bots={1: GREEDY_AGENT, 2: "greedy", 3: GREEDY_AGENT})
    e.reset(seed=3, options={"game": 0})
    for _agent in e.agent_iter():
        _obs, _r, term, trunc, _info = e.last()
        e.step(None if term or trunc else e.hint("greedy"))
    assert e.unwrapped.table.totals == want


def test_agent_memory_seat_game_and_rules(bots):
    rules = Rules.preset("crazy-eights", 3)
    t = Table(rules, [f"{bots}:Memory", "greedy", "greedy"], 1, 7)
    agent = t.agents[0]
    assert agent.obj.rules is rules and set(agent.obj.seen) == {7}
    assert agent.obj.seen[7] == agent.decisions > 0


def test_numpy_integers_are_actions(bots):
    run_games(Rules.preset("crazy-eights", 2), [f"{bots}:numpy_int", "greedy"], 0, 0, 1)


@pytest.mark.parametrize("name,message", [
    ("Raises", "raised ValueError: no idea at {bots}:6 in act"),  # the agent's file and line
    ("illegal", "which is not legal now; legal:"),
    ("floating", "returned 1.5 (float); an action is an integer"),
])
def test_bad_agents_one_clear_error(bots, name, message):
    rules = Rules.preset("classic", 4)
    with pytest.raises(CratesError) as err:
        run_games(rules, ["greedy", f"{bots}:{name}", "greedy", "greedy"], 0, 0, 1)
    text = str(err.value)
    message = message.format(bots=bots)
    assert message in text
    assert f"Python agent {bots}:{name} (seat 1)" in text and "its decision 1 of game 0" in text
    res = CliRunner().invoke(cli, ["trace", "-s", f"greedy,{bots}:{name}", "-n", "2"])
    assert res.exit_code == 2 and message in res.output and len(res.output.strip().splitlines()) == 1


def test_decision_function_without_njit_is_not_taken_for_an_agent(tmp_path):
    path = tmp_path / "plain.py"
    path.write_text("def chooser(params, obs, hand, pile, options, rng):\n    return 0\n")
    with pytest.raises(CratesError, match="not a numba @njit function"):
        run_games(Rules.preset("classic", 4), [f"{path}:chooser"] * 4, 0, 0, 1)


def test_every_decision_is_asked_once():
    """The step engine asks each decision of a hand once (a new hand's answer queue
    starts afresh): the agent's decisions are the engine's, counted from the log."""
    from crates_sim.play.replay_html import decisions

    rules = Rules.preset("classic", 4)
    t = Table(rules, [FIRST, "greedy", "greedy", "greedy"], 2, 0)
    made = trace_game(rules, [FIRST, "greedy", "greedy", "greedy"], 2, 0)
    found = decisions(made)
    assert found is not None
    assert t.agents[0].decisions == sum(1 for ds in found.values() for d in ds if d["seat"] == 0)


def test_the_docs_show_the_agents_as_they_are():
    src = (ROOT / "examples" / "agents.py").read_text()
    doc = (ROOT / "docs" / "strategies.md").read_text()
    for name in ("GreedyAgent", "first_legal"):
        start = src.index("\n", src.index(f"# --- {name}")) + 1
        end = src.find("\n# ---", start)
        code = src[start:end if end >= 0 else len(src)].strip("\n")
        assert f"```python\n{code}\n```" in doc, f"docs/strategies.md: {name} differs from examples/agents.py"


def test_play_against_a_python_agent():
    pexpect = pytest.importorskip("pexpect")
    import sys

    child = pexpect.spawn(sys.executable, ["-m", "crates_sim", "play", "-p", "crazy-eights", "-n", "3",
                                           "--opponents", f"{GREEDY_AGENT},greedy", "--seed", "3"],
                          timeout=120, encoding="utf-8", dimensions=(50, 120))
    child.expect(r"your move \[1-\d+, h hint, q quit\] ")
    child.sendline("q")
    child.expect("bye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in (child.before or "")


def test_an_agent_reads_its_observation_by_name():
    """`crates_sim.play.observation.Observation` names the parts of the vector an agent
    gets (docs/env.md), the same values as the offsets of the engine's layout."""
    from crates_sim import cards as C
    from crates_sim.engine import observe_nb as ob
    from crates_sim.play.observation import ANNOUNCE, CALL0, DRAW, Observation
    from crates_sim.play.pyagent import ACTIONS

    n = 4
    vec = np.zeros(ob.obs_size(n), dtype=np.float32)
    vec[ob.OBS_HAND + np.array([3, 17, 40])] = 1
    vec[ob.OBS_TOP + 9] = 1
    vec[ob.OBS_SUIT + 2] = 1
    vec[ob.OBS_PHASE + C.PH_CALL] = 1
    vec[ob.OBS_COUNT] = 4
    vec[ob.OBS_SEAT + 1] = 1
    base = ob.OBS_SEAT + n
    vec[base:base + 3 * n] = np.arange(3 * n)
    o = Observation(vec)
    assert o.players == n and list(o.hand) == [3, 17, 40] and o.top_card == 9 and o.suit == 2
    assert o.phase == C.PH_CALL and o.count == 4 and o.seat == 1
    assert list(o.hand_sizes) == [0, 3, 6, 9] and list(o.totals) == [1, 4, 7, 10]
    assert list(o.pressures) == [2, 5, 8, 11]
    assert ACTIONS[DRAW] == "draw" and ACTIONS[CALL0] == "call C" and ACTIONS[ANNOUNCE] == "announce"
    assert Observation(np.zeros(ob.obs_size(n))).top_card == -1
    with pytest.raises(ValueError):
        Observation(np.zeros(7))
