"""Strategy specs: parsing `greedy`, `pimc:samples=200`, `file.py:name` into per-seat choices."""

from .errors import CratesError

#: built-in strategy name -> (id in the kernel's dispatch, description, {param: default})
BUILTINS = {
    "random": (0, "uniform among legal cards (a voluntary draw is one more choice)", {}),
    "greedy": (1, "sheds its highest-scoring legal card, calls its longest suit", {}),
}


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
        name = spec.split(":", 1)[0]
        if name not in BUILTINS:
            raise CratesError(f"unknown strategy {name!r}; built-ins: {', '.join(BUILTINS)}")
    return specs


def resolve(specs: list[str]):
    """Per-seat strategy ids and parameter rows for the kernels."""
    import numpy as np

    from .engine_nb import N_PARAMS

    ids = np.zeros(len(specs), dtype=np.int64)
    params = np.zeros((len(specs), N_PARAMS), dtype=np.float64)
    for seat, spec in enumerate(specs):
        name = spec.split(":", 1)[0]
        if name not in BUILTINS:
            raise CratesError(f"unknown strategy {name!r}; built-ins: {', '.join(BUILTINS)}")
        ids[seat] = BUILTINS[name][0]
    return ids, params
