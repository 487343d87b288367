"""`crates train --player adept`: rebuild adept's networks from a search player's values.

Contract: `train_adept(tables, out, teacher, rounds, games, ...)` runs rounds 1..rounds into
the folder `out`, one subfolder per round:
- round-K/data/block-NNNNN.npz, one file per block of BLOCK_GAMES games, written as each
  block comes back (an interrupted run loses only the blocks in flight, and rerunning the
  same command plays only the missing ones);
- round-K/adept.json, the networks fitted on every round's data so far, with the fit's
  held-out figures; a round whose weights exist is not fitted again.
out/adept.json is the last round's networks (the file the package ships:
strategies/adept.json). A larger --rounds continues a run.

A round:
1. **Positions and the teacher's values.** `games` games, alternating between the tables
   (from round `focus_from` on, the tables then the `focus` tables: a curriculum, the
   same for the same arguments)
   (`--both`: classic partnerships and individual play; Crazy Eights with its own preset),
   every seat played from outside (`step.Table`). At each card decision with two or more
   options, with probability `sample`, the teacher (pimc or expert) gives its mean value of
   every option from the mover's information only (`expert_explain`, on a fresh stream),
   the decision's context row and option rows (`adept.fill_rows`, exactly what the kernel
   sees) are recorded, and the mover plays the teacher's best option. Elsewhere it plays
   the current player: round 1 the apprentice (or the `start` networks), later rounds
   adept with the previous round's networks (expert iteration: positions the student
   reaches, labels the teacher's). With `opponents` (`--opponents SPEC`) one side of
   each game (`opponents_seats`, alternating with the game) plays SPEC there instead, so
   the positions are those the student reaches against it; every seat's decisions are
   still sampled for the teacher.
2. **Fit** (`fit_net`): per table kind, the network's scores regress on the teacher's
   values centred per decision (each option's advantage over the decision's mean, in
   points: the teacher's margins, not only its argmax), by Adam in plain numpy, warm
   started from the previous round (round 1: from `start`'s network of the kind, if
   given; the kinds no table plays keep `start`'s). A tenth of the games are held out
   (`held_out`): their regret (the teacher's value of its best option minus that of the
   network's choice, points per decision) and agreement with the teacher are reported. A
   `robust` run (the default across tables) floors each value at VALUE_FLOOR points below
   its decision's best before both, and holds out hashed game numbers (every table's,
   whatever their count).

Everything is seeded: the games' seeds derive from --seed and the round, the fit's
shuffles from --seed, so a run's weights are reproducible. The blocks run on the usual
backends (worker processes, or Dask with `scheduler`).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import CratesError

#: the fit's first step size (Adam), unless a run names another (`--lr`)
LEARNING_RATE = 3e-3
#: the widest network `--hidden` may ask for: adept.HIDDEN (not imported here, so that the
#: CLI loads without the strategies; tests/test_adept.py checks that they agree)
MAX_HIDDEN = 128
#: games per block (one task, one data file)
BLOCK_GAMES = 8
HOLDOUT = 10
#: the phases of a card decision (cards.PH_PLAY, PH_COUNT, PH_AGAIN)
CARD_PHASES = (0, 1, 2)


#: `robust` runs (the default of `--tables every`): a value more than this many points
#: below the decision's best counts as this far below it. Pressures double, so on some
#: tables (draw_when_able, few ranks) a rare option costs millions of points; unfloored,
#: those few decisions would decide a least-squares fit (and a mean regret) for every
#: table. The floor keeps every option's order and its margin up to VALUE_FLOOR.
VALUE_FLOOR = 250.0


def held_out(game, mixed=False):
    """The games held out of the fit: a tenth, those whose number is 0 mod HOLDOUT
    (mixed: whose hashed number is; games cycle through the tables, so with a table count
    that shares a factor with HOLDOUT the plain rule holds out only some tables)."""
    game = np.asarray(game, dtype=np.int64)
    if mixed:
        game = ((game * 2654435761) % (1 << 32)) >> 8
    return (game % HOLDOUT) == 0


def floor_values(value, group, n, floor=VALUE_FLOOR):
    """Each value raised to at least its decision's best minus `floor` (see VALUE_FLOOR)."""
    value = np.asarray(value, dtype=np.float64)
    best = np.full(n, -np.inf)
    np.maximum.at(best, group, value)
    return np.maximum(value, best[group] - floor)


