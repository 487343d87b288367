"""`crates tournament`: the schedule, Bradley–Terry ratings, outputs, incremental runs."""

from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from crates_sim.analysis.tournament import bradley_terry, elo, match_key, schedule
from crates_sim.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("m,players,partnerships", [(6, 4, True), (6, 4, False), (5, 3, False),
                                                    (3, 4, False), (7, 2, False)])
def test_every_pair_meets_equally_often(m, players, partnerships):
    entrants = [f"s{i}" for i in range(m)]
    matches = schedule(entrants, players, partnerships)
    meets = Counter(p for mt in matches for p in combinations(sorted(mt), 2))
    assert set(meets) == set(combinations(sorted(entrants), 2))
    assert len(set(meets.values())) == 1
    if partnerships:
        assert all(len(mt) == 2 for mt in matches)
    else:
        assert all(len(mt) == min(m, players) for mt in matches)
    # a new entrant adds matches, and keeps the old ones (incremental runs)
    more = schedule(entrants + ["s_new"], players, partnerships)
    assert set(matches) <= set(more) or m < players
    assert len({match_key(mt) for mt in more}) == len(more)


def test_bradley_terry_recovers_strengths():
    true = np.array([4.0, 2.0, 1.0, 0.5])
    W = np.zeros((4, 4))
    for a, b in combinations(range(4), 2):
        W[a, b] = 1000 * true[a] / (true[a] + true[b])
        W[b, a] = 1000 - W[a, b]
    p = bradley_terry(W)
    assert np.allclose(p / p[0], true / true[0], rtol=1e-6)
    r = elo(p)
    assert abs(r.mean() - 1500) < 1e-9
    assert abs((r[0] - r[1]) - 400 * np.log10(2)) < 1e-6  # strength x2 = 120 Elo points


def _run(args):
    res = CliRunner().invoke(cli, ["tournament", *args])
    assert res.exit_code == 0, res.output
    return res.output


def test_tournament_outputs_and_incremental_runs(tmp_path):
    out = tmp_path / "t"
    base = ["-p", "crazy-eights", "-n", "3", "--games", "12", "--seed", "3", "--workers", "1",
            "--out", str(out)]
    text = _run(["-s", "greedy,random,tuned", *base])
    assert "1 matches" in text and "(0 stored, 1 to play)" in text
    text = _run(["-s", "greedy,random,tuned,weights", *base])
    assert "(1 stored, 3 to play)" in text  # every table of 3: the first is one of them
    text = _run(["-s", "greedy,random,tuned,weights,hoard3", *base])
    assert "(4 stored, 6 to play)" in text  # the fifth entrant's tables only
    ratings = pd.read_csv(out / "ratings.csv")
    assert list(ratings.columns) == ["strategy", "rating", "lo", "hi", "games"]
    assert len(ratings) == 5 and (ratings["lo"] <= ratings["rating"]).all() and (ratings["rating"] <= ratings["hi"]).all()
    assert ratings["games"].tolist() == [6 * 12 * 3] * 5  # every entrant: C(4,2) tables x deals x rotations
    assert abs(ratings["rating"].mean() - 1500) < 0.1
    assert ratings["rating"].is_monotonic_decreasing
    matrix = pd.read_csv(out / "matrix.csv")
    assert list(matrix.columns) == ["strategy", "opponent", "score", "lo", "hi", "deals"]
    assert len(matrix) == 20
    both = matrix.set_index(["strategy", "opponent"])["score"]
    for (a, b), v in both.items():
        assert abs(v + both[b, a] - 1) < 1e-3
    page = (out / "tournament.html").read_text()
    assert "Leaderboard" in page and "Win matrix" in page and "data:image/png;base64" in page
    links = [ln for ln in page.split("href='")[1:] if ln.startswith("games/")]
    assert len(links) == 10
    for ln in links:
        assert (out / ln.split("'")[0]).exists()
    assert len(list((out / "matches").glob("*.parquet"))) == 10
    # the same entrants again: nothing to play, the same ratings
    text = _run(["-s", "hoard3,weights,tuned,random,greedy", *base])
    assert "(10 stored, 0 to play)" in text
    again = pd.read_csv(out / "ratings.csv")
    assert again.equals(ratings)
    # a damaged match file (cut short by a full disk): one line naming it, and that match played again
    victim = sorted((out / "matches").glob("*.parquet"))[3]
    victim.write_bytes(victim.read_bytes()[:-20])
    text = _run(["-s", "hoard3,weights,tuned,random,greedy", *base])
    damaged = [ln for ln in text.splitlines() if "is damaged" in ln]
    assert len(damaged) == 1 and str(victim) in damaged[0] and "playing the match" in damaged[0], text
    assert "Traceback" not in text and "(9 stored, 1 to play)" in text
    assert pd.read_csv(out / "ratings.csv").equals(ratings)  # the same deals: the same ratings


