"""The built-in strategies (installed as `crates_sim.strategies`): `builtin` (random,
greedy), `heuristic` (hoard3, dump3, keep3, aggressive, partner, weights), the searches
`pimc` and `expert` (with `expert_fit`, which fits expert's value at the cutoff), the
learned `apprentice` and `adept`, and `thumb`. Each module declares its strategies beside
their decision functions (`<NAME>_BUILTIN`: text, parameters, adapter; the parameters'
named slots `<NAME>_<PARAMETER>`), and `crates_sim.strategy_ids.REGISTRY` names the
module of each built-in (docs/strategies.md, "Adding a built-in").

Layers (pyproject.toml's import-linter contract): `builtin` and `heuristic` are the
policies compiled into the engine (engine/dispatch_nb.py), so they lie below it: they
import crates_sim.view, crates_sim.core and the vocabulary (cards, params ...), nothing
of the engine. The searches and learned players (`pimc`, `expert`, `adept`,
`apprentice`, `thumb`), which the engine calls by address and which play out positions
on its kernels, lie above the kernels and below its Python API; `expert_fit`, the fit
behind `crates rebuild expert-cutoff`, lies with the analyses.
"""