@dataclass(frozen=True)
class Block:
    tables: tuple  # the Rules games alternate between
    teacher: str
    weights: str | None  # adept's networks for the mover (a file), None: the apprentice
    seed: int
    start: int  # the block's first game
    games: int
    sample: float
    #: a player for one side of each game (`opponents_seats`), between the teacher's
    #: decisions; None: the mover plays every seat (self-play)
    opponents: str | None = None


def opponents_seats(players: int, game: int) -> list[int]:
    """The seats `--opponents` plays in game `game`: every other seat, starting at seat 1
    in even games and seat 0 in odd ones, so that the side alternates (in partnerships,
    team 1+3, then team 0+2)."""
    return [s for s in range(players) if (s + game) % 2 == 1]


def _mover(weights):
    """(id, params, address) of the player that moves between the teacher's decisions."""
    # adept without its draw bonus (draw=0): the positions a round reaches are those its
    # networks reach, as they were before the bonus, so a rebuild plays the same games
    return _player("apprentice" if weights is None else "adept:draw=0")


def _player(spec):
    """(id, params, address) of one seat played by `spec`, as `nb.ask_strategy` takes them."""
    from ..strategy import addresses, resolve

    (sid,), (row,) = resolve([spec])  # the one seat's id and parameters
    return int(sid), row, int(addresses([spec])[0])


def play_block(block: Block) -> dict:
    """Play a block of games and record the teacher's values at sampled decisions:
    {'ctx': (D, N_CONTEXT), 'rows': (R, N_OPTION), 'decision': (R,) decision of each row,
    'value': (R,) the teacher's value of the row's option, 'game': (D,), 'kind': (D,)
    table kind (adept.TABLES), 'start': the block's first game}. The mover plays the
    block's networks on every table (no routes); the process's own are back after."""
    from contextlib import nullcontext

    from ..strategies.adept import networks, read_weights

    with nullcontext() if block.weights is None else networks(read_weights(block.weights)):
        return _play_block(block)


def _play_block(block: Block) -> dict:
    from ..engine import engine_nb as nb
    from ..play.step import Table
    from ..strategies.adept import N_CONTEXT, N_OPTION, fill_rows, table_kind
    from ..strategy import resolve

    mover_id, mover_params, mover_addr = _mover(block.weights)
    if block.opponents is not None:
        opp_id, opp_params, opp_addr = _player(block.opponents)
    _t_ids, (t_row,) = resolve([block.teacher])
    name = block.teacher.split(":")[0]
    if name == "pimc":
        from ..strategies.pimc import pimc_explain as explain
    else:
        from ..strategies.expert import expert_explain as explain
    ctx, rows, dec, val, games, kinds = [], [], [], [], [], []
    for g in range(block.start, block.start + block.games):
        rules = block.tables[g % len(block.tables)]
        kind = table_kind(rules)
        rng = np.random.default_rng([block.seed, g, 11])
        table = Table(rules, [None] * rules.players, block.seed, g)
        theirs = set() if block.opponents is None else set(opponents_seats(rules.players, g))
        while not table.over:
            phase = table.pending_phase
            d = table.pending
            m = len(d.options)
            if phase in CARD_PHASES and m >= 2 and rng.random() < block.sample:
                G = table._G.copy()
                at = nb.stream(1 + d.seat)
                G[at:at + 4] = rng.integers(0, 2**62, 4)
                means = np.zeros(m)
                explain(G, t_row, means)
                out = np.zeros(N_CONTEXT + m * N_OPTION)
                fill_rows(d.obs, d.hand, d.pile, np.asarray(d.options, dtype=np.int64), out)
                ctx.append(out[:N_CONTEXT].copy())
                rows.append(out[N_CONTEXT:].reshape(m, N_OPTION))
                dec.extend([len(games)] * m)
                val.extend(means.tolist())
                games.append(g)
                kinds.append(kind)
                table.answer(d.options[int(np.argmax(means))])
                continue
            if d.seat in theirs:
                choice = int(nb.ask_strategy(table._G.copy(), opp_id, opp_params, opp_addr))
            else:
                choice = int(nb.ask_strategy(table._G.copy(), mover_id, mover_params,
                                             mover_addr))
            table.answer(d.options[choice])
    F = N_OPTION
    return {"ctx": np.asarray(ctx, dtype=np.float32).reshape(-1, N_CONTEXT),
            "rows": (np.concatenate(rows) if rows else np.zeros((0, F))).astype(np.float32),
            "decision": np.asarray(dec, dtype=np.int32), "value": np.asarray(val, np.float32),
            "game": np.asarray(games, dtype=np.int32), "kind": np.asarray(kinds, np.int8),
            "start": block.start}


