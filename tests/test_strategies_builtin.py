"""The heuristic built-ins (issue 4 §3): legal over every preset, their defining rules,
parameters and determinism.

Legality is the engine's own check: an option index out of range stops a run with a
CratesError. The 3 rules of hoard3 and dump3 are checked on traced games by replaying the
log (hands, current suit and rank, counts). The aggressive / partner / weights rules are
checked by calling the kernels on hand-made views.
"""

import numpy as np
import pytest

from crates_sim import cards as C
from crates_sim.engine.api import run_games, trace_game
from crates_sim.errors import CratesError
from crates_sim.rules import Rules
from crates_sim.strategies import heuristic as H
from crates_sim.strategy import BUILTINS, parse_spec, resolve

HEURISTICS = ["hoard3", "dump3", "aggressive", "partner", "weights"]
VARIANTS = ["aggressive:leader_weight=3", "aggressive:leader_weight=0:forget=0.5",
            "partner:forget=0.3:feed_cost=0",
            "weights:w0=-1:w1=2:w2=3:w3=-1:w4=1:w5=-1:w6=5:w7=-2"]
#: (preset, players, overrides)
TABLES = [
    ("classic", 4, {}), ("classic", 4, {"partnerships": False}), ("classic", 2, {}),
    ("classic", 3, {}), ("classic", 5, {"count_forced": False}),
    ("league", 4, {}), ("league", 3, {}), ("serbian", 4, {}), ("serbian", 2, {}),
    ("crazy-eights", 4, {}), ("crazy-eights", 2, {"draw_rule": "unlimited"}),
    ("crazy-eights", 3, {"draw_rule": "one"}),
    ("very-crazy-eights", 4, {}), ("very-crazy-eights", 3, {"draw_rule": "one"}),
]
GAMES = {"crates": 150, "eights": 150}
#: keep3 (issue 11 part 3) at its extremes and in between
KEEP3 = ["keep3", "keep3:three=-100", "keep3:three=100:late=-20",
         "keep3:three=-25:late=5:forget=0.3"]


def _rules(preset, players, overrides):
    return Rules.preset(preset, players, **overrides)


def _field(strategy, players, shift):
    others = ["random", "greedy"] + HEURISTICS + VARIANTS
    return [strategy if q % 2 == 0 else others[(q + shift) % len(others)] for q in range(players)]


# ---------------------------------------------------------------- legality
@pytest.mark.parametrize("preset,players,overrides", TABLES,
                         ids=[f"{p}-{n}{'-' + '-'.join(o) if o else ''}" for p, n, o in TABLES])
@pytest.mark.parametrize("strategy", HEURISTICS + VARIANTS + KEEP3)
def test_only_legal_choices(preset, players, overrides, strategy):
    rules = _rules(preset, players, overrides)
    n_games = GAMES[rules.family]
    for shift in range(2):
        specs = _field(strategy, players, 3 * shift + len(strategy))
        if shift:
            specs = specs[1:] + specs[:1]
        res = run_games(rules, specs, seed=11 + shift, game_start=0, n_games=n_games,
                        detail="games")
        assert len(res.games["total"]) == n_games * players


# ---------------------------------------------------------------- 3s, from the log
def _is_wild(card, crates):
    r = card // 4
    return r == C.R_8 or (crates and r == C.R_9)


