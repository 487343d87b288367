"""The programs that were argparse scripts, as `crates` commands (issue 40, "every rebuild
a command"): `crates demo`, `crates bench` and `crates rebuild win-model|expert-cutoff|thumb`.

Contract: each runs through click's CliRunner scaled down (a few deals, games or
positions) and writes what its script wrote; the files the package ships are never
written here (their paths are pointed at a scratch copy); the older `python -m` names of
the two rebuilds whose docs still give them run the same command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from crates_sim.cli.main import cli
from crates_sim.rules import Rules


def invoke(*args):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_demo_writes_the_dataset_and_its_report(tmp_path):
    out = invoke("demo", "--deals", "6", "--seed", "2", "--workers", "1", "--out",
                 str(tmp_path / "demo"))
    assert "demo: 6 deals x 2 seatings" in out and "Does 3-hoarding pay?" in out
    assert (tmp_path / "demo" / "report.html").is_file()
    manifest = json.loads((tmp_path / "demo" / "manifest.json").read_text())
    assert manifest["command"].startswith("crates demo --deals 6 --seed 2")


def test_bench_prints_its_table(monkeypatch):
    """The table's wiring, every measurement faked (the real one takes minutes)."""
    from crates_sim.cli import bench as B

    monkeypatch.setattr(B, "ROUNDS", 1)
    monkeypatch.setattr(B, "one_core", lambda rules, strategy, games: (1000.0, 50.0))
    monkeypatch.setattr(B, "all_cores", lambda rules, strategy, games: (1800.0, 1900.0))
    monkeypatch.setattr(B, "tight_loop_ns", lambda: 10.0)
    monkeypatch.setattr(B, "env_step_us", lambda wrapped, games=10: 20.0)
    monkeypatch.setattr(B, "rlcard_uno_step_us", lambda: None)
    monkeypatch.setattr(B, "pimc_rate", lambda: (2.0, 300.0))
    monkeypatch.setattr(B, "startup_times", lambda: (30.0, 1.0))
    monkeypatch.setattr(B, "new_user_file_run", lambda: 2.0)
    monkeypatch.setattr(B, "_cold_compile_report", lambda: ["   1.0 s     2.0 s  kernel"])
    monkeypatch.setattr(B, "big_run", lambda games, detail: (100.0, 500.0))
    out = invoke("bench", "--games", "10", "--big")
    assert "crates-sim bench:" in out and "10 games per cell" in out
    assert "classic            random" in out and "greedy per turn over random:" in out
    assert "1,000,000 classic 4p partnership games, random, --detail hands" in out
    assert "(+0% over --detail games)" in out
    assert "adept, one core, every seat" in out
    assert "classic 5p, draw_when_able=true" in out and "0.05 µs/turn" in out
    assert "drawn 12480 #03: very-crazy-eights 4p, draw one" in out  # the bound's nearest
    assert "short-deck 12550 #03: serbian 4p partners" in out  # a short deck's searched route


def test_win_model_fits_every_table_and_writes_what_ships(tmp_path, monkeypatch):
    from crates_sim.analysis import win_model as W

    out = invoke("rebuild", "win-model", "--games", "3")
    assert len([line for line in out.splitlines() if "'coef'" in line]) == len(W.TABLES)
    monkeypatch.setattr(W, "SHIPPED", tmp_path / "win_model.json")
    assert f"wrote {tmp_path / 'win_model.json'}" in invoke("rebuild", "win-model", "--games", "3",
                                                           "--write")
    written = json.loads((tmp_path / "win_model.json").read_text())
    shipped = json.loads((W.Path(W.__file__).with_name("win_model.json")).read_text())
    assert set(written["models"]) == set(shipped["models"])
    # the shipped file is what the command writes: the same words, names its command
    assert {k: v for k, v in written.items() if k != "models"} == \
        {k: v for k, v in shipped.items() if k != "models"}
    assert W.REBUILD in shipped["about"]


def test_expert_cutoff_fits_and_writes_the_value_block(tmp_path, monkeypatch):
    from crates_sim.cli import rebuild as R
    from crates_sim.strategies import expert_fit

    assert (R.POSITIONS, R.CUT_DEPTH) == (expert_fit.POSITIONS, expert_fit.DEPTH)
    copy = tmp_path / "expert.py"
    copy.write_text(expert_fit.expert_source().read_text())
    monkeypatch.setattr(expert_fit, "expert_source", lambda: copy)
    out = invoke("rebuild", "expert-cutoff", "--positions", "8", "--depth", "4", "--write")
    assert "crates: " in out and "eights: " in out and f"written to {copy}" in out
    block = copy.read_text().split("# BEGIN VALUE")[1].split("# END VALUE")[0]
    crates_line = next(line for line in out.splitlines() if line.startswith("crates: "))
    first = crates_line.split("(")[1].split(",")[0]
    assert f"VALUE_CRATES = ({float(first):.4g}"[:18] in block.replace(" ", " ")


