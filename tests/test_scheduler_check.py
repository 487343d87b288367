"""A --scheduler that is not a Dask scheduler answering: one line, exit 2 (issue 32 §4).

Contract: `crates sweep` and `crates tune` given a tcp:// address where nothing listens,
where a peer accepts and says nothing, or where a web server answers, stop with one
`Error:` line naming the address: no traceback, no hang, and no numpy ArrayMemoryError
(Dask's client reads a web server's "HTTP/1.1" as an 8-byte length: 3.07 EiB). Every peer
here is a thread of this test on the loopback; nothing beyond it is contacted.
"""

from __future__ import annotations

import socket
import threading

import pytest
from click.testing import CliRunner

from crates_sim.cli.main import cli
from crates_sim.runs import dask_backend

pytest.importorskip("distributed")


class Peer:
    """A loopback TCP server in a thread: `silent` accepts and says nothing; `http`
    answers whatever it is sent with an HTTP 400, as a web server does."""

    def __init__(self, kind: str):
        self.kind = kind
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.stop = threading.Event()
        self.conns = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.conns.append(conn)
            if self.kind == "http":
                threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    @staticmethod
    def _answer(conn):
        try:
            conn.settimeout(10)
            if conn.recv(1024):
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        except OSError:
            pass

    def close(self):
        self.stop.set()
        self.thread.join()
        for conn in self.conns:
            conn.close()
        self.sock.close()


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1)
    monkeypatch.setattr(dask_backend.check_scheduler, "__defaults__", (1,))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


COMMANDS = {
    "sweep": ["sweep", "keep3:three=-100..100:3", "--against", "greedy", "-g", "4"],
    "tune": ["tune", "keep3", "--against", "greedy", "--budget", "2", "--games", "4",
             "--validate-games", "4"],
}


def _one_line(args, tmp_path, *phrases):
    result = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "allocate" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for phrase in phrases:
        assert phrase in lines[0], lines[0]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", ["http", "silent"])
def test_a_peer_that_is_not_a_scheduler(command, kind, tmp_path, quick, monkeypatch):
    peer = Peer(kind)
    try:
        address = f"tcp://127.0.0.1:{peer.port}"
        _one_line([*COMMANDS[command], "--scheduler", address], tmp_path, address,
                  "sends no Dask handshake")
        if kind == "http":
            # a web server speaks only when spoken to, so the check refuses it as silent;
            # without the check, Dask's own client meets its "HTTP/1.1" (3.07 EiB)
            monkeypatch.setattr(dask_backend, "check_scheduler", lambda *a, **k: None)
            _one_line([*COMMANDS[command], "--scheduler", address], tmp_path, address,
                      "not as a Dask scheduler")
    finally:
        peer.close()


@pytest.mark.parametrize("command", COMMANDS)
def test_nothing_listening(command, tmp_path, quick):
    address = f"tcp://127.0.0.1:{_free_port()}"
    _one_line([*COMMANDS[command], "--scheduler", address], tmp_path, "cannot reach", address)


def test_a_real_scheduler_passes_the_check():
    distributed = pytest.importorskip("distributed")
    import logging

    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None, silence_logs=logging.ERROR) as cluster:
        dask_backend.check_scheduler(cluster.scheduler_address, timeout=5)
