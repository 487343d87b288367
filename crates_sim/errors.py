"""The one exception type that the command line turns into a one-line error, and the
"did you mean" hint every check of a name uses (`did_you_mean`)."""

import difflib

#: how alike a typo and a name must be to suggest it (difflib's ratio, 0..1)
CLOSE_ENOUGH = 0.6
#: at most this many suggestions
SUGGESTIONS = 2


class CratesError(ValueError):
    """Bad input from a user: unknown preset, knob or strategy, a bad value, a bad path."""


def did_you_mean(name, names) -> str:
    """`" (did you mean 'classic'?)"` for the names closest to a mistyped `name`
    (difflib), `""` when none is close: put it right after the name in an error text."""
    close = difflib.get_close_matches(str(name), [str(n) for n in names], n=SUGGESTIONS,
                                      cutoff=CLOSE_ENOUGH)
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"


__all__ = ["CratesError", "did_you_mean"]
