"""adept: the kernel scores exactly what training's numpy forward pass scores, the networks
reach the kernel as data (a table kind without one plays greedy), `three` moves its 3s,
the shipped networks load and play legally on every preset, and `crates train --player
adept` learns (a short run beats its starting point on held-out decisions), resumes, and
reproduces its networks."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from crates_sim import Rules
from crates_sim.cli.main import cli
from crates_sim.engine.api import run_games
from crates_sim.errors import CratesError
from crates_sim.rules import PRESETS
from crates_sim.runs.train_adept import (
    Block,
    Data,
    choice_report,
    fit_net,
    opponents_seats,
    play_block,
    scores,
)
from crates_sim.strategies import adept as A


def _random_net(seed):
    rng = np.random.default_rng(seed)
    return {"w_opt": rng.normal(0, 0.5, (A.N_OPTION, 32)),
            "w_ctx": rng.normal(0, 0.5, (A.N_CONTEXT, 32)),
            "b1": rng.normal(0, 0.2, 32), "w2": rng.normal(0, 1, 32),
            "b2": np.zeros(1)}


@pytest.fixture(scope="module")
def block(tmp_path_factory):
    """A few games of classic partnerships labelled by a cheap pimc teacher, saved."""
    rules = Rules.preset("classic", 4)
    part = play_block(Block((rules,), "pimc:samples=6:depth=6", None, 3, 0, 30, 0.6))
    path = tmp_path_factory.mktemp("adept") / "block.npz"
    np.savez(path, **{k: v for k, v in part.items() if k != "start"})
    return path


def _forward(net, rows, ctx):
    """The numpy forward pass of `net` over a decision's option rows and context row."""
    pre = rows @ net["w_opt"] + ctx @ net["w_ctx"] + net["b1"]
    return np.maximum(pre, 0) @ net["w2"] + net["b2"][0]


def _card_decisions(rules, seed, limit):
    """Up to `limit` live card decisions with two or more options of game 0 of `seed`
    (every seat plays its first option): (decision, options, context row, option rows)."""
    from crates_sim.play.step import Table

    table = Table(rules, [None] * rules.players, seed, 0)
    found = 0
    while not table.over and found < limit:
        d = table.pending
        options = np.asarray(d.options, dtype=np.int64)
        if table.pending_phase in (0, 1, 2) and len(options) >= 2:
            out = np.zeros(A.N_CONTEXT + len(options) * A.N_OPTION)
            A.fill_rows(d.obs, d.hand, d.pile, options, out)
            yield (d, options, out[:A.N_CONTEXT][None, :],
                   out[A.N_CONTEXT:].reshape(len(options), A.N_OPTION))
            found += 1
        table.answer(d.options[0])


#: a Crates partnerships table whose route (ROUTES) is set 0's own, so that the shipped
#: adept plays set 0's "crates-partnerships" network there: the one these tests set
UNROUTED_PARTNERS = Rules.preset("serbian", 4)


def test_kernel_and_numpy_agree_on_a_live_decision():
    """The kernel's scores of a real decision (from the step engine) match the numpy
    forward pass over `fill_rows` of the same decision."""
    net = _random_net(2)
    old = A.set_weights({"crates-partnerships": net})
    try:
        checked = 0
        for d, options, ctx, rows in _card_decisions(Rules.preset("classic", 4), 5, 20):
            want = _forward(net, rows, ctx)
            params = np.zeros(8)
            rng = np.zeros(4, dtype=np.int64)
            buf = A.weights_buffer()
            k = A.adept_choice(params, d.obs, d.hand, d.pile, options, rng, buf)
            got = buf[A.SCORES_AT:A.SCORES_AT + len(options)]
            assert np.allclose(got, want), (got, want)
            assert k == int(np.argmax(want))
            checked += 1
        assert checked >= 5
    finally:
        A.set_weights(old)


@pytest.mark.parametrize("n_nonzero,width", [(0, 128), (1, 64), (3, 64), (8, 128), (13, 64),
                                             (14, 128), (21, 128), (39, 64), (79, 32)])
def test_add_inputs_is_the_plain_loop_bit_for_bit(n_nonzero, width):
    """`add_inputs` (the non-zero inputs eight at a time, the rest four, two and one at a
    time) gives each unit exactly the sum
    of the plain loop, input by input in order: the scores, and so adept's games, do not
    change with it."""
    from numba import njit

    @njit
    def run(buf, units_at, row_at, n_inputs, w_at, width):
        A.add_inputs(buf, buf[units_at:units_at + width], row_at, n_inputs, w_at)

    rng = np.random.default_rng(n_nonzero)
    buf = np.zeros(A.BUFFER_LEN)
    w_at = A.W0
    buf[w_at:w_at + A.N_OPTION * A.HIDDEN] = rng.normal(size=A.N_OPTION * A.HIDDEN)
    row = np.zeros(A.N_OPTION)
    row[rng.choice(A.N_OPTION, n_nonzero, replace=False)] = rng.normal(size=n_nonzero)
    buf[A.ROWS_AT:A.ROWS_AT + A.N_OPTION] = row
    start = rng.normal(size=width)
    buf[A.Z_AT:A.Z_AT + width] = start
    run(buf, A.Z_AT, A.ROWS_AT, A.N_OPTION, w_at, width)
    want = start.copy()
    for j in range(A.N_OPTION):
        if row[j] != 0.0:
            want += row[j] * buf[w_at + j * A.HIDDEN:w_at + j * A.HIDDEN + width]
    assert np.array_equal(buf[A.Z_AT:A.Z_AT + width], want)
    if n_nonzero:
        assert not np.array_equal(want, start)


def test_an_ensemble_scores_the_mean_of_its_members():
    """`ensemble` puts networks side by side (here 32 + 32 = 64 units; the buffer holds 128):
    the kernel's scores are the mean of the members' numpy scores, and a narrower member
    packed alone scores as it did."""
    a, b = _random_net(3), _random_net(4)
    both = A.ensemble(a, b)
    assert A.net_width(both) == 64 and A.HIDDEN == 128
    old = A.set_weights({"crates-partnerships": both})
    try:
        checked = 0
        for d, options, ctx, rows in _card_decisions(UNROUTED_PARTNERS, 6, 10):
            want = (_forward(a, rows, ctx) + _forward(b, rows, ctx)) / 2
            got = A.option_values(d.obs, d.hand, d.pile, options)
            assert np.allclose(got, want), (got, want)
            A.set_weights({"crates-partnerships": a})
            assert np.allclose(A.option_values(d.obs, d.hand, d.pile, options),
                               _forward(a, rows, ctx))
            A.set_weights({"crates-partnerships": both})
            checked += 1
        assert checked >= 5
        back = A.current_weights()["crates-partnerships"]
        assert all(np.array_equal(back[k], both[k]) for k in both)
    finally:
        A.set_weights(old)
    with pytest.raises(ValueError, match="at most 128"):
        A.pack(A.ensemble(both, both, a))


def test_a_table_kind_without_a_network_plays_greedy():
    rules = UNROUTED_PARTNERS
    old = A.set_weights({name: None for name in A.TABLES})
    try:
        mine = run_games(rules, ["adept"] * 4, 2, 0, 3, detail="games")
    finally:
        A.set_weights(old)
    greedy = run_games(rules, ["greedy"] * 4, 2, 0, 3, detail="games")
    assert mine.games["total"].tolist() == greedy.games["total"].tolist()


def test_three_moves_the_3s():
    """`three` reaches the scores: keeping 3s and dumping them play different games."""
    rules = UNROUTED_PARTNERS
    old = A.set_weights({"crates-partnerships": _random_net(4)})
    try:
        keep = run_games(rules, ["adept:three=500", "greedy"] * 2, 4, 0, 20, detail="hands")
        dump = run_games(rules, ["adept:three=-500", "greedy"] * 2, 4, 0, 20, detail="hands")
    finally:
        A.set_weights(old)
    assert keep.games["total"].tolist() != dump.games["total"].tolist()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_adept_plays_legally_and_reproducibly_on_every_preset(preset):
    lo, hi = PRESETS[preset][1]
    for players in sorted({lo, min(4, hi)}):
        rules = Rules.preset(preset, players)
        specs = ["adept", "greedy", "adept:temp=2", "random"][:players]
        res = run_games(rules, specs, seed=4, game_start=0, n_games=3, detail="games")
        again = run_games(rules, specs, seed=4, game_start=0, n_games=3, detail="games")
        assert res.turns > 0
        assert res.games["total"].tolist() == again.games["total"].tolist()


def test_the_shipped_networks_load():
    if not A.shipped_weights_path().is_file():
        pytest.skip("no shipped networks")
    nets = A.read_weights(A.shipped_weights_path())
    assert set(nets) >= {"crates-partnerships", "crates-individual", "eights-individual"}
    for net in nets.values():
        assert np.isfinite(A.pack(net)).all()


def test_a_fit_beats_its_start_on_held_out_decisions(block):
    data = Data([block])
    held = (data.game % 3) == 0
    train, test = data.select(~held), data.select(held)
    start = _random_net(3)
    before = choice_report(scores(start, test), test)
    net = fit_net(train, start, epochs=30, batch=64, lr=3e-3, seed=0)
    after = choice_report(scores(net, test), test)
    assert after["regret"] < before["regret"], (before, after)
    assert after["agreement"] > before["agreement"]


def test_a_widened_network_scores_as_its_start_and_then_learns(block):
    """--start FILE --hidden H: the start's units unchanged, new ones without say (the same
    scores), and the fit moves the new units; narrowing is a one-line error."""
    from crates_sim.runs.train_adept import widen_net

    data = Data([block])
    start = _random_net(3)
    width = A.net_width(start)
    wide = widen_net(start, width + 8, seed=1)
    assert A.net_width(wide) == width + 8
    assert np.allclose(scores(wide, data), scores(start, data))
    net = fit_net(data, start, epochs=2, batch=64, lr=3e-3, seed=0, hidden=width + 8)
    assert A.net_width(net) == width + 8 and np.abs(net["w2"][width:]).max() > 0
    with pytest.raises(CratesError, match="cannot be narrowed"):
        widen_net(start, width - 1)


def test_bad_weights_files_are_one_line_errors(tmp_path):

    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(CratesError, match="cannot read"):
        A.read_weights(bad)
    other = tmp_path / "other.json"
    A.write_weights(other, {"crates-individual": A.empty_net()})
    data = json.loads(other.read_text())
    data["hidden"] = 7
    other.write_text(json.dumps(data))
    with pytest.raises(CratesError, match="another network"):
        A.read_weights(other)


def test_crates_train_adept_learns_resumes_and_reproduces(tmp_path):
    def args(out, games=24, rounds=1):
        return ["train", "--player", "adept", "--preset", "crazy-eights", "--teacher",
                "pimc:samples=4:depth=4", "--games", str(games), "--rounds", str(rounds),
                "--epochs", "3", "--workers", "1", "-q", "--out", str(out)]

    runner = CliRunner()
    res = runner.invoke(cli, args(tmp_path / "a"))
    assert res.exit_code == 0, res.output
    assert "eights-individual: held-out regret" in res.output
    first = json.loads((tmp_path / "a" / "adept.json").read_text())["tables"]
    assert list(first) == ["eights-individual"]
    # the same command again resumes: nothing is played or fitted again, same networks
    blocks = sorted((tmp_path / "a" / "round-1" / "data").iterdir())
    stamp = [p.stat().st_mtime_ns for p in blocks]
    again = runner.invoke(cli, args(tmp_path / "a"))
    assert again.exit_code == 0, again.output
    assert [p.stat().st_mtime_ns for p in blocks] == stamp
    assert json.loads((tmp_path / "a" / "adept.json").read_text())["tables"] == first
    # the same command elsewhere makes the same networks (seeded)
    other = runner.invoke(cli, args(tmp_path / "b"))
    assert other.exit_code == 0
    assert json.loads((tmp_path / "b" / "adept.json").read_text())["tables"] == first
    # other settings in the same folder: one line, no traceback
    clash = runner.invoke(cli, args(tmp_path / "a", games=30))
    assert clash.exit_code == 2 and "other settings" in clash.output
    # a damaged block is named in one line
    blocks[0].write_bytes(b"PK\x03 cut short")
    (tmp_path / "a" / "round-1" / "adept.json").unlink()
    damaged = runner.invoke(cli, args(tmp_path / "a"))
    assert damaged.exit_code == 2 and blocks[0].name in damaged.output
    blocks[0].unlink()  # deleted: the run plays that block again
    # a second round continues from the first
    more = runner.invoke(cli, args(tmp_path / "a", rounds=2))
    assert more.exit_code == 0, more.output
    assert (tmp_path / "a" / "round-2" / "adept.json").is_file()


