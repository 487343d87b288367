"""Users' own strategy files, their errors, parameters, and what a strategy can see."""

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from crates_sim import CratesError, Rules
from crates_sim.cli.main import cli
from crates_sim.engine.api import run_games, trace_game
from crates_sim.strategy import parse_strategies, resolve

BOTS = str(Path(__file__).parent / "data" / "mybots.py")
RULES = Rules.preset("classic", 4)


PIMC = "pimc:samples=3"


def test_a_user_function_plugs_into_the_one_engine():
    from crates_sim.engine import engine_nb as nb
    from crates_sim.strategy import addresses

    specs = [f"{BOTS}:cheapest", "greedy", f"{BOTS}:cheapest:bad=0", "greedy"]
    a = run_games(RULES, specs, seed=4, game_start=0, n_games=30)
    b = run_games(RULES, specs, seed=4, game_start=10, n_games=20)
    assert (a.games["total"][40:] == b.games["total"]).all()
    assert a.capped_hands == 0
    events = trace_game(RULES, specs, seed=4, game=12)
    assert events[-1]["totals"] == a.games["total"][48:52].tolist()
    # one adapter per function, called by address; the engine has a single compiled version
    addrs = addresses(specs)
    assert addrs[0] == addrs[2] != 0 and addrs[1] == addrs[3] == 0
    assert len(nb.play_games_nb.signatures) == 1 and len(nb.play_on.signatures) == 1


SEARCH_SPECS = [f"{BOTS}:cheapest", PIMC, f"{BOTS}:allocating", "greedy"]


def test_a_user_function_that_allocates_runs_in_the_same_engine():
    from crates_sim.engine import engine_nb as nb
    from crates_sim.userstrat import _ADDRESSES, load_function

    specs = SEARCH_SPECS[:3] + [f"{BOTS}:via_helper"]
    res = run_games(RULES, specs, seed=4, game_start=0, n_games=3)
    assert res.capped_hands == 0 and len(res.games["total"]) == 12
    assert len(nb.play_games_nb.signatures) == 1
    counted = {func: _ADDRESSES[(id(load_function(BOTS, func)[0]), func)][1].targetoptions["_nrt"]
               for func in ("cheapest", "allocating", "via_helper")}
    # reference counting only for the functions that allocate
    assert counted == {"cheapest": False, "allocating": True, "via_helper": True}


def test_an_exception_in_a_user_function_reaches_python_as_one_line():
    specs = [f"{BOTS}:raises", "greedy", "greedy", "greedy"]
    with pytest.raises(CratesError, match=r"raises raised ValueError: .*no plan"):
        run_games(RULES, specs, seed=4, game_start=0, n_games=2)
    result = CliRunner().invoke(cli, ["trace", "--strategies", ",".join(specs)])
    assert result.exit_code == 2 and "no plan" in result.output
    assert "Traceback" not in result.output


def test_pimc_is_reproducible_and_legal_in_every_preset():
    a = run_games(RULES, SEARCH_SPECS, seed=4, game_start=0, n_games=6)
    b = run_games(RULES, SEARCH_SPECS, seed=4, game_start=2, n_games=4)
    assert (a.games["total"][8:] == b.games["total"]).all()  # pimc with a fixed seed
    for preset, n in (("league", 3), ("serbian", 4), ("very-crazy-eights", 3)):
        rules = Rules.preset(preset, n)
        specs = [f"{BOTS}:cheapest", PIMC, f"{BOTS}:allocating"] + ["random"] * (n - 3)
        assert run_games(rules, specs, seed=2, game_start=0, n_games=2).capped_hands == 0


def test_an_illegal_choice_stops_the_run_with_the_position():
    specs = [f"{BOTS}:cheapest", f"{BOTS}:cheapest:bad=1", "greedy", "greedy"]
    with pytest.raises(CratesError) as info:
        run_games(RULES, specs, seed=4, game_start=0, n_games=5)
    text = str(info.value)
    assert "seat 1" in text and "illegal choice" in text and "Seed 4, game 0, hand 1" in text
    assert "legal choices" in text and "its hand" in text and "bad=1" in text


def test_user_parameters_arrive_in_their_declared_order():
    ids, params = resolve([f"{BOTS}:cheapest:b=-2:a=1.5", "greedy:forget=0.25", "random",
                           "random"])
    assert ids[0] >= 100 and ids[1] == 1
    assert params[0, :3].tolist() == [0.0, 1.5, -2.0] and params[1, 0] == 0.25