# ------------------------------------------------------------------ the data
class Data:
    """The decisions of some block files, concatenated: ctx (D, C), rows (R, F), group
    (R,) the decision of each row (0..D-1), value (R,), game (D,), kind (D,)."""

    def __init__(self, paths):
        ctx, rows, group, value, game, kind = [], [], [], [], [], []
        n = 0
        for p in paths:
            try:
                with np.load(p, allow_pickle=False) as z:  # data only: an object array is refused
                    parts = {k: z[k] for k in ("ctx", "rows", "decision", "value", "game", "kind")}
            except (OSError, ValueError, KeyError) as exc:
                raise CratesError(f"{p}: damaged ({exc}); delete it and rerun to play "
                                  f"that block again") from None
            ctx.append(parts["ctx"])
            rows.append(parts["rows"])
            group.append(parts["decision"].astype(np.int64) + n)
            value.append(parts["value"])
            game.append(parts["game"])
            kind.append(parts["kind"])
            n += len(parts["ctx"])
        from ..strategies.adept import N_CONTEXT, N_OPTION

        self.ctx = np.concatenate(ctx) if ctx else np.zeros((0, N_CONTEXT), np.float32)
        self.rows = np.concatenate(rows) if rows else np.zeros((0, N_OPTION), np.float32)
        self.group = np.concatenate(group) if group else np.zeros(0, np.int64)
        self.value = np.concatenate(value) if value else np.zeros(0, np.float32)
        self.game = np.concatenate(game) if game else np.zeros(0, np.int32)
        self.kind = np.concatenate(kind) if kind else np.zeros(0, np.int8)

    def select(self, decisions: np.ndarray) -> Data:
        """The sub-data of these decisions (a boolean mask over decisions)."""
        new = object.__new__(Data)
        keep_rows = decisions[self.group]
        renumber = np.cumsum(decisions) - 1
        new.ctx, new.game, new.kind = self.ctx[decisions], self.game[decisions], self.kind[decisions]
        new.rows, new.value = self.rows[keep_rows], self.value[keep_rows]
        new.group = renumber[self.group[keep_rows]]
        return new

    def __len__(self):
        return len(self.ctx)


# ------------------------------------------------------------------ the network in numpy
def _forward(net, ctx, rows, group):
    """(scores, hidden pre-activations) of every row."""
    pre = rows @ net["w_opt"] + (ctx @ net["w_ctx"] + net["b1"])[group]
    return np.maximum(pre, 0.0) @ net["w2"] + net["b2"][0], pre


#: rows scored at once by `scores` (its memory: about 1 KB a row in float64)
SCORE_CHUNK = 1 << 18