def thumb_positions(folder):
    """A `crates train --player adept` folder of one round: test_thumb's synthetic
    decisions as a block file."""
    from test_thumb import _synthetic

    data = _synthetic(n=400)
    (folder / "round-1" / "data").mkdir(parents=True)
    np.savez(folder / "round-1" / "data" / "block-0000.npz", ctx=data.ctx, rows=data.rows,
             decision=data.group, value=data.value, game=data.game, kind=data.kind)
    return folder


def test_thumb_prints_the_rules_and_writes_json(tmp_path):
    pytest.importorskip("sklearn")
    data = thumb_positions(tmp_path / "adept")
    out = invoke("rebuild", "thumb", "--data", str(data), "--rounds", "1", "--every", "1",
                 "--kinds", "crates-individual", "--json", str(tmp_path / "t" / "thumb.json"))
    assert "Rules of thumb from expert's choices" in out and "tree (depth 4)" in out
    saved = json.loads((tmp_path / "t" / "thumb.json").read_text())
    assert list(saved) == ["crates-individual"] and saved["crates-individual"]["rules"]


def test_thumb_without_positions_is_one_line(tmp_path):
    result = CliRunner().invoke(cli, ["rebuild", "thumb", "--data", str(tmp_path / "none")])
    assert result.exit_code == 2
    assert result.output.strip().startswith("Error: no positions under")
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("module,command", [
    ("crates_sim.analysis.thumb", "crates rebuild thumb"),
    ("crates_sim.strategies.expert_fit", "crates rebuild expert-cutoff")])
def test_the_older_python_m_names_run_the_command(module, command):
    """docs/findings.md and docs/strategies.md still give these two names."""
    out = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True,
                         text=True, check=True).stdout
    first = out.splitlines()[0]
    assert first.startswith("Usage: ") and f"{command[len('crates '):]} [OPTIONS]" in first, first
    assert "Examples:" in out


def test_adept_measured_gathers_compare_folders_into_what_ships(tmp_path, monkeypatch):
    """`crates rebuild adept-measured` makes analysis/adept_measured.json from compare
    folders (a --tables run's tables.csv, a single compare.json); another pair is refused."""
    from crates_sim.analysis import players as P

    every = tmp_path / "every"
    every.mkdir()
    (every / "tables.csv").write_text(
        "table,rules,players,partnerships,seed,deals,a,b,win_diff,win_lo,win_hi,us_a,us_b,command\n"
        "00-classic-2p,classic,2,False,38100,1000,adept,expert,-16.05,-19.86,-12.23,1.9,131,x\n")
    one = tmp_path / "one"
    one.mkdir()
    (one / "compare.json").write_text(json.dumps({
        "rules_spec": "classic:draw_when_able=True", "players": 4, "partnerships": True,
        "seed": 39200, "games": 1000, "pairs": [{"a": "adept", "b": "expert", "win_diff": -0.452,
                                                 "win_lo": -0.4919, "win_hi": -0.4121}]}))
    printed = invoke("rebuild", "adept-measured", str(every), str(one))
    rows = json.loads(printed)["rows"]
    assert rows[0]["win_diff"] == -16.1 and rows[0]["players"] == 2
    assert rows[1] == {"rules": "classic:draw_when_able=True", "players": 4, "partnerships": True,
                       "seed": 39200, "deals": 1000, "win_diff": -45.2, "win_lo": -49.2, "win_hi": -41.2}
    # adept with its stock search: a row of its own where the search can fire, adept's elsewhere
    searched = tmp_path / "searched"
    searched.mkdir()
    (searched / "tables.csv").write_text(
        "table,rules,players,partnerships,seed,deals,a,b,win_diff,win_lo,win_hi,us_a,us_b,command\n"
        '00-classic-4p,"classic:draw_when_able=True",4,True,54510,1000,adept:stock=4,expert,9.7,5.3,14.1,40,187,x\n'
        "01-serbian-3p,serbian,3,False,54521,1000,adept:stock=4,expert,1.0,-2.0,4.0,1,90,x\n")
    both = json.loads(invoke("rebuild", "adept-measured", str(searched), str(one)))["rows"]
    assert both[0]["spec"] == "adept:stock=4" and "spec" not in both[1]
    assert both[2]["rules"] == "classic:draw_when_able=True" and "spec" not in both[2]  # adept's own row
    target = tmp_path / "adept_measured.json"
    monkeypatch.setattr(P, "measured_path", lambda: target)
    assert f"wrote {target}" in invoke("rebuild", "adept-measured", str(every), str(one), "--write")
    assert target.read_text() == printed
    # the shipped file is one this command writes: its words and its rows' shape
    shipped = json.loads((Path(P.__file__).with_name(P.MEASURED_FILE)).read_text())
    assert shipped["about"] == P.MEASURED_ABOUT
    assert all(set(r) - {"spec"} == set(rows[0]) for r in shipped["rows"])
    (every / "tables.csv").write_text(
        (every / "tables.csv").read_text().replace("adept,expert", "adept,tuned"))
    result = CliRunner().invoke(cli, ["rebuild", "adept-measured", str(every)])
    assert result.exit_code != 0 and "not adept with expert" in result.output