@pytest.mark.parametrize("spec,message", [
    (f"{BOTS}:not_jitted", "not a numba @njit function"),
    (f"{BOTS}:missing", "has no function 'missing'"),
    ("nowhere/bots.py:x", "not found"),
    (f"{BOTS}", "name the function"),
    ("no_such_module.bots:x", "failed to import"),
    ("greedy:forget=lots", "not a number"),
    ("greedy:nerve=1", "bad parameter"),
    ("greedy:forget=2", "out of range"),
    ("pimc:samples=-3", "out of range"),
    ("pimc:samples=2.5", "whole number"),
    ("pimc:policy=0", "out of range"),
    (f"{BOTS}:cheapest:1.5", "key=value"),
    (f"{BOTS}:cheapest:risk=1", "bad parameter"),
    (f"{BOTS}:cheapest:bad=3", "out of range"),
    (f"{BOTS}:peeker:x=1", "none declared"),
])
def test_loader_errors(spec, message):
    with pytest.raises(CratesError, match=message):
        parse_strategies([spec] * 4, 4)


def test_a_function_with_the_wrong_signature_is_one_clear_line():
    result = CliRunner().invoke(cli, ["trace", "--strategies", f"{BOTS}:wrong_signature,greedy,greedy,greedy"])
    assert result.exit_code == 2
    assert "wrong_signature takes (params, obs): a decision function takes" in result.output
    assert "Traceback" not in result.output and len(result.output.splitlines()) == 1


@pytest.mark.parametrize("preset", ["classic", "crazy-eights"])
def test_the_view_does_not_depend_on_hidden_cards(preset):
    """Two positions that differ only in other seats' cards and the stock order give a
    strategy exactly the same arguments."""
    from crates_sim import cards as C
    from crates_sim.engine import engine_nb as nb

    rules = Rules.preset(preset, 4)
    ids, params = resolve(["greedy"] * 4)
    G = nb.new_state(rules.to_array(), ids, params, np.zeros(4, dtype=np.int64),
                     np.zeros(nb.N_ENGINE, dtype=np.int64), 0)
    nb.start_game(G, np.uint64(1), 0)
    nb.deal_hand(G, np.uint64(1), 0, 1)
    G2 = nb.copy_state(G)
    S, S2 = G, G2  # the flat state arrays (layout: engine_nb *0 offsets)
    me = 1
    size = int(S[nb.SV0 + me * nb.NSV + nb.SV_HAND_N])
    stock_n = int(S[nb.S_STOCK_N])
    hidden = [int(S2[nb.HD0 + q * 52 + i]) for q in range(4) if q != me for i in range(size)]
    hidden += [int(S2[nb.STK0 + i]) for i in range(stock_n)]
    np.random.default_rng(0).shuffle(hidden)
    k = 0
    for q in range(4):
        if q != me:
            S2[nb.HD0 + q * 52:nb.HD0 + q * 52 + size] = hidden[k:k + size]
            k += size
    S2[nb.STK0:nb.STK0 + stock_n] = hidden[k:]
    assert (S[nb.HD0:nb.STK0 + 52] != S2[nb.HD0:nb.STK0 + 52]).any()  # hidden cards differ
    obs = slice(nb.OBS0, nb.OBS0 + C.OBS_LEN)
    for phase in range(6):
        # the whole view, the part hand-only built-ins get, the least a user's may declare
        for table, seats in ((True, True), (True, False), (False, False)):
            nb.fill_obs(G, me, phase, -1, table, seats)
            nb.fill_obs(G2, me, phase, -1, table, seats)
            assert (S[obs] == S2[obs]).all()
    own = slice(nb.HD0 + me * 52, nb.HD0 + me * 52 + size)
    assert (S[own] == S2[own]).all()
    assert (S[nb.PIL0:nb.PIL0 + 52] == S2[nb.PIL0:nb.PIL0 + 52]).all()  # the pile


def test_a_function_declares_the_parts_of_the_view_it_reads_and_plays_as_before():
    from crates_sim.strategy_ids import GREEDY, SKIP_SEATS, SKIP_TABLE, USER_BASE
    from crates_sim.view import reads

    specs = [f"{BOTS}:lean_greedy", f"{BOTS}:follow_suit", f"{BOTS}:cheapest", "greedy"]
    ids, _ = resolve(specs)
    assert ids.tolist() == [USER_BASE + SKIP_TABLE + SKIP_SEATS, USER_BASE + 1 + SKIP_SEATS,
                            USER_BASE + 2, GREEDY]
    # greedy's choice with none of the table written; the table's scalars as declared
    for a, b in (("greedy", f"{BOTS}:lean_greedy"),
                 (f"{BOTS}:follow_suit_full", f"{BOTS}:follow_suit")):
        ga = run_games(RULES, [a, "random", a, "aggressive"], seed=3, game_start=0, n_games=30)
        gb = run_games(RULES, [b, "random", b, "aggressive"], seed=3, game_start=0, n_games=30)
        assert (ga.games["total"] == gb.games["total"]).all() and ga.turns == gb.turns
    with pytest.raises(CratesError, match="unknown part 'hands'"):
        reads("hands")


