"""The built-in strategies (installed as `crates_sim.strategies`): `builtin` (random,
greedy), `heuristic` (hoard3, dump3, keep3, aggressive, partner, weights), the searches
`pimc` and `expert` (with `expert_fit`, which fits expert's value at the cutoff), the
learned `apprentice` and `adept`, and `thumb`. Their parameters are declared in
`crates_sim.strategy`.
"""