def test_opponents_play_every_other_seat_alternating_with_the_game():
    """--opponents: in partnerships team 1+3 in even games and team 0+2 in odd ones; with
    an odd player count, every other seat from seat 1, then from seat 0."""
    assert opponents_seats(4, 0) == [1, 3] and opponents_seats(4, 7) == [0, 2]
    assert opponents_seats(3, 2) == [1] and opponents_seats(3, 1) == [0, 2]
    assert opponents_seats(2, 0) == [1] and opponents_seats(2, 1) == [0]


def test_opponents_change_the_positions_and_the_mover_as_opponent_changes_nothing():
    """A block whose opponents are the mover itself (round 1's apprentice) records exactly
    the self-play block's positions and values; a random opponent side records others."""
    rules = Rules.preset("classic", 4)
    args = ((rules,), "pimc:samples=4:depth=4", None, 5, 0, 2, 0.3)
    own = play_block(Block(*args))
    same = play_block(Block(*args, opponents="apprentice"))
    for key in ("ctx", "rows", "decision", "value", "game"):
        assert np.array_equal(own[key], same[key]), key
    other = play_block(Block(*args, opponents="random"))
    assert len(other["ctx"]) and (len(other["ctx"]) != len(own["ctx"])
                                  or not np.array_equal(other["ctx"], own["ctx"]))


def test_crates_train_adept_records_its_opponents(tmp_path):
    """`crates train --player adept --opponents SPEC` plays and names SPEC in the run's
    settings; a bad spec is a one-line error, and --opponents is adept's."""
    runner = CliRunner()
    res = runner.invoke(cli, ["train", "--player", "adept", "--games", "8", "--rounds", "1",
                              "--epochs", "1", "--teacher", "pimc:samples=4:depth=4",
                              "--opponents", "greedy", "--workers", "1", "-q",
                              "--out", str(tmp_path / "o")])
    assert res.exit_code == 0, res.output
    settings = json.loads((tmp_path / "o" / "train.json").read_text())["settings"]
    assert settings["opponents"] == "greedy"
    wrong = runner.invoke(cli, ["train", "--player", "adept", "--opponents", "nosuch",
                                "--out", str(tmp_path / "x")])
    assert wrong.exit_code != 0 and "nosuch" in wrong.output, wrong.output
    wrong = runner.invoke(cli, ["train", "--opponents", "greedy", "--out", str(tmp_path / "y")])
    assert wrong.exit_code == 2 and "--opponents is for --player adept" in wrong.output


def test_focus_tables_join_the_games_from_their_round(tmp_path):
    from crates_sim.runs.train_adept import train_adept

    three, two = Rules.preset("crazy-eights", 3), Rules.preset("crazy-eights", 2)
    kw = dict(teacher="pimc:samples=4:depth=4", rounds=2, games=8, epochs=1, workers=1,
              echo=lambda s: None)
    with pytest.raises(CratesError, match="focus_from"):
        train_adept([three], tmp_path / "x", focus=[two], **kw)
    train_adept([three], tmp_path / "f", focus=[two], focus_from=2, **kw)
    heads_up = A.CONTEXT_FEATURES.index("players_2")

    def players_2(r):
        return Data(sorted((tmp_path / "f" / f"round-{r}" / "data").iterdir())).ctx[:, heads_up]

    assert not players_2(1).any()  # round 1: the tables alone
    assert players_2(2).any() and not players_2(2).all()  # round 2: and the focus table
    settings = json.loads((tmp_path / "f" / "train.json").read_text())["settings"]
    assert settings["focus_from"] == 2 and settings["focus_players"] == [2]


def test_the_hint_shows_the_networks_scores_and_its_choice():
    from crates_sim.play.step import Table

    old = A.set_weights({"crates-partnerships": _random_net(5)})
    try:
        table = Table(UNROUTED_PARTNERS, [None] * 4, 8, 0)
        seen = 0
        while not table.over and seen < 5:
            values = table.hint_values("adept")
            if values is not None:
                best = max(values, key=values.get)
                assert table.hint("adept") == best
                seen += 1
            table.answer(table.pending.options[0])
        assert seen == 5
    finally:
        A.set_weights(old)


def _first_decision(preset="classic", **knobs):
    from crates_sim.play.step import Table

    table = Table(Rules.preset(preset, 4, **knobs), [None] * 4, 5, 0)
    while table.pending_phase not in (0, 1, 2):
        table.answer(table.pending.options[0])
    return table.pending


def _option_row(d, obs, card):
    out = np.zeros(A.N_CONTEXT + A.N_OPTION)
    A.fill_rows(obs, d.hand, d.pile, np.asarray([card], dtype=np.int64), out)
    row = dict(zip(A.OPTION_FEATURES, out[A.N_CONTEXT:], strict=True))
    return row, dict(zip(A.CONTEXT_FEATURES, out[:A.N_CONTEXT], strict=True))


def test_the_pressure_features_price_the_draws_an_option_makes():
    """A 5 on an empty stock gives the next player (an opponent) a pressure at its cost;
    a classic 7 hits my partner across, so it counts against me; with stock to spare
    neither does, and the stock after the draws is what is left."""
    from crates_sim.cards import O_PER_SEAT, O_SEATS, O_STOCK_N, OS_PRESS_K
    from crates_sim.view import seat_after

    d = _first_decision()
    obs = d.obs.copy()
    obs[O_STOCK_N] = 0
    nxt, mate = seat_after(obs, 1), seat_after(obs, 2)
    obs[O_SEATS + nxt * O_PER_SEAT + OS_PRESS_K] = 3      # its next pressure: 40 points
    obs[O_SEATS + mate * O_PER_SEAT + OS_PRESS_K] = 5     # my side's: 160 points
    five, seven, king = 4 * 4, 6 * 4, 12 * 4              # 5, 7 and K of the first suit
    row, ctx = _option_row(d, obs, five)
    assert row["pressure_dealt"] == pytest.approx(0.4) and row["stock_after"] == 0.0
    assert ctx["stock_empty"] == 1.0 and ctx["next1_pressure"] == pytest.approx(0.4)
    assert ctx["next2_pressure"] == pytest.approx(1.6)
    row, _ = _option_row(d, obs, seven)
    assert row["pressure_dealt"] == pytest.approx(-1.6)
    assert _option_row(d, obs, king)[0]["pressure_dealt"] == 0.0
    obs[O_STOCK_N] = 5
    row, ctx = _option_row(d, obs, five)  # three draws, from five cards
    assert row["pressure_dealt"] == 0.0 and row["stock_after"] == pytest.approx(2 / 20)
    assert ctx["stock_empty"] == 0.0


#: (turns, sha256 of the totals' JSON) of 12 games of seed 5 between the first networks'
#: adept, adept:temp=3, adept, adept:three=40, recorded with the code of commit e0dffed
#: (before the pressure inputs): adept:net=1 must keep playing those games
FIRST_NETWORKS_GAMES = {
    ("classic", True): (10721, "8cbbf37ecc0e1f78"),
    ("classic", False): (11095, "10e7f7c3abce766b"),
    ("crazy-eights", None): (7586, "413751d0696ae92d"),
}


#: the same games of the second networks (one network a table, before the card-counting
#: inputs), recorded with the code of commit 111c0ed, when they shipped: adept:net=2
SECOND_NETWORKS_GAMES = {
    ("classic", True): (11065, "b5aa369384f789a3"),
    ("classic", False): (11004, "0014f6efed7667da"),
    ("crazy-eights", None): (6745, "082da2c47004c595"),
}


def _net_games(net, table, route=1):
    """(turns, digest of the totals) of the 12 recorded games of set `net` on `table`
    (route 0: set 0 without its routes)."""
    preset, partnerships = table
    knobs = {} if partnerships is None else {"partnerships": partnerships}
    tail = f"net={net}" if route else f"net={net}:route=0"
    specs = [f"adept:{tail}", f"adept:temp=3:{tail}", f"adept:{tail}", f"adept:three=40:{tail}"]
    return _turns_and_digest(run_games(Rules.preset(preset, 4, **knobs), specs, seed=5,
                                       game_start=0, n_games=12, detail="games"))


def _turns_and_digest(res):
    """(turns, the first 16 hex digits of the sha256 of the games' totals) of a run."""
    import hashlib

    return res.turns, hashlib.sha256(json.dumps(res.games["total"].tolist()).encode()).hexdigest()[:16]


@pytest.mark.parametrize("table", sorted(SECOND_NETWORKS_GAMES, key=str))
def test_net_2_plays_the_second_networks_games(table):
    assert _net_games(2, table) == SECOND_NETWORKS_GAMES[table]


@pytest.mark.parametrize("table", sorted(FIRST_NETWORKS_GAMES, key=str))
def test_net_1_plays_the_first_networks_games(table):
    assert _net_games(1, table) == FIRST_NETWORKS_GAMES[table]
    preset, partnerships = table
    knobs = {} if partnerships is None else {"partnerships": partnerships}
    shipped = run_games(Rules.preset(preset, 4, **knobs), ["adept"] * 4, seed=5, game_start=0,
                        n_games=12, detail="games")
    first = run_games(Rules.preset(preset, 4, **knobs), ["adept:net=1"] * 4, seed=5,
                      game_start=0, n_games=12, detail="games")
    assert shipped.games["total"].tolist() != first.games["total"].tolist()


def test_the_called_suit_features_see_the_calls_of_last_wilds():
    """A tame card of the suit the next seat (an opponent) called with its last wild is
    +1 on next_called_suit; of the suit my partner called, 1 on mate_called_suit; a card
    of another suit, and a wild, 0."""
    from crates_sim.cards import O_PARTNER, O_PER_SEAT, O_SEATS, OS_CALLED
    from crates_sim.view import seat_after

    d = _first_decision()
    obs = d.obs.copy()
    nxt, mate = seat_after(obs, 1), int(obs[O_PARTNER])
    obs[O_SEATS + nxt * O_PER_SEAT + OS_CALLED] = 1 + 0    # the first suit
    obs[O_SEATS + mate * O_PER_SEAT + OS_CALLED] = 1 + 1   # the second
    king0, king1, king2, eight0 = 12 * 4, 12 * 4 + 1, 12 * 4 + 2, 7 * 4
    row, _ = _option_row(d, obs, king0)
    assert (row["next_called_suit"], row["mate_called_suit"]) == (1.0, 0.0)
    row, _ = _option_row(d, obs, king1)
    assert (row["next_called_suit"], row["mate_called_suit"]) == (0.0, 1.0)
    for card in (king2, eight0):
        row, _ = _option_row(d, obs, card)
        assert (row["next_called_suit"], row["mate_called_suit"]) == (0.0, 0.0)


