"""What a run writes and reads: Parquet datasets (`dataset`), their manifest
(`manifest`), the column schemas (`schema`), the progress bar (`progress`), and where
numba caches the kernels (`_cache`), and the cores a run may use (`machine`).
"""