def scores(net, data: Data) -> np.ndarray:
    """The network's score of every row of `data` (as the kernel computes it), SCORE_CHUNK
    rows at a time: a fit's report scores every decision of every round so far, and the
    hidden units of millions of rows at once would not fit in memory."""
    hctx = data.ctx.astype(np.float64) @ net["w_ctx"] + net["b1"]  # once per decision
    out = np.empty(len(data.rows))
    for r0 in range(0, len(out), SCORE_CHUNK):
        r1 = min(r0 + SCORE_CHUNK, len(out))
        pre = data.rows[r0:r1].astype(np.float64) @ net["w_opt"] + hctx[data.group[r0:r1]]
        out[r0:r1] = np.maximum(pre, 0.0) @ net["w2"] + net["b2"][0]
    return out


def _group_mean(x, group, n):
    return np.bincount(group, x, minlength=n) / np.maximum(np.bincount(group, minlength=n), 1)


def choice_report(s, data: Data) -> dict:
    """Regret (points per decision: the teacher's best value minus its value of the
    choice, the first best score) and agreement with the teacher's best option."""
    n = len(data)
    if n == 0:
        return {"decisions": 0}
    order = np.lexsort((np.arange(len(s)), -s, data.group))
    first = order[np.r_[True, data.group[order][1:] != data.group[order][:-1]]]
    v = data.value.astype(np.float64)
    best = np.full(n, -np.inf)
    np.maximum.at(best, data.group, v)
    regret = best - v[first]
    return {"decisions": int(n), "regret": float(regret.mean()),
            "agreement": float((regret <= 1e-9).mean())}


#: what a fit holds in memory for each byte of the rounds' recorded games on disk (the
#: decisions, their selections and the fit's copies; measured: 7.0 GB of four rounds'
#: blocks reached 24 GB before the fit ended)
FIT_MEMORY_PER_BYTE = 3.5


def available_memory() -> int | None:
    """Bytes of memory this machine can still give (Linux's MemAvailable), or None where
    it does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def check_fit_memory(paths, r: int, out) -> None:
    """Refuse, in one line, a fit of every round's games so far (round r's) that would not
    fit in memory, before it starts, rather than have the system end the process:
    the rounds before r are kept, and a new run can start from the last one's networks."""
    need = FIT_MEMORY_PER_BYTE * sum(Path(p).stat().st_size for p in paths)
    have = available_memory()
    if have is None or need <= have:
        return
    held = (f"round {r}'s fit would hold about {need / 2**30:.1f} GiB of decisions (every "
            f"round's games so far) and this machine has {have / 2**30:.1f} GiB free")
    if r == 1:
        raise CratesError(f"{held}: run the same command again with more memory free (its "
                          f"games are kept: it goes on at this fit), or give fewer --games")
    kept = "round 1 is kept" if r == 2 else f"rounds 1-{r - 1} are kept"
    raise CratesError(f"{held}: {kept}; run the same command again with more memory free "
                      f"(it goes on at this fit), or go on with a new run that starts from "
                      f"their networks (--start {Path(out) / f'round-{r - 1}' / 'adept.json'} "
                      f"--out NEW)")


def check_widening(width: int, hidden: int) -> None:
    """A one-line error where --hidden would narrow a --start network of `width` units."""
    if hidden < width:
        raise CratesError(f"--hidden {hidden}: the --start network has {width} hidden units, "
                          f"and a network cannot be narrowed")


def widen_net(net: dict, hidden: int, seed=0) -> dict:
    """`net` with `hidden` units: its own units first, unchanged, then new ones whose input
    weights are drawn as a fresh network's and whose output weight is 0, so the wider
    network scores every option exactly as `net` does and the fit starts from its play
    (`crates train --start FILE --hidden H`). A network cannot be narrowed."""
    from ..strategies import adept

    width = adept.net_width(net)
    check_widening(width, hidden)
    extra = hidden - width
    rng = np.random.default_rng([seed, hidden])  # apart from the fit's own draws
    out = {k: np.asarray(v, dtype=np.float64) for k, v in net.items()}
    return {"w_opt": np.hstack([out["w_opt"], rng.normal(0, 1 / np.sqrt(adept.N_OPTION),
                                                         (adept.N_OPTION, extra))]),
            "w_ctx": np.hstack([out["w_ctx"], rng.normal(0, 1 / np.sqrt(adept.N_CONTEXT),
                                                         (adept.N_CONTEXT, extra))]),
            "b1": np.r_[out["b1"], np.full(extra, 0.1)], "w2": np.r_[out["w2"], np.zeros(extra)],
            "b2": out["b2"].copy()}