def test_the_card_counting_features_count_what_nobody_has_shown():
    """wilds_unseen and next_stuck, recomputed in plain Python from the view on live
    decisions: the unseen cards are those not in my hand or the pile; the next seat is
    stuck on a tame card if it holds no card of the card's suit (unless it showed a void
    there), of its rank, or wild, each of its cards drawn from the unseen ones."""
    from crates_sim.cards import E_COUNT, O_PER_SEAT, O_SEATS, OS_VOID_FREE, OS_VOIDS
    from crates_sim.play.step import Table
    from crates_sim.strategies.heuristic import is_opponent
    from crates_sim.view import effect, hand_size, is_wild, seat_after

    checked = 0
    for preset, knobs in (("classic", {"partnerships": True}), ("crazy-eights", {})):
        table = Table(Rules.preset(preset, 4, **knobs), [None] * 4, 8, 0)
        while not table.over:
            d = table.pending
            options = np.asarray(d.options, dtype=np.int64)
            if table.pending_phase == 0 and len(options) >= 2:
                obs = d.obs
                unseen = set(range(52)) - set(d.hand.tolist()) - set(d.pile.tolist())
                wilds = {c for c in range(52) if is_wild(obs, c)}
                out = np.zeros(A.N_CONTEXT + len(options) * A.N_OPTION)
                A.fill_rows(obs, d.hand, d.pile, options, out)
                ctx = dict(zip(A.CONTEXT_FEATURES, out[:A.N_CONTEXT], strict=True))
                assert ctx["wilds_unseen"] == pytest.approx(len(unseen & wilds) / len(wilds))
                q = seat_after(obs, 1)
                side = 1.0 if is_opponent(obs, q) else -1.0
                at = O_SEATS + q * O_PER_SEAT
                for i, c in enumerate(options.tolist()):
                    if c >= 52 or is_wild(obs, c) or effect(obs, c) == E_COUNT:
                        continue  # draws, wilds (the call decides the suit), counts
                    void = (obs[at + OS_VOIDS] >> (c % 4)) & 1 and obs[at + OS_VOID_FREE] == 0
                    answers = {x for x in unseen if x in wilds or x // 4 == c // 4
                               or (x % 4 == c % 4 and not void)}
                    want = side * (1 - len(answers) / len(unseen)) ** hand_size(obs, q)
                    row = out[A.N_CONTEXT + i * A.N_OPTION:][:A.N_OPTION]
                    assert row[A.OPTION_FEATURES.index("next_stuck")] == pytest.approx(want)
                    checked += 1
            table.answer(d.options[0])
    assert checked >= 100


def test_my_hands_inputs_say_what_my_cards_can_follow():
    """my_followers, left_stuck and the hand's suits and ranks, recomputed in plain Python
    on live decisions of three tables (two players included): the cards I keep that
    could follow the card the option leaves (its suit or rank, or a wild; a wild's suit is
    the one I hold most of after it, ties the lowest; a draw leaves the pile's card)."""
    from crates_sim.play.step import Table
    from crates_sim.view import current_rank, current_suit, is_wild

    checked = stuck = 0
    for preset, players in (("league", 2), ("classic", 4), ("crazy-eights", 3)):
        table = Table(Rules.preset(preset, players), [None] * players, 9, 0)
        while not table.over:
            d = table.pending
            options = np.asarray(d.options, dtype=np.int64)
            if table.pending_phase == 0 and len(options) >= 2:
                obs, hand = d.obs, d.hand.tolist()
                out = np.zeros(A.N_CONTEXT + len(options) * A.N_OPTION)
                A.fill_rows(obs, d.hand, d.pile, options, out)
                ctx = dict(zip(A.CONTEXT_FEATURES, out[:A.N_CONTEXT], strict=True))
                for s in range(4):
                    assert ctx[f"my_suit_{s}"] == sum(c % 4 == s for c in hand) / 8
                for r, name in enumerate(A.RANK_NAMES):
                    assert ctx[f"my_rank_{name}"] == sum(c // 4 == r for c in hand) / 4
                for i, c in enumerate(options.tolist()):
                    if c >= 52:
                        rest, suit, rank = hand, current_suit(obs), current_rank(obs)
                    else:
                        rest = [x for x in hand if x != c]
                        suits = [sum(x % 4 == s for x in rest) for s in range(4)]
                        suit = suits.index(max(suits)) if is_wild(obs, c) else c % 4
                        rank = c // 4
                    mine = sum(1 for x in rest if is_wild(obs, x) or x % 4 == suit or x // 4 == rank)
                    row = dict(zip(A.OPTION_FEATURES, out[A.N_CONTEXT + i * A.N_OPTION:][:A.N_OPTION], strict=True))
                    assert row["my_followers"] == mine / 8
                    assert row["left_stuck"] == (1.0 if rest and mine == 0 else 0.0)
                    stuck += row["left_stuck"] == 1.0
                    checked += 1
            table.answer(d.options[0])
    assert checked >= 300 and stuck >= 5


def test_the_widest_network_the_cli_asks_for_is_the_widest_adept_plays():
    from crates_sim.runs.train_adept import MAX_HIDDEN

    assert MAX_HIDDEN == A.HIDDEN


def _small_train(out, *more, games=16, epochs=2):
    """A one-round `crates train --player adept` on crazy-eights with a cheap teacher."""
    return ["train", "--player", "adept", "--preset", "crazy-eights", "--teacher",
            "pimc:samples=4:depth=4", "--games", str(games), "--rounds", "1", "--epochs",
            str(epochs), "--workers", "1", "-q", "--out", str(out), *more]


def test_crates_train_members_averages_independent_runs(tmp_path):
    """--members 2: member M is the run --seed SEED+M makes, and OUT/adept.json scores the
    mean of the members' networks."""
    args = _small_train

    runner = CliRunner()
    res = runner.invoke(cli, args(tmp_path / "m", "--members", "2", "--seed", "3"))
    assert res.exit_code == 0, res.output
    assert "member 1:" in res.output
    alone = runner.invoke(cli, [a for a in args(tmp_path / "s", "--seed", "4") if a != "-q"])
    assert alone.exit_code == 0, alone.output
    assert "round 1 eights-individual: fitting to" in alone.output  # said before the fit's minutes
    name = "eights-individual"
    member = A.read_weights(tmp_path / "m" / "member-1" / "adept.json")[name]
    assert all(np.array_equal(member[k], A.read_weights(tmp_path / "s" / "adept.json")[name][k])
               for k in member)
    both = A.read_weights(tmp_path / "m" / "adept.json")[name]
    first = A.read_weights(tmp_path / "m" / "member-0" / "adept.json")[name]
    assert A.net_width(both) == 2 * A.FIT_WIDTH
    assert np.allclose(both["w2"], np.concatenate([first["w2"], member["w2"]]) / 2, atol=1e-5)
    wrong = runner.invoke(cli, ["train", "--members", "2", "--out", str(tmp_path / "x")])
    assert wrong.exit_code == 2 and "--player adept" in wrong.output


def test_an_interrupted_adept_run_says_how_to_resume(tmp_path, monkeypatch):
    """Ctrl-C (or a SIGTERM, which the group turns into one) during `crates train --player
    adept`: exit 130 and one line saying what is kept and how to resume, no traceback."""
    from crates_sim.runs import train_adept

    def interrupted(*_args, **_kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(train_adept, "train_members", interrupted)
    res = CliRunner().invoke(cli, _small_train(tmp_path / "i"))
    assert res.exit_code == 130, res.output
    assert "Interrupted:" in res.output and "run the same command again" in res.output
    assert "Traceback" not in res.output


def test_crates_train_value_floor_is_a_setting_of_the_run(tmp_path):
    """--value-floor: a specialist run floors the teacher's values as a run across tables
    does (VALUE_FLOOR); the run's settings say so, so that resuming without it is refused."""
    def args(out, *more):
        return _small_train(out, *more, games=8, epochs=1)

    runner = CliRunner()
    res = runner.invoke(cli, args(tmp_path / "f", "--value-floor"))
    assert res.exit_code == 0, res.output
    settings = json.loads((tmp_path / "f" / "train.json").read_text())["settings"]
    assert settings["robust"] is True
    plain = runner.invoke(cli, args(tmp_path / "f"))
    assert plain.exit_code != 0 and "other settings" in plain.output
    wrong = runner.invoke(cli, ["train", "--value-floor", "--out", str(tmp_path / "x")])
    assert wrong.exit_code == 2 and "--value-floor is for --player adept" in wrong.output


@pytest.mark.parametrize("family,kept,refit", [
    ("eights", ("crates-partnerships",), "eights-individual"),
    ("crates", ("eights-individual", "crates-partnerships"), "crates-individual"),
    ("partnerships", ("eights-individual", "crates-individual"), "crates-partnerships"),
    ("two-player", ("eights-individual", "crates-partnerships"), "crates-individual"),
    ("two-player-eights", ("crates-individual", "crates-partnerships"), "eights-individual"),
    ("at-will", ("eights-individual", "crates-partnerships"), "crates-individual"),
    ("three-player", ("eights-individual", "crates-partnerships"), "crates-individual"),
    ("four-player-individual", ("eights-individual", "crates-partnerships"), "crates-individual"),
    ("partnerships-no-at-will", ("eights-individual", "crates-individual"), "crates-partnerships"),
    ("partnerships-short-deck", ("eights-individual", "crates-individual"), "crates-partnerships")])
def test_crates_train_family_round_continues_from_a_weights_file(tmp_path, family, kept, refit):
    """--tables eights|crates|partnerships --start FILE: one round on one family's (or
    Crates partnerships') presets and drawn rule sets, played and fitted from FILE's
    networks: the other kinds' networks come out as FILE has them, this one's refitted
    (with --refit, only the kind it names); the run's settings name the start by its
    content, and --start and --refit are adept's."""
    from crates_sim.knob_space import FAMILY_PRESET_REPEATS, family_tables

    if family in ("eights", "crates"):
        tables = family_tables(family, 6601, 3)
        assert [t.family for t in tables] == [family] * len(tables)
        n_presets = 10 if family == "eights" else 13
        assert len(tables) == n_presets * FAMILY_PRESET_REPEATS + 3
    start = A.shipped_weights_path(12)
    runner = CliRunner()
    res = runner.invoke(cli, ["train", "--player", "adept", "--tables", family, "--start",
                              "adept:net=12", "--teacher", "pimc:samples=4:depth=4", "--games", "8",
                              "--rounds", "1", "--epochs", "1", "--lr", "0.001", "--workers",
                              "1", "-q", "--out", str(tmp_path / "e"),
                              *(["--refit", refit] if family != "eights" else [])])
    assert res.exit_code == 0, res.output
    assert "a set of its own: cp " in res.output and "strategies/adept.json" not in res.output
    out, before = A.read_weights(tmp_path / "e" / "adept.json"), A.read_weights(start)
    for name in kept:
        assert all(np.array_equal(out[name][k], before[name][k]) for k in out[name]), name
    assert not np.array_equal(out[refit]["w_opt"], before[refit]["w_opt"])
    settings = json.loads((tmp_path / "e" / "train.json").read_text())["settings"]
    assert settings["lr"] == 0.001 and len(settings["start"]) == 64 and settings["robust"] is True
    wrong = runner.invoke(cli, ["train", "--start", str(start), "--out", str(tmp_path / "x")])
    assert wrong.exit_code == 2 and "--start is for --player adept" in wrong.output
    for bad, says in (("adept:net=99", "ships sets 0 to"), ("nosuch.json", "no such weights file")):
        wrong = runner.invoke(cli, ["train", "--player", "adept", "--tables", "eights", "--start",
                                    bad, "--out", str(tmp_path / "y")])
        assert wrong.exit_code == 2 and says in wrong.output, wrong.output
    for args, says in ((["--start", "adept:net=12", "--refit", "crates"], "not a table kind"),
                       (["--refit", "crates-individual"], "give --start"),
                       (["--start", "adept:net=12", "--hidden", "16"], "cannot be narrowed")):
        wrong = runner.invoke(cli, ["train", "--player", "adept", "--tables", family, *args,
                                    "--out", str(tmp_path / "z")])
        assert wrong.exit_code != 0 and says in wrong.output, wrong.output
    wrong = runner.invoke(cli, ["train", "--refit", refit, "--out", str(tmp_path / "x")])
    assert wrong.exit_code == 2 and "--refit is for --player adept" in wrong.output


# ------------------------------------------------------------ the rules as inputs (issue 38)
def _rows(d, obs, options):
    """The context row and every option's row of a decision with these options."""
    options = np.asarray(options, dtype=np.int64)
    out = np.zeros(A.N_CONTEXT + len(options) * A.N_OPTION)
    A.fill_rows(obs, d.hand, d.pile, options, out)
    ctx = dict(zip(A.CONTEXT_FEATURES, out[:A.N_CONTEXT], strict=True))
    rows = out[A.N_CONTEXT:].reshape(len(options), A.N_OPTION)
    return ctx, [dict(zip(A.OPTION_FEATURES, r, strict=True)) for r in rows]


def _table_decision(preset, players, **knobs):
    from crates_sim.play.step import Table

    table = Table(Rules.preset(preset, players, **knobs), [None] * players, 5, 0)
    while table.pending_phase not in (0, 1, 2):
        table.answer(table.pending.options[0])
    return table.pending


@pytest.mark.parametrize("preset, players, knobs, expected", [
    ("classic", 4, {}, {"players_4": 1, "partnerships": 1, "seven_across": 1,
                        "pressure_team": 1, "count_forced": 1, "count_pips": 1,
                        "wild_cards": 2, "count_cards": 2, "deck": 1, "spare_three": 0.1}),
    ("serbian", 3, {}, {"players_3": 1, "partnerships": 0, "upcard_serbian": 1,
                        "out_immediate": 1, "penalty_immediate": 1, "six_exempt": 1,
                        "count_pips": 0, "seven_across": 0}),
    ("league", 2, {"draw_when_able": True, "remove_ranks": "QK"},
     {"players_2": 1, "penalty_forfeit": 1, "upcard_as_played": 1, "out_may_return": 1,
      "draw_when_able": 1, "deck": 44 / 52}),
    ("crazy-eights", 6, {"draw_rule": "one", "target_score": 50},
     {"players_6up": 1, "draw_one": 1, "wild_cards": 1, "count_cards": 0,
      "hand_dealt": 5 / 8, "target_left_me": 1, "target_left_best": 1}),
])
def test_the_rule_inputs_describe_the_table(preset, players, knobs, expected):
    d = _table_decision(preset, players, **knobs)
    ctx, _ = _rows(d, d.obs, d.options)
    for name, value in expected.items():
        assert ctx[name] == pytest.approx(value), name
    # one player-count input, and nothing else of the rules' inputs beyond the table's
    assert sum(ctx[f"players_{k}"] for k in ("2", "3", "4", "5", "6up")) == 1


def test_an_option_says_what_it_does_under_these_rules():
    """The same rank means what the rules make it: a classic 7 across hits my partner,
    with seven_target=next the next opponent; a 5 every other seat; a 2 starts a count of
    two cards; an 8 calls any suit, a 9 one of its colour; under draw_when_able a draw
    beside cards is voluntary, and a lone forced draw is not."""
    from crates_sim.cards import ACTION_DRAW

    two, five, seven, eight, nine = 1 * 4, 4 * 4, 6 * 4, 7 * 4, 8 * 4
    d = _table_decision("classic", 4)
    _, (r7, r5, r2, r8, r9) = _rows(d, d.obs, [seven, five, two, eight, nine])
    assert (r7["draws_partner"], r7["draws_opponents"], r7["draws_next"]) == (0.25, 0.0, 0.0)
    assert (r5["draws_opponents"], r5["draws_partner"], r5["draws_next"]) == (0.5, 0.25, 0.25)
    assert r2["starts_count"] == 1.0 and r2["draws_next"] == pytest.approx(0.5)
    assert (r8["wild_any"], r8["wild_colour"], r9["wild_any"], r9["wild_colour"]) == (1, 0, 0, 1)
    d = _table_decision("classic", 4, seven_target="next")
    _, (r7,) = _rows(d, d.obs, [seven])
    assert (r7["draws_next"], r7["draws_opponents"], r7["draws_partner"]) == (0.25, 0.25, 0.0)
    d = _table_decision("classic", 4, draw_when_able=True)
    _, (rc, rd) = _rows(d, d.obs, [five, ACTION_DRAW])
    assert rd["voluntary_draw"] == 1.0 and rd["my_draws"] == 0.25 and rc["voluntary_draw"] == 0
    _, (alone,) = _rows(d, d.obs, [ACTION_DRAW])
    assert alone["voluntary_draw"] == 0.0
    d = _table_decision("classic", 4)
    _, (_c, forced) = _rows(d, d.obs, [five, ACTION_DRAW])
    assert forced["voluntary_draw"] == 0.0


def test_draw_adds_its_points_to_a_voluntary_draw_only():
    """`draw` points go onto a draw offered beside a card at a play, and onto no card."""
    from crates_sim.cards import ACTION_DRAW

    d = _table_decision("classic", 4, draw_when_able=True)
    options = [o for o in d.options if o != ACTION_DRAW][:2] + [ACTION_DRAW]
    plain = A.option_values(d.obs, d.hand, d.pile, options)
    more = A.option_values(d.obs, d.hand, d.pile, options, draw=25.0)
    assert list(more - plain) == [0.0, 0.0, 25.0]


def test_the_hint_shows_adepts_scores_with_its_draw_bonus():
    """`crates play --hint adept` shows the scores adept plays by: with the draw bonus on a
    voluntary draw where a seat may draw at will, and without it for draw=0 (hoard=0: at
    a stock this high the shipped adept draws unscored, and the hint shows no scores)."""
    from crates_sim.cards import ACTION_DRAW
    from crates_sim.play.step import Table

    table = Table(Rules.preset("classic", 4, draw_when_able=True), [None] * 4, 5, 0)
    while not (table.pending_phase == 0 and ACTION_DRAW in table.pending.options
               and len(table.pending.options) >= 2):
        table.answer(table.pending.options[0])
    assert table.hint_values("adept") is None  # the hoard's unscored draw
    shipped = table.hint_values("adept:hoard=0")
    before = table.hint_values("adept:draw=0")
    assert shipped[ACTION_DRAW] - before[ACTION_DRAW] == A.DRAW_AT_WILL_BONUS
    assert all(shipped[o] == before[o] for o in shipped if o != ACTION_DRAW)


def test_older_weights_files_get_zero_weights_on_the_inputs_they_lack(tmp_path):
    """A file that names fewer inputs (an older network) reads into this layout with zero
    weights on the others, and scores every option exactly as its own inputs say."""
    rng = np.random.default_rng(8)
    opt = [n for n in A.OPTION_FEATURES if n not in A.RULE_OPTION_FEATURES]
    ctx = [n for n in A.CONTEXT_FEATURES if n not in A.RULE_CONTEXT_FEATURES]
    net = {"w_opt": rng.normal(size=(len(opt), 16)), "w_ctx": rng.normal(size=(len(ctx), 16)),
           "b1": rng.normal(size=16), "w2": rng.normal(size=16), "b2": np.zeros(1)}
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"option_features": opt, "context_features": ctx, "hidden": 16,
                                "tables": {"crates-individual": {k: v.tolist()
                                                                 for k, v in net.items()}}}))
    wide = A.read_weights(path)["crates-individual"]
    for name in A.RULE_OPTION_FEATURES:
        assert not wide["w_opt"][A.OPTION_FEATURES.index(name)].any()
    for name in A.RULE_CONTEXT_FEATURES:
        assert not wide["w_ctx"][A.CONTEXT_FEATURES.index(name)].any()
    assert np.array_equal(wide["w_opt"][A.OPTION_FEATURES.index(opt[5])], net["w_opt"][5])
    bad = json.loads(path.read_text())
    bad["context_features"] = ctx + ["no_such_input"]
    path.write_text(json.dumps(bad))
    with pytest.raises(CratesError, match="another network"):
        A.read_weights(path)


