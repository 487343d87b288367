"""Runs: chunk planning (`runner`), local worker processes (`workers`,
`worker_preload`), Dask (`dask_backend`), and the apprentice's expert iteration
(`train`).
"""
