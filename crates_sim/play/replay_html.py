"""`crates replay LOG --html OUT.html`: a game log as a page you can watch.

Contract: `write_page(events, path)` writes one self-contained HTML file (no network
loads: the data, the script and the styles are inside it; card faces are CSS) for a
checked log (`replay.read_log`). `page_data(events)` is the data the page shows, one step
per event after the `game` header: the cards every seat holds, the top card, the suit, the
stock, the totals, a caption, the decisions that led to the event (their legal options and
the one chosen) and, at a hand's end, each seat's points with the 3-covering shown.

The log holds what happened, not the options: they are found by playing the game again on
the step engine (`crates_sim.play.step.Table`, every seat outside) and answering each decision
with what the log shows happened next; the game must come out event for event as the log
(else the log was not made by this version's engine, and the page shows no options).
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path

from .. import cards as C
from .log_decisions import LogMismatch, log_table, logged_decisions
from .log_decisions import option_name as _option_name
from .replay import SUIT_NAMES, WHY_TEXT, _effect, _rules_of, follow_hands, scoring_text

PHASE_TEXT = {C.PH_PLAY: "play", C.PH_COUNT: "answer the count", C.PH_AGAIN: "play again after a 6",
              C.PH_CALL: "call a suit", C.PH_BLIND_CALL: "call the upcard's suit",
              C.PH_ANNOUNCE: "announce a last card"}


def decisions(events) -> dict[int, list[dict]] | None:
    """{index of an event in `events`: the decisions made just before it}, each decision
    {seat, phase, options, chosen} in words; None when the game cannot be played again
    to match the log (another engine version, or a log edited by hand).

    The decisions and their answers are `log_decisions.logged_decisions`'s (where each is
    placed in the log is said there); any LogMismatch it raises gives None."""
    try:
        table = log_table(events)
        found: dict[int, list[dict]] = {}
        for d, option, at in logged_decisions(table, events):
            found.setdefault(at, []).append(
                {"seat": d.seat, "phase": PHASE_TEXT.get(d.phase, str(d.phase)),
                 "options": [_option_name(d.phase, o) for o in d.options],
                 "chosen": _option_name(d.phase, option)})
    except LogMismatch:
        return None
    return found


def _caption(ev: dict, game: dict, R) -> str:
    kind = ev["ev"]
    if kind == "deal":
        return (f"Hand {ev['hand']}: seat {ev['dealer']} deals {ev['size']} cards each; "
                f"upcard {ev['upcard']}")
    if kind == "call":
        return f"Seat {ev['seat']} (dealer) calls {SUIT_NAMES[ev['suit']]}"
    if kind == "play":
        text = f"Seat {ev['seat']} plays {ev['card']}"
        if ev.get("suit"):
            text += f", calls {SUIT_NAMES[ev['suit']]}"
        effect = _effect(ev["card"], game, R)
        if effect and effect not in ("wild", "wild (colour)"):
            text += f" ({effect})"
        if ev.get("announce"):
            text += ': "last card!"'
        return text
    if kind == "draw":
        return f"Seat {ev['seat']} draws {ev['card']} ({WHY_TEXT.get(ev['why'], ev['why'])})"
    if kind == "pressure":
        tail = "the pile is reshuffled" if "stock" in ev else "nothing to reshuffle: the hand is dead"
        return f"PRESSURE on seat {ev['seat']}: +{ev['points']} points; {tail}"
    if kind == "pass":
        return f"Seat {ev['seat']} passes (the stock is empty)"
    if kind == "hand_end":
        who = f"seat {ev['out']} went out" if ev.get("out") is not None else "nobody went out"
        return f"Hand {ev['hand']} ends: {ev['reason']} ({who})"
    if kind == "game_end":
        return "Game over: " + ", ".join(f"seat {w}" for w in ev["winners"]) + " won"
    return kind


def page_data(events) -> dict:
    """What the page shows (see the module doc): {game, steps, decisions_found}."""
    game = events[0]
    rules, R = _rules_of(game)
    crates = rules.family == "crates"
    n = game["players"]
    found = decisions(events)
    held: list[list[str]] = []
    top, suit, stock, totals, hand = None, None, 0, [0] * n, 0
    steps = []
    for i, ev in enumerate(events[1:], start=1):
        kind = ev["ev"]
        before = [list(h) for h in held]
        held = follow_hands(held, ev)
        scoring = None
        if kind == "deal":
            hand, top, suit, stock = ev["hand"], ev["upcard"], ev["upcard"][1], len(ev["stock"])
        elif kind == "call":
            suit = ev["suit"]
        elif kind == "play":
            top, suit = ev["card"], ev.get("suit") or ev["card"][1]
        elif kind == "draw":
            stock = max(0, stock - 1)
        elif kind == "pressure" and "stock" in ev:
            stock = len(ev["stock"])
        elif kind == "hand_end":
            totals = list(ev["totals"])
            scoring = [{"seat": q, "points": ev["points"][q], "cards": list(held[q]) if held else [],
                        "how": (scoring_text(held[q], R) if held and crates else
                                " + ".join(held[q]) if held else "")}
                       for q in range(n)]
        elif kind == "game_end":
            totals = list(ev["totals"])
        mover = ev.get("seat")
        steps.append({"i": i, "ev": ev, "caption": _caption(ev, game, R), "hand": hand,
                      "hands": [list(h) for h in held] if held else [list(h) for h in before],
                      "top": top, "suit": suit, "stock": stock, "totals": totals, "seat": mover,
                      "decisions": (found or {}).get(i, []), "scoring": scoring})
    changed = ", ".join(f"{k}={v}" for k, v in rules.differences().items())
    return {"game": game, "family": rules.family,
            # the subtitle: what the title (preset, players, seed, game) does not say
            "describe": f"{rules.family}" + (f" with {changed}" if changed else ""),
            "events": len(events), "finished": events[-1]["ev"] == "game_end",
            "steps": steps, "decisions_found": found is not None}


def render(events, analysis: dict | None = None) -> str:
    """The page's HTML; `analysis` (`crates analyse`'s result, analysis.move_analysis) adds
    its annotations: each analysed decision's options with their values, the chosen and
    the best marked, the loss and label, and a per-move loss chart that jumps to the move."""
    data = page_data(events)
    if analysis is not None:
        data["analysis"] = {"method": analysis["method"], "seats": analysis["seats"],
                            "moves": analysis["decisions"],
                            "chart": loss_chart(analysis["decisions"], analysis["method"])}
    game = data["game"]
    title = (f"{game['preset']} · {game['players']} players · seed {game['seed']} · "
             f"game {game['game']}")
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return (_PAGE.replace("%TITLE%", html.escape(title))
            .replace("%DATA%", blob))


#: the loss chart's drawing (SVG user units; the page scales it to its width)
CHART_W, CHART_H = 1000, 210
#: its margins: left (the y axis and its title), right, top, bottom (the x axis, its title)
CHART_L, CHART_R, CHART_T, CHART_B = 64, 12, 12, 48
#: the widest bar: a game of a few decisions draws narrow bars, not one block
CHART_BAR_MAX = 28
#: the fewest points the y axis shows (the blunder threshold)
CHART_Y_MIN = 20
#: about this many numbered ticks on the x axis
CHART_X_TICKS = 10
#: bar colours: by label, else within noise of the best, else beyond noise but unlabelled
CHART_COLOURS = {"inaccuracy": "#daa520", "mistake": "#e07b00", "blunder": "#c62828",
                 "near": "#9bbfae", "beyond": "#6c8f80"}


def loss_chart(moves: list[dict], method: dict) -> str:
    """The analysis page's loss chart, an SVG: a bar per analysed decision in game order
    (its loss in points, coloured by its label), a y axis in points with the label
    thresholds drawn across, a numbered x axis, both titled, and a legend; each bar
    carries its log line (`data-line`: the page jumps there) and a tooltip."""
    n = len(moves)
    pw, ph = CHART_W - CHART_L - CHART_R, CHART_H - CHART_T - CHART_B
    top = max([CHART_Y_MIN] + [float(x["loss"]) for x in moves])
    ymax = 5 * math.ceil(top / 5)
    slot = pw / max(n, 1)
    bar = min(CHART_BAR_MAX, max(1.0, 0.8 * slot))

    def y(v):
        return CHART_T + ph - ph * max(v, 0.0) / ymax

    base = CHART_T + ph
    out = [f'<svg viewBox="0 0 {CHART_W} {CHART_H}" role="img" '
           f'aria-label="loss of each analysed decision, in points">']
    thresholds = {float(v): k for k, v in method.get("thresholds", {}).items() if v < ymax}
    for v in sorted({0.0, *thresholds, float(ymax)}):
        out.append(f'<line class="grid" x1="{CHART_L}" x2="{CHART_W - CHART_R}" y1="{y(v):.1f}" '
                   f'y2="{y(v):.1f}"/><text class="tick" x="{CHART_L - 6}" y="{y(v) + 4:.1f}" '
                   f'text-anchor="end">{v:g}</text>')
        if v in thresholds:
            out.append(f'<text class="thr" x="{CHART_W - CHART_R - 4}" y="{y(v) - 3:.1f}" '
                       f'text-anchor="end">{thresholds[v]}</text>')
    for k, x in enumerate(moves):
        h = max(base - y(float(x["loss"])), 1.0)
        colour = CHART_COLOURS.get(x.get("label") or ("near" if x.get("near_best") else "beyond"))
        tip = (f"decision {k + 1}: hand {x['hand']}, seat {x['seat']}: played {x['chosen']}, "
               f"best {x['best']}, \u2212{x['loss']} points" + (f" ({x['label']})" if x.get("label") else ""))
        out.append(f'<rect x="{CHART_L + slot * (k + 0.5) - bar / 2:.2f}" width="{bar:.2f}" '
                   f'y="{base - h:.1f}" height="{h:.1f}" fill="{colour}" data-line="{x["line"]}">'
                   f'<title>{html.escape(tip)}</title></rect>')
    step = max(1, math.ceil(n / CHART_X_TICKS))
    for k in range(0, n, step):
        out.append(f'<text class="tick" x="{CHART_L + slot * (k + 0.5):.1f}" y="{base + 16}" '
                   f'text-anchor="middle">{k + 1}</text>')
    out.append(f'<line class="axis" x1="{CHART_L}" x2="{CHART_L}" y1="{CHART_T}" y2="{base}"/>'
               f'<line class="axis" x1="{CHART_L}" x2="{CHART_W - CHART_R}" y1="{base}" y2="{base}"/>')
    out.append(f'<text class="label" x="{CHART_L + pw / 2:.1f}" y="{CHART_H - 8}" text-anchor="middle">'
               f'analysed decision, in game order ({n})</text>')
    out.append(f'<text class="label" transform="translate(16 {CHART_T + ph / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle">loss (points)</text></svg>')
    legend = (("near", "within noise of the best"), ("beyond", "beyond noise, unlabelled"),
              ("inaccuracy", "inaccuracy"), ("mistake", "mistake"), ("blunder", "blunder"))
    out.append('<div class="legend">' + " ".join(
        f'<span><i style="background:{CHART_COLOURS[k]}"></i>{text}</span>' for k, text in legend)
        + "</div>")
    return "".join(out)


def write_page(events, path, analysis: dict | None = None) -> Path:
    """Write the page for `events` (annotated with `analysis`, see `render`) to `path`;
    returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(events, analysis), encoding="utf-8")
    return path


_PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>%TITLE%</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f4f1ea;color:#222}
header{background:#1f4d3a;color:#fff;padding:.6em 1em}header h1{font-size:1.15em;margin:0}
header .sub{font-size:.85em;opacity:.85}
main{max-width:1100px;margin:0 auto;padding:.8em}
#controls{display:flex;gap:.4em;align-items:center;flex-wrap:wrap;margin:.4em 0}
#controls button{font-size:1em;padding:.2em .7em}#scrub{flex:1;min-width:200px}
#caption{font-size:1.1em;font-weight:600;margin:.4em 0;min-height:1.4em}
#table{display:grid;grid-template-columns:1fr 1fr;gap:.6em}
.centre{grid-column:1/-1;background:#2e7d5b;color:#fff;border-radius:12px;padding:.6em 1em;display:flex;gap:1.5em;align-items:center}
.seat{background:#fff;border:2px solid #ccc;border-radius:10px;padding:.4em .6em}
.seat.mover{border-color:#e0a800;box-shadow:0 0 0 3px #ffe08a}
.seat h3{margin:0 0 .3em;font-size:.95em}.seat .tot{float:right;font-weight:400;color:#555}
.cards{display:flex;flex-wrap:wrap;gap:3px;min-height:58px}
.card{width:38px;height:54px;border:1px solid #999;border-radius:5px;background:#fff;position:relative;
 font-weight:700;font-size:14px;line-height:1;box-shadow:1px 1px 2px rgba(0,0,0,.2)}
.card .r{position:absolute;top:3px;left:4px}.card .s{position:absolute;bottom:3px;right:4px;font-size:20px}
.card.red{color:#c62828}.card.black{color:#111}.card.small{width:30px;height:42px;font-size:12px}.card.small .s{font-size:15px}
#scoring .cards{min-height:0}
.card.chosen{outline:3px solid #e0a800}
.suitbig{font-size:2em}.red{color:#c62828}
#decisions{background:#fff;border-radius:10px;padding:.4em .8em;margin:.6em 0;min-height:2em}
.opt{display:inline-block;margin:2px 4px;padding:1px 6px;border:1px solid #bbb;border-radius:4px}
.opt.chosen{background:#ffe08a;border-color:#e0a800;font-weight:700}
.opt.best{box-shadow:0 0 0 2px #2e7d5b}.opt .v{font-weight:400;color:#444;margin-left:.3em}
.verdict{margin:.2em 0 .3em;font-size:.95em}.lab-inaccuracy{color:#b8860b}.lab-mistake{color:#d2691e}.lab-blunder{color:#c62828}
#analysis{background:#fff;border-radius:10px;padding:.4em .8em;margin:.6em 0}#analysis table{border-collapse:collapse}
#analysis td,#analysis th{border:1px solid #ddd;padding:.15em .5em;font-size:.9em}#losschart svg{width:100%;height:auto;cursor:pointer}
#losschart .axis{stroke:#444}#losschart .grid{stroke:#ccc;stroke-dasharray:4 3}
#losschart text{font-size:13px;fill:#444}#losschart text.label{font-size:14px;fill:#222}#losschart text.thr{font-size:12px;fill:#888}
#losschart .legend{font-size:.85em;color:#444}#losschart .legend span{margin-right:1em}
#losschart .legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:middle}
#losschart rect.now{stroke:#000;stroke-width:2px;vector-effect:non-scaling-stroke}
#scoring table{border-collapse:collapse;background:#fff}#scoring td,#scoring th{border:1px solid #ccc;padding:.2em .5em}
.muted{color:#666;font-size:.9em}kbd{border:1px solid #aaa;border-radius:3px;padding:0 .3em;background:#fff}
</style></head><body>
<header><h1>%TITLE%</h1><div class="sub" id="sub"></div></header>
<main>
<div id="controls">
<button id="first" title="first event (Home)">|&#x25C0;</button>
<button id="prev" title="back (&larr;)">&#x25C0; back</button>
<button id="play" title="play / pause (space)">play</button>
<button id="next" title="forward (&rarr;)">forward &#x25B6;</button>
<button id="last" title="last event (End)">&#x25B6;|</button>
<input type="range" id="scrub" min="0" value="0" aria-label="scrub through the events">
<span id="pos"></span>
</div>
<div class="muted">Keys: <kbd>&larr;</kbd>/<kbd>&rarr;</kbd> step, <kbd>PgUp</kbd>/<kbd>PgDn</kbd> previous/next hand,
<kbd>Home</kbd>/<kbd>End</kbd>, <kbd>space</kbd> play/pause; <code>#N</code> after the address opens event N.</div>
<div id="caption"></div>
<div id="table"></div>
<div id="decisions"></div>
<div id="scoring"></div>
<div id="analysis" hidden></div>
</main>
<script id="game-data" type="application/json">%DATA%</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("game-data").textContent);
const STEPS = DATA.steps, G = DATA.game, N = G.players;
const SYM = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
const NAME = {C: "clubs", D: "diamonds", H: "hearts", S: "spades"};
const RANK_ORDER = "A23456789TJQK";
const AN = DATA.analysis || null, MOVES = {};
if (AN) for (const m of AN.moves) MOVES[m.line] = m;
let at = 0, timer = null;
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
function card(c, extra) {
  const e = el("div", "card " + ("DH".includes(c[1]) ? "red" : "black") + (extra ? " " + extra : ""));
  e.dataset.card = c; e.title = c;
  e.appendChild(el("span", "r", c[0] === "T" ? "10" : c[0])); e.appendChild(el("span", "s", SYM[c[1]]));
  return e;
}
function sorted(cards) { return cards.slice().sort((a, b) => RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]) || a[1].localeCompare(b[1])); }
function show(i) {
  at = Math.max(0, Math.min(STEPS.length - 1, i));
  const s = STEPS[at];
  document.getElementById("scrub").value = at;
  // numbered as the log's lines (event 1 is the `game` header, not a step): as `crates trace` counts
  document.getElementById("pos").textContent = `event ${s.i + 1} / ${DATA.events} \u00b7 hand ${s.hand}`
    + (DATA.finished || at < STEPS.length - 1 ? "" : " \u00b7 the game stopped here (unfinished)");
  document.getElementById("caption").textContent = s.caption;
  const t = document.getElementById("table"); t.replaceChildren();
  const centre = el("div", "centre");
  const topBox = el("div"); topBox.appendChild(el("div", "", "top card"));
  if (s.top) topBox.appendChild(card(s.top)); centre.appendChild(topBox);
  if (s.suit) { const sb = el("div"); sb.appendChild(el("div", "", "suit")); const sy = el("span", "suitbig" + ("DH".includes(s.suit) ? " red" : ""), SYM[s.suit]); sy.title = NAME[s.suit]; sb.appendChild(sy); centre.appendChild(sb); }
  centre.appendChild(el("div", "", `stock: ${s.stock} cards`));
  centre.appendChild(el("div", "", "totals: " + s.totals.join(" \u00b7 ")));
  t.appendChild(centre);
  const chosen = new Set(); s.decisions.forEach(d => chosen.add(d.chosen));
  for (let q = 0; q < N; q++) {
    const box = el("div", "seat" + (s.seat === q ? " mover" : "")); box.id = "seat-" + q;
    const h = el("h3", "", `seat ${q} \u00b7 ${(G.strategies || [])[q] || ""}`);
    h.appendChild(el("span", "tot", `total ${s.totals[q]}`)); box.appendChild(h);
    const cs = el("div", "cards");
    for (const c of sorted(s.hands[q] || [])) cs.appendChild(card(c, s.seat === q && chosen.has(c) ? "chosen" : ""));
    if (!(s.hands[q] || []).length && s.hand) cs.appendChild(el("span", "muted", "no cards"));
    box.appendChild(cs); t.appendChild(box);
  }
  const d = document.getElementById("decisions"); d.replaceChildren();
  if (!s.decisions.length) d.appendChild(el("span", "muted", DATA.decisions_found ? "no decision before this event" : "(the options could not be found for this log)"));
  for (const x of s.decisions) {
    const row = el("div", "decision"); row.appendChild(el("b", "", `seat ${x.seat}: ${x.phase} \u2014 `));
    const a = MOVES[s.i + 1];
    const judged = a && a.seat === x.seat && ["play", "answer the count", "play again after a 6"].includes(x.phase);
    for (const o of x.options) {
      const sp = el("span", "opt" + (o === x.chosen ? " chosen" : "") + (judged && o === a.best ? " best" : ""), o);
      const v = judged ? a.options.find(p => p.option === o) : null;
      if (v) { sp.appendChild(el("span", "v", `${v.value >= 0 ? "+" : ""}${v.value.toFixed(1)} \u00b1${v.se.toFixed(1)}` + (v.win !== undefined ? ` \u00b7 ${v.win.toFixed(0)}%` : "")));
        sp.title = "expected points to the end of the hand, for the mover" + (v.near_best ? " (best within noise)" : ""); }
      row.appendChild(sp);
    }
    d.appendChild(row);
    if (judged) d.appendChild(el("div", "verdict" + (a.label ? " lab-" + a.label : ""), a.loss > 0
      ? `played ${a.chosen}, best ${a.best}: \u2212${a.loss.toFixed(1)} \u00b1 ${a.loss_se.toFixed(1)} points` + (a.win_loss !== null ? `, win chance \u2212${a.win_loss.toFixed(1)}%` : "") + (a.label ? ` \u2014 ${a.label}` : a.near_best ? " (within noise)" : "")
      : `played ${a.chosen}: the best`));
  }
  document.querySelectorAll("#losschart rect").forEach(r => r.classList.toggle("now", +r.dataset.line === s.i + 1));
  const sc = document.getElementById("scoring"); sc.replaceChildren();
  if (s.scoring) {
    const tab = el("table"); const hr = el("tr");
    for (const hd of ["seat", "points", "cards left", "how it scores (3-covering)", "total"]) hr.appendChild(el("th", "", hd));
    tab.appendChild(hr);
    for (const r of s.scoring) { const tr = el("tr"); tr.appendChild(el("td", "", r.seat)); tr.appendChild(el("td", "", (r.points > 0 ? "+" : "") + r.points));
      const cc = el("td"), row = el("div", "cards"); for (const c of sorted(r.cards)) row.appendChild(card(c, "small")); cc.appendChild(row); tr.appendChild(cc);
      tr.appendChild(el("td", "", r.how)); tr.appendChild(el("td", "", s.totals[r.seat])); tab.appendChild(tr); }
    sc.appendChild(el("h3", "", `Hand ${s.hand} scored`)); sc.appendChild(tab);
  } else if (s.ev.ev === "game_end") {
    sc.appendChild(el("h3", "", "Final totals: " + s.totals.map((v, q) => `seat ${q} ${v}`).join(", ") + " \u00b7 winners: " + s.ev.winners.map(w => "seat " + w).join(", ")));
  }
  document.body.dataset.step = at;
}
function hand(dir) { const h = STEPS[at].hand; let i = at;
  if (dir > 0) { while (i < STEPS.length - 1 && STEPS[i].hand <= h) i++; }
  else { while (i > 0 && STEPS[i].hand >= h) i--; while (i > 0 && STEPS[i - 1].hand === STEPS[i].hand) i--; }
  show(i); }
function toggle() {
  const b = document.getElementById("play");
  if (timer) { clearInterval(timer); timer = null; b.textContent = "play"; }
  else { timer = setInterval(() => { if (at >= STEPS.length - 1) toggle(); else show(at + 1); }, 400); b.textContent = "pause"; }
}
document.getElementById("scrub").max = STEPS.length - 1;
document.getElementById("scrub").addEventListener("input", e => show(+e.target.value));
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(at - 1);
document.getElementById("next").onclick = () => show(at + 1);
document.getElementById("last").onclick = () => show(STEPS.length - 1);
document.getElementById("play").onclick = toggle;
document.addEventListener("keydown", e => {
  const k = e.key;
  if (e.target.id === "scrub" && ["ArrowRight", "ArrowLeft", "Home", "End"].includes(k)) return;  // the slider moves itself
  if (k === "ArrowRight") show(at + 1); else if (k === "ArrowLeft") show(at - 1);
  else if (k === "Home") show(0); else if (k === "End") show(STEPS.length - 1);
  else if (k === "PageDown") hand(1); else if (k === "PageUp") hand(-1);
  else if (k === " ") toggle(); else return;
  e.preventDefault();
});
document.getElementById("sub").textContent = DATA.describe + " \u00b7 " + (G.strategies || []).map((s, q) => `seat ${q}: ${s}`).join(", ");
function lossChart() {
  if (!AN) return;
  const box = document.getElementById("analysis"); box.hidden = false;
  const m = AN.method;
  box.appendChild(el("h3", "", "Analysis: each card decision judged by " + m.strategy + "'s search"));
  box.appendChild(el("div", "muted", `${m.samples} deals per option in ${m.streams} streams, from the mover's information; loss in ${m.units}; labels beyond noise: ` + Object.entries(m.thresholds).map(([k, v]) => `${k} \u2265 ${v}`).join(", ") + ". Click a bar to go to the move."));
  const tab = el("table"), hr = el("tr");
  for (const h of ["seat", "decisions", "expected loss", "a decision", "accuracy", "inaccuracies", "mistakes", "blunders"]) hr.appendChild(el("th", "", h));
  tab.appendChild(hr);
  for (const [q, x] of Object.entries(AN.seats)) { const tr = el("tr");
    for (const v of [`${q} ${x.strategy || ""}`, x.decisions, x.total_loss, x.mean_loss, x.accuracy === null ? "" : x.accuracy + "%", x.labels.inaccuracy, x.labels.mistake, x.labels.blunder]) tr.appendChild(el("td", "", v === null ? "" : String(v)));
    tab.appendChild(tr); }
  box.appendChild(tab);
  const chart = el("div"); chart.id = "losschart";
  chart.innerHTML = AN.chart;  // drawn by replay_html.loss_chart
  chart.addEventListener("click", e => { const r = e.target.closest("rect"); if (r) show(+r.dataset.line - 2); });
  box.appendChild(chart);
}
lossChart();
function fromHash() { const m = /^#(\d+)$/.exec(location.hash); show(m ? +m[1] - 2 : at); }
window.addEventListener("hashchange", fromHash);
show(0); fromHash();
</script></body></html>
"""

__all__ = ["page_data", "render", "write_page", "decisions"]