#: the same games of the third networks (issue 30's shipped ones: two members averaged),
#: recorded with the code of commit fe6de97, when they shipped: adept:net=3
THIRD_NETWORKS_GAMES = {
    ("classic", True): (10268, "d54381932f428323"),
    ("classic", False): (11231, "cd7af82d880d3b32"),
    ("crazy-eights", None): (6016, "4b6262e40218a332"),
}


#: the same games of the fourth networks (issue 38's first: the rules as inputs, two
#: rounds across tables), recorded with the code of commit ecd9173, when they shipped:
#: adept:net=4
FOURTH_NETWORKS_GAMES = {
    ("classic", True): (10742, "4da86b20537312fa"),
    ("classic", False): (11214, "32220ac822d1b28b"),
    ("crazy-eights", None): (7555, "67d67f5b5a278a28"),
}


@pytest.mark.parametrize("table", sorted(FOURTH_NETWORKS_GAMES, key=str))
def test_net_4_plays_the_fourth_networks_games(table):
    assert _net_games(4, table) == FOURTH_NETWORKS_GAMES[table]


@pytest.mark.parametrize("table", sorted(THIRD_NETWORKS_GAMES, key=str))
def test_net_3_plays_the_third_networks_games(table):
    assert _net_games(3, table) == THIRD_NETWORKS_GAMES[table]


def test_the_family_rounds_changed_only_the_crazy_eights_and_crates_individual_networks():
    """The shipped set is set 12 (round 4's networks) with the Crazy Eights network
    refitted (`crates train --player adept --tables eights --start ...`) and then the
    Crates individual one (`--tables crates --refit crates-individual`): the partnership
    network is set 12's weight for weight; the presets without a specialist route to set
    12, every other rule set plays the refitted networks (but the two-player ones, which
    have rounds of their own)."""
    shipped, before = A.read_weights(A.shipped_weights_path(0)), A.read_weights(A.shipped_weights_path(12))
    kept = shipped["crates-partnerships"]
    assert all(np.array_equal(kept[k], before["crates-partnerships"][k]) for k in kept)
    for kind in ("crates-individual", "eights-individual"):
        assert not np.array_equal(shipped[kind]["w_opt"], before[kind]["w_opt"]), kind
    rules = Rules.preset("very-crazy-eights", 3)
    assert A.route_of(rules) == 12 and A.route_of(Rules.from_spec("very-crazy-eights:draw_rule=one", 3)) is None
    assert A.route_of(Rules.preset("crazy-eights", 5)) == 12
    # with two players the two-player Crazy Eights round's network (set 24) plays instead
    assert A.route_of(Rules.from_spec("very-crazy-eights:draw_rule=one", 2)) == 24
    assert A.route_of(Rules.from_spec("classic:draw_when_able=true", 5)) is None


def test_the_partnership_round_changed_only_the_partnership_network():
    """Set 13 (adept-6.json) is set 21 (the shipped set before the wide Crates round) with
    its partnership network refitted on Crates partnership tables (`crates train --player
    adept --tables partnerships --start ... --refit crates-partnerships`), and set 22
    (adept-8.json) is set 13 with that network widened to 128 units and refitted again
    (`--hidden 128`, not routed); the shipped set plays set 13's on Crates partnership
    tables where a seat may draw at will, and nowhere else (WHERE_ROUTES). The shipped set is set 21
    with its Crates individual network widened and refitted (`--tables crates --hidden
    128 --refit crates-individual`)."""
    load = lambda k: A.read_weights(A.shipped_weights_path(k))  # noqa: E731
    shipped, before, refitted, wide = load(0), load(21), load(13), load(22)
    same = lambda a, b: all(np.array_equal(a[k], b[k]) for k in a)  # noqa: E731
    for kind in ("crates-individual", "eights-individual"):
        assert same(before[kind], refitted[kind]) and same(refitted[kind], wide[kind]), kind
    assert not np.array_equal(before["crates-partnerships"]["w_opt"], refitted["crates-partnerships"]["w_opt"])
    assert A.net_width(wide["crates-partnerships"]) == 128
    for kind in ("crates-partnerships", "eights-individual"):
        assert same(shipped[kind], before[kind]), kind
    assert A.net_width(shipped["crates-individual"]) == 128
    for players, partnerships, at_will, routed in ((4, True, True, 13), (4, True, False, None),
                                                   (4, False, True, None), (3, False, True, None)):
        rules = Rules.preset("serbian", players, partnerships=partnerships, draw_when_able=at_will)
        assert A.route_of(rules) == routed
    drawing = Rules.preset("classic", 4, draw_when_able=True)  # the networks alone: route=2
    assert _totals(drawing, "adept:route=2") == _totals(drawing, "adept:net=13") \
        != _totals(drawing, "adept:net=22")


