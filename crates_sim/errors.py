"""The one exception type that the command line turns into a one-line error."""


class CratesError(ValueError):
    """Bad input from a user: unknown preset, knob or strategy, a bad value, a bad path."""
