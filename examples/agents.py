"""Example Python agents, as docs/strategies.md shows them (the tests run them):

    crates simulate --strategies examples/agents.py:GreedyAgent --games 200
    crates compare --strategies examples/agents.py:GreedyAgent,greedy --games 200
    crates trace --strategies examples/agents.py:first_legal,greedy,greedy,greedy --game 0

A Python agent is plain Python (numpy, torch ...), not @njit: a class with
``act(observation, action_mask, seat, game) -> action`` or a function with that
signature. It sees what `crates_sim.env` gives an agent (docs/env.md): the observation
vector and the mask of the 60 actions (0-51 a card, 52 draw, 53 pass, 54-57 call a suit,
58/59 do not / do announce a last card). It is slower than an @njit strategy: the step
engine pauses for each of its decisions (docs/strategies.md#python-agents).
"""

import numpy as np

from crates_sim import cards as C
from crates_sim.play.observation import ANNOUNCE, CALL0, Observation


# --- GreedyAgent
class GreedyAgent:
    """The built-in `greedy` re-implemented in Python from the observation: shed the
    highest-valued legal card, never draw by choice, call the suit held most often,
    always announce. With it in a seat, games are the games of `--strategies greedy`.

    `rules` (given because __init__ takes it) tells the cards' values; `legal` (given
    because act takes it) is the legal actions in the engine's order, which is how greedy
    breaks ties between equal values."""

    def __init__(self, rules):
        self.values = rules.to_array()[C.VALUE:C.VALUE + 52]

    def act(self, observation, action_mask, seat, game, legal):
        seen = Observation(observation)  # the vector's parts by name (docs/env.md)
        if seen.phase == C.PH_ANNOUNCE:
            return ANNOUNCE
        if seen.phase in (C.PH_CALL, C.PH_BLIND_CALL):
            held = seen.hand % 4  # the suit of each card held
            counts = np.bincount(held, minlength=4)
            best, best_len = legal[0], -1
            for action in legal:  # the first suit held most often
                if counts[action - CALL0] > best_len:
                    best, best_len = action, counts[action - CALL0]
            return best
        best, best_value = legal[0], -1
        for action in legal:
            if action < 52 and self.values[action] > best_value:
                best, best_value = action, self.values[action]
        return best


# --- first_legal
def first_legal(observation, action_mask, seat, game):
    """A function agent: the lowest legal action."""
    return int(np.flatnonzero(action_mask)[0])
