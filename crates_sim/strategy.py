"""Strategy specs: parsing `greedy`, `pimc:samples=200`, `file.py:name` into per-seat choices."""

from .errors import CratesError

#: built-in strategy name -> (id in the kernel's dispatch, description, {param: default})
_FORGET = {"forget": (0.0, "probability of not announcing a last card")}
BUILTINS = {
    "random": (0, "uniform among legal cards (a voluntary draw is one more choice)", _FORGET),
    "greedy": (1, "sheds its highest-scoring legal card, calls its longest suit", _FORGET),
}


def parse_spec(spec: str):
    """`name:key=value:key=value` -> (name, {key: float}), checked against the built-ins."""
    name, *pairs = [part.strip() for part in spec.split(":")]
    if name not in BUILTINS:
        raise CratesError(f"unknown strategy {name!r}; built-ins: {', '.join(BUILTINS)}")
    known = BUILTINS[name][2]
    values = {}
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if not eq or key not in known:
            params = ", ".join(known) or "none"
            raise CratesError(f"strategy {name}: bad parameter {pair!r} (parameters: {params})")
        try:
            values[key] = float(raw)
        except ValueError:
            raise CratesError(f"strategy {name}: {key}={raw!r} is not a number") from None
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
        parse_spec(spec)
    return specs


def resolve(specs: list[str]):
    """Per-seat strategy ids and parameter rows for the kernels."""
    import numpy as np

    from .engine_nb import N_PARAMS

    ids = np.zeros(len(specs), dtype=np.int64)
    params = np.zeros((len(specs), N_PARAMS), dtype=np.float64)
    for seat, spec in enumerate(specs):
        name, values = parse_spec(spec)
        sid, _, known = BUILTINS[name]
        ids[seat] = sid
        for j, (key, (default, _)) in enumerate(known.items()):
            params[seat, j] = values.get(key, default)
    return ids, params
