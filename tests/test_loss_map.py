"""`crates analyse --strategies` (issue 31 §2): each strategy's analysed losses summed by
situation, resumable, with the validation against measured deficits. Tiny runs: greedy
at the other seats, few games, few samples."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from click.testing import CliRunner

from crates_sim import cards as C
from crates_sim.analysis.loss_map import loss_map, seats_of, summarise, summary_lines
from crates_sim.analysis.move_analysis import SITUATIONS, analyse, situation_of
from crates_sim.cli.main import cli
from crates_sim.errors import CratesError
from crates_sim.play.log_decisions import log_table, logged_decisions
from crates_sim.play.pyagent_run import trace_game
from crates_sim.rules import Rules

CLASSIC = Rules.preset("classic", 4)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("where")
    calls = []
    result = loss_map(CLASSIC, ["greedy", "random", "dump3"], 2, out, against="greedy", samples=16,
                      deficits=6, workers=1, progress=lambda *a: calls.append(a))
    return out, result, calls


def test_situations_read_the_seats_view():
    """Each decision's situation agrees with what the seat held and did."""
    events = trace_game(CLASSIC, ["random"] * 4, 5, 2)
    table = log_table(events)
    seen = 0
    for d, option, _at in logged_decisions(table, events):
        if d.phase not in (0, 1, 2):
            continue
        s = situation_of(d, option)
        assert list(s) == list(SITUATIONS)
        held = [int(c) for c in d.hand]
        threes = sum(c // 4 == C.R_3 for c in held)
        assert s["3s held"] == {0: "0", 1: "1"}.get(threes, "2+")
        size = len(held)
        assert s["hand size"] == (str(size) if size <= 3 else "4-5" if size <= 5 else "6-8" if size <= 8 else "9+")
        if option < 52:
            assert s["played"] == "A23456789TJQK"[option // 4]
        assert s["partner on one card"] in ("yes", "no")
        assert s["decision"] in ("play", "play again", "count")
        seen += 1
    assert seen > 50


def test_the_analysed_seats_are_those_compare_gives_the_strategy():
    assert seats_of(CLASSIC, 0) == [0, 2] and seats_of(CLASSIC, 1) == [1, 3]
    three = Rules.preset("classic", 3)
    assert seats_of(three, 0) == [0, 2] and seats_of(three, 1) == [1]


def test_the_tables_add_up(run):
    out, result, calls = run
    per, situ = result["strategies"], result["situations"]
    assert list(per["strategy"]) == ["greedy", "random", "dump3"]
    assert (per["seat_games"] == 4).all()  # 2 games x 2 seats
    lines = {s: [json.loads(x) for x in (out / "games" / f"{s}.jsonl").read_text().splitlines()]
             for s in ("greedy", "random", "dump3")}
    for s, games in lines.items():
        total = sum(d["loss"] for g in games for d in g["decisions"])
        row = per[per["strategy"] == s].iloc[0]
        assert row["loss_per_game"] == pytest.approx(total / 4)
        assert row["loss_per_game_lo"] <= row["loss_per_game"] <= row["loss_per_game_hi"]
        assert row["robust_loss_per_game_lo"] <= row["robust_loss_per_game"] <= row["robust_loss_per_game_hi"]
        for dim in SITUATIONS:  # every decision is in one value of each situation
            part = situ[(situ["strategy"] == s) & (situ["situation"] == dim)]
            assert part["decisions"].sum() == row["decisions"]
            assert part["loss_per_game"].sum() == pytest.approx(row["loss_per_game"])
            assert part["loss_excess_per_game"].sum() == pytest.approx(0, abs=1e-6)
    assert len(calls) == 6 and calls[-1][:2] == (6, 6)
    assert (out / "strategies.csv").exists() and (out / "situations.csv").exists()
    html = (out / "loss.html").read_text()
    assert "Where the strategies lose their points" in html and "replays/" in html
    links = re.findall(r"href=['\"](replays/[^'\"#]+)#(\d+)['\"]", html)
    assert links  # the costliest positions link into their games' replays, at the move
    for page, _line in links:
        assert (out / page).exists()


def test_random_loses_more_points_than_greedy(run):
    per = run[1]["strategies"].set_index("strategy")
    assert per.loc["random", "loss_per_game"] > per.loc["greedy", "loss_per_game"]


def test_the_validation_correlates_loss_and_deficit(run):
    _out, result, _calls = run
    v, fit = result["validation"], result["fit"]
    assert list(v["strategy"]) == ["greedy", "random", "dump3"]
    assert ((v["deficit_lo"] <= v["deficit"]) & (v["deficit"] <= v["deficit_hi"])).all()
    assert v.set_index("strategy").loc["random", "deficit"] > 0  # random loses to greedy
    assert all(-1 <= fit[m]["spearman"] <= 1 for m in ("robust_loss", "loss"))
    assert fit["deals"] == 6 and fit["against"] == "greedy"
    text = "\n".join(summary_lines(result))
    assert "Spearman" in text and "worst:" in text


def test_a_second_run_resumes_and_other_settings_are_refused(run):
    out, _result, _ = run
    calls = []
    again = loss_map(CLASSIC, ["greedy", "random"], 3, out, against="greedy", samples=16, workers=1,
                     progress=lambda *a: calls.append(a), examples=False)
    assert len(calls) == 2  # only game 2 of each strategy is new
    assert (again["strategies"]["seat_games"] == 6).all()
    with pytest.raises(CratesError, match="other settings"):
        loss_map(CLASSIC, ["greedy"], 1, out, against="greedy", samples=24, workers=1)
    line = (out / "games" / "greedy.jsonl")
    line.write_text(line.read_text() + '{"game": 9, "dec')  # cut short by an interruption
    loss_map(CLASSIC, ["greedy"], 3, out, against="greedy", samples=16, workers=1, examples=False)


def test_summarise_of_lines_without_decisions():
    per, situ = summarise({"x": [{"game": 0, "seats": [0], "won": True, "decisions": []}]})
    assert per.iloc[0]["decisions"] == 0 and per.iloc[0]["loss_per_game"] == 0 and situ.empty


def test_a_judged_decision_carries_its_situation():
    events = trace_game(CLASSIC, ["greedy"] * 4, 1, 0)
    result = analyse(events, seats=[0], samples=8)
    assert result["decisions"] and all(list(d["situation"]) == list(SITUATIONS) for d in result["decisions"])


def test_the_command_line(tmp_path):
    runner = CliRunner()
    r = runner.invoke(cli, ["analyse", "--strategies", "greedy,random", "--against", "greedy", "--games", "1",
                            "--samples", "8", "--out", str(tmp_path / "w"), "-w", "1"])
    assert r.exit_code == 0, r.output
    assert "greedy" in r.output and "wrote" in r.output
    assert pd.read_csv(tmp_path / "w" / "situations.csv")["situation"].isin(SITUATIONS).all()
    log = tmp_path / "a.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in trace_game(CLASSIC, ["greedy"] * 4, 1, 0)))
    for args, words in ((["analyse", str(log), "--games", "3"], "--games goes with --strategies"),
                        (["analyse", str(log), "-p", "league"], "a log's header gives its rules"),
                        (["analyse", "--strategies", "greedy", "--seat", "1", "--out", "x"], "--seat goes with a LOG"),
                        (["analyse", str(log), "--strategies", "greedy"], "not both"),
                        (["analyse"], "give a LOG"),
                        (["analyse", "--strategies", "greedy"], "needs --out"),
                        (["analyse", "--strategies", "greedy,nosuch", "--out", str(tmp_path / "z")],
                         "unknown strategy")):
        r = runner.invoke(cli, args)
        assert r.exit_code != 0 and words in r.output, (args, r.output)