@pytest.mark.parametrize("net_set,start,refit,routes", [
    # set 26 (adept-three-player.json): `--tables three-player --refit crates-individual`;
    # not on the presets (their specialists stay) nor where a seat may draw at will
    (26, 0, ("crates-individual",), ((Rules.preset("classic", 3, nine_wild=False), 26),
                                     (Rules.preset("classic", 3), 9),
                                     (Rules.preset("league", 3, draw_when_able=True), None),
                                     (Rules.preset("league", 4, partnerships=False,
                                                   nine_wild=False), None))),
    # set 27 (adept-partners-fixed.json): `--tables partnerships-no-at-will --refit
    # crates-partnerships`; not on the presets (serbian keeps set 0's own)
    (27, 0, ("crates-partnerships",), ((Rules.preset("classic", 4, remove_ranks="QK"), 27),
                                       (Rules.preset("classic", 4), 33),  # its specialist
                                       (Rules.preset("serbian", 4), None),
                                       (Rules.preset("serbian", 4, draw_when_able=True), 13),
                                       (Rules.preset("classic", 4, partnerships=False,
                                                     spare_three=5), None))),
    # set 28 (adept-no-wild.json): `--tables no-wild --start adept:net=27 --refit
    # crates-individual --refit crates-partnerships`; on Crates tables with 3 players or
    # more, no wild card (8s removed, 9s not wild or removed) and no draws at will
    (28, 27, ("crates-individual", "crates-partnerships"), (
        (Rules.preset("classic", 3, remove_ranks="8", nine_wild=False), 36),  # three: set 36
        (Rules.preset("serbian", 4, remove_ranks="89"), 28),
        (Rules.preset("league", 4, partnerships=False, remove_ranks="8", nine_wild=False), 28),
        (Rules.preset("classic", 5, remove_ranks="8", nine_wild=False), None),  # five: set 0
        (Rules.preset("classic", 3, remove_ranks="8"), 35),  # the 9s wild: 48 cards, set 35
        (Rules.preset("classic", 3, nine_wild=False), 26),  # the 8s are
        (Rules.preset("classic", 2, remove_ranks="8", nine_wild=False), 23),  # two players
        (Rules.preset("classic", 4, remove_ranks="89", draw_when_able=True), 13))),
    # set 29 (adept-eights-unlimited.json): `--tables eights-unlimited --start adept:net=0
    # --refit eights-individual`; on Crazy Eights tables with 3 players or more and
    # draw_rule=unlimited, with or without draw_when_able, whatever the other knobs
    (29, 0, ("eights-individual",), (
        (Rules.preset("crazy-eights", 5, draw_rule="unlimited"), 29),
        (Rules.preset("very-crazy-eights", 3, draw_rule="unlimited", draw_when_able=False,
                      hand_size=8), 29),
        (Rules.preset("crazy-eights", 7, draw_rule="unlimited", remove_ranks="8"), 29),
        (Rules.preset("crazy-eights", 2, draw_rule="unlimited"), 24),  # two players
        (Rules.preset("crazy-eights", 5), 12),  # the preset (draw until able)
        (Rules.preset("very-crazy-eights", 4, draw_rule="one"), None))),
    # set 30 (adept-no-wild-at-will.json): `--tables no-wild-at-will --start adept:net=0
    # --refit crates-individual --refit crates-partnerships`, one round; on Crates tables in
    # individual play with 3 or 4 players, no wild card and draws at will (set 31 with 2)
    (30, 0, ("crates-individual", "crates-partnerships"), (
        (Rules.preset("league", 2, remove_ranks="8", nine_wild=False, draw_when_able=True), 31),
        (Rules.preset("classic", 3, remove_ranks="89", draw_when_able=True), 30),
        (Rules.preset("serbian", 4, partnerships=False, remove_ranks="8", nine_wild=False,
                      draw_when_able=True), 30),
        (Rules.preset("classic", 4, remove_ranks="8", nine_wild=False,
                      draw_when_able=True), 13),  # partnerships: set 13 there
        (Rules.preset("classic", 5, remove_ranks="89", draw_when_able=True), None),  # five
        (Rules.preset("league", 2, remove_ranks="8", draw_when_able=True), 23),  # wild 9s
        (Rules.preset("classic", 3, remove_ranks="8", nine_wild=False), 36))),  # not at will
    # set 31 (adept-no-wild-at-will-2.json): set 30 after one round more on the same kind of
    # table (`--start` set 30's file, seed 11514); on them with 2 players
    (31, 30, ("crates-individual", "crates-partnerships"), (
        (Rules.preset("classic", 2, remove_ranks="89", draw_when_able=True), 31),
        (Rules.preset("serbian", 2, remove_ranks="8", nine_wild=False, draw_when_able=True), 31),
        (Rules.preset("classic", 3, remove_ranks="89", draw_when_able=True), 30),
        (Rules.preset("classic", 2, remove_ranks="89"), 23))),  # not at will
    # set 34 (adept-two-player-short.json): set 23 with its Crates individual network refitted
    # two rounds on two-player Crates tables of 44 cards with a wild card and no draws at
    # will (`--tables two-player-short-deck --start adept:net=23`, seed 12601); on every
    # two-player Crates table with a wild card and no draws at will but the presets
    (34, 23, ("crates-individual",), (
        (Rules.preset("league", 2, remove_ranks="QK"), 34),  # 8s and 9s wild
        (Rules.preset("classic", 2, nine_wild=False, remove_ranks="QK"), 34),  # the 8s alone
        (Rules.preset("serbian", 2, remove_ranks="8Q"), 34),  # the 9s alone
        (Rules.preset("classic", 2, nine_wild=False, remove_ranks="8Q"), 23),  # no wild card
        (Rules.preset("classic", 2, remove_ranks="QK", draw_when_able=True), 23),  # at will
        (Rules.preset("serbian", 2, remove_ranks="K"), 34),  # 48 cards
        (Rules.preset("league", 2, spare_three=10), 34),  # 52 cards
        (Rules.preset("league", 2), 14))),  # the preset: its specialist
    # set 35 (adept-three-player-short.json): set 26 with its Crates individual network
    # refitted two rounds on three-player Crates tables of 44 cards with a wild card and no
    # draws at will (`--tables three-player-short-deck --start adept:net=26`, seed 12611);
    # on three-player Crates tables of 44 and 48 cards with a wild card and no draws at will
    (35, 26, ("crates-individual",), (
        (Rules.preset("league", 3, remove_ranks="QK"), 35),  # 8s and 9s wild
        (Rules.preset("classic", 3, nine_wild=False, remove_ranks="QK"), 35),  # the 8s alone
        (Rules.preset("serbian", 3, remove_ranks="8Q"), 35),  # the 9s alone
        (Rules.preset("classic", 3, nine_wild=False, remove_ranks="8Q"), 36),  # no wild card
        (Rules.preset("serbian", 3, remove_ranks="K"), 35),  # 48 cards
        (Rules.preset("league", 3, spare_three=10), 26),  # 52 cards: set 26's games
        (Rules.preset("league", 3), 8),  # the preset: its specialist
        (Rules.preset("classic", 2, remove_ranks="QK"), 34))),  # two players
    # set 36 (adept-three-player-no-wild.json): set 28 with its Crates individual network
    # refitted two rounds on three-player Crates tables with no wild card and no draws at
    # will (`--tables three-player-no-wild --start adept:net=28`, seed 12615); on those
    # tables, both ways of having no wild card, every deck
    (36, 28, ("crates-individual",), (
        (Rules.preset("classic", 3, remove_ranks="8", nine_wild=False), 36),  # 9s not wild
        (Rules.preset("league", 3, remove_ranks="89"), 36),  # 9s removed
        (Rules.preset("serbian", 3, remove_ranks="8Q", nine_wild=False), 36),  # 44 cards
        (Rules.preset("classic", 4, partnerships=False, remove_ranks="89"), 28),  # four
        (Rules.preset("classic", 4, remove_ranks="89"), 28),  # partnerships
        (Rules.preset("classic", 3, remove_ranks="89", draw_when_able=True), 30),  # at will
        (Rules.preset("classic", 3, remove_ranks="8"), 35),  # the 9s wild: set 35
        (Rules.preset("classic", 2, remove_ranks="89"), 23)))])  # two players
def test_the_rounds_on_one_kind_of_table_changed_their_networks_and_route_by_what_a_table_does(
        net_set, start, refit, routes):
    """Sets 26 to 31 and 34 to 36 are a shipped set with one or two networks refitted (`crates
    train --player adept --tables three-player|partnerships-no-at-will|no-wild|
    eights-unlimited|no-wild-at-will|two-player-short-deck|three-player-short-deck|
    three-player-no-wild --start
    adept:net=K`): the other kinds' networks are the start's weight for weight, and
    the shipped set plays the set on the tables its WHERE_ROUTES entries name."""
    assert (A.THREE_PLAYER_SET, A.PARTNERS_FIXED_SET, A.NO_WILD_SET,
            A.EIGHTS_UNLIMITED_SET, A.NO_WILD_AT_WILL_SET,
            A.NO_WILD_AT_WILL_2P_SET, A.TWO_PLAYER_SHORT_SET,
            A.THREE_PLAYER_SHORT_SET, A.THREE_PLAYER_NO_WILD_SET) \
        == (26, 27, 28, 29, 30, 31, 34, 35, 36)
    started, refitted = (A.read_weights(A.shipped_weights_path(k)) for k in (start, net_set))
    assert set(refitted) == set(started)  # set 23 (set 34's start) has a Crates individual one alone
    for kind in set(started) - set(refit):
        assert all(np.array_equal(started[kind][k], refitted[kind][k]) for k in started[kind]), kind
    for kind in refit:
        assert not np.array_equal(started[kind]["w_opt"], refitted[kind]["w_opt"]), kind
    for rules, routed in routes:
        assert A.route_of(rules) == routed, rules


def test_a_fit_too_large_for_memory_is_refused_before_it_starts(tmp_path, monkeypatch):
    """A fit of every round's games that would not fit in memory is a one-line error naming
    the kept rounds and how to go on (not a process the system ends mid-fit)."""
    from crates_sim.runs import train_adept as T

    real = T.available_memory()  # Linux: MemAvailable, in bytes
    assert real is None or real > 0
    blocks = [tmp_path / f"block-{i}.npz" for i in range(2)]
    for b in blocks:
        b.write_bytes(b"x" * 1000)
    monkeypatch.setattr(T, "available_memory", lambda: 10_000)
    T.check_fit_memory(blocks, 3, tmp_path)  # 7,000 bytes: fits
    monkeypatch.setattr(T, "available_memory", lambda: 5_000)
    with pytest.raises(CratesError, match=r"rounds 1-2 are kept.*--start .*round-2"):
        T.check_fit_memory(blocks, 3, tmp_path)
    with pytest.raises(CratesError, match=r"round 1 is kept; run the same command again"):
        T.check_fit_memory(blocks, 2, tmp_path)
    with pytest.raises(CratesError, match="same command again .*games are kept.*fewer --games"):
        T.check_fit_memory(blocks, 1, tmp_path)
    monkeypatch.setattr(T, "available_memory", lambda: None)  # not Linux: no check
    T.check_fit_memory(blocks, 3, tmp_path)


def test_a_robust_fit_floors_runaway_values_and_holds_out_every_table():
    """Across tables a rare option can cost millions of points (doubling pressures): a
    robust run floors each value VALUE_FLOOR below its decision's best, keeping the
    order; and it holds out games of every table, whatever the table count."""
    from crates_sim.runs.train_adept import VALUE_FLOOR, floor_values, held_out

    v = floor_values([0.0, -5.0, -1e6, 3.0, -2e9], np.array([0, 0, 0, 1, 1]), 2)
    assert list(v) == [0.0, -5.0, -VALUE_FLOOR, 3.0, 3.0 - VALUE_FLOOR]
    games = np.arange(7000)
    for mixed in (False, True):
        share = held_out(games, mixed=mixed).mean()
        assert 0.08 < share < 0.12
    # 70 tables, games cycling through them: the plain rule holds out 7 of them
    assert len(set(games[held_out(games)] % 70)) == 7
    assert len(set(games[held_out(games, mixed=True)] % 70)) == 70
    assert np.array_equal(held_out(games[:100]), games[:100] % 10 == 0)  # older runs' rule


def test_the_gap_example_reads_both_regrets_off_the_teachers_values(capsys):
    """examples/adept_gap.py (docs/strategies.md's per-decision gap): regrets in points,
    never negative, the same on a second run."""
    import importlib.util
    import re
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "adept_gap.py"
    spec = importlib.util.spec_from_file_location("adept_gap", path)
    gap = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gap)
    args = ["--games", "1", "--tables", "crazy-eights:3,classic:2", "--share", "0.5"]
    gap.main(args)
    first = capsys.readouterr().out
    lines = [x for x in first.splitlines() if not x.startswith(" ")]
    assert [x.split(":")[0] for x in lines] == ["crazy-eights", "classic"]
    for line in lines:
        m = re.search(r"([\d,]+) decisions, adept ([\d.]+), expert ([\d.]+), adept - expert "
                      r"(-?[\d.]+) ± ", line)
        assert m, line
        decisions, adept, expert, diff = (float(v.replace(",", "")) for v in m.groups())
        assert decisions >= 5 and adept >= 0 and expert >= 0
        assert abs(adept - expert - diff) < 0.011
    assert "of the gap" in first
    gap.main(args)
    again = capsys.readouterr().out
    strip = re.compile(r" \(\d+ s\)")
    assert strip.sub("", again) == strip.sub("", first)
    with pytest.raises(SystemExit):
        gap.main(["--tables", "nosuch:2"])
    assert "'nosuch:2' is not PRESET:PLAYERS" in capsys.readouterr().err