def test_a_part_read_without_being_declared_still_gives_the_same_game_whatever_the_chunk():
    specs = [f"{BOTS}:follow_suit_stale", "random", "greedy", "random"]
    whole = run_games(RULES, specs, seed=8, game_start=0, n_games=12)
    tail = run_games(RULES, specs, seed=8, game_start=9, n_games=3)
    assert (whole.games["total"][36:] == tail.games["total"]).all()
    full = [f"{BOTS}:follow_suit_full"] + specs[1:]
    assert (whole.games["total"] != run_games(RULES, full, seed=8, game_start=0,
                                              n_games=12).games["total"]).any()


def test_a_cold_kernel_says_it_is_compiling_and_a_warm_one_is_silent(tmp_path, capfd,
                                                                     monkeypatch):
    """The compile line on stderr (`engine._load_or_compile`), on a kernel of its own in an
    empty cache folder: compiled (and announced) once, loaded silently afterwards."""
    import importlib.util

    import numba

    from crates_sim.engine.api import _load_or_compile

    src = tmp_path / "tiny_kernel.py"
    src.write_text("from numba import njit\n\n@njit(cache=True)\ndef tiny(a):\n"
                   "    return a[0] + 1\n")
    # numba re-reads its config from the environment now and then: set both
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))

    def fresh():  # a new dispatcher of the same function, as a new process would have
        spec = importlib.util.spec_from_file_location("tiny_kernel", src)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.tiny

    capfd.readouterr()
    seconds = _load_or_compile(fresh(), (np.zeros(1, dtype=np.int64),), "the tiny kernel")
    err = capfd.readouterr().err
    assert seconds > 0 and err.startswith("compiling the tiny kernel (first run on this machine;")
    assert err.count("\n") == 1 and err.endswith(")\n")  # one whole line, written at once
    assert _load_or_compile(fresh(), (np.zeros(1, dtype=np.int64),), "the tiny kernel") == 0.0
    assert capfd.readouterr().err == ""


def test_the_side_by_side_compile_compiles_the_kernels_as_their_callers_call_them():
    """A cold start compiles kernel groups in two processes (`engine._side_by_side`): each
    kernel for the argument types its callers use, so that `play_on` loads them from the
    cache instead of compiling a second version: the cache holds one version of each."""
    from crates_sim.engine.api import _in_cache, _kernel_groups, prepare

    prepare()
    main, helper = _kernel_groups()
    for kernel, sig in main + helper:
        assert _in_cache(kernel, sig), kernel.py_func.__name__
        cache = kernel._cache
        assert len(cache._cache_file._load_index()) == 1, kernel.py_func.__name__


def test_crates_compile_readies_the_engine():
    result = CliRunner().invoke(cli, ["compile", "--strategies", f"pimc,{BOTS}:cheapest"])
    assert result.exit_code == 0, result.output
    assert "engine and built-in strategies ready" in result.output
    bad = CliRunner().invoke(cli, ["compile", "--strategies", f"{BOTS}:wrong_signature"])
    assert bad.exit_code == 2 and "a decision function takes" in bad.output


def test_crates_compile_covers_every_root_and_builtin_adapter():
    """`crates compile` (runs.warm) leaves in the cache every root the engine may load
    (with decide and without) and every built-in strategy's adapter, then plays a short
    game on the step engine and the replays: no later command compiles (issue 32.3)."""
    from crates_sim.engine import api
    from crates_sim.runs import warm
    from crates_sim.strategy import EXTERNAL

    jobs = [job for job, _ in warm._jobs()]
    assert {f"adapter:{name}" for name in EXTERNAL} <= set(jobs)
    roots = {warm._root(job.split(":")[1])[0] for job in jobs if job.startswith("root:")}
    assert roots == {k for k, _, _ in api._roots(True) + api._roots(False)}
    assert jobs[-1] == "use:short_game"
    seconds, cold = warm.compile_everything()  # warm by now (this module's runs): loads
    assert not cold and not warm._cold()
