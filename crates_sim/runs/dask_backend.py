"""Running chunks on a Dask cluster (`--scheduler tcp://HOST:PORT` or `--scheduler local:K`).

Each chunk is one Dask task: `run_chunk(task)` runs the numba kernels on a worker and
writes the chunk's Parquet files into the output directory, which must be one path that
every worker can write (a shared file system). The client only receives the chunk's
counts, keeps the manifest, and updates the progress bar as tasks finish. A task whose
worker dies is rescheduled by the scheduler (up to distributed.scheduler.allowed-failures
times); a task that raises is retried `RETRIES` times.

`distributed` is an optional dependency: `pip install 'crates-sim[dask]'`.
"""

from __future__ import annotations

import logging
import re
import signal
import socket
import uuid

from ..errors import CratesError
from .workers import RunFailed, available_cpus, main_hidden

#: Seconds to wait for an existing scheduler before giving up.
CONNECT_TIMEOUT = 5
#: Retries of a chunk whose function raised (a dead worker is handled by the scheduler).
RETRIES = 2
INSTALL = "the Dask backend needs the optional extra: pip install 'crates-sim[dask]'"
#: The largest first message (bytes) a Dask scheduler's handshake announces; its real one is
#: under 1 KiB. Dask reads a peer's first 8 bytes as a length and allocates that much: the
#: "HTTP/1.1" of a web server (say the dashboard's port) is 3.5e18, numpy's "Unable to
#: allocate 3.07 EiB".
MAX_HANDSHAKE = 1 << 20


def parse_scheduler(text: str):
    """('local', K) for local:K, ('remote', address) for tcp://HOST:PORT (and tls://, ...)."""
    text = text.strip()
    m = re.fullmatch(r"local(?::(\d+))?", text)
    if m:
        k = int(m.group(1)) if m.group(1) else None
        if k is not None and k < 1:
            raise CratesError(f"--scheduler local:K needs K >= 1, not {k}")
        return "local", k
    if re.fullmatch(r"(tcp|tls|ucx|ws|wss|inproc)://\S+", text):
        return "remote", text
    if re.fullmatch(r"[\w.-]+:\d+", text):
        return "remote", f"tcp://{text}"
    raise CratesError(f"--scheduler takes tcp://HOST:PORT or local:K, not {text!r}")


def check_scheduler(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Refuse, with one line, a tcp:// address that is not a Dask scheduler answering.

    A Dask scheduler speaks first: on a new connection it sends its handshake, whose first
    8 bytes are its length (little-endian). This opens one connection, reads those 8 bytes
    (at most `timeout` s for each step) and closes it. Refused: no connection (nothing
    listens, or the host cannot be reached), a peer that says nothing (Dask's own client
    would wait for it forever) and a peer that says something else (a web server: Dask's
    client would read its text as a length and try to allocate exabytes). Other schemes
    (tls://, ucx:// ...) are left to Dask.
    """
    m = re.fullmatch(r"tcp://\[?([^\]/]+?)\]?:(\d+)/?", address)
    if not m:
        return
    host, port = m.group(1), int(m.group(2))
    try:
        conn = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        why = "timed out" if isinstance(exc, TimeoutError) else (exc.strerror or type(exc).__name__)
        raise CratesError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                          f"({why}): is `dask scheduler` running there?") from None
    head = b""
    with conn:
        try:
            conn.settimeout(timeout)
            while len(head) < 8:
                more = conn.recv(8 - len(head))
                if not more:
                    break
                head += more
        except OSError:
            pass
    if len(head) < 8:
        raise CratesError(f"{address} accepts connections but sends no Dask handshake within "
                          f"{timeout:g} s: is it a Dask scheduler's port (8786 by default)?")
    if int.from_bytes(head, "little") > MAX_HANDSHAKE:
        raise CratesError(f"{address} answers, but not as a Dask scheduler (it sent {head!r}): "
                          f"is it the dashboard or another server? The scheduler's port is 8786 "
                          f"by default")


def dask_setup(worker):
    """Worker preload for `local:K` clusters: Ctrl-C at the terminal is the client's to handle.

    The worker processes share the terminal's process group; without this each would print
    a KeyboardInterrupt traceback while the client is already stopping the run cleanly.
    """
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # pragma: no cover - not the main thread
        pass


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise CratesError(INSTALL) from None
    return distributed


class DaskBackend:
    """Context manager: connect (or start a LocalCluster) on enter, close on exit."""

    name = "dask"

    def __init__(self, scheduler: str):
        self.kind, self.target = parse_scheduler(scheduler)
        self.scheduler = scheduler
        self.distributed = _import_distributed()
        self.cluster = None
        self.client = None
        self.futures = []
        self.workers = 1

    def __enter__(self):
        d = self.distributed
        if self.kind == "local":
            n = self.target or available_cpus()
            try:
                # The workers start while main is hidden: they import no main script, so a
                # script without an `if __name__ == "__main__":` guard works here too.
                with main_hidden():
                    self.cluster = d.LocalCluster(n_workers=n, threads_per_worker=1,
                                                  processes=True, dashboard_address=None,
                                                  silence_logs=logging.ERROR, preload=[__name__])
                self.client = d.Client(self.cluster)
            except Exception as exc:
                self.__exit__(None, None, None)
                raise CratesError(f"cannot start a local Dask cluster of {n} workers: {exc}") from None
        else:
            check_scheduler(self.target)
            try:
                self.client = d.Client(self.target, timeout=CONNECT_TIMEOUT)
            except MemoryError:  # answered between the check and here with something else
                raise CratesError(f"{self.target} answers, but not as a Dask scheduler: is it "
                                  f"the scheduler's port (8786 by default)?") from None
            except (OSError, TimeoutError) as exc:
                raise CratesError(
                    f"cannot reach the Dask scheduler at {self.target} within {CONNECT_TIMEOUT} s "
                    f"({type(exc).__name__}): is `dask scheduler` running there?") from None
        self.workers = max(1, sum(self.client.nthreads().values()))
        self.name = f"dask {self.scheduler}"
        return self

    def run(self, fn, tasks):
        d = self.distributed
        tasks = list(tasks)
        run_id = uuid.uuid4().hex[:8]
        by_key = {}
        self.futures = []  # this run's only: a backend may run many batches (`crates tune`)
        for i, task in enumerate(tasks):
            index = getattr(task, "index", i)
            fut = self.client.submit(fn, task, key=f"crates-chunk-{index:06d}-{run_id}",
                                     retries=RETRIES, pure=False)
            by_key[fut.key] = task
            self.futures.append(fut)
        try:
            for fut in d.as_completed(list(self.futures)):
                result = fut.result()
                yield by_key[fut.key], result
                fut.release()
        except d.KilledWorker as exc:
            raise RunFailed(f"a chunk killed its Dask worker repeatedly (out of memory?): {exc}") from None

    def abort(self):
        if self.client is not None and self.futures:
            try:
                self.client.cancel(self.futures)
            except Exception:  # pragma: no cover - best effort while shutting down
                pass

    def __exit__(self, exc_type, *exc):
        if exc_type is not None:
            self.abort()
        for thing in (self.client, self.cluster):
            if thing is not None:
                try:
                    thing.close()
                except Exception:  # pragma: no cover - best effort while shutting down
                    pass
        self.client = self.cluster = None
        return False