#: the same games of round 4's networks (issue 38, shipped in commit 5f8d637),
#: recorded before the routes (Very Crazy Eights with the code of commit 2a14ce0):
#: adept:net=12 must keep playing them, and adept:route=0 in Crates partnerships (it
#: plays the Crazy Eights round's network in that family since, and the Crates round's
#: in Crates individual play)
ROUND_4_GAMES = {
    ("classic", True): (11256, "efa9cacc39034e9c"),
    ("classic", False): (11240, "79cbd5f9bdd7ddde"),
    ("crazy-eights", None): (7334, "d8da3f00880a8be0"),
    ("very-crazy-eights", None): (8113, "a9fe075381ccefe4"),
}


@pytest.mark.parametrize("table", sorted(ROUND_4_GAMES, key=str))
def test_route_0_plays_round_4s_games_in_crates_partnerships_and_net_12_everywhere(table):
    assert _net_games(12, table) == ROUND_4_GAMES[table]
    same = _net_games(0, table, route=0) == ROUND_4_GAMES[table]
    assert same == (table == ("classic", True))


#: (turns, digest of the totals) of the shipped adept's 6 games of seed 5 on classic with 5
#: players before set 32's route there (set 18's wide specialist), and with 4 players in
#: partnerships before set 33's (set 11's specialist): adept:net=18 and adept:net=11 play them
CLASSIC_BEFORE_SETS_32_33 = {5: ("adept:net=18", 8606, "fa2cb56e05bfc739"),
                             4: ("adept:net=11", 5346, "42c14de44aa2b89b")}


def _classic_games(players, spec):
    return _turns_and_digest(run_games(Rules.preset("classic", players), [spec] * players,
                                       seed=5, game_start=0, n_games=6, detail="games"))


@pytest.mark.parametrize("players", sorted(CLASSIC_BEFORE_SETS_32_33))
def test_the_old_specialists_keep_their_classic_games_from_before_sets_32_and_33(players):
    spec, *games = CLASSIC_BEFORE_SETS_32_33[players]
    assert _classic_games(players, spec) == tuple(games)
    assert _classic_games(players, "adept") != tuple(games)  # the new specialist plays there now


def _totals(rules, spec, games=3):
    return run_games(rules, [spec] * rules.players, 7, 0, games, detail="games").games["total"].tolist()


@pytest.mark.parametrize("preset,players,knobs,routed", [
    ("classic", 4, {"partnerships": False}, 3),
    ("classic", 4, {"partnerships": False, "first_dealer": "random"}, 3),  # who deals: ignored
    ("crazy-eights", 4, {}, 3),
    ("classic", 2, {}, 15),  # the wide specialist (set 5 before)
    ("league", 2, {}, 14),  # the wide specialist with the inputs of my own hand (set 6 before)
    ("serbian", 2, {}, 16),  # the wide specialist (set 7 before)
    ("league", 3, {}, 8),
    ("classic", 3, {}, 9),
    ("league", 4, {}, 10),  # league's default with 4 players: individual play
    ("league", 4, {"partnerships": True}, 10),
    ("classic", 4, {}, 33),  # classic's default with 4 players: partnerships (set 11 before)
    ("classic", 4, {"partnerships": False, "spare_three": 5}, None),  # another knob: another table
    ("crazy-eights", 4, {"hand_size": 7}, None),
    ("classic", 5, {}, 32),  # set 18 after two rounds more (set 18 before, set 12 before it)
    ("serbian", 3, {}, 20),  # the wide specialist (set 12's network before)
    # three-player Crates rule sets without draws at will: the three-player round's network
    ("serbian", 3, {"spare_three": 5}, 26),
    ("classic", 3, {"nine_wild": False, "count_forced": False}, 26),
    ("serbian", 4, {"partnerships": False}, 19),  # the wide specialist (set 12's network before)
    ("classic", 5, {"spare_three": 5}, None),
    ("very-crazy-eights", 2, {}, 17),  # the wide specialist (set 12's network before)
    ("very-crazy-eights", 3, {}, 12),
    ("crazy-eights", 3, {}, 12),
    # two-player Crazy Eights rule sets without a route of their own: that round's network
    ("very-crazy-eights", 2, {"draw_rule": "one"}, 24),
    ("crazy-eights", 2, {}, 24),  # the preset too: +3.0 against set 12's there
    ("crazy-eights", 2, {"draw_when_able": False, "hand_size": 5}, 24),
    # Crazy Eights with 3 players or more and unlimited draws: that round's network
    ("crazy-eights", 5, {"draw_rule": "unlimited"}, 29),
    ("very-crazy-eights", 3, {"draw_rule": "unlimited", "draw_when_able": False}, 29),
    # Crates individual play with 2 to 4 players, no wild card and draws at will: that round's
    ("league", 2, {"remove_ranks": "8", "nine_wild": False, "draw_when_able": True}, 31),
    ("classic", 4, {"partnerships": False, "remove_ranks": "89", "draw_when_able": True}, 30),
    # Crates partnerships with draws at will (WHERE_ROUTES): the partnership round's network
    ("classic", 4, {"draw_when_able": True}, 13),
    ("serbian", 4, {"draw_when_able": True, "count_forced": False, "remove_ranks": "58"}, 13),
    ("league", 4, {"partnerships": True, "draw_when_able": True}, 13),
    ("classic", 4, {"partnerships": False, "draw_when_able": True}, None),
    ("league", 3, {"draw_when_able": True, "count_forced": False}, None),
    # two-player Crates rule sets without a specialist: the two-player round's network
    ("classic", 2, {"spare_three": 5}, 34),  # a wild card, no draws at will: set 34
    ("serbian", 2, {"draw_when_able": True}, 23),
    ("league", 2, {"first_dealer": "random"}, 14),  # who deals: the preset's specialist
    ("league", 3, {"spare_three": 5}, 26),
    # Crates partnership rule sets without draws at will: that round's network (set 27),
    # but the presets (serbian's with 4 keeps set 0's own: an exact route to set 0)
    ("serbian", 4, {"count_forced": False}, 27),
    ("classic", 4, {"nine_wild": False}, 27),
    ("serbian", 4, {}, None),
    # Crates with 4 players, no wild card and no draws at will: set 28 (with 3: set 36)
    ("league", 3, {"remove_ranks": "8", "nine_wild": False}, 36),
    ("classic", 4, {"remove_ranks": "89"}, 28),
])
def test_the_routes_play_the_specialists_on_their_own_tables(preset, players, knobs, routed):
    rules = Rules.preset(preset, players, **knobs)
    shipped = _totals(rules, "adept:route=2")  # the routed networks, without a searched route
    # (and without the draw bonus where a seat may draw at will: route=0 has it, draw=0 not)
    assert (shipped == _totals(rules, "adept:route=0:draw=0")) is (routed is None)
    if routed is not None:
        assert shipped == _totals(rules, f"adept:net={routed}")


def test_routes_off_play_the_shipped_set_everywhere():
    rules = Rules.preset("classic", 4, partnerships=False)
    A.set_routes(())
    try:
        assert _totals(rules, "adept") == _totals(rules, "adept:route=0")
    finally:
        A.set_routes(A.ROUTES, A.WHERE_ROUTES, A.SEARCH_ROUTES)
    assert _totals(rules, "adept") == _totals(rules, "adept:net=3")
    with pytest.raises(CratesError, match="at most"):
        A.set_routes(A.ROUTES * 3)
    # a route to a set without a network of the table's kind (set 5: Crates individual
    # only) is not taken
    partners = Rules.preset("classic", 4)
    A.set_routes((("classic", 4, {}, 5),))
    try:
        assert _totals(partners, "adept") == _totals(partners, "adept:route=0")
    finally:
        A.set_routes(A.ROUTES, A.WHERE_ROUTES, A.SEARCH_ROUTES)
    with pytest.raises(CratesError, match="at most"):
        A.set_routes(A.ROUTES, A.WHERE_ROUTES * A.MAX_ROUTES)
    assert A.route_of(Rules.preset("classic", 4, draw_when_able=True)) == A.PARTNERS_SET


def test_a_preset_route_checks_the_whole_array_and_a_where_route_its_named_slots():
    buf = A.weights_buffer()
    first = A.ROUTES_AT + 1
    assert buf[first + 1] == -1  # ROUTES[0], a preset's table: the dense layout
    where = first + len(A.ROUTES) * A.ROUTE_LEN  # WHERE_ROUTES[0]: its (slot, value) pairs
    named = sorted(A.WHERE_ROUTES[0][0].items())
    assert buf[where + 1] == len(named)
    pairs = buf[where + 2:where + 2 + 2 * len(named)]
    assert [(int(k), v) for k, v in zip(pairs[::2], pairs[1::2], strict=True)] == named
    # who deals first is never checked (ROUTE_IGNORES): the preset's route still holds
    assert A.route_of(Rules.preset("classic", 4, partnerships=False,
                                   first_dealer="random")) == 3
    assert A.route_of(Rules.preset("classic", 4, partnerships=False, spare_three=5)) != 3


@pytest.mark.parametrize("preset,players,knobs,route", [
    ("classic", 4, {"nine_wild": False, "remove_ranks": "8K"}, "DRY_SEARCH"),  # partnerships
    ("classic", 4, {"partnerships": False, "nine_wild": False, "remove_ranks": "8K"},
     "DRY_SEARCH"),
    ("serbian", 2, {"nine_wild": False, "remove_ranks": "8"}, "DRY_SEARCH"),
    ("league", 3, {"remove_ranks": "89"}, "DRY_SEARCH"),  # the 9s taken out, not unwild
    ("serbian", 4, {"nine_wild": False}, "PARTNERS_EIGHTS_SEARCH"),  # only the 8s wild
    ("league", 4, {"partnerships": True, "remove_ranks": "9"}, "PARTNERS_EIGHTS_SEARCH"),
    # the same on short decks: fewer deals (PARTNERS_EIGHTS_SHORT_SEARCHES, by cards)
    ("serbian", 4, {"nine_wild": False, "remove_ranks": "7Q"}, 44),
    ("league", 4, {"partnerships": True, "remove_ranks": "69JQ"}, 36),
    ("classic", 4, {"remove_ranks": "8"}, "DRY_SEARCH"),  # partnerships, only the 9s wild
    ("classic", 4, {"draw_when_able": True}, "PARTNERS_AT_WILL_SEARCH"),  # the gated search
    ("serbian", 4, {"nine_wild": False, "draw_when_able": True}, "PARTNERS_AT_WILL_SEARCH"),
    ("league", 2, {"nine_wild": False, "draw_when_able": True}, "TWO_PLAYER_AT_WILL_SEARCH"),
    ("classic", 2, {"remove_ranks": "9", "draw_when_able": True}, "TWO_PLAYER_AT_WILL_SEARCH"),
    ("league", 2, {"remove_ranks": "8"}, "TWO_PLAYER_NINES_SEARCH"),  # only the 9s wild
])
def test_on_a_searched_routes_tables_adept_searches_the_dry_stock(
        preset, players, knobs, route):
    """On SEARCH_ROUTES' tables the shipped adept plays adept:dry=D:samples=S:depth=T's
    games (its cheap search of the race to an empty stock: dry=3 where no card is wild
    and in partnerships where only the 9s are, dry=2 in partnerships where only the 8s
    are, with fewer deals on a deck of 44 cards or fewer, dry=4 with two players where
    only the 9s are), and with :margin=M where partners may draw at will, in
    partnerships where only the 8s are, and with two players where a seat may draw at
    will and only the 8s are wild;
    route=2 plays the networks alone there (adept's games before that search), as do
    other nets. Where partners may draw at will the shipped adept hoards instead
    (HOARD_STOCK) and makes no routed search: adept:hoard=0 makes it."""
    rules = Rules.preset(preset, players, **knobs)
    hoarding = A.hoard_stock_of(rules) > 0.0
    assert hoarding == (players >= 3 and knobs.get("draw_when_able", False))
    assert (A.searched_route_of(rules) is None) == hoarding
    settings = A.searched_route_of(rules, hoard=0.0)
    expected = (dict(A.PARTNERS_EIGHTS_SHORT_SEARCHES)[route] if isinstance(route, int)
                else getattr(A, route))
    assert settings == expected
    unhoarded = ":hoard=0" if hoarding else ""
    shipped = _totals(rules, "adept" + unhoarded)
    assert shipped == _totals(rules, A.searched_spec(settings) + unhoarded)
    assert shipped != _totals(rules, "adept:route=2")
    assert _totals(rules, "adept:route=2") == _totals(rules, f"adept:net={A.route_of(rules)}")


