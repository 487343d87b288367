"""Strategy ids and the built-ins' registry: the one place that numbers the built-in
strategies and says which module declares each.

Contract: plain integer constants, importable by kernels and by Python alike, and
REGISTRY (plain data: no kernel reads it). Ids below N_INLINE, KEEP3 and SOFTMAX (added
after pimc had taken 7, so no id moved), are compiled into the engine (`dispatch_nb`);
PIMC, EXPERT, APPRENTICE, ADEPT, THUMB, GUIDED and users' functions (from USER_BASE on)
are called by the address of their adapter. Ids are recorded in data: never renumber one.
"""

RANDOM, GREEDY, HOARD3, DUMP3, AGGRESSIVE, PARTNER, WEIGHTS, PIMC = range(8)
#: built-in ids below this are compiled into the engine
N_INLINE = PIMC
#: keep3 (issue 11 part 3): compiled into the engine too, though above PIMC
KEEP3 = 8
#: expert (issue 23): a search player called by address, as pimc
EXPERT = 9
#: apprentice (issue 23 part 2): called by address, as pimc (its weights are data)
APPRENTICE = 10
#: softmax: `weights` randomised (Gumbel-max over its scores), compiled into the engine;
#: expert's rollout policy (not a name of its own in the registry)
SOFTMAX = 11
#: adept (issue 30): a small network over the seat's view, called by address (its weights
#: are data, as the apprentice's)
ADEPT = 12
#: thumb (issue 31 part 3): greedy plus the rules of thumb drawn from expert's play, called
#: by address (so the engine was not recompiled for it)
THUMB = 13
#: guided (issue 30 part 2): expert's search with adept's network as a prior, by address
GUIDED = 14
#: users' functions are numbered from here, in the order a run first names them
USER_BASE = 100
#: flags added to a user function's id when it declares (`view.reads`) that it does not
#: read a part of its view: the engine leaves that part unwritten for it
SKIP_TABLE = 1 << 20
SKIP_SEATS = 1 << 21
#: a seat whose decisions come from outside, one at a time (`crates_sim.play.step`): the
#: engine pauses the hand when such a seat must decide and no decision is queued
AGENT = 90

#: the built-ins, one entry each: name -> (id, the module of `crates_sim.strategies` that
#: declares it). The module holds its decision function and, beside it, the declaration
#: `<NAME>_BUILTIN` (`crates_sim.params.Builtin`: what `crates strategies` says of it, its
#: parameters, its adapter) with the named slots of its parameters; `crates_sim.strategy`
#: gathers the declarations from here (BUILTINS, EXTERNAL). A new built-in is its module
#: and one line here, with the next free id below USER_BASE (docs/strategies.md, "Adding a
#: built-in"). `tuned` is `weights` (the same id and kernel) with other defaults.
REGISTRY = {
    "random": (RANDOM, "builtin"),
    "greedy": (GREEDY, "builtin"),
    "hoard3": (HOARD3, "heuristic"),
    "dump3": (DUMP3, "heuristic"),
    "keep3": (KEEP3, "heuristic"),
    "aggressive": (AGGRESSIVE, "heuristic"),
    "partner": (PARTNER, "heuristic"),
    "weights": (WEIGHTS, "heuristic"),
    "tuned": (WEIGHTS, "heuristic"),
    "pimc": (PIMC, "pimc"),
    "expert": (EXPERT, "expert"),
    "apprentice": (APPRENTICE, "apprentice"),
    "adept": (ADEPT, "adept"),
    "thumb": (THUMB, "thumb"),
    "guided": (GUIDED, "expert"),
}
