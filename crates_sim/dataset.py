"""The dataset that `crates simulate` writes: Arrow tables, atomic Parquet files, reading back.

A dataset is a directory::

    DIR/manifest.json              what was run and the state of every chunk
    DIR/games/chunk-000000.parquet one row per game x seat      (schema.GAME_COLUMNS)
    DIR/hands/chunk-000000.parquet one row per game x hand x seat (schema.HAND_COLUMNS)

Each chunk file is complete or absent: it is written under a temporary name in the same
folder, flushed to disk and renamed into place.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .errors import CratesError
from .schema import GAME_COLUMNS, HAND_COLUMNS, REASONS

MANIFEST = "manifest.json"
GAMES, HANDS = "games", "hands"
TMP_MARK = ".tmp-"
COMPRESSION = "zstd"
#: zstd level 1: measured on a 20,000-game chunk, 19 ms and 412 KB against level 3's
#: 27 ms and 399 KB (a chunk's write is on the run's critical path)
COMPRESSION_LEVEL = 1


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


def _numeric(name, values, dtype) -> pa.Array:
    values = np.asarray(values)
    target = np.dtype(dtype)
    if values.dtype != target:
        cast = values.astype(target)
        if not np.array_equal(cast, values):
            raise ValueError(f"column {name}: values do not fit {target}")
        values = cast
    return pa.array(values, type=pa.from_numpy_dtype(target))


def _dictionary(codes, dictionary) -> pa.Array:
    return pa.DictionaryArray.from_arrays(pa.array(np.asarray(codes, dtype=np.int8)),
                                          pa.array(list(dictionary), type=pa.string()))


def games_table(cols: dict, strategies: list[str]) -> pa.Table:
    """The engine's per-game x seat arrays as an Arrow table of GAMES_SCHEMA.

    'strategy' is dictionary-encoded with the run's distinct specs in seat order as the
    dictionary, so every chunk of a run carries the same dictionary.
    """
    levels = list(dict.fromkeys(strategies))
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
    return pa.Table.from_arrays(arrays, schema=GAMES_SCHEMA)


def hands_table(cols: dict) -> pa.Table:
    """The engine's per-game x hand x seat arrays as an Arrow table of HANDS_SCHEMA."""
    arrays = []
    for name, dtype in HAND_COLUMNS.items():
        if name == "reason":
            codes = np.asarray(cols[name])
            if len(codes) and (codes.min() < 0 or codes.max() >= len(REASONS)):
                raise ValueError("column reason: code outside schema.REASONS")
            arrays.append(_dictionary(codes, REASONS))
        else:
            arrays.append(_numeric(name, cols[name], dtype))
    return pa.Table.from_arrays(arrays, schema=HANDS_SCHEMA)


def tmp_path(path: Path) -> Path:
    """A temporary name beside `path`, hidden (leading dot) so dataset readers skip it."""
    return path.with_name(f".{path.name}{TMP_MARK}{uuid.uuid4().hex[:12]}")


def is_tmp(name: str) -> bool:
    return name.startswith(".") and TMP_MARK in name


def _write_atomic(path: Path, mode: str, write) -> None:
    """Call write(fh) on a temporary file beside `path`, fsync, rename it over `path`;
    on any error the temporary file is removed and the error re-raised."""
    path = Path(path)
    tmp = tmp_path(path)
    try:
        with open(tmp, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as fh:
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


def write_parquet_atomic(table: pa.Table, path: Path) -> None:
    """Write `table` to `path` so that `path` is either absent or complete (the file is
    written as `.<name>.tmp-<random>` beside `path`, fsynced and renamed)."""
    def write(fh):
        pq.write_table(table, fh, compression=COMPRESSION, compression_level=COMPRESSION_LEVEL)

    _write_atomic(path, "wb", write)


def write_json_atomic(data: dict, path: Path) -> None:
    """Write `data` as JSON to `path` atomically (temporary file, fsync, rename)."""

    def write(fh):
        json.dump(data, fh, indent=1)
        fh.write("\n")

    _write_atomic(path, "w", write)


def parquet_rows(path: Path) -> int | None:
    """Rows in a Parquet file according to its footer, or None if it is missing or unreadable."""
    try:
        return pq.read_metadata(path).num_rows
    except (OSError, pa.ArrowException):
        return None


class Dataset:
    """A simulation dataset on disk.

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
        try:
            with open(self.path / MANIFEST, encoding="utf-8") as fh:
                self.manifest = json.load(fh)
        except FileNotFoundError:
            raise CratesError(f"{self.path} is not a crates-sim dataset (no {MANIFEST})") from None
        except (OSError, ValueError) as exc:
            raise CratesError(f"cannot read {self.path / MANIFEST}: {exc}") from None

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
