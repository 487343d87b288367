"""What a run writes and reads: Parquet datasets (`dataset`), the manifest, the column
schema, progress, and where numba caches the kernels (`_cache`).
"""