def test_partnership_tournament_with_a_python_agent(tmp_path):
    agent = f"{ROOT}/examples/agents.py:GreedyAgent"
    text = _run(["-s", f"greedy,random,{agent}", "--games", "6", "--workers", "1", "--no-samples",
                 "--out", str(tmp_path / "p")])
    assert "3 matches" in text and "Python agent" in text and "slower" in text
    matrix = pd.read_csv(tmp_path / "p" / "matrix.csv").set_index(["strategy", "opponent"])
    assert matrix.loc[("greedy", agent), "score"] == 0.5  # the same play: every game tied


def test_tournament_refuses_bad_input(tmp_path):
    runner = CliRunner()
    for args, message in ((["-s", "greedy"], "at least two"),
                          (["-s", "greedy,greedy,random"], "entered twice"),
                          (["-s", "greedy,nosuch"], "unknown strategy"),
                          (["-s", "greedy,random", "--games", "1"], "at least 2")):
        res = runner.invoke(cli, ["tournament", *args, "--out", str(tmp_path / "x")])
        assert res.exit_code == 2 and message in res.output, res.output
    _run(["-s", "greedy,random", "--games", "4", "--workers", "1", "--no-samples", "--out", str(tmp_path / "y")])
    res = runner.invoke(cli, ["tournament", "-s", "greedy,random", "--games", "5", "--out", str(tmp_path / "y")])
    assert res.exit_code == 2 and "other games" in res.output
    (tmp_path / "z").mkdir()
    (tmp_path / "z" / "notes.txt").write_text("mine")
    res = runner.invoke(cli, ["tournament", "-s", "greedy,random", "--out", str(tmp_path / "z")])
    assert res.exit_code == 2 and "not a tournament folder" in res.output


def test_nash_average_and_cycles():
    from crates_sim.analysis.tournament import intransitive, nash_average

    # rock-paper-scissors plus a weak fourth: the mixture is the three, a third each
    share = np.array([[np.nan, 0.8, 0.2, 0.9], [0.2, np.nan, 0.8, 0.9], [0.8, 0.2, np.nan, 0.9],
                      [0.1, 0.1, 0.1, np.nan]])
    nash = nash_average(share)
    assert np.allclose(nash["weight"][:3], 1 / 3, atol=0.02) and nash["weight"][3] < 0.01
    assert np.allclose(nash["score"][:3], 0.5, atol=0.02) and nash["score"][3] < 0.2
    lo = np.where(np.isnan(share), np.nan, share - 0.05)
    assert intransitive(["r", "p", "s", "w"], share, lo, share + 0.05) == [("r", "p", "s")]
    # a transitive field: the best entrant alone
    share = np.array([[np.nan, 0.7, 0.8], [0.3, np.nan, 0.6], [0.2, 0.4, np.nan]])
    nash = nash_average(share)
    assert nash["weight"][0] > 0.95 and intransitive(list("abc"), share, share - 0.05, share + 0.05) == []
