"""The `crates` command group's error handling: every error is one line on stderr, exit 2.

Contract: a `CratesError` raised by a command and a click usage error (an unknown option,
a value out of its range, a bad choice) both print exactly one line, `Error: ...`; a usage
error's line ends with the command's help to read, e.g. `(crates simulate --help)`. A
SIGTERM stops a command as Ctrl-C does (`_sigterm_interrupts`). The shared options live in
`options`; `rules_options` is re-exported here for older imports.
"""

import signal
import threading
from contextlib import contextmanager

import click

from ..errors import CratesError
from .options import rules_options

__all__ = ["CratesGroup", "OneLineUsageError", "rules_options"]


class OneLineUsageError(click.UsageError):
    """A usage error shown as one line: `Error: MESSAGE (crates CMD --help)`."""

    def show(self, file=None):
        where = f" ({self.ctx.command_path} --help)" if self.ctx is not None else ""
        click.echo(f"Error: {self.format_message()}{where}", err=True, file=file)


def _one_line(exc: click.UsageError) -> OneLineUsageError:
    return OneLineUsageError(exc.format_message(), exc.ctx)


def _interrupt(_signum, _frame):
    raise KeyboardInterrupt


@contextmanager
def _sigterm_interrupts():
    """Inside the block a SIGTERM (`kill PID`, a batch scheduler's time limit) stops a
    command as Ctrl-C does: its workers stopped, its finished chunks kept, the manifest
    marked interrupted. Python's default would end the process at once and leave the
    workers running. Only the main thread can set a handler (elsewhere: unchanged)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class CratesGroup(click.Group):
    """A group whose commands turn `CratesError` into one line on stderr and exit 2, and
    whose usage errors (its own and its commands') are one line too."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except OneLineUsageError:
            raise
        except click.UsageError as exc:
            raise _one_line(exc) from None

    def invoke(self, ctx):
        try:
            with _sigterm_interrupts():
                return super().invoke(ctx)
        except CratesError as exc:
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(2)
        except OneLineUsageError:
            raise
        except click.UsageError as exc:
            raise _one_line(exc) from None
