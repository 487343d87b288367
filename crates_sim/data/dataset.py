"""The one dataset writer: Arrow tables, atomic Parquet files and manifest.json, reading back.

`crates simulate` (crates_sim.runs.runner), `crates compare` and `crates balance` (through
`DatasetWriter`) all write their datasets here. A dataset is a directory::

    DIR/manifest.json              what was run and the state of every chunk (crates_sim.data.manifest)
    DIR/games/chunk-000000.parquet one row per game x seat      (schema.GAME_COLUMNS)
    DIR/hands/chunk-000000.parquet one row per game x hand x seat (schema.HAND_COLUMNS)

In a rotated design (compare, balance) each chunk is one rotation's block of games and the
tables carry schema.ROTATED_GAME_COLUMNS / ROTATED_HAND_COLUMNS as well.

Every file - chunk or manifest - is complete or absent: it is written under a temporary
name in the same folder, flushed to disk and renamed into place (os.replace).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import CratesError
from . import manifest as mf
from .schema import GAME_COLUMNS, HAND_COLUMNS, REASONS, ROTATED_GAME_COLUMNS, ROTATED_HAND_COLUMNS

MANIFEST = "manifest.json"
GAMES, HANDS = "games", "hands"
TMP_MARK = ".tmp-"
#: Integer columns are written DELTA_BINARY_PACKED and snappy-compressed (bit-packed
#: differences: the per-seat numbers, or the rising game numbers of games/, pack into a few
#: bits a row), except HAND_PLAIN_COLUMNS of hands/: the game number (the same on a game's
#: 60 rows), the columns that are the same for every seat of a hand, and those that are
#: nearly always 0. Those are plain and LZ4-compressed (pyarrow writes the LZ4_RAW codec
#: for "lz4", whatever its metadata calls it): LZ4 finds their long
#: repeats, and plain writes and reads several times faster than delta. Dictionary pages
#: only for the categorical columns; min/max statistics only for the columns one filters a
#: dataset by. Measured on a 20,000-game classic chunk (1.2M hand rows), its hands/ file
#: written (fsync included) in 77-82 ms, 7.5 MB, read back by polars in 36 ms; with those
#: columns plain + snappy (the last version) 84-91 ms, 8.9 MB, 41-43 ms; every integer
#: column delta + snappy 108 ms, 7.3 MB, 59 ms. In memory (no file): byte-stream-split + LZ4
#: everywhere wrote in 60 ms but polars read it in 80; zstd -1 wrote in 159 ms (a chunk's
#: write is CPU time the run does not spend playing).
COMPRESSION = "snappy"
PLAIN_COMPRESSION = "lz4"
INT_ENCODING = "DELTA_BINARY_PACKED"
HAND_PLAIN_COLUMNS = frozenset({"game", "hand", "size", "dealer", "pos", "seat", "turns",
                                "moves", "choices", "options", "pressures", "pressure_points", "rotation", "entry", "team"})
#: the same for games/: the seat and team columns (a pattern of period players) and
#: capped_hands (nearly always 0). Measured on 20,000-game chunks' games/ files, CPU
#: of the write (fsync aside), min of 21: crazy-eights 5.37 -> 4.68 ms, classic 5.54 ->
#: 4.99, serbian 5.42 -> 4.92; sizes within 0.3%; read back by polars 10% faster
GAME_PLAIN_COLUMNS = frozenset({"seat", "team", "capped_hands"})
STATISTICS = ["game", "hand", "seat"]
#: Arrow hands the encoder this many rows at a time (its default, 1,024, costs a call per
#: column every 1,024 rows), and a file's row groups hold up to ROW_GROUP_ROWS rows (a
#: default chunk's 1.2M hand rows in one group, not two). Measured on a 20,000-game classic
#: chunk's hands/ file, in memory: written in 69 ms, not 75-77, the same 7.4 MB, and read
#: back by polars in 33 ms, not 45. To a file (fsync included), with Arrow's own file
#: (`_write_atomic`), interleaved on a busier day: 88-92 ms against 96-105.
WRITE_BATCH_ROWS = 65536
ROW_GROUP_ROWS = 4_000_000


def chunk_name(index: int) -> str:
    return f"chunk-{index:06d}.parquet"


def _arrow_type(dtype):
    if dtype == "category":
        return pa.dictionary(pa.int8(), pa.string())
    return pa.from_numpy_dtype(np.dtype(dtype))


def arrow_schema(columns: dict) -> pa.Schema:
    return pa.schema([pa.field(name, _arrow_type(dtype), nullable=False)
                      for name, dtype in columns.items()])


GAMES_SCHEMA = arrow_schema(GAME_COLUMNS)
HANDS_SCHEMA = arrow_schema(HAND_COLUMNS)
ROTATED_GAMES_SCHEMA = arrow_schema({**GAME_COLUMNS, **ROTATED_GAME_COLUMNS})
ROTATED_HANDS_SCHEMA = arrow_schema({**HAND_COLUMNS, **ROTATED_HAND_COLUMNS})


@dataclass(frozen=True)
class Seating:
    """One seating of a rotated design: what `games_table`/`hands_table` add to its rows."""

    rotation: int
    entries: tuple  # entry index of each seat (into the manifest's `entries`)
    specs: tuple  # strategy spec of each seat
    levels: tuple  # every spec of the design: the strategy dictionary of every chunk
    partnerships: bool


def _arrow(values: np.ndarray) -> pa.Array:
    """An Arrow array of a numeric or boolean numpy array (no nulls), built from its
    buffer. Not `pa.array`: that asks whether its argument is a pandas object, which
    imports pandas, and that cost every worker 0.25 s in its first chunk (measured)."""
    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:
        bits = pa.py_buffer(np.packbits(values, bitorder="little"))
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, bits])
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values),
                                 [None, pa.py_buffer(values)])


def _strings(texts) -> pa.Array:
    """An Arrow string array of `texts` (built from buffers, as `_arrow`)."""
    data = [t.encode("utf-8") for t in texts]
    offsets = np.zeros(len(data) + 1, dtype=np.int32)
    offsets[1:] = np.cumsum([len(b) for b in data])
    return pa.Array.from_buffers(pa.string(), len(data),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))])


def _numeric(name, values, dtype) -> pa.Array:
    values = np.asarray(values)
    target = np.dtype(dtype)
    if values.dtype != target:
        cast = values.astype(target)
        if not np.array_equal(cast, values):
            raise ValueError(f"column {name}: values do not fit {target}")
        values = cast
    return _arrow(values)


def _dictionary(codes, dictionary) -> pa.Array:
    return pa.DictionaryArray.from_arrays(_arrow(np.asarray(codes, dtype=np.int8)),
                                          _strings(list(dictionary)))


def _seat_columns(seat, seating: Seating, with_strategy: bool) -> list[pa.Array]:
    seat = np.asarray(seat, dtype=np.int64)
    entries = np.asarray(seating.entries, dtype=np.int8)
    arrays = [_arrow(np.full(len(seat), seating.rotation, dtype=np.int8)), _arrow(entries[seat])]
    if with_strategy:
        levels = list(seating.levels)
        codes = np.asarray([levels.index(s) for s in seating.specs], dtype=np.int8)[seat]
        team = (seat % 2) if seating.partnerships else seat
        arrays += [_dictionary(codes, levels), _arrow(team.astype(np.int8))]
    return arrays


def games_table(cols: dict, strategies: list[str], seating: Seating | None = None) -> pa.Table:
    """The engine's per-game x seat arrays as an Arrow table of GAMES_SCHEMA.

    'strategy' is dictionary-encoded with the run's distinct specs in seat order as the
    dictionary, so every chunk of a run carries the same dictionary. With a `seating` (a
    rotated design) the dictionary is `seating.levels` and the table is ROTATED_GAMES_SCHEMA.
    """
    levels = list(dict.fromkeys(seating.levels if seating is not None else strategies))
    code = {spec: i for i, spec in enumerate(levels)}
    arrays = []
    for name, dtype in GAME_COLUMNS.items():
        if name == "strategy":
            specs = np.asarray(cols[name], dtype=object)
            codes = np.full(len(specs), -1, dtype=np.int8)
            for spec, i in code.items():  # vectorised: a chunk has 10^5 rows, a run few specs
                codes[specs == spec] = i
            if (codes < 0).any():
                stray = specs[np.argmax(codes < 0)]
                raise ValueError(f"column strategy: {stray!r} is not a strategy of the run")
            arrays.append(_dictionary(codes, levels))
        else:
            arrays.append(_numeric(name, cols[name], dtype))
    if seating is not None:
        arrays += _seat_columns(cols["seat"], seating, with_strategy=False)
        return pa.Table.from_arrays(arrays, schema=ROTATED_GAMES_SCHEMA)
    return pa.Table.from_arrays(arrays, schema=GAMES_SCHEMA)


def hands_table(cols: dict, seating: Seating | None = None) -> pa.Table:
    """The engine's per-game x hand x seat arrays as an Arrow table of HANDS_SCHEMA
    (ROTATED_HANDS_SCHEMA with a `seating`)."""
    arrays = []
    for name, dtype in HAND_COLUMNS.items():
        if name == "reason":
            codes = np.asarray(cols[name])
            if len(codes) and (codes.min() < 0 or codes.max() >= len(REASONS)):
                raise ValueError("column reason: code outside schema.REASONS")
            arrays.append(_dictionary(codes, REASONS))
        else:
            arrays.append(_numeric(name, cols[name], dtype))
    if seating is not None:
        arrays += _seat_columns(cols["seat"], seating, with_strategy=True)
        return pa.Table.from_arrays(arrays, schema=ROTATED_HANDS_SCHEMA)
    return pa.Table.from_arrays(arrays, schema=HANDS_SCHEMA)


def tmp_path(path: Path) -> Path:
    """A temporary name beside `path`, hidden (leading dot) so dataset readers skip it."""
    return path.with_name(f".{path.name}{TMP_MARK}{uuid.uuid4().hex[:12]}")


def is_tmp(name: str) -> bool:
    return name.startswith(".") and TMP_MARK in name


def _write_atomic(path: Path, mode: str, write) -> None:
    """Call write(fh) on a temporary file beside `path`, fsync, rename it over `path`;
    on any error the temporary file is removed and the error re-raised. Mode "arrow": fh
    is Arrow's own file (`pa.OSFile`), whose writes do not pass through Python (measured:
    a 7.5 MB hands/ file written 6 ms sooner, with 5-7 ms less CPU)."""
    path = Path(path)
    tmp = tmp_path(path)
    try:
        if mode == "arrow":
            fh = pa.OSFile(str(tmp), "wb")
        else:
            fh = open(tmp, mode, **({} if "b" in mode else {"encoding": "utf-8"}))
        with fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_parquet_atomic(table: pa.Table, path: Path, plain=frozenset()) -> None:
    """Write `table` to `path` so that `path` is either absent or complete (the file is
    written as `.<name>.tmp-<random>` beside `path`, fsynced and renamed). Integer columns
    are delta-encoded and snappy-compressed, but those named in `plain`: plain and LZ4."""
    dictionary = [f.name for f in table.schema if pa.types.is_dictionary(f.type)]
    plain = {f.name for f in table.schema if pa.types.is_integer(f.type) and f.name in plain}
    encoding = {f.name: INT_ENCODING for f in table.schema
                if pa.types.is_integer(f.type) and f.name not in plain}
    compression = {name: PLAIN_COMPRESSION if name in plain else COMPRESSION
                   for name in table.schema.names}
    statistics = [name for name in STATISTICS if name in table.schema.names]

    def write(fh):
        pq.write_table(table, fh, compression=compression, use_dictionary=dictionary,
                       column_encoding=encoding, write_statistics=statistics,
                       write_batch_size=WRITE_BATCH_ROWS, row_group_size=ROW_GROUP_ROWS)

    _write_atomic(path, "arrow", write)


def write_json_atomic(data: dict, path: Path) -> None:
    """Write `data` as JSON to `path` atomically (temporary file, fsync, rename)."""

    def write(fh):
        json.dump(data, fh, indent=1)
        fh.write("\n")

    _write_atomic(path, "w", write)


def write_chunk(out, index: int, games: pa.Table, hands: pa.Table | None = None) -> dict:
    """Write chunk `index` of the dataset in `out` (hands/ first, then games/, each atomic,
    so a games file implies its hands file); return its row counts for the manifest."""
    out = Path(out)
    stats = {"game_rows": games.num_rows}
    if hands is not None:
        (out / HANDS).mkdir(parents=True, exist_ok=True)
        write_parquet_atomic(hands, out / HANDS / chunk_name(index), plain=HAND_PLAIN_COLUMNS)
        stats["hand_rows"] = hands.num_rows
    (out / GAMES).mkdir(parents=True, exist_ok=True)
    write_parquet_atomic(games, out / GAMES / chunk_name(index), plain=GAME_PLAIN_COLUMNS)
    return stats


def write_manifest(m: dict, out) -> None:
    """Write manifest.json of the dataset in `out` atomically, after checking its keys."""
    missing = [k for k in mf.KEYS if k not in m]
    if missing:
        raise ValueError(f"manifest lacks {', '.join(missing)}")
    write_json_atomic(m, Path(out) / MANIFEST)


def missing_folders(path) -> list[Path]:
    """`path` and its parents that do not exist yet, deepest first (what making it makes)."""
    made = []
    path = Path(path).absolute()
    while not path.exists() and path.parent != path:
        made.append(path)
        path = path.parent
    return made


def discard_empty(out, made) -> None:
    """Undo a dataset that never got a chunk: remove `out`'s manifest and its empty
    games/ and hands/, then each folder of `made` (missing_folders before `out` was
    made) that is empty. A chunk file found there (one a worker wrote as the run failed)
    keeps it all, manifest too, for a rerun to resume; anything else found is kept."""
    out = Path(out)
    if any(any((out / part).iterdir()) for part in (GAMES, HANDS) if (out / part).is_dir()):
        return
    try:
        (out / MANIFEST).unlink(missing_ok=True)
    except OSError:
        return
    for folder in (out / HANDS, out / GAMES, *made):
        try:
            folder.rmdir()
        except OSError:  # not empty, or gone: keep what is there
            pass


class DatasetWriter:
    """A dataset that a command other than `crates simulate` fills chunk by chunk.

    `DatasetWriter(out, ident, rules_spec, command)` creates `out` (refusing one that holds
    chunk files) with a manifest of status running; `add_chunks` plans chunks (their numbers
    name the files that `write_chunk` writes, in workers or here), `done` records a finished
    chunk and rewrites the manifest, `close` records the end. As a context manager, an
    error or Ctrl-C leaves the manifest with status failed / interrupted.
    """

    def __init__(self, out, ident: dict, rules_spec: str, command: str, backend: str = "inline",
                 workers: int = 1):
        self.out = Path(out)
        self.made = missing_folders(self.out)  # removed again by a failure before any chunk
        for part in (GAMES, HANDS):
            if (self.out / part).is_dir() and any(self.out.joinpath(part).glob("*.parquet")):
                raise CratesError(f"{self.out} already holds a dataset: give another --out")
        self.t0 = time.perf_counter()
        self.m = mf.new_manifest(ident, rules_spec, 0, [], command)
        self.run = mf.new_run(backend, workers, invoked_as=shlex.join(sys.argv))
        self.m["runs"].append(self.run)
        try:
            (self.out / GAMES).mkdir(parents=True, exist_ok=True)
            if ident["detail"] == "hands":
                (self.out / HANDS).mkdir(exist_ok=True)
            self.save()
        except OSError as exc:
            raise CratesError(f"cannot write the dataset: {exc.filename or self.out}: "
                              f"{exc.strerror or exc}") from None

    def add_chunks(self, plan) -> list[int]:
        """Plan chunks (first game, games[, rotation]); return their numbers."""
        first = len(self.m["chunks"])
        for i, p in enumerate(plan):
            self.m["chunks"].append(mf.chunk_record(first + i, *p))
            self.m["chunk_size"] = max(self.m["chunk_size"], int(p[1]))
            self.m["games"] = max(self.m["games"], int(p[0]) + int(p[1]))
        return list(range(first, len(self.m["chunks"])))

    def done(self, index: int, stats: dict) -> None:
        chunk = self.m["chunks"][index]
        chunk.update(stats)
        chunk["state"] = "done"
        self.run["chunks_run"] += 1
        self.run["games_run"] += chunk["games"]
        self.save()

    def save(self) -> None:
        self.run["wall_seconds"] = round(time.perf_counter() - self.t0, 3)
        self.run["ended"] = mf.now()
        mf.totals(self.m)
        write_manifest(self.m, self.out)

    def close(self, status: str = "complete") -> None:
        """Record the end; a failure before any chunk was done leaves nothing behind (the
        manifest, the empty chunk folders and the folders made for them are removed)."""
        if status == "failed" and not any(c.get("state") == "done" for c in self.m["chunks"]):
            self.m["status"] = status
            discard_empty(self.out, self.made)
            return
        self.run["status"] = status
        self.m["status"] = status
        if status == "complete":
            self.m["finished"] = mf.now()
        self.save()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if self.m["status"] == "running":
            status = ("complete" if exc_type is None else
                      "interrupted" if issubclass(exc_type, KeyboardInterrupt) else "failed")
            try:
                self.close(status)
            except OSError:
                if exc_type is None:
                    raise
        return False


def parquet_rows(path: Path) -> int | None:
    """Rows in a Parquet file according to its footer, or None if it is missing or unreadable."""
    try:
        return pq.read_metadata(path).num_rows
    except (OSError, pa.ArrowException):
        return None


def read_manifest(path) -> dict:
    """The manifest of the dataset in directory `path`, in the current schema
    (`manifest.upgrade`); a missing, unreadable or foreign one is a one-line CratesError."""
    path = Path(path)
    try:
        with open(path / MANIFEST, encoding="utf-8") as fh:
            m = json.load(fh)
    except FileNotFoundError:
        raise CratesError(f"{path} is not a crates-sim dataset (no {MANIFEST})") from None
    except (OSError, ValueError) as exc:
        raise CratesError(f"cannot read {path / MANIFEST}: {exc}") from None
    return mf.upgrade(m, path / MANIFEST)


class Dataset:
    """A dataset on disk (made by simulate, compare or balance: manifest['made_by']).

    `Dataset(path)` opens one that `crates simulate` (or `crates_sim.simulate`) wrote.

    Attributes:
        path: the directory.
        manifest: the parsed manifest.json (rules, strategies, seed, chunks, timing).
        games: polars LazyFrame over games/ (one row per game x seat).
        hands: polars LazyFrame over hands/ (one row per game x hand x seat); raises
            CratesError for a run made with detail="games".
    """

    def __init__(self, path):
        self.path = Path(path)
        self.manifest = read_manifest(self.path)

    @property
    def complete(self) -> bool:
        return self.manifest.get("status") == "complete"

    def _scan(self, part):
        import polars as pl

        return pl.scan_parquet(str(self.path / part / "*.parquet"))

    @property
    def games(self):
        return self._scan(GAMES)

    @property
    def hands(self):
        if self.manifest.get("detail") != "hands":
            raise CratesError(f"{self.path} was simulated with detail=games: it has no hands/")
        return self._scan(HANDS)

    def __repr__(self):
        m = self.manifest
        return (f"Dataset({str(self.path)!r}: {m.get('games')} games of {m.get('rules_spec')}, "
                f"{m.get('players')} players, strategies {','.join(m.get('strategies', []))}, "
                f"seed {m.get('seed')}, {m.get('status')})")