def fit_net(data: Data, net=None, epochs=12, batch=2048, lr=LEARNING_RATE, l2=1e-5, seed=0,
            hidden=None, echo=None, lr_end=None) -> dict:
    """Fit a network's scores to the teacher's values centred per decision (least squares
    on each option's advantage), by Adam over shuffled batches of decisions; returns
    the net dict (`adept` layout). net: the start (default: small random weights);
    hidden: the width of a fresh network, or a start's widened to it (`widen_net`)."""
    from ..strategies import adept

    H = hidden or adept.FIT_WIDTH
    rng = np.random.default_rng(seed)
    if net is None:
        net = {"w_opt": rng.normal(0, 1 / np.sqrt(adept.N_OPTION), (adept.N_OPTION, H)),
               "w_ctx": rng.normal(0, 1 / np.sqrt(adept.N_CONTEXT), (adept.N_CONTEXT, H)),
               "b1": np.full(H, 0.1), "w2": rng.normal(0, 1 / np.sqrt(H), H), "b2": np.zeros(1)}
    elif hidden is not None and hidden != adept.net_width(net):
        net = widen_net(net, hidden, seed)
    net = {k: np.asarray(v, dtype=np.float64).copy() for k, v in net.items()}
    H = adept.net_width(net)
    n = len(data)
    if n == 0:
        return net
    # the rows of each decision, contiguous: decision d's rows are start[d]:start[d + 1]
    counts = np.bincount(data.group, minlength=n)
    start = np.r_[0, np.cumsum(counts)]
    value = data.value.astype(np.float64)
    adv = value - _group_mean(value, data.group, n)[data.group]
    m_state = {k: np.zeros_like(v) for k, v in net.items()}
    v_state = {k: np.zeros_like(v) for k, v in net.items()}
    step = 0
    steps = epochs * ((n + batch - 1) // batch)
    for epoch in range(epochs):
        perm = rng.permutation(n)
        total = 0.0
        for b0 in range(0, n, batch):
            ds = perm[b0:b0 + batch]
            c = counts[ds]
            g_local = np.repeat(np.arange(len(ds)), c)
            first = np.cumsum(c) - c  # where each decision's rows begin in the batch
            idx = start[ds][g_local] + np.arange(len(g_local)) - first[g_local]
            ctx = data.ctx[ds].astype(np.float64)
            rows = data.rows[idx].astype(np.float64)
            s, pre = _forward(net, ctx, rows, g_local)
            hid = np.maximum(pre, 0.0)
            err = s - _group_mean(s, g_local, len(ds))[g_local] - adv[idx]
            total += float((err ** 2).sum())
            # d loss / d s, loss = sum err^2 / decisions, through the centring (minus the
            # decision's mean: err's decision means are 0 already, so this step changes
            # only rounding; kept, as the shipped networks were fitted with it)
            ds_ = 2.0 * err / len(ds)
            ds_ = ds_ - _group_mean(ds_, g_local, len(ds))[g_local]
            dhid = np.outer(ds_, net["w2"]) * (pre > 0)
            grads = {"w2": hid.T @ ds_, "b2": np.zeros(1), "w_opt": rows.T @ dhid,
                     "b1": dhid.sum(axis=0)}
            per_dec = np.zeros((len(ds), H))
            np.add.at(per_dec, g_local, dhid)
            grads["w_ctx"] = ctx.T @ per_dec
            step += 1
            rate = lr
            if lr_end is not None:  # cosine from lr down to lr_end over the fit
                rate = lr_end + 0.5 * (lr - lr_end) * (1 + np.cos(np.pi * (step - 1) / steps))
            for k in net:
                g = grads[k] + (l2 * net[k] if k.startswith("w") else 0.0)
                m_state[k] = 0.9 * m_state[k] + 0.1 * g
                v_state[k] = 0.999 * v_state[k] + 0.001 * g * g
                mh = m_state[k] / (1 - 0.9 ** step)
                vh = v_state[k] / (1 - 0.999 ** step)
                net[k] -= rate * mh / (np.sqrt(vh) + 1e-8)
        if echo:
            echo(f"  epoch {epoch + 1}/{epochs}: loss {total / n:.2f}")
    return net


# ------------------------------------------------------------------ the rounds
def _settings(tables, teacher, games, sample, seed, epochs, lr_end=None, hidden=None,
              robust=False, focus=(), focus_from=None, start=None, lr=None, refit=(),
              opponents=None):
    settings = {"rules": [t.to_dict() for t in tables], "players": [t.players for t in tables],
                "partnerships": [bool(t.partnerships) for t in tables], "teacher": teacher,
                "games": games, "sample": sample, "seed": seed, "epochs": epochs}
    # named only when given, so earlier runs' folders still resume
    if lr_end is not None:
        settings["lr_end"] = lr_end
    if hidden is not None:
        settings["hidden"] = hidden
        settings["presets"] = [t.preset_name for t in tables]
    if robust:
        settings["robust"] = True
    if focus:
        settings["focus"] = [t.to_dict() for t in focus]
        settings["focus_players"] = [t.players for t in focus]
        settings["focus_from"] = focus_from
    if start is not None:  # the networks' content, not the path: a changed file is a new run
        settings["start"] = hashlib.sha256(Path(start).read_bytes()).hexdigest()
    if lr is not None:
        settings["lr"] = lr
    if refit:
        settings["refit"] = sorted(refit)
    if opponents is not None:
        settings["opponents"] = opponents
    return settings


def train_members(tables, out, members, seed=0, overwrite=False, echo=print, command="",
                  **kw) -> dict:
    """`--members K`: K expert-iteration runs, member M into out/member-M with seed
    seed + M (exactly the run `--seed seed+M` makes), then out/adept.json the networks
    that score the mean of the members' last networks (`adept.ensemble`, one network per
    table kind of K times the units). kw: train_adept's. Returns train_adept's dict with
    'members': each member's."""
    from ..strategies import adept
    from .train import open_run

    if members < 1:
        raise CratesError(f"--members must be at least 1, not {members}")
    if members == 1:
        return train_adept(tables, out, seed=seed, overwrite=overwrite, echo=echo,
                           command=command, **kw)
    from ..strategies.adept import FIT_WIDTH, HIDDEN
    width = kw.get("hidden") or FIT_WIDTH
    if members * width > HIDDEN:
        raise CratesError(f"--members {members}: adept plays networks of at most {HIDDEN} "
                          f"hidden units, {HIDDEN // width} members of {width}")
    out = Path(out)
    settings = {"members": members, **_settings(tables, kw.get("teacher", "expert"),
                                                 kw.get("games", 2000), kw.get("sample", 0.5),
                                                 seed, kw.get("epochs", 12), kw.get("lr_end"),
                                                 kw.get("hidden"), kw.get("robust", False),
                                                 kw.get("focus", ()), kw.get("focus_from"),
                                                 kw.get("start"), kw.get("lr"),
                                                 kw.get("refit", ()), kw.get("opponents"))}
    open_run(out, settings, overwrite, command, parts="member-*/**/*")
    t0 = time.perf_counter()
    runs = []
    for m in range(members):
        echo(f"member {m + 1}/{members} (seed {seed + m}):")
        runs.append(train_adept(tables, out / f"member-{m}", seed=seed + m, overwrite=overwrite,
                                echo=echo, command=command, **kw))
    names = [name for name in adept.TABLES if all(name in r["nets"] for r in runs)]
    nets = {name: adept.ensemble(*[r["nets"][name] for r in runs]) for name in names}
    adept.write_weights(out / "adept.json", nets, {
        "teacher": kw.get("teacher"), "rounds": kw.get("rounds"), "members": members,
        "command": command, "fit": {f"member-{m}": r["rounds"][-1] for m, r in enumerate(runs)}})
    return {"nets": nets, "rounds": runs[-1]["rounds"], "members": runs,
            "wall": time.perf_counter() - t0}


def train_adept(tables, out, teacher="expert", rounds=2, games=2000, sample=0.5, seed=0,
                epochs=12, workers=None, scheduler=None, overwrite=False, echo=print,
                progress=False, command="", lr_end=None, hidden=None, robust=False, focus=(),
                focus_from=None, start=None, lr=None, refit=(), opponents=None) -> dict:
    """Expert iteration into `out` (see the module doc). tables: the Rules games alternate
    between; focus: more Rules they alternate with from round focus_from on; start: a
    weights file to continue from (round 1's mover, and each fit's start; the table kinds
    the tables do not play are kept as they are in it); lr: the fit's first step size
    (default LEARNING_RATE); refit: the table kinds (adept.TABLES) to fit, the others kept
    as `start` has them (default: every kind the games reach); opponents: a strategy spec
    that plays one side of each game (`opponents_seats`) between the teacher's decisions,
    so that the positions are those of games against it (default: self-play). Each kind's
    fit is seeded on its own, so a kind comes out the same whether or not the others are
    fitted.
    Returns {'nets', 'rounds': [per-round report], 'wall'}."""
    from ..data.progress import Progress
    from ..strategies import adept
    from ..strategy import parse_strategies
    from .runner import available_cpus, make_backend
    from .train import open_run

    tables = list(tables)
    focus = list(focus)
    if focus and (focus_from is None or focus_from < 1):
        raise CratesError("focus tables need the round they join from (focus_from >= 1)")
    (teacher,) = parse_strategies([teacher], 1)
    if teacher.split(":")[0] not in ("pimc", "expert"):
        raise CratesError(f"adept learns a teacher's value of every option: the teacher must "
                          f"be pimc or expert, not {teacher!r}")
    for name, value, low in (("rounds", rounds, 1), ("games", games, 2),
                             ("epochs", epochs, 1)):
        if value < low:
            raise CratesError(f"--{name} must be at least {low}, not {value}")
    if not 0.0 < sample <= 1.0:
        raise CratesError(f"--sample must be in (0, 1], not {sample:g}")
    if scheduler and workers is not None:
        raise CratesError("--workers is for local runs; with --scheduler the cluster's workers "
                          "play the games (local:K starts K of them)")
    unknown = sorted(set(refit) - set(adept.TABLES))
    if unknown:
        raise CratesError(f"--refit: {unknown[0]!r} is not a table kind "
                          f"({', '.join(adept.TABLES)})")
    if refit and start is None:
        raise CratesError("--refit keeps the other kinds as --start has them: give --start")
    if opponents is not None:
        (opponents,) = parse_strategies([opponents], 1)
    workers = workers or available_cpus()
    out = Path(out)
    open_run(out, _settings(tables, teacher, games, sample, seed, epochs, lr_end, hidden,
                            robust, focus, focus_from, start, lr, refit, opponents), overwrite,
             command)
    t0 = time.perf_counter()
    reports = []
    weights_file = None if start is None else Path(start)
    nets = None if start is None else adept.read_weights(start)
    for name, net in (nets or {}).items():  # before any game is played: say it now
        if hidden is not None and (not refit or name in refit):
            check_widening(adept.net_width(net), hidden)
    paths = []
    for r in range(1, rounds + 1):
        folder = out / f"round-{r}"
        data_dir = folder / "data"
        data_dir.mkdir(parents=True, exist_ok=True)
        wfile = folder / "adept.json"
        r_seed = seed * 1000 + r
        starts = list(range(0, games, BLOCK_GAMES))
        todo = [s for s in starts if not (data_dir / f"block-{s:06d}.npz").exists()]
        tr = time.perf_counter()
        played = tables + (focus if focus and r >= focus_from else [])
        if todo and not wfile.exists():
            blocks = [Block(tuple(played), teacher, None if weights_file is None else str(weights_file),
                            r_seed, s, min(BLOCK_GAMES, games - s), sample, opponents)
                      for s in todo]
            done = games - sum(b.games for b in blocks)
            echo(f"round {r}: playing {games - done:,} games on {len(played)} "
                 f"table{'s' if len(played) > 1 else ''} "
                 f"({done:,} played before)")
            bar = Progress(games, done=done, enabled=progress)
            step = max(games // 10, 1)  # without the bar (a log), a line every tenth
            with make_backend(scheduler, None if scheduler else workers) as backend:
                for blk, part in backend.run(play_block, blocks):
                    tmp = data_dir / f"block-{blk.start:06d}.tmp.npz"
                    np.savez(tmp, **{k: v for k, v in part.items() if k != "start"})
                    tmp.replace(data_dir / f"block-{blk.start:06d}.npz")
                    bar.update(blk.games)
                    if not progress and (done + blk.games) // step > done // step:
                        echo(f"round {r}: {done + blk.games:,}/{games:,} games, "
                             f"{time.perf_counter() - tr:.0f} s")
                    done += blk.games
            bar.close()
        t_gen = time.perf_counter() - tr
        paths += [data_dir / f"block-{s:06d}.npz" for s in starts]
        if wfile.exists():
            info = json.loads(wfile.read_text())
            nets = adept.read_weights(wfile)
            weights_file = wfile
            reports.append(info.get("fit", {}))
            echo(f"round {r}: done before")
            continue
        check_fit_memory(paths, r, out)
        data = Data(paths)
        if robust:
            data.value = floor_values(data.value, data.group, len(data)).astype(np.float32)
        held = held_out(data.game, mixed=robust)
        tf = time.perf_counter()
        new = {}
        fit = {}
        for t, name in enumerate(adept.TABLES):
            mine = data.kind == t
            if not mine.any() or (refit and name not in refit):
                continue
            train_part, test_part = data.select(mine & ~held), data.select(mine & held)
            # a fit of millions of decisions takes minutes and prints nothing until it ends
            echo(f"round {r} {name}: fitting to {len(train_part):,} decisions "
                 f"({len(data):,} recorded in {r} round{'s' if r > 1 else ''})")
            start_net = None if nets is None else nets.get(name)
            new[name] = fit_net(train_part, start_net, epochs=epochs, seed=seed * 100 + r,
                                lr=LEARNING_RATE if lr is None else lr, lr_end=lr_end,
                                hidden=hidden)
            fit[name] = {"train": choice_report(scores(new[name], train_part), train_part),
                         "held_out": choice_report(scores(new[name], test_part), test_part)}
            if start_net is not None:
                fit[name]["previous_held_out"] = choice_report(scores(start_net, test_part),
                                                               test_part)
            h = fit[name]["held_out"]
            if not h["decisions"]:
                echo(f"round {r} {name}: no held-out decisions (give more --games)")
                continue
            echo(f"round {r} {name}: {h['decisions']:,} held-out decisions, regret "
                 f"{h['regret']:.2f} points a decision, agreement with the teacher "
                 f"{h['agreement']:.1%}")
        nets = {**(nets or {}), **new}
        info = {"teacher": teacher, "round": r, "fit": fit, "generate_seconds": round(t_gen, 1),
                "fit_seconds": round(time.perf_counter() - tf, 1), "command": command}
        adept.write_weights(wfile, nets, info)
        weights_file = wfile
        reports.append(fit)
        # let this round's decisions go before the next round loads every round's: held
        # until then, the second round of a 9,600-game partnership run was killed at 24 GB
        # on a 24 GB machine (resumed alone, its fit peaked at 16 GB)
        data = train_part = test_part = None
    adept.write_weights(out / "adept.json", nets, {"teacher": teacher, "rounds": rounds,
                                                   "command": command,
                                                   "fit": reports[-1] if reports else {}})
    return {"nets": nets, "rounds": reports, "wall": time.perf_counter() - t0}
