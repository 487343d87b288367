"""apprentice: the shipped weights load and play legally on every preset, the weights reach
the kernel as data (greedy's weights play greedy's games), `crates train` learns (a short
run agrees with its teacher better than its start), is reproducible and resumes, and
its command line."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from crates_sim import Rules
from crates_sim.cli.main import cli
from crates_sim.engine.api import run_games
from crates_sim.rules import PRESETS
from crates_sim.runs.train import fit, fit_report, gap_weights, load_decisions, loss, train
from crates_sim.strategies import apprentice as A


def _greedy_weights():
    w = np.zeros(A.N_FEATURES)
    w[A.FEATURES.index("value")] = 1.0
    w[A.FEATURES.index("action")] = -10.0
    return w


def test_the_shipped_weights_load():
    w = A.read_weights(A.shipped_weights_path())
    assert w.shape == (2, A.N_FEATURES) and np.isfinite(w).all() and np.abs(w).max() > 0
    assert A.weights_buffer()[A.W0:A.W0 + 2 * A.N_FEATURES].tolist() == w.ravel().tolist()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_apprentice_plays_legally_on_every_preset(preset):
    lo, hi = PRESETS[preset][1]
    for players in sorted({lo, min(4, hi)}):
        rules = Rules.preset(preset, players)
        specs = ["apprentice", "greedy", "apprentice:temp=1", "random"][:players]
        # an illegal choice stops the run with an error
        res = run_games(rules, specs, seed=4, game_start=0, n_games=3, detail="games")
        assert res.turns > 0
        again = run_games(rules, specs, seed=4, game_start=0, n_games=3, detail="games")
        assert res.games["total"].tolist() == again.games["total"].tolist()


def test_the_weights_are_data_greedys_weights_play_greedys_games():
    rules = Rules.preset("classic", 4)
    old = A.set_weights(_greedy_weights())
    try:
        mine = run_games(rules, ["apprentice"] * 4, 2, 0, 4, detail="games")
    finally:
        A.set_weights(old)
    greedy = run_games(rules, ["greedy"] * 4, 2, 0, 4, detail="games")
    assert mine.games["total"].tolist() == greedy.games["total"].tolist()
    assert mine.turns == greedy.turns
    shipped = run_games(rules, ["apprentice"] * 4, 2, 0, 4, detail="games")
    assert shipped.games["total"].tolist() != greedy.games["total"].tolist()


def test_bad_weights_files_are_one_line_errors(tmp_path):
    from crates_sim.errors import CratesError

    bad = tmp_path / "w.json"
    bad.write_text(json.dumps({"features": ["value"], "weights": [1.0]}))
    with pytest.raises(CratesError, match="other features"):
        A.read_weights(bad)
    bad.write_text("{")
    with pytest.raises(CratesError, match="cannot read"):
        A.read_weights(bad)


def test_the_fit_recovers_a_linear_teacher():
    rng = np.random.default_rng(1)
    true = rng.normal(size=A.N_FEATURES)
    sizes = rng.integers(2, 6, size=800)
    group = np.repeat(np.arange(len(sizes)), sizes)
    X = rng.normal(size=(len(group), A.N_FEATURES))
    s = X @ true
    chosen = np.zeros(len(group))
    for d in range(len(sizes)):
        rows = np.flatnonzero(group == d)
        chosen[rows[np.argmax(s[rows])]] = 1.0
    w = fit(X, group, chosen, l2=1e-3)
    game = group  # a tenth of the decisions held out
    rep = fit_report(X, group, chosen, game, w)
    assert rep["held_out_agreement"] > 0.8
    assert fit_report(X, group, chosen, game, np.zeros(A.N_FEATURES))["held_out_agreement"] < 0.5


def test_gap_weights_count_the_decisions_by_what_the_teacher_sees_at_stake():
    # three decisions: the teacher's choice 4 points above the next best, 100 above (capped
    # at 30), and one with no values (gap 0)
    group = np.array([0, 0, 0, 1, 1, 2, 2])
    chosen = np.array([0, 1, 0, 1, 0, 0, 1.0])
    value = np.array([1.0, 5.0, -2.0, 50.0, -50.0, np.nan, np.nan])
    w = gap_weights(group, chosen, value, 30.0)
    raw = np.array([4.5, 30.5, 0.5])
    assert np.allclose(w, raw / raw.mean())


def test_a_weighted_fit_follows_the_weighty_decisions():
    """Equal weights fit as no weights do; decisions that count more pull the fit their way."""
    rng = np.random.default_rng(2)
    sizes = rng.integers(2, 5, size=400)
    group = np.repeat(np.arange(len(sizes)), sizes)
    X = rng.normal(size=(len(group), A.N_FEATURES))
    chosen = np.zeros(len(group))
    first = np.r_[0, np.cumsum(sizes)[:-1]]
    chosen[first] = 1.0  # an arbitrary teacher: always the first option
    plain = fit(X, group, chosen, l2=1e-2)
    assert np.allclose(fit(X, group, chosen, l2=1e-2, weight=np.ones(len(sizes))), plain)
    weight = np.where(np.arange(len(sizes)) < 40, 9.0, 0.1)
    weight /= weight.mean()
    heavy = fit(X, group, chosen, l2=1e-2, weight=weight)
    few = group < 40
    g = np.unique(group[few], return_inverse=True)[1]
    assert loss(X[few], g, chosen[few], heavy) < loss(X[few], g, chosen[few], plain)


@pytest.fixture(scope="module")
def short_run(tmp_path_factory):
    """One short round, teacher hoard3 (its 3s kept), 12 games, one process."""
    out = tmp_path_factory.mktemp("train")
    rules = Rules.preset("classic", 4)
    res = train(rules, out, "hoard3", rounds=1, games=12, sample=0.3, seed=5, eval_games=20,
                workers=1, echo=lambda s: None)
    return out, res


def test_a_short_run_agrees_with_its_teacher_better_than_its_start(short_run):
    out, res = short_run
    X, group, chosen, game, value = load_decisions([out / "round-1" / "decisions.parquet"])
    assert np.isnan(value).all()  # hoard3 gives no values
    start = fit_report(X, group, chosen, game, A.tuned_weights())
    assert res["weights"].shape == (2, A.N_FEATURES)  # one table: its fit in both rows
    assert res["weights"][0].tolist() == res["weights"][1].tolist()
    learnt = fit_report(X, group, chosen, game, res["weights"][1])
    assert learnt["held_out_decisions"] > 50
    assert learnt["held_out_agreement"] > start["held_out_agreement"] + 0.05
    assert learnt["held_out_loss"] < start["held_out_loss"]
    shipped = json.loads((out / "apprentice.json").read_text())
    assert shipped["features"] == list(A.FEATURES) and shipped["teacher"] == "hoard3"


def test_training_is_reproducible_and_resumes(short_run, tmp_path):
    out, res = short_run
    rules = Rules.preset("classic", 4)
    again = train(rules, tmp_path, "hoard3", rounds=1, games=12, sample=0.3, seed=5,
                  eval_games=20, workers=1, echo=lambda s: None)
    assert again["weights"].tolist() == res["weights"].tolist()
    said = []
    resumed = train(rules, out, "hoard3", rounds=1, games=12, sample=0.3, seed=5, eval_games=20,
                    workers=1, echo=said.append)
    assert said == [s for s in said if "done before" in s] and len(said) == 1
    assert resumed["weights"].tolist() == res["weights"].tolist()


def test_train_cli(tmp_path):
    runner = CliRunner()
    res = runner.invoke(cli, ["train", "--help"])
    assert res.exit_code == 0 and "Examples" in res.output and "--teacher" in res.output
    res = runner.invoke(cli, ["train", "--teacher", "greedy", "--rounds", "1", "--games", "4",
                              "--sample", "0.05", "--eval-games", "4", "--workers", "1",
                              "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "held-out agreement" in res.output and (tmp_path / "apprentice.json").exists()
    # another run's settings in the same folder: refused, one line
    res = runner.invoke(cli, ["train", "--teacher", "hoard3", "--rounds", "1", "--games", "4",
                              "--workers", "1", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "other settings" in res.output
    for bad, words in ((["--sample", "0"], "--sample"), (["--teacher", "nobody"], "nobody"),
                       (["--both", "-n", "3"], "--both"), (["--games", "3"], "--games"),
                       (["--teacher", "greedy", "--gap-weight", "5"], "--gap-weight"),
                       (["--gap-weight", "-1"], "--gap-weight")):
        res = runner.invoke(cli, ["train", *bad, "--out", str(tmp_path / "x")])
        assert res.exit_code == 2 and words in res.output, res.output
        assert len(res.output.strip().splitlines()) == 1


def test_strategies_lists_the_apprentice():
    res = CliRunner().invoke(cli, ["strategies"])
    assert "apprentice" in res.output and "temp=" in res.output


def test_the_decision_scores_as_the_training_features_do():
    # the kernel's compact rows (crossed weights folded once per decision) pick what the
    # full features times the weights pick, with every weight set
    from crates_sim.play.step import Table

    w = np.random.default_rng(3).normal(size=A.N_FEATURES)
    old = A.set_weights(w)
    try:
        for preset, partner in (("classic", True), ("classic", False), ("crazy-eights", False)):
            rules = Rules.preset(preset, 4, **({"partnerships": partner} if preset == "classic" else {}))
            table = Table(rules, [None] * 4, 6, 0)
            checked = 0
            while not table.over and checked < 150:
                d = table.pending
                options = np.asarray(d.options, dtype=np.int64)
                if table.pending_phase in (0, 1, 2) and len(options) > 1:
                    X = np.zeros(len(options) * A.N_FEATURES)
                    A.fill_features(d.obs, d.hand, d.pile, options, X, 0)
                    s = X.reshape(len(options), -1) @ w
                    pick = table.hint("apprentice")
                    assert s[d.options.index(pick)] >= s.max() - 1e-9
                    checked += 1
                table.answer(table.hint("greedy"))
            assert checked >= 50
    finally:
        A.set_weights(old)


def test_each_table_plays_its_own_weights():
    # greedy's weights for one table, zeros (the first legal option) for the other
    greedy, first = _greedy_weights(), np.zeros(A.N_FEATURES)
    for partner in (True, False):
        rules = Rules.preset("classic", 4, partnerships=partner)
        old = A.set_weights(np.stack([first, greedy] if partner else [greedy, first]))
        try:
            mine = run_games(rules, ["apprentice"] * 4, 2, 0, 3, detail="games")
        finally:
            A.set_weights(old)
        greedy_games = run_games(rules, ["greedy"] * 4, 2, 0, 3, detail="games")
        assert mine.games["total"].tolist() == greedy_games.games["total"].tolist()


def test_a_damaged_round_is_named_in_one_line(short_run, tmp_path):
    import shutil

    from crates_sim.errors import CratesError

    out, _res = short_run
    copy = tmp_path / "run"
    shutil.copytree(out, copy)
    rules = Rules.preset("classic", 4)
    data = copy / "round-1" / "decisions.parquet"
    data.write_bytes(data.read_bytes()[: len(data.read_bytes()) // 2])  # cut short
    (copy / "round-1" / "weights.json").unlink()
    with pytest.raises(CratesError, match="decisions.parquet is damaged"):
        train(rules, copy, "hoard3", rounds=1, games=12, sample=0.3, seed=5, eval_games=20,
              workers=1, echo=lambda s: None)
    shutil.copy(out / "round-1" / "decisions.parquet", data)  # the data whole again,
    (copy / "round-1" / "weights.json").write_text("{cut")  # the round's weights cut short
    with pytest.raises(CratesError, match="weights.json is damaged"):
        train(rules, copy, "hoard3", rounds=1, games=12, sample=0.3, seed=5, eval_games=20,
              workers=1, echo=lambda s: None)
