"""Strategy specs: parsing `greedy`, `pimc:samples=200`, `file.py:name` into per-seat choices."""

from .errors import CratesError

#: built-in strategy name -> (id in the kernel's dispatch, description, {param: default})
_FORGET = {"forget": (0.0, "probability of not announcing a last card")}
BUILTINS = {
    "random": (0, "uniform among legal cards (a voluntary draw is one more choice)", _FORGET),
    "greedy": (1, "sheds its highest-scoring legal card, calls its longest suit", _FORGET),
    "hoard3": (2, "greedy, but plays a 3 only when it is its only legal card", _FORGET),
    "dump3": (3, "plays a legal 3 first, otherwise greedy (the control for hoard3)", _FORGET),
    "aggressive": (4, "aims 2s, 4s, 5s and 7s at the leader and last-card players, keeps 8s/9s",
                   {"leader_weight": (1.0, "how much hitting the leader counts against shedding "
                                           "points"), **_FORGET}),
    "partner": (5, "team play: no 7s or 5s on the partner, calls the partner's suit, lets it out",
                {**_FORGET, "feed_cost": (1000.0, "points a 7 at the partner costs (1000: never, "
                                                  "unless forced)")}),
    "weights": (6, "linear scorer over 8 option features (w0..w7), for tuning runs",
                {"w0": (1.0, "card value shed / 10"), "w1": (-3.0, "is a wild (8; 9 in Crates)"),
                 "w2": (-1.0, "is a 3"), "w3": (1.0, "opponents hit minus partners hit"),
                 "w4": (0.0, "keeps the current suit"),
                 "w5": (0.5, "my cards left in the suit the play makes current"),
                 "w6": (-10.0, "is a draw or pass"),
                 "w7": (1.0, "leaders and last-card opponents hit")}),
    "pimc": (7, "determinised Monte Carlo: samples the unseen cards, plays each option out",
             {"samples": (30.0, "deals of the unseen cards per decision"), **_FORGET,
              "policy": (6.0, "rollout player: 1 greedy, 2 hoard3, 3 dump3, 4 aggressive, "
                              "5 partner, 6 weights")}),
}


def parse_spec(spec: str):
    """`name:key=value:...` -> (name, {key: float}) for a built-in (checked), or
    (("file.py" | "pkg.module", "func"), {key: float}) for a user's function, whose
    parameters arrive in params[0], params[1], ... in the order written."""
    from .userstrat import is_user_spec

    name, *pairs = [part.strip() for part in spec.split(":")]
    user = is_user_spec(name)
    if user:
        if not pairs or "=" in pairs[0] or not pairs[0]:
            raise CratesError(f"strategy {spec!r}: name the function, as {name}:FUNCTION")
        name, pairs = (name, pairs[0]), pairs[1:]
        known = None
    elif name not in BUILTINS:
        raise CratesError(f"unknown strategy {name!r}; built-ins: {', '.join(BUILTINS)} "
                          f"(or your own: file.py:function)")
    else:
        known = BUILTINS[name][2]
    values = {}
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if not eq or (known is not None and key not in known):
            params = ", ".join(known) if known else "none"
            raise CratesError(f"strategy {name}: bad parameter {pair!r} (parameters: {params})")
        try:
            values[key] = float(raw)
        except ValueError:
            raise CratesError(f"strategy {name}: {key}={raw!r} is not a number") from None
    if len(values) > 8:
        raise CratesError(f"strategy {spec!r}: at most 8 parameters")
    return name, values


def parse_strategies(text, players: int) -> list[str]:
    """Split `a,b,c,d` (or one name for every seat) into one spec per seat, validated."""
    specs = [s.strip() for s in (text.split(",") if isinstance(text, str) else text)]
    specs = [s for s in specs if s]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise CratesError(f"{len(specs)} strategies for {players} players: give one per seat "
                          f"(or one for all)")
    for spec in specs:
        name, _ = parse_spec(spec)
        if isinstance(name, tuple):
            from .userstrat import load_function

            load_function(*name)
    return specs


def user_functions(specs) -> list[tuple[str, str]]:
    """The distinct user functions of a run, in order of first appearance."""
    found = []
    for spec in specs:
        name, _ = parse_spec(spec)
        if isinstance(name, tuple) and name not in found:
            found.append(name)
    return found


#: strategies that search by playing the engine forward; their runs use an engine copy
SEARCH = ("pimc",)


def kernels_for(specs):
    """The module with the engine kernels for these strategies (built-ins: `engine_nb`)."""
    users = user_functions(specs)
    search = any(parse_spec(s)[0] in SEARCH for s in specs)
    if not users and not search:
        from . import engine_nb

        return engine_nb
    from .userstrat import engine_module

    return engine_module(users, search)


def resolve(specs: list[str]):
    """Per-seat strategy ids and parameter rows for the kernels."""
    import numpy as np

    from .engine_nb import N_PARAMS
    from .userstrat import USER_BASE

    users = user_functions(specs)
    ids = np.zeros(len(specs), dtype=np.int64)
    params = np.zeros((len(specs), N_PARAMS), dtype=np.float64)
    for seat, spec in enumerate(specs):
        name, values = parse_spec(spec)
        if isinstance(name, tuple):
            ids[seat] = USER_BASE + users.index(name)
            for j, value in enumerate(values.values()):
                params[seat, j] = value
            continue
        sid, _, known = BUILTINS[name]
        ids[seat] = sid
        for j, (key, (default, _)) in enumerate(known.items()):
            params[seat, j] = values.get(key, default)
    return ids, params
