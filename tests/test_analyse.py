"""`crates analyse LOG` (issue 31 §1): every card decision of a traced game valued from the
mover's information, the loss of the choice, the labels, the per-seat summary; a log that
does not replay is one line. Small games and few samples: seconds in all."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from crates_sim.analysis.move_analysis import STREAMS, analyse, label_of, summary_lines
from crates_sim.cli.main import cli
from crates_sim.play.pyagent_run import trace_game
from crates_sim.rules import Rules

SPECS = ["expert", "random", "greedy", "random"]


@pytest.fixture(scope="module")
def classic():
    """A classic 4-player game, expert and greedy against random, and its analysis (every
    seat)."""
    events = trace_game(Rules.preset("classic", 4), SPECS, 3, 1)
    return events, analyse(events, samples=40)


def _write(path, events):
    path.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events))
    return str(path)


def test_every_decision_has_a_value_per_option_and_the_loss_is_against_the_best(classic):
    events, result = classic
    decisions = result["decisions"]
    assert len(decisions) > 100
    assert result["method"]["samples"] == 40 and result["method"]["streams"] == STREAMS
    for d in decisions:
        values = {o["option"]: o["value"] for o in d["options"]}
        assert len(values) >= 2 and d["chosen"] in values and d["best"] in values
        assert all(o["se"] >= 0 for o in d["options"])
        assert d["loss"] >= 0 and d["loss"] == pytest.approx(values[d["best"]] - values[d["chosen"]], abs=0.02)
        assert d["label"] is None or not d["near_best"]
        assert events[d["line"] - 1]["ev"] in ("play", "draw", "pressure")
        assert events[d["line"] - 1]["seat"] == d["seat"]
    best = [o for d in decisions for o in d["options"] if o["option"] == d["best"]]
    assert all(o["near_best"] for o in best)


def test_random_play_loses_more_than_greedy_over_the_same_game(classic):
    _events, result = classic
    seats = result["seats"]

    mean = {q: seats[str(q)]["mean_loss"] for q in range(4)}
    assert mean[0] < mean[2] < min(mean[1], mean[3])  # expert, greedy, random
    assert seats["0"]["accuracy"] > max(seats["1"]["accuracy"], seats["3"]["accuracy"])
    for s in seats.values():
        assert len(s["costliest"]) == 3
        assert [c["loss"] for c in s["costliest"]] == sorted((c["loss"] for c in s["costliest"]), reverse=True)
    text = "\n".join(summary_lines(result))
    assert "seat 1 (random):" in text and "accuracy" in text and "played" in text


def test_one_seat_alone_is_judged_as_among_all(classic):
    """Each decision's searches have their own streams: --seat changes nothing else."""
    events, result = classic
    alone = analyse(events, seats=[2], samples=40)
    assert list(alone["seats"]) == ["2"]
    assert alone["decisions"] == [d for d in result["decisions"] if d["seat"] == 2]


def test_labels_follow_the_thresholds_beyond_noise():
    assert label_of(4.9, False) is None and label_of(5, False) == "inaccuracy"
    assert label_of(12, False) == "mistake" and label_of(20, False) == "blunder"
    assert label_of(50, True) is None


def test_crazy_eights_and_an_unfinished_game_up_to_where_it_stops(tmp_path):
    events = trace_game(Rules.preset("crazy-eights", 3), ["greedy", "random", "random"], 1, 0)
    cut = [dict(events[0], unfinished=True)] + events[1:len(events) // 3]
    last = max(i for i, e in enumerate(cut) if e["ev"] == "play") + 1
    result = analyse(cut, seats=[0, 1], samples=8)
    assert result["game"]["unfinished"] and result["decisions"]
    assert max(d["line"] for d in result["decisions"]) <= last
    assert set(result["seats"]) == {"0", "1"}
    assert result["method"]["win_model"] is None and all(d["win_loss"] is None for d in result["decisions"])


def test_the_command_prints_a_summary_and_writes_valid_json(tmp_path):
    log = _write(tmp_path / "g.jsonl", trace_game(Rules.preset("classic", 2), ["greedy", "random"], 1, 1))
    out = tmp_path / "a.json"
    result = CliRunner().invoke(cli, ["analyse", log, "--seat", "1", "--samples", "8", "--json", str(out),
                                      "--moves"])
    assert result.exit_code == 0, result.output
    assert "seat 1 (random):" in result.output and "analysed" in result.output
    data = json.loads(out.read_text())
    assert list(data["seats"]) == ["1"] and all(d["seat"] == 1 for d in data["decisions"])


def test_the_replay_page_carries_the_annotations(classic, tmp_path):
    from crates_sim.play.replay_html import render

    events, result = classic
    page = render(events, analysis=result)
    blob = page.split('<script id="game-data" type="application/json">')[1].split("</script>")[0]
    data = json.loads(blob.replace("<\\/", "</"))
    assert data["analysis"]["moves"] == result["decisions"] and data["analysis"]["seats"] == result["seats"]
    lines = {d["line"] for d in result["decisions"]}
    steps = {s["i"] + 1: s for s in data["steps"]}
    assert all(any(x["seat"] == steps[line]["seat"] for x in steps[line]["decisions"]) for line in lines)
    assert "lossChart" in page and "http://" not in page and '"analysis":{' not in render(events)


def test_a_log_that_does_not_replay_is_one_line(tmp_path):
    events = trace_game(Rules.preset("classic", 2), ["greedy", "random"], 1, 1)
    play = next(i for i, e in enumerate(events) if e["ev"] == "play")
    held = events[1]["hands"][events[play]["seat"]]
    wrong = [dict(e) for e in events]
    wrong[play]["card"] = next(c for c in held if c[0] not in (wrong[play]["card"][0], "8", "9")
                               and c[1] != events[1]["upcard"][1] and c[0] != events[1]["upcard"][0])
    other_seed = [dict(events[0], seed=events[0]["seed"] + 1)] + events[1:]
    end = next(i for i, e in enumerate(events) if e["ev"] == "hand_end")
    scored = [dict(e) for e in events]
    scored[end]["points"] = [p + 1 for p in scored[end]["points"]]
    for bad, says in ((wrong, "not one of its legal options"), (other_seed, "legal options"),
                      (scored, f"line {end + 1} is ev=hand_end")):
        result = CliRunner().invoke(cli, ["analyse", _write(tmp_path / "bad.jsonl", bad), "--samples", "8"])
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: the log does not replay") and says in lines[0]
    result = CliRunner().invoke(cli, ["analyse", _write(tmp_path / "g.jsonl", events), "--seat", "2"])
    assert result.exit_code == 2 and result.output.strip().splitlines() == [
        "Error: --seat 2 is not a seat of this 2-player game (0-1)"]


def test_the_win_model_is_shipped_and_moves_with_the_margin(classic):
    from crates_sim.analysis.win_model import model_for, win_probability

    model = model_for("classic", 4, True)
    assert model is not None and model_for("crazy-eights", 3, False) is None
    p = [win_probability(model, m, 7) for m in (-200, -50, 0, 50, 200)]
    assert p == sorted(p) and abs(p[2] - 0.5) < 0.02
    assert win_probability(model, 50, 0) > win_probability(model, 50, 14)  # less time to catch up
    _events, result = classic
    assert result["method"]["win_model"] == "classic/4/teams"
    for d in result["decisions"]:
        assert all(0 <= o["win"] <= 100 for o in d["options"])
        assert d["win_loss"] >= -0.05  # the best in points is (almost) the best in chances
