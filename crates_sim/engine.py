"""Python API of the engine (STUB: replaced by the real kernels; the signatures stay)."""

from dataclasses import dataclass

import numpy as np

from .schema import GAME_COLUMNS, HAND_COLUMNS


@dataclass
class ChunkResult:
    """Results of games [game_start, game_start + n_games) of one run.

    games: GAME_COLUMNS names -> numpy arrays (one row per game x seat, games in order,
           seats in order); 'strategy' is an object array of strategy specs.
    hands: HAND_COLUMNS names -> numpy arrays (one row per game x hand x seat), or None
           when detail == "games"; 'reason' is int8 codes into schema.REASONS.
    turns: plays + draws + passes over all games of the chunk.
    capped_hands, dead_hands: counts over the chunk.
    """

    games: dict
    hands: dict | None
    turns: int
    capped_hands: int
    dead_hands: int


def run_games(rules, strategies, seed, game_start, n_games, detail="hands"):
    """STUB with the real signature: random rows of the right shape and dtypes."""
    n = rules.players
    rows = n_games * n
    games = {k: np.zeros(rows, dtype=v if v != "category" else object) for k, v in GAME_COLUMNS.items()}
    games["game"] = np.repeat(np.arange(game_start, game_start + n_games), n)
    games["seat"] = np.tile(np.arange(n, dtype=np.int8), n_games)
    games["strategy"] = np.array([strategies[s] for s in games["seat"]], dtype=object)
    games["total"] = np.concatenate([np.random.default_rng([seed, g]).integers(0, 1000, n)
                                     for g in range(game_start, game_start + n_games)]).astype(np.int32)
    games["hands"][:] = 15
    hands = None
    if detail == "hands":
        hrows = rows * 15
        hands = {k: np.zeros(hrows, dtype=v if v != "category" else np.int8) for k, v in HAND_COLUMNS.items()}
        hands["game"] = np.repeat(np.arange(game_start, game_start + n_games), 15 * n)
        hands["hand"] = np.tile(np.repeat(np.arange(1, 16, dtype=np.int16), n), n_games)
        hands["seat"] = np.tile(np.arange(n, dtype=np.int8), n_games * 15)
        hands["points"] = np.concatenate([np.random.default_rng([seed, g, 1]).integers(-100, 200, 15 * n)
                                          for g in range(game_start, game_start + n_games)]).astype(np.int16)
    return ChunkResult(games, hands, turns=1000 * n_games, capped_hands=0, dead_hands=0)
