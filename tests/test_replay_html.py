"""`crates replay LOG --html`: the page's data against the log, and the page itself stepped
through in headless Chromium (skipped only where no browser is installed)."""

import json
import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from crates_sim.cli.main import cli
from crates_sim.engine.api import trace_game
from crates_sim.play.replay import read_log
from crates_sim.play.replay_html import page_data
from crates_sim.rules import Rules


def _page_json(text: str) -> dict:
    m = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', text, re.S)
    assert m, "no data block"
    return json.loads(m.group(1).replace("<\\/", "</"))


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """A classic partnership game (pressures, counts, calls, announcements) as a log and a page."""
    folder = tmp_path_factory.mktemp("replay")
    log = folder / "g.jsonl"
    html = folder / "g.html"
    runner = CliRunner()
    res = runner.invoke(cli, ["trace", "-s", "greedy,random,greedy,random", "--seed", "7",
                              "--game", "0", "--out", str(log)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(cli, ["replay", str(log), "--html", str(html)])
    assert res.exit_code == 0, res.output
    return log, html


def test_page_data_matches_the_log(page):
    log, html = page
    events = read_log(log)
    text = html.read_text()
    assert "http://" not in text and "https://" not in text and "src=" not in text  # nothing loaded
    data = _page_json(text)
    steps = data["steps"]
    assert data["game"] == events[0]
    assert [s["ev"] for s in steps] == events[1:]
    assert data["decisions_found"]
    n = events[0]["players"]
    held = None
    for s in steps:
        ev = s["ev"]
        if ev["ev"] == "deal":
            held = [list(h) for h in ev["hands"]]
        elif ev["ev"] == "play":
            held[ev["seat"]].remove(ev["card"])
        elif ev["ev"] == "draw":
            held[ev["seat"]].append(ev["card"])
        assert [sorted(h) for h in s["hands"]] == [sorted(h) for h in held]
        for d in s["decisions"]:  # the chosen option is legal and is what the log shows
            assert d["chosen"] in d["options"]
            if ev["ev"] == "play" and d["phase"] in ("play", "play again after a 6", "answer the count"):
                assert d["chosen"] == ev["card"] and d["seat"] == ev["seat"]
        if ev["ev"] == "hand_end":
            assert [r["points"] for r in s["scoring"]] == ev["points"]
            assert [sorted(r["cards"]) for r in s["scoring"]] == [sorted(h) for h in held]
            assert all("3+" in r["how"] for r in s["scoring"] if sum(c[0] == "3" for c in r["cards"]) == 1
                       and len(r["cards"]) > 1)
            assert s["totals"] == ev["totals"]
    assert steps[-1]["totals"] == events[-1]["totals"] and len(steps[-1]["totals"]) == n
    chosen = sum(len(s["decisions"]) for s in steps)
    assert chosen > 100


def test_every_preset_finds_its_decisions(tmp_path):
    """The decisions are found for a log of each family (a Crazy Eights game too)."""
    from crates_sim.play.replay_html import page_data

    for preset, n in (("crazy-eights", 3), ("very-crazy-eights", 4), ("league", 3), ("serbian", 2)):
        events = trace_game(Rules.preset(preset, n), ["random"] * n, 3, 0)
        data = page_data(events)
        assert data["decisions_found"], preset
        assert sum(len(s["decisions"]) for s in data["steps"]) > 0


def test_a_log_that_is_not_this_engines_still_has_a_page(tmp_path, page):
    log, _ = page
    events = read_log(log)
    events[0]["seed"] += 1  # another game's deals: the options cannot be found
    from crates_sim.play.replay_html import page_data

    data = page_data(events)
    assert not data["decisions_found"] and all(not s["decisions"] for s in data["steps"])


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


STEPPER = """<script>
(function () {
  const out = [];
  const key = k => document.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true}));
  const state = () => ({step: +document.body.dataset.step,
    caption: document.getElementById("caption").textContent,
    cards: Array.from(document.querySelectorAll("#table .seat .card")).length,
    top: (document.querySelector("#table .centre .card") || {}).title || null,
    chosen: Array.from(document.querySelectorAll("#decisions .opt.chosen")).map(e => e.textContent),
    scored: document.querySelectorAll("#scoring tr").length});
  out.push(state());
  key("ArrowRight"); key("ArrowRight"); out.push(state());
  key("ArrowLeft"); out.push(state());
  document.getElementById("next").click(); out.push(state());
  const s = document.getElementById("scrub"); s.value = 40; s.dispatchEvent(new Event("input")); out.push(state());
  key("PageDown"); out.push(state());
  key("End"); out.push(state());
  key("Home"); out.push(state());
  document.body.insertAdjacentHTML("beforeend", "<pre id='selftest'>" + JSON.stringify(out) + "</pre>");
})();
</script></body>"""


@pytest.mark.skipif(_chromium() is None, reason="no Chromium installed (apt-get install chromium)")
def test_the_page_steps_in_headless_chromium(page, tmp_path):
    """Keys, buttons and the slider move through the events; what the page shows at each
    step is the data's."""
    _, html = page
    text = html.read_text()
    data = _page_json(text)
    steps = data["steps"]
    driven = tmp_path / "driven.html"
    driven.write_text(text.replace("</body>", STEPPER, 1))
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", driven.as_uri()]
    res = subprocess.run([_chromium(), *flags], capture_output=True, text=True, timeout=120)
    m = re.search(r"<pre id=\"selftest\">(.*?)</pre>", res.stdout, re.S)
    assert m, res.stderr[-2000:]
    seen = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                      .replace("&gt;", ">"))
    first_of_hand2 = next(i for i, s in enumerate(steps) if s["hand"] == 2)
    want = [0, 2, 1, 2, 40, first_of_hand2, len(steps) - 1, 0]
    assert [s["step"] for s in seen] == want
    for got, i in zip(seen, want, strict=True):
        st = steps[i]
        assert got["caption"] == st["caption"]
        assert got["cards"] == sum(len(h) for h in st["hands"])
        assert got["top"] == st["top"]
        assert got["chosen"] == [d["chosen"] for d in st["decisions"]]
    assert seen[-2]["caption"].startswith("Game over")


def test_the_subtitle_adds_to_the_title_and_events_are_counted_as_trace_counts(page, tmp_path):
    """The subtitle says what the title does not (the family, changed knobs), never the
    preset again; the position counts events as the log has lines, the `game` header
    included, as `crates trace` says "wrote N events" (issue 32.5)."""
    log, html = page
    events = read_log(log)
    data = _page_json(html.read_text())
    assert data["events"] == len(events) == len(data["steps"]) + 1 and data["finished"]
    assert not data["describe"].startswith("classic") and data["describe"] == "crates"
    assert "event ${s.i + 1} / ${DATA.events}" in html.read_text()
    changed = page_data(trace_game(Rules.preset("classic", 4, seven_target="next"),
                                   ["random"] * 4, 1, 0))
    assert changed["describe"] == "crates with seven_target=next"
