"""Rule sets as data: presets, knobs, validation and the int64 array the kernels read.

A `Rules` is frozen: a preset name, the player count and the value of every knob of the
preset's family (docs/rules.md). `Rules.preset("league", seven_target="next")` builds one;
`rules.to_array()` encodes it, with the per-card effect, count and score tables, into one
int64 array (layout in `cards.py`), so a rule variant is data, never a code path.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import cards as C
from .errors import CratesError, did_you_mean

CRATES, EIGHTS = "crates", "eights"
#: a family as an error text names it ("a Crazy Eights preset")
FAMILY_TEXT = {CRATES: "Crates", EIGHTS: "Crazy Eights"}

#: knob name -> (family, allowed values or type)
KNOBS = {
    "partnerships": (CRATES, bool),
    "count_value": (CRATES, ("pips", "cards")),
    "count_forced": (CRATES, bool),
    "seven_target": (CRATES, ("next", "across")),
    "nine_wild": (CRATES, bool),
    "nine_colour": (CRATES, ("own", "covered")),
    "jack_effect": (CRATES, ("none", "classic")),
    "pressure_scope": (CRATES, ("seat", "team")),
    "last_card_penalty": (CRATES, ("next_turn", "forfeit", "immediate")),
    "six_exempt": (CRATES, bool),
    "upcard_rule": (CRATES, ("call_only", "as_played", "serbian")),
    "out_rule": (CRATES, ("after_effects", "may_return", "immediate")),
    "spare_three": (CRATES, int),
    "draw_when_able": ("both-families", bool),
    "draw_rule": (EIGHTS, ("one", "must_play", "unlimited")),
    "hand_size": (EIGHTS, int),
    "target_score": (EIGHTS, int),
    "max_hands": (EIGHTS, int),
    "max_turns_per_hand": ("both-families", int),
    "first_dealer": ("both-families", ("0", "random")),
    "remove_ranks": ("both-families", str),
}

_COMMON = {"max_turns_per_hand": 10000, "first_dealer": "0", "remove_ranks": ""}
_CLASSIC = dict(
    partnerships=True, count_value="pips", count_forced=True, seven_target="across",
    nine_wild=True, nine_colour="own", jack_effect="classic", pressure_scope="team",
    last_card_penalty="next_turn", six_exempt=False, upcard_rule="call_only",
    out_rule="after_effects", spare_three=3, draw_when_able=False, **_COMMON,
)
_EIGHTS = dict(draw_rule="must_play", draw_when_able=True, hand_size=0, target_score=100,
               max_hands=200, **_COMMON)

#: preset -> (family, players range, default knob values, one-line description)
PRESETS = {
    "classic": (CRATES, (2, 5), _CLASSIC, "Crates as first described: partner 7s, 9s in their own colour, classic jacks"),
    "league": (CRATES, (2, 4), {**_CLASSIC, "partnerships": False, "nine_colour": "covered",
                                "jack_effect": "none", "pressure_scope": "seat",
                                "last_card_penalty": "forfeit", "upcard_rule": "as_played",
                                "out_rule": "may_return"},
               "league rules: the upcard acts, missed calls forfeit a turn, outs may return"),
    "serbian": (CRATES, (2, 4), {**_CLASSIC, "count_value": "cards", "seven_target": "next",
                                 "nine_colour": "covered", "jack_effect": "none",
                                 "last_card_penalty": "immediate", "six_exempt": True,
                                 "upcard_rule": "serbian", "out_rule": "immediate"},
                "Serbian rules: counts by cards, 7 hits the next player, going out is immediate"),
    "crazy-eights": (EIGHTS, (2, 7), _EIGHTS, "Crazy Eights to 100: 8s wild, winner scores the others' cards"),
    "very-crazy-eights": (EIGHTS, (2, 7), _EIGHTS, "Crazy Eights plus 2-runs, J skips, K reverses, QS draws five"),
}

KNOB_HELP = {
    "partnerships": "4 players only: seats 0+2 and 1+3 score as teams",
    "count_value": "a count grows by pips (A 1, 2 2) or by one per card",
    "count_forced": "a player holding a 2 or A must answer a count",
    "seven_target": "who draws for a 7: next player, or the player after next (4+ players)",
    "nine_wild": "9s are wild (call a suit of one colour)",
    "nine_colour": "a 9 calls its own colour, or the colour of the suit it covered",
    "jack_effect": "classic: with 2 players the other, with 3 the previous player draws one",
    "pressure_scope": "pressures double per seat or per partnership",
    "last_card_penalty": "a missed last-card call: draw 2 next turn, forfeit the turn, or draw 2 at once",
    "six_exempt": "a lone 6 need not be announced",
    "upcard_rule": "what the upcard does: dealer calls for 8/9, acts as played, or Serbian",
    "out_rule": "when going out ends the hand",
    "spare_three": "points of a 3 with nothing to cover",
    "draw_when_able": "a player holding a legal card may draw instead",
    "draw_rule": "one draw, draw until able to play, or draw at will",
    "hand_size": "cards dealt (0 = 7 with 2 players, else 5)",
    "target_score": "the game ends after a hand in which someone reaches this",
    "max_hands": "safety: the game ends after this many hands",
    "max_turns_per_hand": "safety: a hand ends with reason cap after this many plays+draws+passes",
    "first_dealer": "seat 0 deals first, or a random seat",
    "remove_ranks": "ranks taken out of the deck, e.g. QK",
}


def _parse_value(name: str, raw, kind):
    """Turn a command-line or Python value into the knob's canonical value."""
    if isinstance(kind, tuple):
        value = str(raw)
        if name == "first_dealer" and value in ("0", "random"):
            return value
        if value not in kind:
            raise CratesError(f"knob {name}: {raw!r} is not one of {', '.join(kind)}"
                              f"{did_you_mean(value, kind)}")
        return value
    if kind is bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("true", "yes", "1", "on"):
            return True
        if text in ("false", "no", "0", "off"):
            return False
        raise CratesError(f"knob {name}: {raw!r} is not true or false")
    if kind is int:
        if isinstance(raw, bool):
            raise CratesError(f"knob {name}: {raw!r} is not a whole number")
        try:
            return int(str(raw).strip())
        except ValueError:
            raise CratesError(f"knob {name}: {raw!r} is not a whole number") from None
    value = str(raw).upper().replace("10", "T")
    bad = sorted(set(value) - set(C.RANKS))
    if bad:
        raise CratesError(f"knob {name}: {raw!r} has no rank {''.join(bad)} (ranks are {C.RANKS})")
    return "".join(r for r in C.RANKS if r in value)


