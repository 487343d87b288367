"""The built-in strategies (installed as `crates_sim.strategies`): `builtin` (random,
greedy), `heuristic` (hoard3, dump3, keep3, aggressive, partner, weights), the searches
`pimc` and `expert` (with `expert_fit`, which fits expert's value at the cutoff), the
learned `apprentice` and `adept`, and `thumb`. Each module declares its strategies beside
their decision functions (`<NAME>_BUILTIN`: text, parameters, adapter; the parameters'
named slots `<NAME>_<PARAMETER>`), and `crates_sim.strategy_ids.REGISTRY` names the
module of each built-in (docs/strategies.md, "Adding a built-in").
"""
