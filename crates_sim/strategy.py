"""Strategy specs: parsing `greedy`, `pimc:samples=200`, `file.py:name:risk=0.3` into
per-seat strategy ids, parameter rows and decision-function addresses for the engine.

Contract: a spec is NAME[:key=value]... for a built-in, or FILE.py:FUNCTION[:key=value]...
(or package.module:FUNCTION...) for a user's function. Every parameter has a name, a
default and a range, declared once (BUILTINS below; a user's with `parameters`); an
unknown name or a value out of range is a CratesError with one line of text.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .errors import CratesError, did_you_mean
from .strategy_ids import (
    ADEPT,
    AGGRESSIVE,
    APPRENTICE,
    DUMP3,
    EXPERT,
    GREEDY,
    GUIDED,
    HOARD3,
    KEEP3,
    PARTNER,
    PIMC,
    RANDOM,
    THUMB,
    WEIGHTS,
)


class Param(NamedTuple):
    """One strategy parameter: default value, allowed range [low, high], meaning."""

    default: float
    low: float = -math.inf
    high: float = math.inf
    text: str = ""
    whole: bool = False  # only whole numbers

    def check(self, strategy: str, key: str, value: float) -> float:
        if math.isnan(value) or not self.low <= value <= self.high:
            raise CratesError(f"strategy {strategy}: {key}={value:g} is out of range "
                              f"({_range(self)})")
        if self.whole and value != int(value):
            raise CratesError(f"strategy {strategy}: {key}={value:g} must be a whole number")
        return value


def _range(p: Param) -> str:
    if p.low == -math.inf and p.high == math.inf:
        return "any number"
    if p.high == math.inf:
        return f"at least {p.low:g}"
    if p.low == -math.inf:
        return f"at most {p.high:g}"
    return f"{p.low:g} to {p.high:g}"


def describe_range(p: Param) -> str:
    """'0 to 1', 'at least 1', 'any number' (+ ', whole')."""
    return _range(p) + (", whole" if p.whole else "")


def parameters(**declared):
    """Declare a decision function's parameters, in order (they arrive as params[0], ...)::

        @parameters(risk=(0.5, 0.0, 1.0, "share of points risked"), depth=2)
        @njit
        def cautious(params, obs, hand, pile, options, rng): ...

    Each value is a default, or (default, low, high[, description])."""
    if len(declared) > N_PARAMS:
        raise CratesError(f"at most {N_PARAMS} parameters")
    table = {}
    for key, spec in declared.items():
        if isinstance(spec, (tuple, list)):
            default, low, high, *text = spec
            table[key] = Param(float(default), float(low), float(high), text[0] if text else "")
        else:
            table[key] = Param(float(spec))

    def mark(fn):
        from .userstrat import PARAMS_ATTR

        setattr(fn, PARAMS_ATTR, table)
        return fn

    return mark


#: the parts of its view a decision function may declare it reads (`reads`)
VIEW_PARTS = ("table", "seats")


def reads(*parts):
    """Declare which parts of its view a decision function reads, so that the engine
    writes only those for it (a function that calls `greedy_nb` then runs about as fast
    as built-in greedy)::

        @reads()                 # or reads("table"), reads("table", "seats")
        @njit
        def my_greedy(params, obs, hand, pile, options, rng): ...

    Always written: the decision (`phase`, `played_card`), the hand, the pile, the
    options, the rules (`is_crates`, `rule`, `value` ...). "table": the table's scalars
    (`me`, `players`, `partner`, `dealer`, `hand_number`, `deal_size`, `top_card`,
    `current_suit`, `current_rank`, `direction`, `active_count`, `stock_size`, `passes`);
    "seats": the per-seat part (`hand_size`, `total`, `pressures` ...). Undeclared, a
    function gets the whole view. A part read without being declared holds stale values
    (of an earlier decision of the same game)."""
    bad = [p for p in parts if p not in VIEW_PARTS]
    if bad:
        raise CratesError(f"reads: unknown part {bad[0]!r}{did_you_mean(bad[0], VIEW_PARTS)} "
                          f"(parts: {', '.join(VIEW_PARTS)})")

    def mark(fn):
        from .userstrat import READS_ATTR

        setattr(fn, READS_ATTR, frozenset(parts))
        return fn

    return mark


#: parameters per seat (float64 row of the game state)
N_PARAMS = 8

#: built-in strategy name -> (id, description, {param: Param}). Ids (strategy_ids) below
#: N_INLINE, and KEEP3, are compiled into the engine; the others (pimc, expert) are called by address like a
#: user's function (their adapter is `EXTERNAL[name]`). `tuned` is `weights` (the same id) with
#: other defaults.
_FORGET = {"forget": Param(0.0, 0.0, 1.0, "probability of not announcing a last card")}
_WEIGHT_TEXT = ("card value shed / 10", "is a wild (8; 9 in Crates)", "is a 3",
                "opponents hit minus partners hit", "keeps the current suit",
                "my cards left in the suit the play makes current", "is a draw or pass",
                "leaders and last-card opponents hit")


def _weights(*defaults) -> dict:
    """w0..w7 of the `weights` scorer with these defaults (features: docs/strategies.md)."""
    return {f"w{i}": Param(float(d), text=t) for i, (d, t) in enumerate(zip(defaults, _WEIGHT_TEXT, strict=True))}


#: `tuned`: the result of (docs/strategies.md)
#:   crates tune weights --against greedy,aggressive,partner,dump3,weights --preset classic
#:       --players 4 --budget 300 --games-per-eval 4000 --seed 1 --out tune
TUNED = (2.69, -12.75, -1.75, -1.5, -0.19, 1.57, -2.8, 1.64)
#: expert's parameters (guided shares all but `value` and `greedy`)
_EXPERT = {
    "samples": Param(60.0, 1.0, 100_000.0, "deals of the unseen cards per decision", whole=True),
    **_FORGET,
    "temp": Param(0.5, 0.0, 100.0, "temperature of the rollouts' softmax over tuned's "
                                   "scores (0: tuned itself, deterministic)"),
    "depth": Param(15.0, 0.0, 100_000.0, "turns a rollout plays before it is cut "
                                        "and valued (0: to the hand's end)",
                   whole=True),
    "value": Param(1.0, 0.0, 1.0, "1: a cut rollout is valued by the learned "
                                  "cutoff value (both families); 0: as it stands "
                                  "(Crates only; Crazy Eights then plays to the "
                                  "end)", whole=True),
    "three": Param(0.0, -1000.0, 1000.0, "card points a 3 is worth keeping: > 0 "
                                         "hoards 3s, < 0 dumps them"),
    "greedy": Param(0.0, 0.0, 1.0, "1: rollouts by greedy (cheaper, deterministic) "
                                   "instead of the softmax", whole=True),
    "infer": Param(2.0, 0.0, 20.0, "opponent model: how sure it is that a seat calls "
                                   "its longest suit after a wild (a world is kept "
                                   "with probability softmax(infer x suit lengths) "
                                   "of the call seen; 0: every world)")}

BUILTINS = {
    "random": (RANDOM, "uniform among legal cards (a voluntary draw is one more choice)", _FORGET),
    "greedy": (GREEDY, "sheds its highest-scoring legal card, calls its longest suit", _FORGET),
    "hoard3": (HOARD3, "greedy, but plays a 3 only when it is its only legal card; greedy already values a 3 lowest, so in Crates it plays exactly as greedy (docs/findings.md)", _FORGET),
    "dump3": (DUMP3, "plays a legal 3 first, otherwise greedy (the control for hoard3)", _FORGET),
    "keep3": (KEEP3, "greedy, but a 3 scores its value minus its worth kept (three + late x cards "
                     "below the deal size): three=-100 dumps 3s, 0 is greedy, 100 hoards them",
              {"three": Param(0.0, -100.0, 100.0, "card points a 3 is worth keeping (-100: play "
                                                   "it first; 100: only when forced)"),
               "late": Param(0.0, -20.0, 20.0, "worth added per card the hand is below its "
                                                "deal size"), **_FORGET}),
    "aggressive": (AGGRESSIVE, "aims 2s, 4s, 5s and 7s at the leader and last-card players, keeps 8s/9s",
                   {"leader_weight": Param(1.0, 0.0, math.inf, "how much hitting the leader "
                                           "counts against shedding points"), **_FORGET}),
    "partner": (PARTNER, "team play: no 7s or 5s on the partner, calls the partner's suit, lets it out",
                {**_FORGET, "feed_cost": Param(1000.0, 0.0, math.inf, "points a 7 at the "
                                               "partner costs (1000: never, unless forced)")}),
    "weights": (WEIGHTS, "linear scorer over 8 option features (w0..w7), for tuning runs",
                _weights(1.0, -3.0, -1.0, 1.0, 0.0, 0.5, -10.0, 1.0)),
    "tuned": (WEIGHTS, "weights with the weights `crates tune` found against the five heuristics "
                       "(classic 4-player partnerships; docs/strategies.md)",
              _weights(*TUNED)),
    "pimc": (PIMC, "determinised Monte Carlo: samples the unseen cards, plays each option out",
             {"samples": Param(30.0, 1.0, 100_000.0, "deals of the unseen cards per decision",
                               whole=True), **_FORGET,
              "policy": Param(6.0, 1.0, 6.0, "rollout player: 1 greedy, 2 hoard3, 3 dump3, "
                                             "4 aggressive, 5 partner, 6 weights", whole=True),
              "lead": Param(0.0, 0.0, 100.0, "racing: drop an option once it trails the best by "
                                             "this many standard errors (0: play every option "
                                             "on every deal: the default)"),
              "min_samples": Param(4.0, 2.0, 100_000.0, "deals before racing drops an option",
                                   whole=True),
              "depth": Param(10.0, 0.0, 100_000.0, "Crates: turns a rollout plays before the "
                                                  "hand is cut and valued as it stands (0: to "
                                                  "the hand's end)", whole=True)}),
    "expert": (EXPERT, "the strongest player: pimc's search with randomised tuned rollouts, a "
                       "learned value at the cut and an opponent model of the calls seen "
                       "(strategies/expert.py); per turn about 3.5-5x the default pimc's in "
                       "Crates (~90-110 us), 1.3x in Crazy Eights; ~3,000x greedy's",
               _EXPERT),
    "apprentice": (APPRENTICE, "a linear policy over 75 option features, distilled from a search "
                               "player by `crates train`; a turn costs about 5x greedy's, "
                               "1/160 of pimc's (docs/strategies.md)",
                   {"temp": Param(0.0, 0.0, 100.0, "softmax temperature (0: always the best "
                                                   "score; > 0: samples from its stream)"),
                    **_FORGET}),
    "adept": (ADEPT, "a small neural network (64 hidden units a table kind) that reads the "
                     "rules (player count, partnerships, every knob) and scores every option by "
                     "what it does under them, trained on expert's values across every preset, "
                     "player count and drawn knob sets (`crates train --player adept`); against "
                     "expert: -4.4 to +5.1 points of win rate on every preset with 3 to 6 "
                     "players and in crazy-eights with 2, but -12 to -16 with 2 players in "
                     "classic, league, serbian and very-crazy-eights; about expert's cost / 80 "
                     "a turn (docs/strategies.md)",
              {"temp": Param(0.0, 0.0, 100.0, "softmax temperature in points (0: always the best "
                                              "score; > 0: samples from its stream)"),
               **_FORGET,
               "three": Param(0.0, -1000.0, 1000.0, "card points a 3 is worth keeping: > 0 "
                                                    "hoards 3s, < 0 dumps them"),
               "net": Param(0.0, 0.0, 3.0, "which networks: 0 the shipped ones (trained across "
                                           "tables, the rules as inputs), 1 the first "
                                           "(docs/findings.md's adept figures were measured "
                                           "with them), 2 the second (the pressure inputs, one "
                                           "network), 3 the third (one network per table: "
                                           "classic with and without partnerships, "
                                           "crazy-eights; shipped before the rules were inputs)",
                            whole=True)}),
    "thumb": (THUMB, "greedy plus rules of thumb drawn from expert's choices (keep wilds "
                     "unless an opponent is on one card; a 6 you can follow first; stay in "
                     "suit on ties; hit=1 adds one that does not pay), each switchable (0/1); "
                     "all off is greedy (docs/findings.md)",
              {"wild": Param(1.0, 0.0, 1.0, "1: play an 8 or 9 only when the other legal cards "
                                            "are 3s and aces, or an opponent holds one card",
                             whole=True),
               "six": Param(1.0, 0.0, 1.0, "1: a 6 you can follow (another card of its suit "
                                           "kept) before any other tame card", whole=True),
               "hit": Param(0.0, 0.0, 1.0, "1: in partnerships a card counts 15 points more per "
                                           "opponent it hits, 15 less if it hits the partner "
                                           "(measured: it loses)",
                            whole=True),
               "suit": Param(1.0, 0.0, 1.0, "1: between cards of equal points, the one in the "
                                            "suit in play", whole=True),
               **_FORGET}),
    "guided": (GUIDED, "expert's search guided by adept's network: the network's score of "
                       "each option counts as `prior` deals beside the search's, and with keep=K "
                       "only its K best options are searched; level with expert at 1/3 of "
                       "its cost (~30 us a turn in Crates; docs/strategies.md)",
               {"samples": _EXPERT["samples"]._replace(default=18.0), **_FORGET,
                **{k: _EXPERT[k] for k in ("temp", "depth", "three", "infer")},
                "prior": Param(40.0, 0.0, 100_000.0, "deals the network's estimate counts as "
                                                     "(0: the search alone)"),
                "keep": Param(0.0, 0.0, 64.0, "search only the network's best K options (0: all)",
                              whole=True)}),
}
#: built-ins not compiled into the engine: name -> (module, adapter function)
EXTERNAL = {"pimc": ("crates_sim.strategies.pimc", "pimc_entry"),
            "expert": ("crates_sim.strategies.expert", "expert_entry"),
            "apprentice": ("crates_sim.strategies.apprentice", "apprentice_entry"),
            "adept": ("crates_sim.strategies.adept", "adept_entry"),
            "thumb": ("crates_sim.strategies.thumb", "thumb_entry"),
            "guided": ("crates_sim.strategies.expert", "guided_entry")}


def parse_spec(spec: str):
    """`name:key=value:...` -> (name, {key: float}) for a built-in, or
    (("file.py" | "pkg.module", "func"), {key: float}) for a user's function; names and
    ranges checked against the declared parameters."""
    from .userstrat import declared_parameters, is_user_spec, load_function

    name, *pairs = [part.strip() for part in spec.split(":")]
    if is_user_spec(name):
        if not pairs or "=" in pairs[0] or not pairs[0]:
            raise CratesError(f"strategy {spec!r}: name the function, as {name}:FUNCTION")
        name, pairs = (name, pairs[0]), pairs[1:]
        known = declared_parameters(load_function(*name, agents=True)[2])
        shown = f"{name[0]}:{name[1]}"
    elif name not in BUILTINS:
        raise CratesError(f"unknown strategy {name!r}{did_you_mean(name, BUILTINS)}; "
                          f"built-ins: {', '.join(BUILTINS)} "
                          f"(or your own: file.py:function)")
    else:
        known = BUILTINS[name][2]
        shown = name
    values = {}
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if not eq:
            raise CratesError(f"strategy {shown}: give parameters as key=value, not {pair!r} "
                              f"(parameters: {', '.join(known) or 'none declared'})")
        if key not in known:
            raise CratesError(f"strategy {shown}: bad parameter {pair!r}{did_you_mean(key, known)} "
                              f"(parameters: {', '.join(known) or 'none declared'})")
        try:
            value = float(raw)
        except ValueError:
            raise CratesError(f"strategy {shown}: {key}={raw!r} is not a number") from None
        values[key] = known[key].check(shown, key, value)
    return name, values


class Lineup(list):
    """A run's strategies, parsed once: the list of specs, one per seat (as text: it
    compares, prints and serialises as that list), and what later steps read from them
    without parsing again: `parsed` (per seat, `parse_spec`'s (name, values)), `users`
    (the distinct user functions), `ids_params()` (`resolve`) and `addresses()` (the
    adapters' addresses, valid in the process that found them: not pickled, so that a
    worker finds its own). Made by `parse_strategies`; treat it as read-only."""

    def __init__(self, specs=()):
        super().__init__(specs)
        self.parsed = [parse_spec(spec) for spec in self]
        self.users = list(dict.fromkeys(name for name, _ in self.parsed if isinstance(name, tuple)))
        self._ids_params = None
        self._addresses = None

    def __getstate__(self):
        return {**self.__dict__, "_addresses": None}

    def ids_params(self):
        """Per-seat strategy ids and parameter rows (seats x N_PARAMS) for the kernels."""
        if self._ids_params is None:
            self._ids_params = _ids_params(self)
        ids, params = self._ids_params
        return ids.copy(), params.copy()  # callers may change theirs (an agent's seat)

    def addresses(self):
        """Per seat, the address of the engine's adapter for it in this process, else 0."""
        if self._addresses is None:
            self._addresses = _addresses(self)
        return self._addresses.copy()


def lineup(specs) -> Lineup:
    """`specs` as a Lineup: itself if it is one, else parsed (once)."""
    return specs if isinstance(specs, Lineup) else Lineup(specs)


def split_specs(text) -> list[str]:
    """The specs of `a,b,c` (or of a list of them), stripped, empty ones dropped; not checked."""
    return [s for s in (s.strip() for s in (text.split(",") if isinstance(text, str) else text)) if s]


def parse_strategies(text, players: int) -> Lineup:
    """Split `a,b,c,d` (or one name for every seat) into one spec per seat, validated and
    parsed (a Lineup, a list of the specs; one already parsed for `players` seats is
    returned as it is)."""
    if isinstance(text, Lineup) and len(text) == players:
        return text
    specs = split_specs(text)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise CratesError(f"{len(specs)} strategies for {players} players: give one per seat "
                          f"(or one for all)")
    return Lineup(specs)


def user_functions(specs) -> list[tuple[str, str]]:
    """The distinct user functions of a run, in order of first appearance."""
    return list(lineup(specs).users)


def resolve(specs):
    """Per-seat strategy ids and parameter rows (seats x N_PARAMS) for the kernels."""
    return lineup(specs).ids_params()


def _ids_params(specs: Lineup):
    import numpy as np

    from .userstrat import USER_BASE, declared_parameters, load_function, view_flags

    ids = np.zeros(len(specs), dtype=np.int64)
    params = np.zeros((len(specs), N_PARAMS), dtype=np.float64)
    for seat, (name, values) in enumerate(specs.parsed):
        if isinstance(name, tuple):
            fn = load_function(*name)[2]
            ids[seat] = USER_BASE + specs.users.index(name) + view_flags(fn)
            known = declared_parameters(fn)
        else:
            ids[seat] = BUILTINS[name][0]
            known = BUILTINS[name][2]
        for j, (key, param) in enumerate(known.items()):
            params[seat, j] = values.get(key, param.default)
    return ids, params


def addresses(specs):
    """Per seat, the address of the decision adapter the engine calls for a strategy that
    is not compiled into it (pimc, users' functions), else 0. Compiles the adapters in
    this process on first use (addresses are valid in this process only)."""
    return lineup(specs).addresses()


def _addresses(specs: Lineup):
    import importlib

    import numpy as np

    from .engine.indirect import address_of
    from .userstrat import adapter_address

    out = np.zeros(len(specs), dtype=np.int64)
    for seat, (name, _) in enumerate(specs.parsed):
        if isinstance(name, tuple):
            out[seat] = adapter_address(*name)
        elif name in EXTERNAL:
            module, func = EXTERNAL[name]
            out[seat] = address_of(getattr(importlib.import_module(module), func))
    return out
