"""The rough edges a newcomer hit (issue 40, "What a newcomer hit"): each test would have
caught one. The play loop's (40.1, 40.2) are in test_play_loop.py."""

import io
import json
import os
import textwrap

import pytest
from cli_checks import one_line as one_error_line
from click.testing import CliRunner

from crates_sim.cli.main import cli
from crates_sim.errors import did_you_mean


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


BAD_FUNCTIONS = textwrap.dedent('''
    from numba import njit

    @njit
    def two(params, obs):
        return 0

    @njit
    def illegal(params, obs, hand, pile, options, rng):
        return 99
''')


@pytest.fixture
def bad_file(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text(BAD_FUNCTIONS)
    return path


# ------------------------------------------------------------------ 40.7 error texts
def test_did_you_mean_suggests_close_names_only():
    assert did_you_mean("clasic", ["classic", "league"]) == " (did you mean 'classic'?)"
    assert did_you_mean("zzz", ["classic", "league"]) == ""


@pytest.mark.parametrize("args,typo,meant", [
    (["rules", "clasic"], "clasic", "classic"),
    (["simulate", "--preset", "clasic", "--games", "1"], "clasic", "classic"),
    (["simulate", "--set", "seven_targt=next", "--games", "1"], "seven_targt", "seven_target"),
    (["simulate", "--set", "seven_target=nxt", "--games", "1"], "nxt", "next"),
    (["simulate", "-s", "gready", "--games", "1"], "gready", "greedy"),
    (["simulate", "-s", "pimc:sampels=3", "--games", "1"], "sampels", "samples"),
    (["sweep", "keep3:thre=-1..1:3", "-a", "greedy", "--games", "2"], "thre", "three"),
    (["tune", "keep3", "--params", "thre", "-a", "greedy"], "thre", "three"),
    (["simulate", "--detail", "game", "--games", "1"], "game", "games"),
    (["compare", "-s", "greedy,random", "--tables", "evry", "--games", "2"], "evry", "every"),
])
def test_a_typo_gets_a_did_you_mean(tmp_path, args, typo, meant):
    out = [] if args[0] == "rules" else ["--out", tmp_path / "o"]
    line = one_error_line(invoke(*args, *out), typo)
    assert f"did you mean '{meant}'" in line


def test_a_typo_in_a_function_name_gets_a_did_you_mean(tmp_path, bad_file):
    line = one_error_line(invoke("simulate", "-s", f"{bad_file}:ilegal", "--games", "1",
                                 "--out", tmp_path / "o"))
    assert "has no function 'ilegal' (did you mean 'illegal'?)" in line


def test_a_knob_of_the_other_family_names_the_family_in_words(tmp_path):
    one_error_line(invoke("simulate", "-p", "crazy-eights", "--set", "seven_target=next",
                          "--games", "1", "--out", tmp_path / "o"),
                   "(a Crazy Eights preset)")


def test_a_function_with_the_wrong_arguments_is_one_short_line(tmp_path, bad_file):
    line = one_error_line(invoke("compare", "-s", f"{bad_file}:two,greedy", "--games", "2",
                                 "--out", tmp_path / "o"),
                          "takes (params, obs)", "(params, obs, hand, pile, options, rng)")
    assert "Cannot bind" not in line and len(line) < 150 + len(str(bad_file))
    assert not (tmp_path / "o").exists()


def test_a_long_numba_message_is_cut_at_a_word():
    from crates_sim.engine.api import QUOTE_CHARS, _clipped

    text = "word " * 100
    cut = _clipped(text)
    assert len(cut) <= QUOTE_CHARS + 4 and cut.endswith("word ...")


# ------------------------------------------------------------------ 40.6 failed runs
def test_a_refused_compare_leaves_no_folder_behind(tmp_path, bad_file):
    out = tmp_path / "cmp"
    result = invoke("compare", "-s", f"{bad_file}:illegal,greedy", "--games", "4",
                    "--out", out)
    one_error_line(result, "illegal choice")
    assert not out.exists()


def test_a_refused_compare_keeps_a_folder_that_was_there(tmp_path, bad_file):
    out = tmp_path / "cmp"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    one_error_line(invoke("compare", "-s", f"{bad_file}:illegal,greedy", "--games", "4",
                          "--out", out), "illegal choice")
    assert sorted(os.listdir(out)) == ["notes.txt"]


def test_a_failed_simulate_leaves_no_empty_dataset(tmp_path, bad_file):
    out = tmp_path / "sim"
    one_error_line(invoke("simulate", "-s", f"{bad_file}:illegal", "--games", "20",
                          "--workers", "1", "--out", out), "illegal choice")
    assert not out.exists()


# ------------------------------------------------------------------ 40.5 outputs checked first
@pytest.fixture(scope="module")
def log_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("log") / "a.jsonl"
    result = invoke("trace", "--seed", "3", "-s", "greedy,random,greedy,random", "--out", path)
    assert result.exit_code == 0, result.output
    return path


def _not_a_folder(tmp_path):
    """A path whose folder cannot be made, for anyone (root too): under a plain file."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    return blocker


@pytest.mark.parametrize("command", [
    ["analyse", "{log}", "--samples", "8", "--html", "{bad}/page.html"],
    ["analyse", "{log}", "--samples", "8", "--json", "{bad}/a.json"],
    ["replay", "{log}", "--html", "{bad}/page.html"],
    ["simulate", "--games", "2", "--out", "{bad}/sim"],
    ["compare", "-s", "greedy,random", "--games", "2", "--out", "{bad}/cmp"],
    ["report", "{log}", "--out", "{bad}/r.html"],
    ["play", "--save", "{bad}/game.jsonl"],
    ["trace", "--out", "{bad}/t.jsonl"],
])
def test_an_output_that_cannot_be_written_is_refused_before_any_work(tmp_path, log_file, command):
    bad = _not_a_folder(tmp_path)
    args = [a.format(log=log_file, bad=bad) for a in command]
    result = invoke(*args)
    line = one_error_line(result, "cannot write", "is a file, not a folder")
    assert "analysed" not in result.output and "decisions" not in line


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anywhere")
def test_a_folder_without_write_permission_is_refused(tmp_path, log_file):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        one_error_line(invoke("analyse", log_file, "--html", locked / "page.html"),
                       "cannot write", "Permission denied")
    finally:
        locked.chmod(0o700)


def test_unwritable_says_why_and_passes_what_can_be_written(tmp_path):
    from crates_sim.cli.options import unwritable

    assert unwritable(str(tmp_path / "new" / "deeper" / "page.html")) is None
    assert unwritable(str(tmp_path / "out"), folder=True) is None
    assert "is a folder" in unwritable(str(tmp_path))
    blocker = _not_a_folder(tmp_path)
    assert "is a file, not a folder" in unwritable(str(blocker), folder=True)
    assert not list(tmp_path.glob(".crates-write-check-*"))


# ------------------------------------------------------------------ 40.8 the loss chart
def _move(k, loss, label=None, near=False):
    return {"line": 10 + k, "hand": 1, "seat": 0, "chosen": "5C", "best": "9H", "loss": loss,
            "label": label, "near_best": near}


METHOD = {"thresholds": {"inaccuracy": 5.0, "mistake": 10.0, "blunder": 20.0}}


def _chart(moves):
    import xml.etree.ElementTree as ET

    from crates_sim.play.replay_html import loss_chart

    svg = loss_chart(moves, METHOD)
    root = ET.fromstring(svg[:svg.index("</svg>") + 6])
    ns = "{http://www.w3.org/2000/svg}"
    find = lambda tag: root.findall(f".//{tag}") + root.findall(f".//{ns}{tag}")  # noqa: E731
    return svg, find


def test_the_loss_chart_has_titled_axes_ticks_and_narrow_bars_for_few_decisions():
    from crates_sim.play.replay_html import CHART_BAR_MAX

    svg, find = _chart([_move(0, 3.0, near=True), _move(1, 12.5, "mistake")])
    texts = [t.text for t in find("text")]
    assert "loss (points)" in texts and any(t.startswith("analysed decision") for t in texts)
    assert {"0", "5", "10", "20"} <= set(texts) and {"1", "2"} <= set(texts)
    assert {"inaccuracy", "mistake"} <= set(texts)
    assert len(find("line")) >= 2  # the axes
    bars = find("rect")
    assert len(bars) == 2 and all(float(b.get("width")) <= CHART_BAR_MAX for b in bars)
    assert [b.get("data-line") for b in bars] == ["10", "11"]
    assert float(bars[1].get("height")) > float(bars[0].get("height"))
    assert "within noise of the best" in svg and "blunder" in svg


def test_the_loss_chart_of_many_decisions_keeps_about_ten_x_ticks():
    svg, find = _chart([_move(k, float(k % 30)) for k in range(200)])
    numbers = [t.text for t in find("text") if t.text.isdigit() and t.get("text-anchor") == "middle"]
    assert 8 <= len(numbers) <= 12 and len(find("rect")) == 200


def test_the_analysis_page_carries_the_chart(log_file):
    from crates_sim.play.replay import read_log
    from crates_sim.play.replay_html import render

    events = read_log(log_file)
    analysis = {"method": METHOD | {"strategy": "expert", "samples": 8, "streams": 8,
                                    "units": "points"},
                "seats": {}, "decisions": [_move(0, 3.0)]}
    page = render(events, analysis=analysis)
    assert "loss (points)" in page and "AN.chart" in page


# ------------------------------------------------------------------ 40.4 early Ctrl-C
def test_automatic_chunks_start_small_and_cover_every_game_once():
    from crates_sim.runs.runner import RAMP_FACTOR, auto_chunk_size, plan_chunks

    size = auto_chunk_size(300_000, 2)
    plan = plan_chunks(300_000, size, ramp_workers=2)
    assert [n for _, n in plan[:2]] == [size // RAMP_FACTOR] * 2
    assert all(a + n == b for (a, n), (b, _) in zip(plan, plan[1:], strict=False))
    assert plan[0][0] == 0
    assert sum(n for _, n in plan) == 300_000 and max(n for _, n in plan) == size
    assert plan_chunks(300_000, size) == [(s, size) for s in range(0, 300_000, size)]


def test_an_early_ctrl_c_keeps_the_first_small_chunks_and_games_stay_the_same(tmp_path, monkeypatch):
    """Interrupted as the third chunk starts, an automatically chunked run has kept two
    small chunks (the first once took 18,750 games); resumed, its games are those of a
    run chunked otherwise."""
    import polars as pl

    from crates_sim.data.progress import Progress
    from crates_sim.runs import runner

    games, args = 8_000, ["--seed", "5", "-s", "greedy,random", "-n", "2", "--detail", "games",
                          "-q", "--workers", "1"]
    out, other = tmp_path / "ramp", tmp_path / "even"
    real = runner.run_chunk

    def interrupted(task):
        if task.index == 2:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(runner, "run_chunk", interrupted)
    result = invoke("simulate", "--games", games, *args, "--out", out)
    assert result.exit_code == 130
    m = json.loads((out / "manifest.json").read_text())
    done = [c for c in m["chunks"] if c["state"] == "done"]
    assert len(done) == 2 and all(c["games"] <= m["chunk_size"] // 16 for c in done)
    monkeypatch.setattr(runner, "run_chunk", real)
    assert invoke("simulate", "--games", games, *args, "--out", out).exit_code == 0
    assert invoke("simulate", "--games", games, *args, "--chunk-size", 3000,
                  "--out", other).exit_code == 0

    def rows(path):
        return pl.read_parquet(path / "games" / "*.parquet").sort("game", "seat")

    assert rows(out).equals(rows(other)) and rows(out).height == 2 * games
    shown = io.StringIO()
    Progress(games, stream=shown, note="(starting 1 worker)")
    assert "(starting 1 worker)" in shown.getvalue()


def test_a_file_output_in_a_new_folder_is_written_there(tmp_path):
    """What `unwritable` lets through is written: the file's missing folders are made."""
    from crates_sim.cli.options import write_text

    path = tmp_path / "new" / "deeper" / "t.jsonl"
    result = invoke("trace", "--seed", "3", "-s", "greedy,random", "-n", "2", "--out", path)
    assert result.exit_code == 0, result.output
    assert path.read_text().startswith('{"ev":"game"')
    write_text(tmp_path / "other" / "a.json", "{}\n")
    assert (tmp_path / "other" / "a.json").read_text() == "{}\n"