@pytest.mark.parametrize("preset,players,knobs", [
    ("classic", 4, {}),
    ("classic", 5, {"nine_wild": False, "remove_ranks": "8"}),  # 5 players: not searched
    ("league", 3, {"remove_ranks": "8"}),  # only the 9s wild, three players
    ("serbian", 4, {"nine_wild": False, "partnerships": False}),  # only the 8s, individual
    ("classic", 4, {"remove_ranks": "8", "partnerships": False}),  # only the 9s, individual
    ("classic", 4, {"nine_wild": False, "partnerships": False, "draw_when_able": True}),
    ("classic", 5, {"draw_when_able": True}),  # draws at will, individual play
    ("classic", 2, {"draw_when_able": True}),  # two players at will, the 8s and 9s wild
    ("serbian", 2, {"nine_wild": False, "remove_ranks": "8", "draw_when_able": True}),
])
def test_elsewhere_route_2_plays_the_shipped_adepts_games(preset, players, knobs):
    """Where no searched route fires, route=2 plays the shipped adept's games; where a
    seat may draw at will, those of draw=0 (the shipped adept adds DRAW_AT_WILL_BONUS to
    a voluntary draw there, route=2 does not)."""
    rules = Rules.preset(preset, players, **knobs)
    shipped = "adept:draw=0" if knobs.get("draw_when_able") else "adept"
    assert _totals(rules, shipped) == _totals(rules, "adept:route=2")


@pytest.mark.parametrize("preset,players,knobs", [
    ("classic", 4, {"partnerships": False, "draw_when_able": True}),  # no searched route
    ("classic", 3, {"draw_when_able": True}),
    ("league", 2, {"draw_when_able": True}),
    ("classic", 4, {"draw_when_able": True}),  # partnerships: the gated search too
])
def test_where_a_seat_may_draw_at_will_adept_values_the_draw_higher(preset, players, knobs):
    """On Crates rule sets with draw_when_able the shipped adept (draw=-1) adds
    DRAW_AT_WILL_BONUS points to a voluntary draw's score: it plays draw=25's games,
    draw=0 plays adept's games from before (its searched route's, or the networks'
    alone), route=0 adds it too, and route=2 and other nets keep their games."""
    rules = Rules.preset(preset, players, **knobs)
    shipped = _totals(rules, "adept")
    assert A.DRAW_AT_WILL_BONUS == 25.0
    assert shipped == _totals(rules, "adept:draw=25")
    assert shipped != _totals(rules, "adept:draw=0")
    settings = A.searched_route_of(rules, hoard=0.0)  # without the bonus adept hoards not
    before = A.searched_spec(settings) + ":draw=0" if settings else "adept:route=2"
    assert _totals(rules, "adept:draw=0") == _totals(rules, before)
    assert _totals(rules, "adept:net=12") == _totals(rules, "adept:net=12:draw=0")
    # balance holds adept to route=0 across variants: the bonus holds there too
    assert _totals(rules, "adept:route=0") == _totals(rules, "adept:route=0:draw=25")
    assert _totals(rules, "adept:route=0") != _totals(rules, "adept:route=0:draw=0")


def test_with_five_players_the_draw_bonus_is_smaller():
    """With 5 players the shipped adept adds DRAW_AT_WILL_BONUS_FIVE (10) points to a
    voluntary draw, not 25: it plays draw=10's games (the hoard and the war with it), and
    draw=25 plays the shipped adept's games from before."""
    rules = Rules.preset("classic", 5, draw_when_able=True)
    assert A.DRAW_AT_WILL_BONUS_FIVE == 10.0
    assert A.draw_bonus_of(rules) == 10.0
    assert A.draw_bonus_of(Rules.preset("classic", 4, draw_when_able=True,
                                        partnerships=False)) == 25.0
    shipped = _totals(rules, "adept")
    assert shipped == _totals(rules, "adept:draw=10")
    assert shipped != _totals(rules, "adept:draw=25")
    assert _totals(rules, "adept:route=0") == _totals(rules, "adept:route=0:draw=10")


@pytest.mark.parametrize("spec", ["adept", "adept:route=0", "adept:route=2", "adept:net=12"])
@pytest.mark.parametrize("preset,players,knobs", [
    ("classic", 4, {"draw_when_able": True}),
    ("classic", 5, {"draw_when_able": True}),
    ("classic", 3, {}),
    ("crazy-eights", 4, {"draw_when_able": True}),
])
def test_the_python_draw_bonus_says_what_the_kernel_plays(spec, preset, players, knobs):
    """adept.draw_bonus_of (Python, on the rules: what measured_spec and the play hint
    read) gives the bonus the kernel's draw_bonus (on the view) plays with."""
    from crates_sim.strategy import BUILTINS, parse_spec

    rules = Rules.preset(preset, players, **knobs)
    values = {k: p.default for k, p in BUILTINS["adept"][2].items()} | parse_spec(spec)[1]
    bonus = A.draw_bonus_of(rules, values["net"], values["route"])
    assert _totals(rules, spec) == _totals(rules, f"{spec}:draw={bonus:g}")


@pytest.mark.parametrize("preset,players,knobs", [
    ("classic", 4, {}),  # no draws at will: nothing to add to
    ("crazy-eights", 4, {"draw_when_able": True}),  # Crazy Eights: no pressures, no bonus
])
def test_without_draws_at_will_in_crates_the_bonus_is_off(preset, players, knobs):
    rules = Rules.preset(preset, players, **knobs)
    assert _totals(rules, "adept") == _totals(rules, "adept:draw=0")


def test_search_0_leaves_only_an_opponent_with_no_cards():
    """With search=0 adept's searching adapter (stock, dry) and its searched routes still
    search a decision taken while an opponent has no cards left and play goes on
    (adept.near_hand_end with 0 cards): the games those specs have always played."""
    from crates_sim.cards import O_PER_SEAT, O_SEATS, OS_HAND_N
    from crates_sim.strategies.adept import near_hand_end

    obs = np.zeros(A.OBS_LEN, dtype=np.int64)
    obs[A.O_PLAYERS] = 2
    obs[A.O_SEAT] = 0
    obs[A.O_PARTNER] = -1  # no partner: seat 1, with no cards, is an opponent
    hand_size_at = O_SEATS + O_PER_SEAT + OS_HAND_N
    assert near_hand_end(obs, 0)
    obs[hand_size_at] = 1  # now it holds one
    assert not near_hand_end(obs, 0) and near_hand_end(obs, 1)


def test_the_hint_scores_with_the_routed_network():
    from crates_sim.play.step import Table

    table = Table(Rules.preset("classic", 4, partnerships=False), [None] * 4, 8, 0)
    seen = 0
    while not table.over and seen < 3:
        values = table.hint_values("adept")
        if values is not None:
            assert values == table.hint_values("adept:net=3")
            assert values != table.hint_values("adept:route=0")
            seen += 1
        table.answer(table.pending.options[0])
    assert seen == 3


def test_search_plays_expert_near_the_hands_end_and_nothing_else_moves():
    """adept:search=K searches a card decision as expert does when an opponent holds K
    cards or fewer: with K above any hand (52) every decision is expert's, so the games
    are expert's exactly; search=0 (the default) keeps adept's games; K=1 is neither."""
    rules = Rules.preset("classic", 2)

    def totals(spec, n=3):
        res = run_games(rules, [spec, spec], seed=54105, game_start=0, n_games=n, detail="games")
        return res.turns, res.games["total"].tolist()

    from crates_sim.strategy import adapter_of, parse_spec

    # plain adept's adapter is the network alone: expert's search is not compiled for it
    assert adapter_of(*parse_spec("adept")) == ("crates_sim.strategies.adept", "adept_entry")
    assert adapter_of(*parse_spec("adept:search=0")) == adapter_of("adept")
    assert adapter_of(*parse_spec("adept:search=2")) == ("crates_sim.strategies.expert", "adept_search_entry")
    assert totals("adept:search=52", 2) == totals("expert", 2)
    assert totals("adept:search=0") == totals("adept")
    endgame = totals("adept:search=1")
    assert endgame != totals("adept") and endgame != totals("expert", 3)


def test_stock_searches_only_a_draw_offered_beside_a_card_near_an_empty_stock():
    """adept:stock=S searches a card decision that offers a draw beside a card while the
    stock holds S cards or fewer, in Crates: where nobody may draw beside a card (classic:
    a seat that can play must, and a count must be answered) and in Crazy Eights (no
    pressures) it never fires, so the games are adept's exactly; under
    draw_when_able=true, or with a count one may decline, it does
    (adept.stock_search_fires says which); stock=0 is adept."""
    from crates_sim.strategy import adapter_of, parse_spec

    def totals(rules, spec, n=2):
        res = run_games(rules, [spec] * rules.players, seed=54511, game_start=0, n_games=n,
                        detail="games")
        return res.turns, res.games["total"].tolist()

    assert adapter_of(*parse_spec("adept:stock=4")) == ("crates_sim.strategies.expert", "adept_search_entry")
    assert adapter_of(*parse_spec("adept:stock=0")) == adapter_of("adept")
    at_will = Rules.from_spec("classic:draw_when_able=true", 2)
    assert totals(at_will, "adept:stock=0") == totals(at_will, "adept")
    assert totals(at_will, "adept:stock=3") != totals(at_will, "adept")
    # Crazy Eights lets a seat draw at will but has no pressures: stock never fires there
    for rules in (Rules.preset("classic", 2), Rules.preset("crazy-eights", 2), at_will,
                  Rules.from_spec("league:count_forced=false", 2)):
        same = totals(rules, "adept:stock=52") == totals(rules, "adept")  # 52: any stock
        assert same == (not A.stock_search_fires(rules)), rules


def test_dry_searches_every_card_decision_near_an_empty_stock_in_crates():
    """adept:dry=D searches every card decision taken while the stock holds D cards or
    fewer, in Crates (no draw beside a card needed: it fires where stock cannot); in Crazy
    Eights (no pressures) it never fires; dry=52 searches every decision of two options or
    more, which is expert's play; dry=0 is adept."""
    from crates_sim.strategy import adapter_of, parse_spec

    assert adapter_of(*parse_spec("adept:dry=4")) == ("crates_sim.strategies.expert", "adept_search_entry")
    assert adapter_of(*parse_spec("adept:dry=0")) == adapter_of("adept")
    classic = Rules.preset("classic", 2)
    assert not A.stock_search_fires(classic)
    assert _totals(classic, "adept:stock=52") == _totals(classic, "adept")
    assert _totals(classic, "adept:dry=52") != _totals(classic, "adept")
    assert _totals(classic, "adept:dry=52", 1) == _totals(classic, "expert", 1)
    # its searches are expert's with adept's samples and depth (15 by default, expert's)
    cheap = _totals(classic, "adept:dry=52:samples=8:depth=6", 1)
    assert cheap == _totals(classic, "expert:samples=8:depth=6", 1)
    assert cheap != _totals(classic, "expert:samples=8", 1)
    eights = Rules.preset("crazy-eights", 2)
    assert _totals(eights, "adept:dry=52") == _totals(eights, "adept")
    assert A.dry_search_fires(classic) and not A.dry_search_fires(eights)
    # where stock cannot fire, balance's strong player (stock=4:dry=4) plays dry=4's games,
    # whose row analysis/adept_measured.json then quotes (players.measured_spec)
    assert _totals(classic, "adept:stock=4:dry=8") == _totals(classic, "adept:dry=8")


