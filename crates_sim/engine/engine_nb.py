"""The rules engine's kernels, in one namespace (what pimc, the Python API and tests use).

The engine is split by concern; each module opens with its contract:

    state_nb     the game state G: layout, named slots, views, allocation, copies
    rng_nb       counter-based random streams (in crates_sim.core, below the engine)
    log_nb       the game log's records
    actions_nb   seats and turns, drawing and pressures, cards in and out of hands, options
    decide_nb    a seat's strategy decides; what follows a chosen card
    counts_nb    answering or drawing a count
    crates_nb    the Crates turn, effects, upcard rule, penalties owed
    eights_nb    the Crazy Eights turn
    scoring_nb   scoring hands (3-covering, the Crazy Eights payout), ranks and win shares
    drivers_nb   dealing, a hand to its end (`play_on`), a chunk of games, a stacked hand
    search_nb    the search API: a position from a seat's view, played out and valued

Contract: numpy arrays and scalars only, no Python objects, no allocation inside a game.
Every rule is read from the rules array (effects from the per-card effect table, knobs
from the K_* slots). A state can be copied (`copy_state`) and played on from the start
of any turn (`play_on`), which search strategies use (see `search_nb`).
"""

from .actions_nb import *  # noqa: F403
from .counts_nb import *  # noqa: F403
from .crates_nb import *  # noqa: F403
from .decide_nb import *  # noqa: F403
from .drivers_nb import *  # noqa: F403
from .eights_nb import *  # noqa: F403
from .log_nb import *  # noqa: F403
from .scoring_nb import *  # noqa: F403
from .search_nb import *  # noqa: F403
from .state_nb import *  # noqa: F403