def _plays_with_legal(events):
    """Yield (seat, card, legal cards in hand, count_active) for each play of the log, and
    (seat, None, legal, False) for each voluntary draw."""
    game = events[0]
    rules = game["rules"]
    crates = "count_value" in rules
    vce = game["preset"] == "very-crazy-eights"
    upcard_count = crates and rules["upcard_rule"] in ("as_played", "serbian")
    hands = suit = rank = None
    count = False
    for ev in events[1:]:
        kind = ev["ev"]
        if kind == "deal":
            hands = [[C.parse_card(c) for c in h] for h in ev["hands"]]
            up = C.parse_card(ev["upcard"])
            suit, rank = up % 4, up // 4
            count = upcard_count and rank == C.R_2
        elif kind == "call":
            suit = C.SUITS.index(ev["suit"])
        elif kind == "play":
            seat, card = ev["seat"], C.parse_card(ev["card"])
            hand = hands[seat]
            legal = [c for c in hand if c % 4 == suit or c // 4 == rank or _is_wild(c, crates)]
            yield seat, card, legal, count
            hand.remove(card)
            rank = card // 4
            suit = C.SUITS.index(ev["suit"]) if ev["suit"] else card % 4
            if rank == C.R_2 and (crates or vce):
                count = True
            elif not (count and crates and rank == C.R_A):
                count = False
        elif kind == "draw":
            card = C.parse_card(ev["card"])
            if ev["why"] == "voluntary":
                hand = hands[ev["seat"]]
                legal = [c for c in hand if c % 4 == suit or c // 4 == rank
                         or _is_wild(c, crates)]
                yield ev["seat"], None, legal, False
            if ev["why"] in ("count", "vce_two"):
                count = False
            hands[ev["seat"]].append(card)


def _threes_checked(strategy, preset, players, n_games, overrides=None):
    rules = _rules(preset, players, overrides or {})
    specs = [strategy, "random", strategy, "greedy"][:players] if players > 2 \
        else [strategy, "random"]
    seats = [q for q in range(players) if specs[q] == strategy]
    threes = others = 0
    for game in range(n_games):
        for seat, card, legal, count in _plays_with_legal(trace_game(rules, specs, 5, game)):
            if seat not in seats:
                continue
            assert card is not None, f"{strategy} drew voluntarily holding {legal}"
            if count:
                continue
            assert card in legal, "log replay out of step"
            if card // 4 == C.R_3:
                threes += 1
                if strategy == "hoard3":
                    assert all(c // 4 == C.R_3 for c in legal), \
                        f"hoard3 played {C.card_name(card)} holding legal " \
                        f"{[C.card_name(c) for c in legal]} (game {game})"
            else:
                others += 1
                if strategy == "dump3":
                    assert not any(c // 4 == C.R_3 for c in legal), \
                        f"dump3 played {C.card_name(card)} holding legal " \
                        f"{[C.card_name(c) for c in legal]} (game {game})"
    return threes, others


@pytest.mark.parametrize("strategy", ["hoard3", "dump3"])
@pytest.mark.parametrize("preset,players", [("classic", 4), ("league", 3), ("serbian", 4),
                                            ("crazy-eights", 4), ("very-crazy-eights", 2)])
def test_threes_rule_over_traced_games(strategy, preset, players):
    threes, others = _threes_checked(strategy, preset, players, 40)
    assert threes > 0 and others > 0  # the check had something to check


def test_replay_check_catches_greedy_shedding_a_three_late():
    """The dump3 check is not vacuous: greedy keeps 3s that dump3 would have played."""
    with pytest.raises(AssertionError, match="dump3 played"):
        rules = Rules.preset("classic", 4)
        specs = ["greedy"] * 4
        for game in range(12):
            for _seat, card, legal, count in _plays_with_legal(trace_game(rules, specs, 5, game)):
                if not count and card is not None and card // 4 != C.R_3:
                    assert not any(c // 4 == C.R_3 for c in legal), "dump3 played"


# ---------------------------------------------------------------- kernels on hand-made views
def _view(hand, options, suit="C", rank="K", seat=0, players=4, partner=2, totals=None,
          sizes=None, phase=C.PH_PLAY, family=0, direction=1, pile=(), rules=None):
    """A seat's view; the rules in it are classic (partnerships with 4 players) or, for
    family 1, crazy-eights, unless `rules` is given."""
    obs = np.zeros(C.OBS_LEN, dtype=np.int64)
    if rules is None:
        rules = Rules.preset("classic" if family == 0 else "crazy-eights", players,
                             **({"partnerships": partner >= 0} if family == 0 and players == 4
                                else {}))
    obs[C.O_RULES:C.O_RULES + C.RULES_LEN] = rules.to_array()
    obs[C.O_SEAT], obs[C.O_PLAYERS], obs[C.O_PARTNER] = seat, players, partner
    obs[C.O_DIR], obs[C.O_PHASE], obs[C.O_FAMILY] = direction, phase, family
    obs[C.O_SUIT], obs[C.O_RANK] = C.SUITS.index(suit), C.RANKS.index(rank)
    totals = totals or [0] * players
    sizes = sizes or [5] * players
    for q in range(players):
        base = C.O_SEATS + q * C.O_PER_SEAT
        obs[base + C.OS_HAND_N] = sizes[q]
        obs[base + C.OS_TOTAL] = totals[q]
        obs[base + C.OS_LAST_CARD] = int(sizes[q] == 1)
    h = np.full(52, -1, dtype=np.int64)
    cards = [C.parse_card(c) for c in hand]
    h[:len(cards)] = cards
    p = np.full(60, -1, dtype=np.int64)
    pcards = [C.parse_card(c) for c in pile]
    p[:len(pcards)] = pcards
    o = np.full(60, -1, dtype=np.int64)
    opts = [C.parse_card(x) if isinstance(x, str) else x for x in options]
    o[:len(opts)] = opts
    return obs, h, len(cards), p, len(pcards), o, len(opts)


def _choose(name, spec_params, view):
    """The option the kernel `name` picks, with params resolved from the spec."""
    obs, h, hn, p, pn, o, no = view
    _ids, params = resolve([spec_params])
    rng = np.full(8, 0x1234567, dtype=np.int64)  # a random stream: rng[4:8]
    k = getattr(H, name + "_nb")(params[0], obs, h[:hn], p[:pn], o[:no], rng[4:8])
    assert 0 <= k < no
    x = int(o[k])
    if obs[C.O_PHASE] >= C.PH_CALL:  # a suit, or announce 0 / 1
        return x
    return C.card_name(x) if x < 52 else x


def test_hoard3_and_dump3_choices():
    view = _view(["3C", "KC", "8H"], ["3C", "KC", "8H"])
    assert _choose("hoard3", "hoard3", view) == "8H"
    assert _choose("dump3", "dump3", view) == "3C"
    only3 = _view(["3C", "3D", "KH"], ["3C", "3D"])
    assert _choose("hoard3", "hoard3", only3) == "3C"
    eights = _view(["3C", "AC"], ["3C", "AC", C.ACTION_DRAW], family=1)
    assert _choose("hoard3", "hoard3", eights) == "AC"
    assert _choose("dump3", "dump3", eights) == "3C"


def test_aggressive_aims_at_the_leader_and_keeps_wilds():
    hand = ["6C", "4C", "8H", "KC"]
    leader_next = dict(totals=[80, 20, 80, 60])
    view = _view(hand, hand, **leader_next)
    assert _choose("aggressive", "aggressive", view) == "4C"  # skips the leader
    assert _choose("aggressive", "aggressive:leader_weight=0", view) == "6C"  # sheds points
    behind = _view(hand, hand, totals=[80, 60, 80, 20])
    assert _choose("aggressive", "aggressive", behind) == "6C"
    assert _choose("aggressive", "aggressive", _view(hand, ["8H", "KC"])) == "KC"
    assert _choose("aggressive", "aggressive", _view(hand, ["8H"])) == "8H"
    # reversed direction: the next player is seat 3
    rev = _view(hand, hand, totals=[80, 60, 80, 20], direction=-1)
    assert _choose("aggressive", "aggressive", rev) == "4C"
    # a player on last card is worth hitting
    last = _view(hand, hand, totals=[0, 50, 0, 20], sizes=[4, 1, 5, 5])
    assert _choose("aggressive", "aggressive", last) == "4C"
    not_last = _view(hand, hand, totals=[0, 50, 0, 20])
    assert _choose("aggressive", "aggressive", not_last) == "6C"


def test_aggressive_sevens_and_the_partner():
    hand = ["7C", "KC"]
    across = _view(hand, hand)  # 4 players with partners: a 7 across hits the partner
    assert _choose("aggressive", "aggressive", across) == "KC"
    serbian = _view(hand, hand, rules=Rules.preset("serbian", 4))  # a 7 hits the next player
    assert _choose("aggressive", "aggressive", serbian) == "7C"
    solo = _view(hand, hand, partner=-1)
    assert _choose("aggressive", "aggressive", solo) == "7C"
    count = _view(["AC", "2D"], ["AC", "2D", C.ACTION_DRAW], phase=C.PH_COUNT)
    assert _choose("aggressive", "aggressive", count) == "2D"
    eights = _view(["8C", "KC", "4C"], ["8C", "KC", "4C"], family=1, partner=-1)
    assert _choose("aggressive", "aggressive", eights) == "KC"


def test_effects_come_from_the_rules_in_the_view():
    # 3 players, classic jack: the previous player draws; league has no jack effect
    hand = ["KC", "JC"]
    jack = _view(hand, hand, players=3, partner=-1, totals=[50, 50, 0])
    assert _choose("aggressive", "aggressive", jack) == "JC"
    league = _view(hand, hand, players=3, partner=-1, totals=[50, 50, 0],
                   rules=Rules.preset("league", 3))
    assert _choose("aggressive", "aggressive", league) == "KC"
    # 9s are not wild with nine_wild off: aggressive plays them like any card
    nines = ["9C", "KC"]
    assert _choose("aggressive", "aggressive", _view(nines, nines)) == "KC"
    plain = _view(nines, nines, rules=Rules.preset("classic", 4, nine_wild=False))
    assert _choose("aggressive", "aggressive", plain) == "9C"
    # Very Crazy Eights: the queen of spades hits the next player (weights' w3)
    vce = _view(["QS", "KS"], ["QS", "KS"], family=1, partner=-1, suit="S",
                rules=Rules.preset("very-crazy-eights", 4))
    only_hits = "weights:w0=0:w1=0:w2=0:w3=1:w4=0:w5=0:w6=0:w7=0"
    assert _choose("weights", only_hits, vce) == "QS"
    ce = _view(["KS", "QS"], ["KS", "QS"], family=1, partner=-1, suit="S")
    assert _choose("weights", only_hits, ce) == "KS"  # no effect: a tie, the first


def test_partner_does_not_feed_its_partner():
    hand = ["7C", "KC"]
    assert _choose("partner", "partner", _view(hand, hand)) == "KC"
    serbian = _view(hand, hand, rules=Rules.preset("serbian", 4))  # a 7 hits the next player
    assert _choose("partner", "partner", serbian) == "7C"
    assert _choose("partner", "partner:feed_cost=0", _view(hand, hand)) == "7C"
    assert _choose("partner", "partner:feed_cost=15", _view(hand, hand)) == "KC"
    mate_last = _view(hand, hand, sizes=[2, 5, 1, 5])
    assert _choose("partner", "partner:feed_cost=0", mate_last) == "KC"
    five = ["5C", "KC"]
    assert _choose("partner", "partner", _view(five, five)) == "5C"
    mate_last = _view(five, five, sizes=[2, 5, 1, 5])
    assert _choose("partner", "partner", mate_last) == "KC"
    # forced: the 5 is the only legal card
    assert _choose("partner", "partner", _view(five, ["5C"], sizes=[2, 5, 1, 5])) == "5C"


def test_partner_lets_the_partner_go_out():
    # the partner (two turns back: the card below the top) played hearts, holds one card
    pile = ["2C", "9H", "KH"]
    view = _view(["AH", "KS"], ["AH", "KS"], suit="H", rank="K", sizes=[3, 4, 1, 4], pile=pile)
    assert _choose("partner", "partner", view) == "AH"  # keeps hearts for the partner
    view = _view(["AH", "KS"], ["AH", "KS"], suit="H", rank="K", sizes=[3, 4, 4, 4], pile=pile)
    assert _choose("partner", "partner", view) == "KS"  # otherwise greedy
    # a 4 skips the opponent in between
    view = _view(["4C", "TC"], ["4C", "TC"], sizes=[2, 4, 1, 4], pile=["5D", "QC", "KC"])
    assert _choose("partner", "partner", view) == "4C"
    view = _view(["4C", "TC"], ["4C", "TC"], sizes=[2, 4, 3, 4], pile=["5D", "QC", "KC"])
    assert _choose("partner", "partner", view) == "TC"
    # after my own 6 the partner's play is three cards down
    view = _view(["AH", "KS"], ["AH", "KS"], suit="H", rank="6", sizes=[3, 4, 1, 4],
                 pile=["9H", "KD", "6H"], phase=C.PH_AGAIN)
    assert _choose("partner", "partner", view) == "AH"


def test_partner_calls_the_partners_suit():
    # the partner's last play was a spade; I hold two hearts and one spade
    hand = ["TH", "JH", "KS"]
    suits = [0, 1, 2, 3]
    view = _view(hand, suits, phase=C.PH_CALL, pile=["5D", "QS", "KC"])
    assert _choose("partner", "partner", view) == 2  # longest suit when the partner has cards
    mate_last = _view(hand, suits, phase=C.PH_CALL, pile=["5D", "QS", "KC"], sizes=[3, 4, 1, 4])
    assert _choose("partner", "partner", mate_last) == 3
    tie = _view(["TH", "KS"], suits, phase=C.PH_CALL, pile=["5D", "QS", "KC"])
    assert _choose("partner", "partner", tie) == 3


def test_partner_without_partnerships_is_greedy():
    hand = ["7C", "KC", "8C", "5C"]
    solo = _view(hand, hand, partner=-1)
    assert _choose("partner", "partner", solo) == "8C"
    rules = Rules.preset("classic", 4, partnerships=False)
    a = run_games(rules, ["partner", "random", "partner", "random"], 3, 0, 30, detail="games")
    b = run_games(rules, ["greedy", "random", "greedy", "random"], 3, 0, 30, detail="games")
    np.testing.assert_array_equal(a.games["total"], b.games["total"])


def test_weights_scores_features():
    hand = ["3C", "KC", "8H", "4C"]
    opts = ["3C", "KC", "8H", "4C", C.ACTION_DRAW]
    view = _view(hand, opts, totals=[0, 0, 0, 0])
    only = "weights:w0=0:w1=0:w2=0:w3=0:w4=0:w5=0:w6=0:w7=0"
    assert _choose("weights", only, view) == "3C"  # all ties: the first
    assert _choose("weights", only.replace("w0=0", "w0=1"), view) == "8H"
    assert _choose("weights", only.replace("w2=0", "w2=1"), view) == "3C"
    assert _choose("weights", only.replace("w1=0", "w1=1"), view) == "8H"
    assert _choose("weights", only.replace("w3=0", "w3=1"), view) == "4C"
    assert _choose("weights", only.replace("w6=0", "w6=1"), view) == C.ACTION_DRAW
    assert _choose("weights", "weights", view) == "4C"  # defaults: 1.5 + 1 + 1 + 0.5 * 2
    suit = _view(["KC", "KD", "2D", "5D"], ["KC", "KD"], suit="C", rank="K")
    assert _choose("weights", only.replace("w4=0", "w4=1"), suit) == "KC"
    assert _choose("weights", only.replace("w5=0", "w5=1"), suit) == "KD"
    assert _choose("weights", "weights", _view(hand, [0, 1, 2, 3], phase=C.PH_CALL)) == 0


def test_announce_and_forget():
    ann = _view(["KC"], [0, 1], phase=C.PH_ANNOUNCE)
    for name in HEURISTICS:
        assert _choose(name, name, ann) == 1
    for name in ["hoard3", "dump3", "aggressive", "partner"]:
        assert _choose(name, f"{name}:forget=1", ann) == 0


# ---------------------------------------------------------------- parameters
def test_registered_with_their_parameters():
    ids = {name: BUILTINS[name][0] for name in HEURISTICS}
    assert ids == {"hoard3": 2, "dump3": 3, "aggressive": 4, "partner": 5, "weights": 6}
    assert BUILTINS["random"][0] == 0 and BUILTINS["greedy"][0] == 1
    assert list(BUILTINS["weights"][2]) == [f"w{i}" for i in range(8)]
    for name in HEURISTICS:
        assert BUILTINS[name][1]
        doc = getattr(H, name + "_nb").__doc__
        assert doc and len(doc) > 40


TUNED_SPEC = "weights:w0=2.69:w1=-12.75:w2=-1.75:w3=-1.5:w4=-0.19:w5=1.57:w6=-2.8:w7=1.64"


def test_tuned_is_weights_with_the_tuned_defaults():
    assert BUILTINS["tuned"][0] == BUILTINS["weights"][0]
    assert list(BUILTINS["tuned"][2]) == [f"w{i}" for i in range(8)]
    ids, params = resolve(["tuned", TUNED_SPEC, "tuned:w6=-10", "weights"])
    assert (ids == BUILTINS["weights"][0]).all()
    assert (params[0] == params[1]).all() and params[2, 6] == -10 and (params[2, :6] == params[0, :6]).all()
    assert not (params[0] == params[3]).all()
    # game for game the same as the spec it stands for
    for rules in (Rules.preset("classic", 4), Rules.preset("classic", 4, partnerships=False)):
        a = run_games(rules, ["tuned", "greedy", "tuned", "aggressive"], 4, 0, 25, detail="games")
        b = run_games(rules, [TUNED_SPEC, "greedy", TUNED_SPEC, "aggressive"], 4, 0, 25, detail="games")
        for key in ("total", "rank", "win", "pressures", "hands"):
            assert np.array_equal(a.games[key], b.games[key]), key


def test_parameter_parsing():
    assert parse_spec("aggressive:leader_weight=2") == ("aggressive", {"leader_weight": 2.0})
    ids, params = resolve(["aggressive:leader_weight=2", "aggressive:forget=0.25",
                           "partner:forget=0.5", "weights:w3=-1.5:w7=4"])
    assert list(ids) == [4, 4, 5, 6]
    assert list(params[0][:3]) == [2.0, 0.0, 0.0]
    assert list(params[1][:3]) == [1.0, 0.25, 0.0]
    assert list(params[2][:3]) == [0.5, 1000.0, 0.0]
    assert list(params[3][:8]) == [1.0, -3.0, -1.0, -1.5, 0.0, 0.5, -10.0, 4.0]
    assert not params[3][8:].any()  # the slots weights does not use
    for bad in ["aggressive:leader=2", "aggressive:leader_weight", "aggressive:leader_weight=x",
                "hoard3:samples=3", "weights:w8=1", "partner:leader_weight=1", "dump4",
                "aggressive:seven_across=0"]:
        with pytest.raises(CratesError):
            parse_spec(bad)


# ---------------------------------------------------------------- determinism
@pytest.mark.parametrize("preset,players", [("classic", 4), ("crazy-eights", 4)])
def test_deterministic(preset, players):
    rules = Rules.preset(preset, players)
    specs = ["aggressive:forget=0.2", "partner:forget=0.2", "weights", "hoard3:forget=0.1"]
    a = run_games(rules, specs, 21, 0, 60)
    b = run_games(rules, specs, 21, 0, 60)
    c = run_games(rules, specs, 22, 0, 60)
    for key in a.games:
        np.testing.assert_array_equal(a.games[key], b.games[key])
    for key in a.hands:
        np.testing.assert_array_equal(a.hands[key], b.hands[key])
    assert not np.array_equal(a.games["total"], c.games["total"])
    # a game is the same whether played alone or in a chunk
    one = run_games(rules, specs, 21, 17, 1, detail="games")
    np.testing.assert_array_equal(one.games["total"], a.games["total"][17 * players:18 * players])


# ---------------------------------------------------------------- keep3
def test_keep3_is_registered_and_dispatched_inline():
    from crates_sim import strategy_ids as S
    from crates_sim.engine.dispatch_nb import choose_nb, is_inline

    assert BUILTINS["keep3"][0] == S.KEEP3 == 8 and S.PIMC == S.N_INLINE == 7
    assert list(BUILTINS["keep3"][2]) == ["three", "late", "forget"]
    assert is_inline(S.KEEP3) and is_inline(S.WEIGHTS) and is_inline(S.RANDOM)
    assert not is_inline(S.PIMC) and not is_inline(S.USER_BASE) and not is_inline(S.AGENT)
    assert len(H.keep3_nb.__doc__) > 40
    # the engine's dispatch: id 8 is keep3's kernel (and pimc's id is not compiled in)
    obs, h, hn, p, pn, o, no = _view(["3C", "KC", "8H"], ["3C", "KC", "8H"])
    rng = np.full(4, 0x1234567, dtype=np.int64)
    for spec, card in [("keep3:three=-100", "3C"), ("keep3", "8H"), ("keep3:three=-60", "3C"),
                       ("keep3:three=-40", "8H")]:
        ids, params = resolve([spec])
        k = choose_nb(int(ids[0]), params[0], obs, h[:hn], p[:pn], o[:no], rng)
        assert C.card_name(int(o[k])) == card, spec
    ids, params = resolve(["pimc"])
    assert choose_nb(int(ids[0]), params[0], obs, h[:hn], p[:pn], o[:no], rng) == -1


def test_keep3_choices_from_dumping_to_hoarding():
    hand = ["3C", "AC", "KC", "TC", "8H"]
    view = _view(hand, hand)
    assert _choose("keep3", "keep3:three=-100", view) == "3C"  # dump3
    assert _choose("dump3", "dump3", view) == "3C"
    assert _choose("keep3", "keep3:three=-40", view) == "8H"   # 40 < 50
    assert _choose("keep3", "keep3:three=-15", _view(hand, hand[:4])) == "TC"
    assert _choose("keep3", "keep3:three=-30", _view(hand, hand[:4])) == "3C"  # 30 > 25
    assert _choose("keep3", "keep3:three=-5", _view(hand, ["AC", "3C"])) == "3C"
    assert _choose("keep3", "keep3", _view(hand, ["AC", "3C"])) == "AC"       # greedy
    assert _choose("keep3", "keep3:three=100", _view(hand, ["AC", "3C"])) == "AC"  # hoard3
    assert _choose("keep3", "keep3:three=100", _view(hand, ["3C"])) == "3C"   # forced
    assert _choose("keep3", "keep3:three=100", _view(hand, ["3C", C.ACTION_DRAW])) == "3C"
    # Crazy Eights: a 3 is worth 3; three=100 still keeps it behind an ace (1)
    eights = _view(["3C", "AC"], ["3C", "AC", C.ACTION_DRAW], family=1)
    assert _choose("keep3", "keep3:three=100", eights) == "AC"
    assert _choose("keep3", "keep3:three=-100", eights) == "3C"
    assert _choose("keep3", "keep3", eights) == "3C"  # greedy: 3 > 1


def test_keep3_late_worth_grows_as_the_hand_shrinks():
    def dealt(hand, opts, size):
        view = _view(hand, opts)
        view[0][C.O_SIZE] = size
        return view

    hand = ["3C", "KC"]
    spec = "keep3:three=-30:late=5"  # worth -30 + 5 x (cards below the deal size)
    assert _choose("keep3", spec, dealt(hand, hand, 2)) == "3C"  # early: dump (30 > 10)
    assert _choose("keep3", spec, dealt(hand, hand, 6)) == "3C"  # 4 below: 10 = 10, the first
    assert _choose("keep3", spec, dealt(hand, hand, 7)) == "KC"  # 5 below: keep (5 < 10)
    # a hand grown by draws above its deal size counts as 0 below
    assert _choose("keep3", spec, dealt(hand + ["QD"] * 6, hand, 2)) == "3C"


def test_keep3_extremes_play_as_dump3_hoard3_and_greedy():
    """Whole games: three=-100 is dump3, three=100 is hoard3, the default is greedy (equal
    totals on the same deals, every family). In Crates a 3 is worth 0, below every other
    card, so any worth >= 0 plays as greedy; in Crazy Eights (a 3 is worth 3) it does not."""
    for preset, players in [("classic", 4), ("serbian", 4), ("crazy-eights", 3)]:
        rules = Rules.preset(preset, players)
        pairs = [("keep3:three=-100", "dump3"), ("keep3:three=100", "hoard3"),
                 ("keep3", "greedy")]
        if rules.family == "crates":
            pairs += [("keep3:three=5:late=20", "greedy")]
        for spec, same in pairs:
            field = ["random", "aggressive", "weights", "partner"][:players - 1]
            a = run_games(rules, [spec] + field, 7, 0, 80, detail="games")
            b = run_games(rules, [same] + field, 7, 0, 80, detail="games")
            np.testing.assert_array_equal(a.games["total"], b.games["total"], err_msg=spec)
    rules = Rules.preset("classic", 4)
    a = run_games(rules, ["keep3:three=-15", "greedy"] * 2, 7, 0, 80, detail="games")
    b = run_games(rules, ["greedy"] * 4, 7, 0, 80, detail="games")
    assert not np.array_equal(a.games["total"], b.games["total"])


def test_keep3_parameter_ranges():
    assert parse_spec("keep3:three=-100:late=20") == ("keep3", {"three": -100.0, "late": 20.0})
    assert parse_spec("keep3:three=100:late=-20:forget=1")[1]["forget"] == 1.0
    ids, params = resolve(["keep3:three=-12.5:late=2", "keep3"])
    assert list(ids) == [8, 8]
    assert list(params[0][:4]) == [-12.5, 2.0, 0.0, 0.0]
    assert list(params[1][:4]) == [0.0, 0.0, 0.0, 0.0]
    for bad in ["keep3:three=100.5", "keep3:three=-101", "keep3:late=21", "keep3:late=-20.5",
                "keep3:forget=1.5", "keep3:three=nan", "keep3:w2=1", "keep3:three"]:
        with pytest.raises(CratesError):
            parse_spec(bad)


def test_greedy_reads_only_the_phase_the_hand_and_the_rules():
    """The engine decides greedy inline with only O_PHASE and O_HAND_N of the view written
    (`decide_nb.greedy_choice`; the rules part is written once): every other field of
    obs may hold another decision's values, and greedy must choose the same."""
    from crates_sim.strategies.builtin import greedy_nb

    gen = np.random.default_rng(5)
    rulesets = [Rules.preset(p, 4).to_array() for p in
                ("classic", "league", "serbian", "crazy-eights", "very-crazy-eights")]
    rules_part = slice(C.O_RULES, C.O_RULES + C.RULES_LEN)
    differed = 0
    for case in range(3000):
        R = rulesets[case % len(rulesets)]
        phase = int(gen.choice([C.PH_PLAY, C.PH_COUNT, C.PH_AGAIN, C.PH_CALL,
                                C.PH_BLIND_CALL, C.PH_ANNOUNCE]))
        hand = gen.choice(52, size=int(gen.integers(1, 12)), replace=False).astype(np.int64)
        if phase >= C.PH_ANNOUNCE:
            options = np.array([0, 1], dtype=np.int64)
        elif phase >= C.PH_CALL:
            options = np.array(sorted(gen.choice(4, size=int(gen.integers(1, 5)),
                                                 replace=False)), dtype=np.int64)
        else:
            options = hand[gen.random(hand.size) < 0.5]
            if options.size == 0 or gen.random() < 0.3:
                options = np.append(options, C.ACTION_DRAW)
        params = np.array([gen.choice([0.0, 0.5])] + [0.0] * 7)
        clean = np.zeros(C.OBS_LEN, dtype=np.int64)
        clean[rules_part] = R
        clean[C.O_PHASE] = phase
        clean[C.O_HAND_N] = hand.size
        stale = gen.integers(-60, 200, size=C.OBS_LEN).astype(np.int64)
        stale[rules_part] = R
        stale[C.O_PHASE] = phase
        stale[C.O_HAND_N] = hand.size
        differed += int((stale != clean).sum() > 0)
        pile = gen.choice(52, size=3, replace=False).astype(np.int64)
        seed = gen.integers(1, 1 << 62, size=4).astype(np.int64)
        a = greedy_nb(params, clean, hand, pile, options, seed.copy())
        b = greedy_nb(params, stale, hand, pile, options, seed.copy())
        assert a == b, (case, phase, hand, options)
        assert 0 <= a < options.size
    assert differed == 3000