def test_close_options_are_those_within_the_margin_of_the_networks_choice():
    """adept's `margin` (close_options): the options its network scores within the margin
    of its choice are searched, its choice among them; a margin wider than every gap takes
    them all, one narrower than every gap only the choice and its exact equals."""
    checked = 0
    for d, options, _ctx, _rows in _card_decisions(Rules.preset("classic", 4), 5, 20):
        params = np.zeros(8)  # net=0, route=0: set 0's own networks
        rng = np.zeros(4, dtype=np.int64)
        buf = A.weights_buffer()
        choice = A.adept_choice(params, d.obs, d.hand, d.pile, options, rng, buf)
        scores = buf[A.SCORES_AT:A.SCORES_AT + len(options)].copy()
        gaps = scores[choice] - scores
        for margin in (1e-9, float(np.median(gaps)) + 1e-9, 1e9):
            close = np.zeros(len(options), dtype=np.bool_)
            best, m = A.close_options(params, d.obs, d.hand, d.pile, options, buf, margin, close)
            assert best == choice and m == close.sum()
            assert close.tolist() == (gaps < margin).tolist()
        checked += 1
    assert checked >= 5


def test_a_margin_wider_than_every_gap_searches_every_option():
    """With a margin wider than any score gap adept:dry=D searches every option of every
    decision it searches: the search's games without a margin (which options the network
    scores changes no deal the search draws)."""
    rules = Rules.preset("classic", 4, draw_when_able=True)
    searched = "adept:route=2:dry=2:samples=4:depth=6"
    assert _totals(rules, searched + ":margin=1000000000") == _totals(rules, searched)
    assert _totals(rules, searched + ":margin=8") != _totals(rules, searched)


def _war_decision(rules, seed, spec="adept"):
    """The first decision of a pressure war in `spec`'s self-play of game 0 of `seed`:
    a play with the stock empty and WAR_HAND cards or more in hand; (table, row)."""
    from crates_sim.cards import O_STOCK_N, PH_PLAY
    from crates_sim.engine.decide_nb import ask_strategy
    from crates_sim.play.step import Table
    from crates_sim.strategy import addresses, resolve

    (sid,), (row,) = resolve([spec])
    address = int(addresses([spec])[0])
    table = Table(rules, [None] * rules.players, seed, 0)
    while not table.over:
        d = table.pending
        if (table.pending_phase == PH_PLAY and d.obs[O_STOCK_N] == 0
                and len(d.hand) >= A.WAR_HAND and len(d.options) >= 2):
            return table, row
        table.answer(d.options[int(ask_strategy(table._G.copy(), int(sid), row, address))])
    raise AssertionError("no pressure war in that game")


def test_in_a_pressure_war_adept_plays_the_dearest_card_that_makes_an_opponent_draw():
    """Two hoarding adepts reach a pressure war (classic, 2 players, draws at will: the
    stock empty, 10 cards and more in hand). There the shipped adept plays, unscored, the
    highest-valued card that makes the other seat draw without an answer (no count), and
    war=0 leaves the decision to the networks."""
    from crates_sim.cards import E_COUNT
    from crates_sim.engine.decide_nb import ask_strategy
    from crates_sim.strategy import addresses, resolve
    from crates_sim.view import effect, is_action, value

    rules = Rules.from_spec("classic:draw_when_able=True", 2)
    table, row = _war_decision(rules, 7)
    d = table.pending
    options = np.asarray(d.options, dtype=np.int64)
    pick = A.war_choice(row, d.obs, d.hand, options)
    hitting = [c for c in d.options if not is_action(c) and effect(d.obs, c) != E_COUNT
               and A.draws_made(d.obs, c, 0, 1) > 0]
    assert pick >= 0 and d.options[pick] in hitting
    assert value(d.obs, d.options[pick]) == max(value(d.obs, c) for c in hitting)
    (sid,), _ = resolve(["adept"])
    assert ask_strategy(table._G.copy(), int(sid), row, int(addresses(["adept"])[0])) == pick
    # `crates play --hint adept` names the war's card and shows no scores it did not use
    assert table.hint("adept") == d.options[pick]
    assert table.hint_values("adept") is None
    assert set(table.hint_values("adept:war=0")) == set(d.options)
    _ids, (off,) = resolve(["adept:war=0"])
    assert A.war_choice(off, d.obs, d.hand, options) == -1
    _ids, (no_bonus,) = resolve(["adept:draw=0"])  # the war follows the draw bonus
    assert A.war_choice(no_bonus, d.obs, d.hand, options) == -1
    _ids, (early,) = resolve([f"adept:war={len(d.hand) + 1}"])  # a hand too small for it
    assert A.war_choice(early, d.obs, d.hand, options) == -1


def _hoard_decision(rules, seed, spec="adept"):
    """The first play in `spec`'s self-play of game 0 of `seed` that offers a voluntary
    draw beside a card while the stock holds HOARD_STOCK cards or more; (table, row)."""
    from crates_sim.cards import ACTION_DRAW, O_STOCK_N, PH_PLAY
    from crates_sim.engine.decide_nb import ask_strategy
    from crates_sim.play.step import Table
    from crates_sim.strategy import addresses, resolve

    (sid,), (row,) = resolve([spec])
    address = int(addresses([spec])[0])
    table = Table(rules, [None] * rules.players, seed, 0)
    while not table.over:
        d = table.pending
        if (table.pending_phase == PH_PLAY and d.obs[O_STOCK_N] >= A.HOARD_STOCK
                and ACTION_DRAW in d.options and len(d.options) >= 2
                and len(d.hand) >= A.HOARD_HAND and not A.near_hand_end(d.obs, A.HOARD_NEAR)):
            return table, row
        table.answer(d.options[int(ask_strategy(table._G.copy(), int(sid), row, address))])
    raise AssertionError("no such play in that game")


def test_a_hoarder_draws_unscored_while_the_stock_is_high():
    """With 3 players and draws at will the shipped adept draws, unscored, at a play that
    offers a voluntary draw while the stock holds HOARD_STOCK cards or more; hoard=0, no
    draw bonus, or a stock below the threshold leave it to the networks."""
    from crates_sim.cards import ACTION_DRAW, O_STOCK_N
    from crates_sim.engine.decide_nb import ask_strategy
    from crates_sim.strategy import addresses, resolve

    rules = Rules.from_spec("classic:draw_when_able=True", 3)
    table, row = _hoard_decision(rules, 7)
    d = table.pending
    options = np.asarray(d.options, dtype=np.int64)
    pick = A.hoard_choice(row, d.obs, d.hand, options)
    assert pick >= 0 and d.options[pick] == ACTION_DRAW
    assert A.unscored_choice(row, d.obs, d.hand, options) == pick
    (sid,), _ = resolve(["adept"])
    assert ask_strategy(table._G.copy(), int(sid), row, int(addresses(["adept"])[0])) == pick
    assert table.hint("adept") == ACTION_DRAW
    assert table.hint_values("adept") is None  # no scores were used
    assert set(table.hint_values("adept:hoard=0")) == set(d.options)
    for spec in ("adept:hoard=0", "adept:draw=0", f"adept:hoard={int(d.obs[O_STOCK_N]) + 1}"):
        _ids, (other,) = resolve([spec])
        assert A.hoard_choice(other, d.obs, d.hand, options) == -1, spec
    _ids, (explicit,) = resolve([f"adept:hoard={int(d.obs[O_STOCK_N])}"])
    assert A.hoard_choice(explicit, d.obs, d.hand, options) == pick


@pytest.mark.parametrize("preset,players,knobs", [
    ("classic", 2, {"draw_when_able": True, "max_turns_per_hand": 2000}),
    ("league", 3, {"draw_when_able": True, "max_turns_per_hand": 2000}),
])
def test_the_war_changes_games_only_where_the_draw_bonus_plays(preset, players, knobs):
    """war=0 plays adept's games from before WAR_HAND; the shipped adept's differ where a
    war is reached, and without the draw bonus (draw=0, other rule sets) nothing fights it.
    (The games are told apart by their pressures too: a war's totals reach the ceiling.)"""
    def games(rules, spec):
        g = run_games(rules, [spec] * rules.players, 7, 0, 3, detail="games").games
        return g["total"].tolist() + g["pressures"].tolist()

    rules = Rules.preset(preset, players, **knobs)
    assert A.war_hand_of(rules) == A.WAR_HAND == 10
    assert A.war_hand_of(rules, draw=0.0) == 0.0 and A.war_hand_of(rules, net=12.0) == 0.0
    assert games(rules, "adept:draw=0") == games(rules, "adept:draw=0:war=0")
    shipped = games(rules, "adept")
    assert shipped == games(rules, "adept:war=10")
    assert shipped != games(rules, "adept:war=0")  # games 0-2 of seed 7 reach a war
    classic = Rules.preset("classic", 4)
    assert A.war_hand_of(classic) == 0.0  # no draws at will: no bonus, no war
    assert games(classic, "adept") == games(classic, "adept:war=0")


def test_the_hoard_changes_games_only_with_three_players_or_more_at_will():
    """hoard=0 plays adept's games from before HOARD_STOCK. With 3 players and draws at
    will the shipped adept's games are hoard=12's and differ from them; with 2 players,
    without the draw bonus, or without draws at will it never fires."""
    def games(rules, spec):
        g = run_games(rules, [spec] * rules.players, 7, 0, 3, detail="games").games
        return g["total"].tolist() + g["pressures"].tolist()

    three = Rules.preset("league", 3, draw_when_able=True, max_turns_per_hand=2000)
    assert A.hoard_stock_of(three) == A.HOARD_STOCK == 4
    assert A.hoard_stock_of(three, draw=0.0) == 0.0 and A.hoard_stock_of(three, net=12.0) == 0.0
    shipped = games(three, "adept")
    assert shipped == games(three, "adept:hoard=4")
    assert shipped != games(three, "adept:hoard=0")
    assert games(three, "adept:draw=0") == games(three, "adept:draw=0:hoard=0")
    two = Rules.preset("classic", 2, draw_when_able=True, max_turns_per_hand=2000)
    assert A.hoard_stock_of(two) == 0.0 and A.hoard_stock_of(two, hoard=5.0) == 5.0
    assert games(two, "adept") == games(two, "adept:hoard=0")
    classic = Rules.preset("classic", 4)
    assert A.hoard_stock_of(classic) == 0.0 and A.hoard_stock_of(classic, hoard=5.0) == 0.0
    assert games(classic, "adept") == games(classic, "adept:hoard=0")


def test_partners_hoard_to_the_last_card_where_no_five_hits_every_seat():
    """In partnerships at will where no card makes every other seat draw (the 5s removed)
    the shipped adept hoards from HOARD_STOCK_PARTNERS_NO_FIVE (1): its games are
    hoard=1's and not hoard=4's; with the 5s in the deck, or in individual play without
    them, it hoards from HOARD_STOCK as before."""
    def games(rules, spec):
        g = run_games(rules, [spec] * rules.players, 7, 0, 2, detail="games").games
        return g["total"].tolist() + g["pressures"].tolist()

    no_five = Rules.preset("league", 4, partnerships=True, draw_when_able=True,
                           remove_ranks="5K",
                           max_turns_per_hand=2000)
    assert no_five.partnerships and not A.every_seat_draws(A._rules_view(no_five))
    assert A.hoard_stock_of(no_five) == A.HOARD_STOCK_PARTNERS_NO_FIVE == 1
    assert A.hoard_stock_of(no_five, hoard=4.0) == 4.0
    assert A.hoard_stock_of(no_five, draw=0.0) == 0.0
    shipped = games(no_five, "adept")
    assert shipped == games(no_five, "adept:hoard=1")
    assert shipped != games(no_five, "adept:hoard=4")
    with_five = Rules.preset("league", 4, partnerships=True, draw_when_able=True,
                             remove_ranks="K")
    assert A.every_seat_draws(A._rules_view(with_five))
    assert A.hoard_stock_of(with_five) == A.HOARD_STOCK
    alone = Rules.preset("league", 4, partnerships=False, draw_when_able=True,
                         remove_ranks="5K")
    assert A.hoard_stock_of(alone) == A.HOARD_STOCK