def test_adept_measured_keeps_the_first_folders_row_and_tells_eights_from_very_crazy(tmp_path):
    """A rule set in two folders keeps the first folder's row (the newer measurement goes
    first); crazy-eights and very-crazy-eights share their knobs but are two rule sets."""
    from crates_sim.analysis import players as P

    header = "table,rules,players,partnerships,seed,deals,a,b,win_diff,win_lo,win_hi,us_a,us_b,command\n"
    new, old = tmp_path / "new", tmp_path / "old"
    for folder, rows in ((new, "00-c,classic:partnerships=False,4,False,51101,1000,adept,expert,3.6,-0.4,7.6,1,1,x\n"),
                         (old, "00-c,classic:partnerships=False,4,False,42103,1000,adept,expert,-2.0,-6.0,2.0,1,1,x\n"
                               "01-e,crazy-eights,2,False,42113,1000,adept,expert,4.5,0.5,8.5,1,1,x\n"
                               "02-v,very-crazy-eights,2,False,42118,1000,adept,expert,-9.9,-13.9,-5.9,1,1,x\n")):
        folder.mkdir()
        (folder / "tables.csv").write_text(header + rows)
    rows = P.measured_rows([new, old])
    assert [(r["rules"], r["seed"]) for r in rows] == [
        ("classic:partnerships=False", 51101), ("crazy-eights", 42113), ("very-crazy-eights", 42118)]
    # the shipped file: very-crazy-eights with 2 players is its own row, not crazy-eights'
    assert P.adept_measured(Rules.preset("very-crazy-eights", 2))[4] == 62918
    assert P.adept_measured(Rules.preset("crazy-eights", 2))[4] == 62913
    assert P.adept_measured(Rules.preset("classic", 4, partnerships=False))[4] == 62903


def test_the_pages_say_when_adept_plays_a_specialist():
    """On a routed rule set `balance` and `design` say adept plays a network trained there
    alone, and do not give the routed player's figure for adept:route=0."""
    from crates_sim.analysis.players import validation
    from crates_sim.strategies.adept import route_of

    assert route_of(Rules.preset("classic", 2)) == 15
    assert route_of(Rules.preset("classic", 2, first_dealer="random")) == 15
    assert route_of(Rules.preset("classic", 3)) == 9
    assert route_of(Rules.preset("classic", 4)) == 33
    assert route_of(Rules.preset("classic", 5)) == 32 and route_of(Rules.preset("serbian", 3)) == 20
    assert route_of(Rules.preset("serbian", 4, partnerships=False)) == 19
    assert route_of(Rules.preset("classic", 5, spare_three=5)) is None
    routed = validation("adept", Rules.preset("league", 3))
    assert "seed 62906" in routed and "trained on it alone" in routed
    assert "seed" not in validation("adept:route=0", Rules.preset("league", 3))
    assert route_of(Rules.preset("league", 4)) == route_of(Rules.preset("league", 4, partnerships=True)) == 10
    assert "seed 62907" in validation("adept", Rules.preset("league", 4, partnerships=True))
    assert "trained on it alone" not in validation("adept", Rules.preset("serbian", 4))
    eights = validation("adept", Rules.preset("very-crazy-eights", 2))
    assert "trained on it alone" in eights and "seed 62918" in eights
    assert "round 4's networks (adept:net=12)" in validation("adept", Rules.preset("very-crazy-eights", 3))
    serbian3 = validation("adept", Rules.preset("serbian", 3))
    assert "trained on it alone" in serbian3 and "seed 62910" in serbian3
    assert "trained on it alone" in validation("adept", Rules.preset("classic", 5))
    at_will = validation("adept", Rules.preset("serbian", 4, draw_when_able=True))
    assert "adept:net=13" in at_will and "trained on it alone" not in at_will
    two = validation("adept", Rules.preset("serbian", 2, draw_when_able=True))
    assert "adept:net=23" in two and "trained on it alone" not in two


