"""Runs: chunk planning (`runner`), local worker processes (`workers`,
`worker_preload`), Dask (`dask_backend`), the apprentice's expert iteration (`train`)
the training of adept's networks (`train_adept`), and `crates compile`'s warm-up of
numba's cache (`warm`).
"""