@dataclass(frozen=True)
class Rules:
    """One rule set: preset, players and every knob of the preset's family."""

    preset_name: str
    players: int
    knobs: dict = field(hash=False)

    # ----------------------------------------------------------------- building
    @classmethod
    def preset(cls, name: str, players: int = 4, **overrides) -> "Rules":
        """The preset `name` for `players` players with knob overrides (`crates rules` names them)."""
        if name not in PRESETS:
            raise CratesError(f"unknown preset {name!r}{did_you_mean(name, PRESETS)}; "
                              f"presets: {', '.join(PRESETS)}")
        family, (lo, hi), defaults, _ = PRESETS[name]
        if not isinstance(players, (int, np.integer)) or isinstance(players, bool):
            raise CratesError(f"players must be a whole number, not {players!r}")
        players = int(players)
        if not lo <= players <= hi:
            raise CratesError(f"{name} is for {lo} to {hi} players, not {players}")
        knobs = dict(defaults)
        if family == CRATES and players != 4:
            knobs["partnerships"] = False
        for key, raw in overrides.items():
            if raw is None:
                continue
            if key not in KNOBS:
                raise CratesError(f"unknown knob {key!r}{did_you_mean(key, KNOBS)}; "
                                  f"knobs: {', '.join(KNOBS)}")
            if key not in knobs:
                raise CratesError(f"knob {key} does not apply to {name} "
                                  f"(a {FAMILY_TEXT[family]} preset)")
            knobs[key] = _parse_value(key, raw, KNOBS[key][1])
        rules = cls(name, players, knobs)
        rules._validate()
        return rules

    @classmethod
    def from_cli(cls, preset: str, players: int, partnerships: bool | None = None,
                 settings: tuple | list = ()) -> "Rules":
        """Build from command-line pieces: `--set name=value` strings and the partnerships flag."""
        overrides = {}
        for item in settings:
            if "=" not in item:
                raise CratesError(f"--set takes name=value, not {item!r}")
            key, value = item.split("=", 1)
            overrides[key.strip()] = value.strip()
        if partnerships is not None:
            if PRESETS.get(preset, (CRATES,))[0] != CRATES:
                raise CratesError(f"--partnerships does not apply to {preset}")
            overrides["partnerships"] = partnerships
        return cls.preset(preset, players, **overrides)

    @classmethod
    def from_spec(cls, spec: str, players: int) -> "Rules":
        """`classic` or `classic:seven_target=next,out_rule=immediate` (the balance syntax)."""
        name, _, rest = spec.partition(":")
        settings = [s for s in rest.split(",") if s.strip()] if rest else []
        return cls.from_cli(name.strip(), players, None, settings)

    def _validate(self):
        k = self.knobs
        if self.family == CRATES and k["partnerships"] and self.players != 4:
            raise CratesError(f"partnerships need 4 players, not {self.players}")
        if k["max_turns_per_hand"] < 1:
            raise CratesError("max_turns_per_hand must be at least 1")
        if self.family == CRATES:
            if not -1000 <= k["spare_three"] <= 1000:
                raise CratesError("spare_three must be between -1000 and 1000")
        else:
            if k["hand_size"] < 0 or k["hand_size"] > 20:
                raise CratesError("hand_size must be 0 (automatic) to 20")
            if k["target_score"] < 1:
                raise CratesError("target_score must be at least 1")
            if not 1 <= k["max_hands"] <= 10000:
                raise CratesError("max_hands must be 1 to 10000")
        deck = self.deck_size
        need = self.players * self.max_hand_size + 1
        if deck < need:
            raise CratesError(
                f"too few cards to deal: {self.players} players x {self.max_hand_size} cards + "
                f"the upcard need {need}, the deck has {deck} after removing {k['remove_ranks']}")

    # ----------------------------------------------------------------- reading
    @property
    def family(self) -> str:
        return PRESETS[self.preset_name][0]

    @property
    def partnerships(self) -> bool:
        return self.family == CRATES and bool(self.knobs["partnerships"])

    @property
    def deck_size(self) -> int:
        return 4 * (13 - len(self.knobs["remove_ranks"]))

    @property
    def hand_size(self) -> int:
        """Cards dealt in a Crazy Eights hand (the knob, or 7 for 2 players and 5 for more)."""
        size = self.knobs.get("hand_size", 0)
        return size if size else (7 if self.players == 2 else 5)

    @property
    def max_hand_size(self) -> int:
        return max(C.CRATES_HAND_SIZES) if self.family == CRATES else self.hand_size

    def to_dict(self) -> dict:
        """Every knob of the family with the value in force (the log's `rules` object)."""
        out = {}
        for key, value in self.knobs.items():
            if key == "hand_size":
                value = self.hand_size
            elif key == "first_dealer":
                value = 0 if value == "0" else "random"
            out[key] = value
        return out

    def differences(self) -> dict:
        """Knobs that differ from the preset's defaults."""
        base = Rules.preset(self.preset_name, self.players).to_dict()
        return {k: v for k, v in self.to_dict().items() if base.get(k) != v}

    def describe(self) -> str:
        diff = self.differences()
        extra = ",".join(f"{k}={v}" for k, v in diff.items())
        return f"{self.preset_name}:{extra}" if extra else self.preset_name

    def __hash__(self):
        return hash((self.preset_name, self.players, tuple(sorted(self.to_dict().items()))))

    def __eq__(self, other):
        return (isinstance(other, Rules) and self.preset_name == other.preset_name
                and self.players == other.players and self.to_dict() == other.to_dict())

    # ----------------------------------------------------------------- encoding
    def to_array(self) -> np.ndarray:
        """The int64 rules array of the kernels (layout and codes in `cards.py`)."""
        return C.encode_rules(self)