def test_balance_and_design_hold_adept_to_one_set_of_networks(tmp_path):
    """Rule sets that route adept differently (classic partnerships plays set 11, its
    draw_when_able variant the networks trained across tables) are compared under one
    player: adept:route=0 on every one, said on the page; the command stays as given."""
    from crates_sim.analysis.balance import balance
    from crates_sim.analysis.players import HELD_NOTE, held_across

    classic, drawing = Rules.preset("classic", 4), Rules.preset("classic", 4, draw_when_able=True)
    assert held_across("adept", [classic, drawing]) == "adept:route=0"
    assert held_across("adept:temp=1", [classic, drawing]) == "adept:temp=1:route=0"
    assert held_across("adept", [classic, Rules.preset("classic", 4, seven_target="next")]) == "adept:route=0"
    serbian = Rules.preset("serbian", 4)
    # serbian keeps set 0's partnership network, its variants without draws at will play
    # set 27's: held to route=0; two such variants route alike
    assert held_across("adept", [serbian, Rules.preset("serbian", 4, spare_three=10)]) == "adept:route=0"
    assert held_across("adept", [Rules.preset("serbian", 4, count_forced=False),
                                 Rules.preset("serbian", 4, spare_three=5)]) == "adept"
    # with the 9s not wild adept searches the dry stock (a searched route): held to route=0
    assert held_across("adept", [Rules.preset("serbian", 4, nine_wild=False),
                                 Rules.preset("serbian", 4, spare_three=5)]) == "adept:route=0"
    # a draw-at-will variant of a partnership preset routes to set 13: both held to route=0,
    # which plays set 0's partnership network on both, as before that route
    assert held_across("adept:stock=4", [serbian, Rules.preset("serbian", 4, draw_when_able=True)]) \
        == "adept:stock=4:route=0"
    assert held_across("adept", [classic, classic]) == "adept"  # one route: the specialist plays both
    assert held_across("adept:route=1", [classic, drawing]) == "adept:route=1"  # asked for
    assert held_across("adept:net=4", [classic, drawing]) == "adept:net=4"
    assert held_across("greedy", [classic, drawing]) == "greedy"
    assert held_across("adept", None) == "adept:route=0"  # design: the candidates are unknown
    said = []
    res = balance(["classic", "classic:seven_target=next"], 4, "adept,greedy", 6, 54104, tmp_path / "b",
                  workers=1, echo=said.append, skill_games=2)
    assert res["held"] and res["strategies"] == ["adept:route=0", "greedy"]
    assert res["strong"] == "adept:stock=4:dry=4:route=0"  # the default strong player, held too
    assert any(HELD_NOTE in line for line in said)
    assert HELD_NOTE.split(" (")[0][1:] in (tmp_path / "b" / "balance.html").read_text()
    assert "--strategies adept,greedy" in res["command"] and "route" not in res["command"]


def test_a_page_on_a_table_where_adept_is_weak_offers_the_search_and_it_runs(tmp_path, monkeypatch):
    """Where adept is measured well below expert the page says so and names a stronger
    adept: `--strong adept:stock=4` where the draws near an empty stock are searchable,
    `--strong adept:dry=4` elsewhere in Crates, `--strong adept:search=2` in Crazy Eights,
    which balance takes as given."""
    from crates_sim.analysis.balance import balance
    from crates_sim.analysis.players import validation

    # adept without its draw bonus where a seat may draw at will (with it: +96.3)
    said = validation("adept:draw=0", Rules.preset("classic", 4, draw_when_able=True))
    assert "well below expert" in said and "--strong adept:stock=4" in said
    assert "well below expert" not in validation("adept", Rules.preset("classic", 4,
                                                                        draw_when_able=True))
    said = validation("adept", Rules.preset("classic", 4, remove_ranks="QK"))
    assert "well below expert" in said and "--strong adept:dry=4" in said
    # no Crazy Eights row is well below expert any more (set 29's route lifted the last
    # ones): this one's row as it was before that route, -10.9 [-15.0, -6.8]
    from crates_sim.analysis import players

    spec = "crazy-eights:draw_rule=unlimited,draw_when_able=False,first_dealer=random,remove_ranks=8"
    eights = Rules.from_spec(spec, 5)  # no pressures there
    assert "well below expert" not in validation("adept", eights)
    before = {"rules": spec, "players": 5, "partnerships": False, "seed": 54721, "deals": 1000,
              "win_diff": -10.9, "win_lo": -15.0, "win_hi": -6.8}
    monkeypatch.setattr(players, "_measured_rows", lambda: (before,))
    said = validation("adept", eights)
    assert "well below expert" in said and "--strong adept:search=2" in said
    monkeypatch.undo()
    assert "search" not in validation("adept", Rules.preset("serbian", 4))
    res = balance(["classic", "classic:seven_target=next"], 4, "greedy", 4, 54113, tmp_path / "s",
                  workers=1, echo=lambda *_: None, skill_games=2, strong="adept:search=2")
    assert res["strong"] == "adept:search=2:route=0"
    assert set(res["measures"][res["measures"]["measure"] == "skill_gap"]["variant"]) == set(res["labels"])
